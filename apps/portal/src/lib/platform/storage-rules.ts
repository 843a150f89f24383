/**
 * The Azure storage rules, in one place. The request schema (./storage-request.ts) reports a
 * broken rule as a field error, the form (components/catalog/storage-form-model.ts) steers away
 * from broken combinations and disables choices with these predicates, and the server validates
 * every request through the schema. Pure module: safe for client components and server code.
 */

export const ENVIRONMENTS = ['dev', 'test', 'staging', 'prod'] as const;
export const ACCOUNT_KINDS = ['StorageV2', 'BlobStorage', 'BlockBlobStorage', 'FileStorage', 'Storage'] as const;
export const ACCOUNT_TIERS = ['Standard', 'Premium'] as const;
export const REPLICATION_TYPES = ['LRS', 'ZRS', 'GRS', 'RAGRS', 'GZRS', 'RAGZRS'] as const;
export const ACCESS_TIERS = ['Hot', 'Cool'] as const;

export type Environment = (typeof ENVIRONMENTS)[number];
export type AccountKind = (typeof ACCOUNT_KINDS)[number];
export type AccountTier = (typeof ACCOUNT_TIERS)[number];
export type ReplicationType = (typeof REPLICATION_TYPES)[number];
export type AccessTier = (typeof ACCESS_TIERS)[number];

/** Azure rule: these kinds exist only on Premium storage. */
const PREMIUM_ONLY_KINDS: readonly AccountKind[] = ['BlockBlobStorage', 'FileStorage'];
/** Azure rule: an access tier can be chosen only for these kinds. */
export const ACCESS_TIER_KINDS: readonly AccountKind[] = ['BlobStorage', 'FileStorage', 'StorageV2'];
/** Azure rule: Premium storage cannot replicate to a paired region. */
const GEO_REDUNDANT_REPLICATION: readonly ReplicationType[] = ['GRS', 'RAGRS', 'GZRS', 'RAGZRS'];

export const tierLocked = (kind: AccountKind): boolean => PREMIUM_ONLY_KINDS.includes(kind);

export const replicationAllowed = (tier: AccountTier, replication: ReplicationType): boolean =>
  !(tier === 'Premium' && GEO_REDUNDANT_REPLICATION.includes(replication));

export const accessTierApplies = (kind: AccountKind): boolean => ACCESS_TIER_KINDS.includes(kind);

export function supportsHierarchicalNamespace(kind: AccountKind, tier: AccountTier): boolean {
  return (kind === 'StorageV2' && tier === 'Standard') || (kind === 'BlockBlobStorage' && tier === 'Premium');
}

/**
 * Every Azure public-cloud region name (as `az account list-locations` spells it), so any region
 * a platform team may approve is a valid request; PORTAL_ALLOWED_LOCATIONS narrows it as policy.
 */
export const AZURE_PUBLIC_REGIONS = [
  'australiacentral',
  'australiacentral2',
  'australiaeast',
  'australiasoutheast',
  'austriaeast',
  'belgiumcentral',
  'brazilsouth',
  'brazilsoutheast',
  'canadacentral',
  'canadaeast',
  'centralindia',
  'centralus',
  'chilecentral',
  'denmarkeast',
  'eastasia',
  'eastus',
  'eastus2',
  'francecentral',
  'francesouth',
  'germanynorth',
  'germanywestcentral',
  'indonesiacentral',
  'israelcentral',
  'italynorth',
  'japaneast',
  'japanwest',
  'jioindiacentral',
  'jioindiawest',
  'koreacentral',
  'koreasouth',
  'malaysiawest',
  'mexicocentral',
  'newzealandnorth',
  'northcentralus',
  'northeurope',
  'norwayeast',
  'norwaywest',
  'polandcentral',
  'qatarcentral',
  'southafricanorth',
  'southafricawest',
  'southcentralus',
  'southeastasia',
  'southindia',
  'spaincentral',
  'swedencentral',
  'swedensouth',
  'switzerlandnorth',
  'switzerlandwest',
  'uaecentral',
  'uaenorth',
  'uksouth',
  'ukwest',
  'westcentralus',
  'westeurope',
  'westindia',
  'westus',
  'westus2',
  'westus3',
] as const;
export type Location = (typeof AZURE_PUBLIC_REGIONS)[number];

export const isAzureRegion = (value: string | undefined): value is Location =>
  (AZURE_PUBLIC_REGIONS as readonly string[]).includes(value ?? '');

/**
 * The locations to offer, in order: the resource group's own location first (when allowed),
 * then the other allowed ones.
 */
export function locationsFor(groupLocation: string | undefined, allowed: readonly Location[]): Location[] {
  const own = allowed.find((location) => location === groupLocation);
  return own ? [own, ...allowed.filter((location) => location !== own)] : [...allowed];
}

/** Azure's rule for storage account names. */
const ACCOUNT_NAME = { minLength: 3, maxLength: 24, pattern: /^[a-z0-9]+$/ } as const;
/** Application names become label values and part of generated account names. */
export const APPLICATION_NAME = { maxLength: 40, pattern: /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/ } as const;

/** The first rule a storage account name breaks, in words that say which; undefined when valid. */
export function accountNameProblem(name: string): string | undefined {
  if (!/^[a-z0-9]*$/.test(name)) return 'Invalid characters: use only lower-case letters a-z and digits 0-9';
  if (name.length < ACCOUNT_NAME.minLength) {
    return `Too short: use at least ${ACCOUNT_NAME.minLength} characters (this has ${name.length})`;
  }
  if (name.length > ACCOUNT_NAME.maxLength) {
    return `Too long: use at most ${ACCOUNT_NAME.maxLength} characters (this has ${name.length})`;
  }
  return undefined;
}

/** The first rule an application name breaks, in words that say which; undefined when valid. */
export function applicationProblem(application: string): string | undefined {
  if (application === '') return 'Application is required';
  if (/[^a-z0-9-]/.test(application)) {
    return 'Invalid characters: use only lower-case letters a-z, digits and hyphens';
  }
  if (application.length > APPLICATION_NAME.maxLength) {
    return `Too long: use at most ${APPLICATION_NAME.maxLength} characters (this has ${application.length})`;
  }
  if (!APPLICATION_NAME.pattern.test(application)) return 'Start and end with a letter or digit, not a hyphen';
  return undefined;
}

/** Azure resource group names: letters, digits, _ - . ( ), not ending with a period. */
export const RESOURCE_GROUP_PATTERN = /^[-\w.()]{0,89}[-\w()]$/;
export const MAX_ALLOWED_IP_RANGES = 100;

/** True for an IPv4 address, or an IPv4 CIDR range Azure storage firewalls accept (/8 to /30). */
export function isAllowedIpRange(value: string): boolean {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/.exec(value);
  if (!match) return false;
  const octets = match.slice(1, 5).map(Number);
  if (octets.some((octet) => octet > 255)) return false;
  if (match[5] === undefined) return true;
  const prefix = Number(match[5]);
  return prefix >= 8 && prefix <= 30;
}

/** The settings whose combinations Azure restricts. */
export interface StorageCombination {
  accountKind: AccountKind;
  accountTier: AccountTier;
  replicationType: ReplicationType;
  accessTier?: AccessTier | undefined;
  publicNetworkAccess: boolean;
  allowedIpRanges: readonly string[];
  hierarchicalNamespace: boolean;
  sftpEnabled: boolean;
  nfsv3Enabled: boolean;
  httpsOnly: boolean;
}

export interface RuleViolation {
  field: keyof StorageCombination;
  message: string;
}

/** Every combination rule the settings break, each on the field to change. */
export function ruleViolations(settings: StorageCombination): RuleViolation[] {
  const violations: RuleViolation[] = [];
  const broken = (field: keyof StorageCombination, message: string) => violations.push({ field, message });

  if (tierLocked(settings.accountKind) && settings.accountTier !== 'Premium') {
    broken('accountTier', `${settings.accountKind} accounts exist only on the Premium tier`);
  }
  if (!replicationAllowed(settings.accountTier, settings.replicationType)) {
    broken('replicationType', 'Premium accounts support only LRS or ZRS replication');
  }
  if (settings.accessTier !== undefined && !accessTierApplies(settings.accountKind)) {
    broken('accessTier', `An access tier applies only to ${ACCESS_TIER_KINDS.join(', ')} accounts`);
  }
  if (settings.hierarchicalNamespace && !supportsHierarchicalNamespace(settings.accountKind, settings.accountTier)) {
    broken(
      'hierarchicalNamespace',
      'Hierarchical namespace needs a Standard StorageV2 or a Premium BlockBlobStorage account',
    );
  }
  if (settings.sftpEnabled && !settings.hierarchicalNamespace) {
    broken('sftpEnabled', 'SFTP requires hierarchical namespace');
  }
  if (settings.nfsv3Enabled && !settings.hierarchicalNamespace) {
    broken('nfsv3Enabled', 'NFSv3 requires hierarchical namespace');
  } else if (settings.nfsv3Enabled && settings.httpsOnly) {
    // NFSv3 clients do not speak TLS; Azure requires secure transfer off for it.
    broken('nfsv3Enabled', 'NFSv3 cannot be used while HTTPS-only traffic is required');
  }
  const badRange = settings.allowedIpRanges.find((range) => !isAllowedIpRange(range));
  if (badRange !== undefined) {
    broken('allowedIpRanges', `"${badRange}" is not an IPv4 address or a CIDR range from /8 to /30`);
  } else if (settings.allowedIpRanges.length > 0 && !settings.publicNetworkAccess) {
    broken('allowedIpRanges', 'Allowed IP ranges need public network access turned on');
  }
  return violations;
}

/**
 * The nearest combination that breaks no rule, after `changed` was set: the person's latest
 * choice wins and the settings that depend on it follow. The form applies this on every change.
 */
export function conformCombination<T extends Omit<StorageCombination, 'allowedIpRanges'>>(
  settings: T,
  changed?: string,
): T {
  const next = { ...settings };
  if (tierLocked(next.accountKind)) next.accountTier = 'Premium';
  if (!replicationAllowed(next.accountTier, next.replicationType)) next.replicationType = 'LRS';
  if (!accessTierApplies(next.accountKind)) next.accessTier = undefined;
  else next.accessTier ??= 'Hot';
  if (!supportsHierarchicalNamespace(next.accountKind, next.accountTier)) next.hierarchicalNamespace = false;
  if (!next.hierarchicalNamespace) {
    next.sftpEnabled = false;
    next.nfsv3Enabled = false;
  }
  if (changed === 'nfsv3Enabled' && next.nfsv3Enabled) next.httpsOnly = false;
  if (changed === 'httpsOnly' && next.httpsOnly) next.nfsv3Enabled = false;
  return next;
}
