/**
 * The settings of a storage account the portal owns: what it records as intent, what it compares
 * with the cluster object and with Azure, and the words it shows for each. Provider-computed values
 * (ids, endpoints, creation time) are not here, so they can never count as drift.
 * Pure module: safe in the browser and on the server.
 */
import { applyChange, type AccountChange, type ChangeableSettings } from './account-change';
import { SAFE_DEFAULTS } from './account-manifest';
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
export function ownedChanges(before: OwnedSettings | undefined, after: OwnedSettings | undefined): OwnedFieldChange[] {
  return OWNED_FIELDS.filter((field) => !sameOwnedValue(before?.[field], after?.[field])).map((field) => {
    const change: OwnedFieldChange = { field, label: SETTING_LABELS[field] };
    if (before?.[field] !== undefined) change.from = before[field];
    if (after?.[field] !== undefined) change.to = after[field];
    return change;
  });
}

/** The desired settings of a validated create request, with the security baseline every manifest carries. */
export function ownedFromRequest(request: StorageAccountRequest): OwnedSettings {
  return {
    location: request.location,
    resourceGroup: request.resourceGroup,
    kind: request.accountKind,
    tier: request.accountTier,
    replication: request.replicationType,
    ...(request.accessTier !== undefined && accessTierApplies(request.accountKind)
      ? { accessTier: request.accessTier }
      : {}),
    minTlsVersion: SAFE_DEFAULTS.minTlsVersion,
    httpsOnly: request.httpsOnly,
    publicNetworkAccess: request.publicNetworkAccess,
    allowedIpRanges: request.publicNetworkAccess ? [...request.allowedIpRanges] : [],
    allowNestedItemsToBePublic: SAFE_DEFAULTS.allowNestedItemsToBePublic,
    sharedKeyAccess: request.sharedKeyAccess,
    crossTenantReplication: SAFE_DEFAULTS.crossTenantReplicationEnabled,
    infrastructureEncryption: SAFE_DEFAULTS.infrastructureEncryptionEnabled,
    hierarchicalNamespace: request.hierarchicalNamespace,
    sftpEnabled: request.sftpEnabled,
    nfsv3Enabled: request.nfsv3Enabled,
    application: request.application,
    environment: request.environment,
  };
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

/** The desired settings after an in-place change: only the fields the change names move. */
export function withChange(desired: OwnedSettings, change: Omit<AccountChange, 'resourceVersion'>): OwnedSettings {
  const current: ChangeableSettings = {
    ...(desired.accessTier === undefined ? {} : { accessTier: desired.accessTier }),
    publicNetworkAccess: desired.publicNetworkAccess,
    allowedIpRanges: desired.allowedIpRanges,
    minTlsVersion: desired.minTlsVersion,
    httpsOnly: desired.httpsOnly,
    ...(desired.application === undefined ? {} : { application: desired.application }),
    ...(desired.environment === undefined ? {} : { environment: desired.environment }),
  };
  return { ...desired, ...applyChange(current, change) };
}
