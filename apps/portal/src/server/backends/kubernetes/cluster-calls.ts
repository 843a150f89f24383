import 'server-only';
import type { AccountScope } from '@/lib/platform/account-scope';

/**
 * Every call the portal makes to the Kubernetes API, in one table. The cluster client
 * (cluster-client.ts) has exactly one method per entry, and the RBAC tests derive the portal's
 * permissions from this table (the ClusterRole from the cluster-wide calls, a Role per namespace
 * from the namespaced ones, the team ClusterRole of the namespaced manifests from the team calls),
 * so code and permissions cannot drift apart. There is one table per account scope.
 */

export interface ClusterResource {
  /** API group; "" is the core group. */
  group: string;
  version: string;
  /** Resource plural, as RBAC names it. */
  resource: string;
  /** The one namespace the portal reads this resource in (a Role there); absent: cluster-wide. */
  namespace?: string;
  /** In the namespace of the object it is about, granted per team namespace (namespaced scope). */
  team?: true;
}

export interface ClusterCall extends ClusterResource {
  /** The RBAC verb the API server checks for this call. */
  verb: 'get' | 'list' | 'watch' | 'create' | 'patch' | 'delete';
  /** What the portal was doing, for error messages. */
  purpose: string;
}

/** Crossplane v1 (PORTAL_ACCOUNT_SCOPE=cluster): cluster-scoped Accounts and ResourceGroups. */
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

/**
 * Crossplane v2 (PORTAL_ACCOUNT_SCOPE=namespaced): Accounts and ResourceGroups in team namespaces,
 * each Account's events in its own namespace. The cache still lists and watches across namespaces;
 * every call about one Account acts in that Account's namespace (`team`: granted per namespace).
 */
export const NAMESPACED_ACCOUNTS: ClusterResource = {
  group: 'storage.azure.m.upbound.io',
  version: 'v1beta1',
  resource: 'accounts',
};
export const NAMESPACED_RESOURCE_GROUPS: ClusterResource = {
  group: 'azure.m.upbound.io',
  version: 'v1beta1',
  resource: 'resourcegroups',
};
const TEAM_EVENTS: ClusterResource = { group: '', version: 'v1', resource: 'events', team: true };

const call = (resource: ClusterResource, verb: ClusterCall['verb'], purpose: string): ClusterCall => ({
  ...resource,
  verb,
  purpose,
});

function callTable(accounts: ClusterResource, resourceGroups: ClusterResource, events: ClusterResource) {
  // In namespaced scope a call about one Account acts in its team namespace.
  const account: ClusterResource = events.team ? { ...accounts, team: true } : accounts;
  return {
    // The watch-fed cache (cluster-cache.ts) lists each collection once, then follows it with a watch.
    listAccounts: call(accounts, 'list', 'list storage accounts'),
    watchAccounts: call(accounts, 'watch', 'watch storage accounts'),
    getAccount: call(account, 'get', 'read the storage account'),
    createAccount: call(account, 'create', 'create the storage account'),
    // A server-side dry run is authorised as the create it simulates.
    dryRunCreateAccount: call(account, 'create', 'validate the storage account'),
    // Deletion first records who asked on the object (a merge patch of annotations).
    annotateAccount: call(account, 'patch', 'record the deletion request on the storage account'),
    deleteAccount: call(account, 'delete', 'delete the storage account'),
    // Changes in place are merge patches that carry metadata.resourceVersion (409 when stale).
    changeAccount: call(account, 'patch', 'change the storage account'),
    dryRunChangeAccount: call(account, 'patch', 'validate the change of the storage account'),
    // Resync touches Crossplane's reconcile-request annotation.
    requestReconcile: call(account, 'patch', 'ask Crossplane to reconcile the storage account'),
    listResourceGroups: call(resourceGroups, 'list', 'list resource groups'),
    watchResourceGroups: call(resourceGroups, 'watch', 'watch resource groups'),
    listAccountEvents: call(events, 'list', 'list events of the storage account'),
  };
}

export const CLUSTER_CALLS = callTable(ACCOUNTS, RESOURCE_GROUPS, EVENTS);
export const NAMESPACED_CALLS = callTable(NAMESPACED_ACCOUNTS, NAMESPACED_RESOURCE_GROUPS, TEAM_EVENTS);

export type ClusterCallTable = typeof CLUSTER_CALLS;
export type ClusterCallName = keyof ClusterCallTable;

/** The calls of this account scope. */
export function clusterCalls(scope: AccountScope): ClusterCallTable {
  return scope.kind === 'namespaced' ? NAMESPACED_CALLS : CLUSTER_CALLS;
}
