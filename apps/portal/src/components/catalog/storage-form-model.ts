/**
 * The workflow's form state. Pure functions, so the form's behaviour is tested without a browser.
 * The Azure rules come from lib/platform/storage-rules.ts and validity from the request schema;
 * the form only steers people away from combinations the rules refuse.
 */
import {
  parseStorageAccountRequest,
  type FieldErrors,
  type StorageAccountRequest,
  type StorageAccountRequestInput,
} from '@/lib/platform/storage-request';
import {
  conformCombination,
  locationsFor,
  AZURE_PUBLIC_REGIONS,
  type AccessTier,
  type Location,
} from '@/lib/platform/storage-rules';
import { SETTING_LABELS } from '@/lib/platform/setting-labels';
import type { ResourceGroup } from '@/lib/platform/types';

/**
 * The form's state: the storage request's fields (whose settings are the owned settings under the
 * request's wire names), two of them as their inputs hold them.
 */
export type StorageFormValues = Omit<StorageAccountRequest, 'name' | 'accessTier' | 'allowedIpRanges'> & {
  name: string;
  /** '' when the kind takes no access tier. */
  accessTier: AccessTier | '';
  /** As typed: addresses or CIDR ranges separated by commas, spaces or new lines. */
  allowedIpRanges: string;
};

export type StorageFormField = keyof StorageFormValues;

/** Each field's visible label, for messages that point at a field. */
export const FIELD_LABELS: Record<StorageFormField, string> = {
  name: 'Account name',
  application: SETTING_LABELS.application,
  environment: SETTING_LABELS.environment,
  resourceGroup: SETTING_LABELS.resourceGroup,
  location: SETTING_LABELS.location,
  accountKind: SETTING_LABELS.kind,
  accountTier: SETTING_LABELS.tier,
  replicationType: SETTING_LABELS.replication,
  accessTier: SETTING_LABELS.accessTier,
  publicNetworkAccess: SETTING_LABELS.publicNetworkAccess,
  allowedIpRanges: SETTING_LABELS.allowedIpRanges,
  httpsOnly: SETTING_LABELS.httpsOnly,
  sharedKeyAccess: SETTING_LABELS.sharedKeyAccess,
  hierarchicalNamespace: SETTING_LABELS.hierarchicalNamespace,
  sftpEnabled: SETTING_LABELS.sftpEnabled,
  nfsv3Enabled: SETTING_LABELS.nfsv3Enabled,
};

/** The steps before review and their fields, in the order they appear on the page. */
export const FORM_STEPS = [
  {
    title: 'Basics',
    fields: [
      'name',
      'application',
      'environment',
      'resourceGroup',
      'location',
      'accountKind',
      'accountTier',
      'replicationType',
      'accessTier',
    ],
  },
  {
    title: 'Networking and security',
    fields: [
      'publicNetworkAccess',
      'allowedIpRanges',
      'httpsOnly',
      'sharedKeyAccess',
      'hierarchicalNamespace',
      'sftpEnabled',
      'nfsv3Enabled',
    ],
  },
] as const satisfies readonly { title: string; fields: readonly StorageFormField[] }[];

/** What the form offers: the approved resource groups and the locations platform policy allows. */
export interface FormChoices {
  resourceGroups: readonly ResourceGroup[];
  locations: readonly Location[];
}

const ALL_LOCATIONS: FormChoices = { resourceGroups: [], locations: AZURE_PUBLIC_REGIONS };

/** The group's own location when it is allowed, else the first allowed location. */
function locationForGroup(groupName: string, choices: FormChoices): Location {
  const groupLocation = choices.resourceGroups.find((group) => group.name === groupName)?.location;
  return locationsFor(groupLocation, choices.locations)[0] ?? 'westeurope';
}

export function initialFormValues(choices: FormChoices): StorageFormValues {
  const group = choices.resourceGroups.find((candidate) => candidate.ready);
  return {
    name: '',
    application: '',
    environment: 'dev',
    resourceGroup: group?.name ?? '',
    location: locationForGroup(group?.name ?? '', choices),
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

/** Applies one change and then the rules that follow from it, so the form never holds a combination Azure refuses. */
export function applyChange<F extends StorageFormField>(
  values: StorageFormValues,
  field: F,
  value: StorageFormValues[F],
  choices: FormChoices = ALL_LOCATIONS,
): StorageFormValues {
  const next: StorageFormValues = { ...values, [field]: value };
  if (field === 'resourceGroup') next.location = locationForGroup(next.resourceGroup, choices);
  const conformed = conformCombination({ ...next, accessTier: next.accessTier || undefined }, field);
  return { ...conformed, accessTier: conformed.accessTier ?? '' };
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
  const { name, accessTier, allowedIpRanges, ...settings } = values;
  return {
    ...settings,
    name: name.trim() === '' ? undefined : name.trim(),
    ...(accessTier === '' ? {} : { accessTier }),
    allowedIpRanges: values.publicNetworkAccess ? parseIpRanges(allowedIpRanges) : [],
    application: values.application.trim(),
  };
}
