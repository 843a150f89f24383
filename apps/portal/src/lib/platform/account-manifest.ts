/**
 * Builds the Crossplane Account manifest from a validated request. The server builds every
 * manifest it sends with this function (it never forwards one from a client); the workflow
 * uses the same function for its live preview, so what you see is what is submitted.
 * Field names follow the Upbound provider-azure Account v1beta1 CRD; this module is the one place
 * that maps the portal's settings (./owned-settings.ts) to and from spec.forProvider's names.
 */
import { definedFields } from '../defined-fields';
import { accountNamespace, CLUSTER_SCOPE, type AccountScope } from './account-scope';
import { ownedFromRequest, type OwnedField, type OwnedSettings } from './owned-settings';
import type { StorageAccountRequest } from './storage-request';

/** Crossplane v1's cluster-scoped Account (cluster scope). */
export const ACCOUNT_API_VERSION = 'storage.azure.upbound.io/v1beta1';
/** Crossplane v2's namespaced Account (namespaced scope). */
export const NAMESPACED_ACCOUNT_API_VERSION = 'storage.azure.m.upbound.io/v1beta1';
export const ACCOUNT_KIND = 'Account';

/** The prefix of every label and annotation key the portal owns; neutral, tied to no product. */
export const PORTAL_KEY_PREFIX = 'platform-portal';

/** Label and annotation keys the portal writes and reads back. */
export const PORTAL_KEYS = {
  managedBy: 'app.kubernetes.io/managed-by',
  application: `${PORTAL_KEY_PREFIX}/application`,
  environment: `${PORTAL_KEY_PREFIX}/environment`,
  requestedBy: `${PORTAL_KEY_PREFIX}/requested-by`,
  /**
   * The owner's subject (issuer#sub, or the proxy's forwarded user): an annotation, not a label,
   * because an issuer URL and a sub do not fit a label value's 63 characters and alphabet.
   */
  requestedBySubject: `${PORTAL_KEY_PREFIX}/requested-by-subject`,
  requestedAt: `${PORTAL_KEY_PREFIX}/requested-at`,
  requestId: `${PORTAL_KEY_PREFIX}/request-id`,
  deletionRequestedBy: `${PORTAL_KEY_PREFIX}/deletion-requested-by`,
  deletionRequestedBySubject: `${PORTAL_KEY_PREFIX}/deletion-requested-by-subject`,
  externalName: 'crossplane.io/external-name',
} as const;
export const MANAGED_BY_PORTAL = 'platform-portal';

/** Kubernetes appends five random characters to generateName; Azure names stop at 24. */
const GENERATED_SUFFIX_LENGTH = 5;
const MAX_ACCOUNT_NAME_LENGTH = 24;

export interface NetworkRules {
  defaultAction: 'Allow' | 'Deny';
  bypass: string[];
  ipRules: string[];
}

export interface AccountForProvider {
  location: string;
  resourceGroupName: string;
  accountKind: string;
  accountTier: string;
  accountReplicationType: string;
  accessTier?: string;
  isHnsEnabled: boolean;
  sftpEnabled: boolean;
  nfsv3Enabled: boolean;
  publicNetworkAccessEnabled: boolean;
  networkRules?: NetworkRules[];
  sharedAccessKeyEnabled: boolean;
  httpsTrafficOnlyEnabled: boolean;
  minTlsVersion: string;
  allowNestedItemsToBePublic: boolean;
  crossTenantReplicationEnabled: boolean;
  infrastructureEncryptionEnabled: boolean;
  tags: Record<string, string>;
}

export interface AccountManifest {
  apiVersion: typeof ACCOUNT_API_VERSION | typeof NAMESPACED_ACCOUNT_API_VERSION;
  kind: typeof ACCOUNT_KIND;
  metadata: {
    name?: string;
    generateName?: string;
    /** Namespaced scope only: the namespace of the account's application. */
    namespace?: string;
    labels: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: {
    forProvider: AccountForProvider;
    /** Namespaced scope only: Crossplane v2 names the cluster-wide provider configuration. */
    providerConfigRef?: { kind: 'ClusterProviderConfig'; name: string };
  };
}

/** Who asked, recorded on the object so the inventory can say so. */
export interface ManifestProvenance {
  requestId?: string;
  requestedBy?: string;
  requestedBySubject?: string;
  requestedAt?: string;
}

/** A generateName prefix made of the application's letters and digits, e.g. "stwebshop". */
export function generatedNamePrefix(application: string): string {
  const letters = application.replace(/[^a-z0-9]/g, '');
  return `st${letters}`.slice(0, MAX_ACCOUNT_NAME_LENGTH - GENERATED_SUFFIX_LENGTH);
}

/** The firewall for these network settings; also used when an account's settings change in place. */
export function networkRulesFor(
  publicNetworkAccess: boolean,
  allowedIpRanges: readonly string[],
): NetworkRules[] | undefined {
  if (!publicNetworkAccess) return undefined;
  // With public access on, listing ranges means "only these"; Azure services keep working.
  if (allowedIpRanges.length === 0) return [{ defaultAction: 'Allow', bypass: ['AzureServices'], ipRules: [] }];
  return [{ defaultAction: 'Deny', bypass: ['AzureServices'], ipRules: [...allowedIpRanges] }];
}

/** spec.forProvider's (and status.atProvider's) name for each setting held there as a plain value. */
const TEXT_NAMES = {
  location: 'location',
  resourceGroup: 'resourceGroupName',
  kind: 'accountKind',
  tier: 'accountTier',
  replication: 'accountReplicationType',
  accessTier: 'accessTier',
  minTlsVersion: 'minTlsVersion',
} as const satisfies Partial<Record<OwnedField, keyof AccountForProvider>>;
const FLAG_NAMES = {
  httpsOnly: 'httpsTrafficOnlyEnabled',
  publicNetworkAccess: 'publicNetworkAccessEnabled',
  allowNestedItemsToBePublic: 'allowNestedItemsToBePublic',
  sharedKeyAccess: 'sharedAccessKeyEnabled',
  crossTenantReplication: 'crossTenantReplicationEnabled',
  infrastructureEncryption: 'infrastructureEncryptionEnabled',
  hierarchicalNamespace: 'isHnsEnabled',
  sftpEnabled: 'sftpEnabled',
  nfsv3Enabled: 'nfsv3Enabled',
} as const satisfies Partial<Record<OwnedField, keyof AccountForProvider>>;
// The two settings not in the tables: allowedIpRanges is networkRules' ipRules, and the ownership
// settings are tags.

const entries = <T extends object>(table: T) => Object.entries(table) as [keyof T & OwnedField, string][];

/**
 * spec.forProvider fields for the settings given (a JSON merge patch's, for a change): an IP range
 * list comes with the public access it belongs to, and null removes the firewall rules in a patch.
 */
export function forProviderFields(settings: Partial<OwnedSettings>): Record<string, unknown> {
  const forProvider: Record<string, unknown> = {};
  for (const [field, name] of [...entries(TEXT_NAMES), ...entries(FLAG_NAMES)]) {
    if (settings[field] !== undefined) forProvider[name] = settings[field];
  }
  if (settings.allowedIpRanges !== undefined) {
    forProvider['networkRules'] =
      networkRulesFor(settings.publicNetworkAccess ?? false, settings.allowedIpRanges) ?? null;
  }
  const tags = definedFields({ application: settings.application, environment: settings.environment });
  if (Object.keys(tags).length > 0) forProvider['tags'] = tags;
  return forProvider;
}

/** spec.forProvider of an Account that asks for these settings, as every manifest the portal builds carries it. */
export function forProviderOf(settings: OwnedSettings): AccountForProvider {
  const { networkRules, tags, ...fields } = forProviderFields(settings);
  return {
    ...(fields as Omit<AccountForProvider, 'networkRules' | 'tags'>),
    ...(networkRules === null ? {} : { networkRules: networkRules as NetworkRules[] }),
    tags: { ...(tags as Record<string, string> | undefined), 'managed-by': 'crossplane' },
  };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const flag = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

function ipRules(networkRules: unknown): string[] | undefined {
  if (networkRules === undefined) return undefined;
  const first: unknown = Array.isArray(networkRules) ? networkRules[0] : networkRules;
  if (typeof first !== 'object' || first === null) return [];
  const rules = (first as { ipRules?: unknown }).ipRules;
  return Array.isArray(rules) ? rules.filter((rule): rule is string => typeof rule === 'string').sort() : [];
}

/**
 * The settings one side states (spec.forProvider or status.atProvider, as any tool may have written
 * it); what it does not state, or states as something of the wrong type, is left out.
 */
export function settingsFromForProvider(parameters: Record<string, unknown> | undefined): Partial<OwnedSettings> {
  if (!parameters) return {};
  const tags = typeof parameters['tags'] === 'object' && parameters['tags'] !== null ? parameters['tags'] : {};
  const view: Record<string, unknown> = {};
  for (const [field, name] of entries(TEXT_NAMES)) view[field] = text(parameters[name]);
  view['allowedIpRanges'] = ipRules(parameters['networkRules']);
  for (const [field, name] of entries(FLAG_NAMES)) view[field] = flag(parameters[name]);
  view['application'] = text((tags as Record<string, unknown>)['application']);
  view['environment'] = text((tags as Record<string, unknown>)['environment']);
  // The cluster cache holds two of these per account: compact ones (see definedFields).
  return definedFields(view);
}

export function buildAccountManifest(
  request: StorageAccountRequest,
  provenance: ManifestProvenance = {},
  scope: AccountScope = CLUSTER_SCOPE,
): AccountManifest {
  const annotations: Record<string, string> = {};
  if (provenance.requestId) annotations[PORTAL_KEYS.requestId] = provenance.requestId;
  if (provenance.requestedBy) annotations[PORTAL_KEYS.requestedBy] = provenance.requestedBy;
  if (provenance.requestedBySubject) annotations[PORTAL_KEYS.requestedBySubject] = provenance.requestedBySubject;
  if (provenance.requestedAt) annotations[PORTAL_KEYS.requestedAt] = provenance.requestedAt;

  const forProvider = forProviderOf(ownedFromRequest(request));

  const manifest: AccountManifest = {
    apiVersion: ACCOUNT_API_VERSION,
    kind: ACCOUNT_KIND,
    metadata: {
      ...(request.name ? { name: request.name } : { generateName: generatedNamePrefix(request.application) }),
      labels: {
        [PORTAL_KEYS.managedBy]: MANAGED_BY_PORTAL,
        [PORTAL_KEYS.application]: request.application,
        [PORTAL_KEYS.environment]: request.environment,
      },
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    spec: { forProvider },
  };
  return placedInScope(manifest, scope);
}

/** The shape every Account manifest the portal sends has, whoever built it (a create, a remediation). */
interface ManifestShape {
  apiVersion: string;
  metadata: { labels?: Record<string, string>; namespace?: string };
  spec: object;
}

/**
 * The manifest placed where the account scope keeps Accounts: unchanged in cluster scope; in
 * namespaced scope Crossplane v2's group, the namespace of the application and environment its
 * labels name, and the ClusterProviderConfig. Without an application label it has no namespace, and the cluster refuses it.
 */
export function placedInScope<T extends ManifestShape>(manifest: T, scope: AccountScope): T {
  if (scope.kind === 'cluster') return manifest;
  const labels = manifest.metadata.labels ?? {};
  const application = labels[PORTAL_KEYS.application];
  const environment = labels[PORTAL_KEYS.environment] ?? '';
  const namespace = application ? accountNamespace(scope, { application, environment }) : undefined;
  return {
    ...manifest,
    apiVersion: NAMESPACED_ACCOUNT_API_VERSION,
    metadata: { ...manifest.metadata, ...(namespace === undefined ? {} : { namespace }) },
    spec: { ...manifest.spec, providerConfigRef: { kind: 'ClusterProviderConfig', name: scope.providerConfig } },
  };
}
