/**
 * The resources this stand-in serves and the discovery documents that describe them.
 * Two Crossplane managed resources of the Upbound Azure providers, each in its cluster-scoped (v1
 * provider) and its namespaced form (Crossplane v2's `.m.` groups), and core/v1 events and namespaces.
 */

export interface ResourceDef {
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  /** spec.forProvider parameters that the provider's CRD marks required (x-kubernetes-validations). */
  requiredParameters: string[];
  /** spec.forProvider parameters whose schema type the stand-in checks. */
  parameterTypes: Record<string, 'string' | 'boolean' | 'number' | 'object' | 'array'>;
}

/** The verbs the stand-in really serves for a managed resource; discovery advertises exactly these. */
const MANAGED_VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

export const ACCOUNTS: ResourceDef = {
  group: 'storage.azure.upbound.io',
  version: 'v1beta1',
  plural: 'accounts',
  singular: 'account',
  kind: 'Account',
  namespaced: false,
  verbs: MANAGED_VERBS,
  categories: ['crossplane', 'managed', 'azure'],
  requiredParameters: ['accountReplicationType', 'accountTier', 'location'],
  parameterTypes: {
    accountKind: 'string',
    accountReplicationType: 'string',
    accountTier: 'string',
    accessTier: 'string',
    location: 'string',
    resourceGroupName: 'string',
    minTlsVersion: 'string',
    httpsTrafficOnlyEnabled: 'boolean',
    allowNestedItemsToBePublic: 'boolean',
    crossTenantReplicationEnabled: 'boolean',
    infrastructureEncryptionEnabled: 'boolean',
    isHnsEnabled: 'boolean',
    nfsv3Enabled: 'boolean',
    sftpEnabled: 'boolean',
    publicNetworkAccessEnabled: 'boolean',
    sharedAccessKeyEnabled: 'boolean',
    tags: 'object',
    networkRules: 'array',
    blobProperties: 'array',
  },
};

export const RESOURCE_GROUPS: ResourceDef = {
  group: 'azure.upbound.io',
  version: 'v1beta1',
  plural: 'resourcegroups',
  singular: 'resourcegroup',
  kind: 'ResourceGroup',
  namespaced: false,
  verbs: MANAGED_VERBS,
  categories: ['crossplane', 'managed', 'azure'],
  requiredParameters: ['location'],
  parameterTypes: { location: 'string', tags: 'object', managedBy: 'string' },
};

/** Crossplane v2's namespaced Account: the same schema in the `.m.` group, living in a namespace. */
export const NAMESPACED_ACCOUNTS: ResourceDef = {
  ...ACCOUNTS,
  group: 'storage.azure.m.upbound.io',
  namespaced: true,
};

export const NAMESPACED_RESOURCE_GROUPS: ResourceDef = {
  ...RESOURCE_GROUPS,
  group: 'azure.m.upbound.io',
  namespaced: true,
};

/** Both forms of the Account, which the simulated provider treats alike. */
export function isAccountDef(def: ResourceDef): boolean {
  return def === ACCOUNTS || def === NAMESPACED_ACCOUNTS;
}

/** The ResourceGroup resource that sits beside an Account resource of the same form. */
export function resourceGroupsBeside(def: ResourceDef): ResourceDef {
  return def.namespaced ? NAMESPACED_RESOURCE_GROUPS : RESOURCE_GROUPS;
}

export const NAMESPACES: ResourceDef = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  singular: 'namespace',
  kind: 'Namespace',
  namespaced: false,
  // Enough for kubectl create namespace and get; a namespace is never deleted here.
  verbs: ['create', 'get', 'list', 'watch'],
  shortNames: ['ns'],
  requiredParameters: [],
  parameterTypes: {},
};

export const EVENTS: ResourceDef = {
  group: '',
  version: 'v1',
  plural: 'events',
  singular: 'event',
  kind: 'Event',
  namespaced: true,
  // Only the portal's reads are served; the stand-in records events itself.
  verbs: ['get', 'list', 'watch'],
  shortNames: ['ev'],
  requiredParameters: [],
  parameterTypes: {},
};

export const CUSTOM_RESOURCES: readonly ResourceDef[] = [
  ACCOUNTS,
  RESOURCE_GROUPS,
  NAMESPACED_ACCOUNTS,
  NAMESPACED_RESOURCE_GROUPS,
];

export function findCustomResource(group: string, version: string, plural: string): ResourceDef | undefined {
  return CUSTOM_RESOURCES.find((d) => d.group === group && d.version === version && d.plural === plural);
}

export function apiVersionOf(def: ResourceDef): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

function apiResource(def: ResourceDef): Record<string, unknown> {
  return {
    name: def.plural,
    singularName: def.singular,
    namespaced: def.namespaced,
    kind: def.kind,
    verbs: def.verbs,
    ...(def.shortNames ? { shortNames: def.shortNames } : {}),
    ...(def.categories ? { categories: def.categories } : {}),
  };
}

export function coreVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

export function coreResourceList(): Record<string, unknown> {
  return { kind: 'APIResourceList', groupVersion: 'v1', resources: [apiResource(EVENTS), apiResource(NAMESPACES)] };
}

function groupsByName(): Map<string, ResourceDef[]> {
  const groups = new Map<string, ResourceDef[]>();
  for (const def of CUSTOM_RESOURCES) groups.set(def.group, [...(groups.get(def.group) ?? []), def]);
  return groups;
}

function apiGroup(name: string, defs: ResourceDef[]): Record<string, unknown> {
  const versions = [...new Set(defs.map((d) => d.version))].map((version) => ({
    groupVersion: `${name}/${version}`,
    version,
  }));
  return { name, versions, preferredVersion: versions[0] };
}

export function groupList(): Record<string, unknown> {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [...groupsByName()].map(([name, defs]) => apiGroup(name, defs)),
  };
}

export function groupDocument(group: string): Record<string, unknown> | undefined {
  const defs = groupsByName().get(group);
  return defs ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group, defs) } : undefined;
}

/** The status subresource of a custom resource: read, replaced or patched apart from the main resource. */
function statusSubresource(def: ResourceDef): Record<string, unknown> {
  return {
    name: `${def.plural}/status`,
    singularName: '',
    namespaced: def.namespaced,
    kind: def.kind,
    verbs: ['get', 'patch', 'update'],
  };
}

export function groupVersionResourceList(group: string, version: string): Record<string, unknown> | undefined {
  const defs = CUSTOM_RESOURCES.filter((d) => d.group === group && d.version === version);
  if (defs.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: `${group}/${version}`,
    resources: defs.flatMap((def) => [apiResource(def), statusSubresource(def)]),
  };
}

export const VERSION_INFO = {
  major: '1',
  minor: '31',
  gitVersion: 'v1.31.0-stand-in',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.22.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};
