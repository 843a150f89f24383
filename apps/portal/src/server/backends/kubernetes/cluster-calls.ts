import 'server-only';

/**
 * Every call the portal makes to the Kubernetes API, in one table. The cluster client
 * (cluster-client.ts) has exactly one method per entry, and the RBAC test derives the portal's
 * permissions from this table (the ClusterRole from the cluster-wide calls, a Role per namespace
 * from the namespaced ones), so code and permissions cannot drift apart.
 */

export interface ClusterResource {
  /** API group; "" is the core group. */
  group: string;
  version: string;
  /** Resource plural, as RBAC names it. */
  resource: string;
  /** The one namespace the portal reads this resource in (a Role there); absent: cluster-wide. */
  namespace?: string;
}

export interface ClusterCall extends ClusterResource {
  /** The RBAC verb the API server checks for this call. */
  verb: 'get' | 'list' | 'watch' | 'create' | 'patch' | 'delete';
  /** What the portal was doing, for error messages. */
  purpose: string;
}

export const ACCOUNTS: ClusterResource = {
  group: 'storage.azure.upbound.io',
  version: 'v1beta1',
  resource: 'accounts',
};
export const RESOURCE_GROUPS: ClusterResource = {
  group: 'azure.upbound.io',
  version: 'v1beta1',
  resource: 'resourcegroups',
};
/**
 * Kubernetes records the events of a cluster-scoped object (an Account) in the "default"
 * namespace, so the portal reads events there only, never across every namespace.
 */
export const EVENTS_NAMESPACE = 'default';
export const EVENTS: ClusterResource = { group: '', version: 'v1', resource: 'events', namespace: EVENTS_NAMESPACE };

export const CLUSTER_CALLS = {
  // The watch-fed cache (cluster-cache.ts) lists each collection once, then follows it with a watch.
  listAccounts: { ...ACCOUNTS, verb: 'list', purpose: 'list storage accounts' },
  watchAccounts: { ...ACCOUNTS, verb: 'watch', purpose: 'watch storage accounts' },
  getAccount: { ...ACCOUNTS, verb: 'get', purpose: 'read the storage account' },
  createAccount: { ...ACCOUNTS, verb: 'create', purpose: 'create the storage account' },
  // A server-side dry run is authorised as the create it simulates.
  dryRunCreateAccount: { ...ACCOUNTS, verb: 'create', purpose: 'validate the storage account' },
  // Deletion first records who asked on the object (a merge patch of annotations).
  annotateAccount: { ...ACCOUNTS, verb: 'patch', purpose: 'record the deletion request on the storage account' },
  deleteAccount: { ...ACCOUNTS, verb: 'delete', purpose: 'delete the storage account' },
  // Changes in place are merge patches that carry metadata.resourceVersion (409 when stale).
  changeAccount: { ...ACCOUNTS, verb: 'patch', purpose: 'change the storage account' },
  dryRunChangeAccount: { ...ACCOUNTS, verb: 'patch', purpose: 'validate the change of the storage account' },
  // Resync touches Crossplane's reconcile-request annotation.
  requestReconcile: { ...ACCOUNTS, verb: 'patch', purpose: 'ask Crossplane to reconcile the storage account' },
  listResourceGroups: { ...RESOURCE_GROUPS, verb: 'list', purpose: 'list resource groups' },
  watchResourceGroups: { ...RESOURCE_GROUPS, verb: 'watch', purpose: 'watch resource groups' },
  listAccountEvents: { ...EVENTS, verb: 'list', purpose: 'list events of the storage account' },
} as const satisfies Record<string, ClusterCall>;

export type ClusterCallName = keyof typeof CLUSTER_CALLS;
