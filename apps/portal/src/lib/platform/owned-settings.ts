/**
 * The one shape of a storage account's settings: what the ledger records as intent, what a cluster
 * object's spec asks for and what Azure reports (each a Partial of it), what a change may move
 * (a Pick of it), and the words shown for each. Other names for the same settings live only at the
 * edges: spec.forProvider in ./account-manifest.ts, the Azure SDK's in the Azure backend, the
 * request's three wire names in ownedFromRequest below.
 * Provider-computed values (ids, endpoints, creation time) are not here, so they can never count as
 * drift. Pure module: safe in the browser and on the server.
 */
import { definedFields } from '../defined-fields';
import { SETTING_LABELS } from './setting-labels';
import type { StorageAccountRequest } from './storage-request';
import { accessTierApplies } from './storage-rules';

export interface OwnedSettings {
  location: string;
  resourceGroup: string;
  kind: string;
  tier: string;
  replication: string;
  /** Only for kinds that have one (see ACCESS_TIER_KINDS). */
  accessTier?: string;
  minTlsVersion: string;
  httpsOnly: boolean;
  publicNetworkAccess: boolean;
  allowedIpRanges: string[];
  allowNestedItemsToBePublic: boolean;
  sharedKeyAccess: boolean;
  crossTenantReplication: boolean;
  infrastructureEncryption: boolean;
  hierarchicalNamespace: boolean;
  sftpEnabled: boolean;
  nfsv3Enabled: boolean;
  /** Ownership: the application tag (and label on the cluster object). */
  application?: string;
  /** Ownership: the environment tag (and label on the cluster object). */
  environment?: string;
}

export type OwnedField = keyof OwnedSettings;

// Every owned setting has its words in the one label table, and nothing else has a place there.
const _everyOwnedFieldLabelled: Record<OwnedField, string> = SETTING_LABELS;

/** The owned settings, in the order people think of them (the label table's). */
export const OWNED_FIELDS = Object.keys(SETTING_LABELS) as OwnedField[];

/** The settings Azure (and the platform) can change on a live account without recreating it. */
export const CHANGEABLE_FIELDS = [
  'accessTier',
  'publicNetworkAccess',
  'allowedIpRanges',
  'minTlsVersion',
  'httpsOnly',
  'application',
  'environment',
] as const satisfies readonly OwnedField[];
export type ChangeableField = (typeof CHANGEABLE_FIELDS)[number];
export type ChangeableSettings = Pick<OwnedSettings, ChangeableField>;

/** The settings a change keeps that Azure's combination rules also look at. */
export type FixedCombination = Pick<OwnedSettings, 'hierarchicalNamespace' | 'sftpEnabled' | 'nfsv3Enabled'> &
  Partial<Pick<OwnedSettings, 'kind' | 'tier' | 'replication'>>;

/** Always applied: the security baseline no request can lower. */
export const SAFE_DEFAULTS = {
  minTlsVersion: 'TLS1_2',
  allowNestedItemsToBePublic: false,
  crossTenantReplication: false,
  infrastructureEncryption: true,
} as const satisfies Partial<OwnedSettings>;

/** One owned setting that differs between two sides (a change, or a drift). */
export interface OwnedFieldChange {
  field: OwnedField;
  label: string;
  from?: OwnedSettings[OwnedField];
  to?: OwnedSettings[OwnedField];
}

/** Lists compare as sets (the order of IP rules means nothing); a missing value equals undefined. */
function normalised(value: unknown): string {
  if (Array.isArray(value)) return JSON.stringify(value.map(String).sort());
  return JSON.stringify(value ?? null);
}

export function sameOwnedValue(a: unknown, b: unknown): boolean {
  return normalised(a) === normalised(b);
}

/** What an action did to the desired state, field by field; every field of a new account is a change. */
export function ownedChanges(
  before: Partial<OwnedSettings> | undefined,
  after: Partial<OwnedSettings> | undefined,
): OwnedFieldChange[] {
  return OWNED_FIELDS.filter((field) => !sameOwnedValue(before?.[field], after?.[field])).map((field) => {
    const change: OwnedFieldChange = { field, label: SETTING_LABELS[field] };
    if (before?.[field] !== undefined) change.from = before[field];
    if (after?.[field] !== undefined) change.to = after[field];
    return change;
  });
}

/** What a requester chooses in a create: every setting but the baseline. */
export type RequestedSettings = Omit<OwnedSettings, keyof typeof SAFE_DEFAULTS>;

/**
 * The desired settings of a validated create request, with the security baseline every manifest
 * carries. The request's wire names for kind, tier and replication end here.
 */
export function ownedFromRequest(request: StorageAccountRequest): OwnedSettings {
  const requested: RequestedSettings = {
    location: request.location,
    resourceGroup: request.resourceGroup,
    kind: request.accountKind,
    tier: request.accountTier,
    replication: request.replicationType,
    ...(request.accessTier !== undefined && accessTierApplies(request.accountKind)
      ? { accessTier: request.accessTier }
      : {}),
    httpsOnly: request.httpsOnly,
    publicNetworkAccess: request.publicNetworkAccess,
    allowedIpRanges: request.publicNetworkAccess ? [...request.allowedIpRanges] : [],
    sharedKeyAccess: request.sharedKeyAccess,
    hierarchicalNamespace: request.hierarchicalNamespace,
    sftpEnabled: request.sftpEnabled,
    nfsv3Enabled: request.nfsv3Enabled,
    application: request.application,
    environment: request.environment,
  };
  return { ...requested, ...SAFE_DEFAULTS };
}

/**
 * Owned settings from what one side states (a cluster object's spec, an Azure account), with
 * Azure's own defaults for what it leaves out: the starting point for an account the ledger has no
 * intent for yet.
 */
export function ownedFromView(view: Partial<OwnedSettings>): OwnedSettings {
  return {
    location: view.location ?? '',
    resourceGroup: view.resourceGroup ?? '',
    kind: view.kind ?? 'StorageV2',
    tier: view.tier ?? 'Standard',
    replication: view.replication ?? 'LRS',
    ...(view.accessTier === undefined ? {} : { accessTier: view.accessTier }),
    minTlsVersion: view.minTlsVersion ?? 'TLS1_0',
    httpsOnly: view.httpsOnly ?? true,
    publicNetworkAccess: view.publicNetworkAccess ?? true,
    allowedIpRanges: [...(view.allowedIpRanges ?? [])],
    allowNestedItemsToBePublic: view.allowNestedItemsToBePublic ?? true,
    sharedKeyAccess: view.sharedKeyAccess ?? true,
    crossTenantReplication: view.crossTenantReplication ?? false,
    infrastructureEncryption: view.infrastructureEncryption ?? false,
    hierarchicalNamespace: view.hierarchicalNamespace ?? false,
    sftpEnabled: view.sftpEnabled ?? false,
    nfsv3Enabled: view.nfsv3Enabled ?? false,
    ...(view.application === undefined ? {} : { application: view.application }),
    ...(view.environment === undefined ? {} : { environment: view.environment }),
  };
}

/**
 * The settings an account has as far as the portal can tell: what Azure reports, else what the spec
 * asks for, else the defaults. The detail page and the API's `settings` show these; nothing holds
 * them as a copy. A spec without a minimum TLS version gets TLS 1.2 from Crossplane's provider
 * (Terraform's azurerm default), not the TLS 1.0 of Azure's older API versions.
 */
export function settingsInEffect(desired: Partial<OwnedSettings>, reported: Partial<OwnedSettings>): OwnedSettings {
  return ownedFromView({ minTlsVersion: SAFE_DEFAULTS.minTlsVersion, ...desired, ...reported });
}

/**
 * What the edit dialog and a change start from: the spec's values, the platform's baseline for any
 * it leaves out, and the ownership the object's labels carry (the labels are what ownership reads).
 */
export function changeableSettings(
  desired: Partial<OwnedSettings>,
  ownership: { application?: string | undefined; environment?: string | undefined },
): ChangeableSettings {
  return definedFields({
    accessTier: desired.accessTier,
    publicNetworkAccess: desired.publicNetworkAccess ?? false,
    allowedIpRanges: desired.allowedIpRanges ?? [],
    minTlsVersion: desired.minTlsVersion ?? SAFE_DEFAULTS.minTlsVersion,
    httpsOnly: desired.httpsOnly ?? true,
    application: ownership.application || undefined,
    environment: ownership.environment || undefined,
  });
}
