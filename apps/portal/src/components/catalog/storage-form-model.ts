/**
 * The workflow's form state and the Azure rules that couple its fields. Pure functions, so the
 * rules are tested without a browser; the schema in lib/platform/storage-request.ts stays the
 * authority on what is valid (the form only steers people away from invalid combinations).
 */
import {
  ACCESS_TIER_KINDS,
  GEO_REDUNDANT_REPLICATION,
  LOCATIONS,
  PREMIUM_ONLY_KINDS,
  parseStorageAccountRequest,
  supportsHierarchicalNamespace,
  type AccessTier,
  type AccountKind,
  type AccountTier,
  type Environment,
  type FieldErrors,
  type Location,
  type ReplicationType,
  type StorageAccountRequest,
  type StorageAccountRequestInput,
} from '@/lib/platform/storage-request';
import type { ResourceGroup } from '@/lib/platform/types';

export interface StorageFormValues {
  name: string;
  application: string;
  environment: Environment;
  resourceGroup: string;
  location: Location;
  accountKind: AccountKind;
  accountTier: AccountTier;
  replicationType: ReplicationType;
  /** '' when the kind takes no access tier. */
  accessTier: AccessTier | '';
  publicNetworkAccess: boolean;
  /** As typed: addresses or CIDR ranges separated by commas, spaces or new lines. */
  allowedIpRanges: string;
  hierarchicalNamespace: boolean;
  sftpEnabled: boolean;
  nfsv3Enabled: boolean;
  httpsOnly: boolean;
  sharedKeyAccess: boolean;
}

export type StorageFormField = keyof StorageFormValues;

const isLocation = (value: string | undefined): value is Location =>
  (LOCATIONS as readonly string[]).includes(value ?? '');

export function initialFormValues(resourceGroups: readonly ResourceGroup[]): StorageFormValues {
  const group = resourceGroups.find((candidate) => candidate.ready);
  return {
    name: '',
    application: '',
    environment: 'dev',
    resourceGroup: group?.name ?? '',
    location: isLocation(group?.location) ? group.location : 'westeurope',
    accountKind: 'StorageV2',
    accountTier: 'Standard',
    replicationType: 'LRS',
    accessTier: 'Hot',
    publicNetworkAccess: false,
    allowedIpRanges: '',
    hierarchicalNamespace: false,
    sftpEnabled: false,
    nfsv3Enabled: false,
    httpsOnly: true,
    sharedKeyAccess: true,
  };
}

export const tierLocked = (kind: AccountKind) => PREMIUM_ONLY_KINDS.includes(kind);
export const replicationAllowed = (tier: AccountTier, replication: ReplicationType) =>
  !(tier === 'Premium' && GEO_REDUNDANT_REPLICATION.includes(replication));
export const accessTierApplies = (kind: AccountKind) => ACCESS_TIER_KINDS.includes(kind);

/** Applies one change and then the rules that follow from it, so the form never holds a combination Azure refuses. */
export function applyChange<F extends StorageFormField>(
  values: StorageFormValues,
  field: F,
  value: StorageFormValues[F],
  resourceGroups: readonly ResourceGroup[] = [],
): StorageFormValues {
  const next: StorageFormValues = { ...values, [field]: value };
  if (field === 'resourceGroup') {
    const location = resourceGroups.find((group) => group.name === value)?.location;
    if (isLocation(location)) next.location = location;
  }
  if (tierLocked(next.accountKind)) next.accountTier = 'Premium';
  if (!replicationAllowed(next.accountTier, next.replicationType)) next.replicationType = 'LRS';
  if (!accessTierApplies(next.accountKind)) next.accessTier = '';
  else if (next.accessTier === '') next.accessTier = 'Hot';
  if (!supportsHierarchicalNamespace(next.accountKind, next.accountTier)) next.hierarchicalNamespace = false;
  if (!next.hierarchicalNamespace) {
    next.sftpEnabled = false;
    next.nfsv3Enabled = false;
  }
  // NFSv3 clients do not speak TLS; Azure requires secure transfer off for it.
  if (field === 'nfsv3Enabled' && value === true) next.httpsOnly = false;
  if (field === 'httpsOnly' && value === true) next.nfsv3Enabled = false;
  return next;
}

export function parseIpRanges(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((range) => range.trim())
    .filter((range) => range !== '');
}

/** The JSON body the form submits. */
export function toRequestInput(values: StorageFormValues): StorageAccountRequestInput {
  const { allowedIpRanges, accessTier, name, ...rest } = values;
  return {
    ...rest,
    ...(name.trim() === '' ? {} : { name: name.trim() }),
    ...(accessTier === '' ? {} : { accessTier }),
    allowedIpRanges: values.publicNetworkAccess ? parseIpRanges(allowedIpRanges) : [],
  };
}

export type FormCheck = { valid: true; request: StorageAccountRequest } | { valid: false; fields: FieldErrors };

export function checkForm(values: StorageFormValues): FormCheck {
  const parsed = parseStorageAccountRequest(toRequestInput(values));
  return parsed.success ? { valid: true, request: parsed.request } : { valid: false, fields: parsed.fields };
}

/** A best-effort request for the live preview, even while some fields are still invalid. */
export function previewRequest(values: StorageFormValues): StorageAccountRequest {
  const input = toRequestInput(values);
  return {
    ...input,
    name: input.name && input.name !== '' ? input.name : undefined,
    accountKind: values.accountKind,
    accountTier: values.accountTier,
    replicationType: values.replicationType,
    allowedIpRanges: input.allowedIpRanges ?? [],
    publicNetworkAccess: values.publicNetworkAccess,
    hierarchicalNamespace: values.hierarchicalNamespace,
    sftpEnabled: values.sftpEnabled,
    nfsv3Enabled: values.nfsv3Enabled,
    httpsOnly: values.httpsOnly,
    sharedKeyAccess: values.sharedKeyAccess,
    application: values.application.trim(),
  };
}
