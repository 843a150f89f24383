/**
 * Changing an existing storage account in place: which settings may change, why the others may
 * not, the one schema for a change request (used by the edit dialog and by PATCH), and the diff
 * of what a change does. Pure module: safe in the browser and on the server.
 */
import { z } from '../zod';
import { ownValue } from '../own-value';
import {
  CHANGEABLE_FIELDS,
  type ChangeableField,
  type ChangeableSettings,
  type FixedCombination,
  type OwnedSettings,
} from './owned-settings';
import { SETTING_LABELS } from './setting-labels';
import { fieldErrorsFromIssues, type FieldErrors } from './storage-request';
import {
  ACCESS_TIERS,
  APPLICATION_NAME,
  ENVIRONMENTS,
  isAllowedIpRange,
  MAX_ALLOWED_IP_RANGES,
  ruleViolations,
  type AccessTier,
  type AccountKind,
  type AccountTier,
  type ReplicationType,
} from './storage-rules';

/** TLS versions an account may require; anything older is below the platform's baseline. */
export const CHANGEABLE_TLS_VERSIONS = ['TLS1_2', 'TLS1_3'] as const;

/** Fields of a storage request that an existing account keeps for life, with the reason shown to people. */
export const FIXED_FIELDS: Record<string, { label: string; reason: string }> = {
  name: { label: 'Name', reason: 'The name is the account’s identity in Azure and in its endpoints' },
  resourceGroup: {
    label: SETTING_LABELS.resourceGroup,
    reason: 'Moving an account to another resource group is a move operation, not a setting',
  },
  location: {
    label: SETTING_LABELS.location,
    reason: 'An account cannot move to another region; request a new one there',
  },
  accountKind: {
    label: SETTING_LABELS.kind,
    reason: 'Changing the kind is a one-way upgrade the platform team performs',
  },
  accountTier: {
    label: SETTING_LABELS.tier,
    reason: 'Standard and Premium run on different hardware; Azure cannot convert between them',
  },
  replicationType: {
    label: SETTING_LABELS.replication,
    reason: 'Changing replication is a data migration that the platform team schedules',
  },
  hierarchicalNamespace: {
    label: SETTING_LABELS.hierarchicalNamespace,
    reason: 'Enabling it is a one-way account upgrade; it cannot be switched off again',
  },
  sftpEnabled: {
    label: SETTING_LABELS.sftpEnabled,
    reason: 'SFTP needs local users and keys that the platform team sets up with it',
  },
  nfsv3Enabled: { label: SETTING_LABELS.nfsv3Enabled, reason: 'Azure allows NFSv3 only when an account is created' },
  sharedKeyAccess: {
    label: SETTING_LABELS.sharedKeyAccess,
    reason: 'Turning it off breaks every client that signs with account keys; the platform team coordinates it',
  },
};

const booleanField = (label: string) => z.boolean({ error: `${label} must be true or false` }).optional();

/** The body of PATCH /api/platform/resources?name=<n>: the version last read plus the fields to change. */
const changeShape = {
  resourceVersion: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'resourceVersion is required: send the version you last read, so a concurrent change is not overwritten'
          : 'resourceVersion must be a string',
    })
    .trim()
    .min(1, 'resourceVersion must not be empty'),
  accessTier: z.enum(ACCESS_TIERS, { error: `Access tier must be one of: ${ACCESS_TIERS.join(', ')}` }).optional(),
  publicNetworkAccess: booleanField(SETTING_LABELS.publicNetworkAccess),
  allowedIpRanges: z
    .array(z.string({ error: 'Each allowed IP range must be a string' }).trim(), {
      error: 'Allowed IP ranges must be a list of IPv4 addresses or CIDR ranges',
    })
    .max(MAX_ALLOWED_IP_RANGES, `At most ${MAX_ALLOWED_IP_RANGES} allowed IP ranges`)
    .refine((ranges) => ranges.every(isAllowedIpRange), {
      message: 'Use IPv4 addresses or CIDR ranges from /8 to /30',
    })
    .optional(),
  minTlsVersion: z
    .string({ error: 'Minimum TLS version must be a string' })
    .refine((value) => (CHANGEABLE_TLS_VERSIONS as readonly string[]).includes(value), {
      message: `Minimum TLS version must be ${CHANGEABLE_TLS_VERSIONS.join(' or ')}; the platform does not allow older TLS`,
    })
    .optional(),
  httpsOnly: booleanField(SETTING_LABELS.httpsOnly),
  application: z
    .string({ error: 'Application must be a string' })
    .trim()
    .regex(
      APPLICATION_NAME.pattern,
      'Use 1-40 lower-case letters, digits and hyphens, starting and ending with a letter or digit',
    )
    .optional(),
  environment: z.enum(ENVIRONMENTS, { error: `Environment must be one of: ${ENVIRONMENTS.join(', ')}` }).optional(),
};

const accountChangeSchema = z.object(changeShape, { error: 'Request body must be a JSON object' });

export type AccountChange = z.output<typeof accountChangeSchema>;

export type ParsedAccountChange =
  { success: true; change: AccountChange } | { success: false; message: string; fields: FieldErrors };

export function parseAccountChange(input: unknown): ParsedAccountChange {
  // Without a prototype, a body key "__proto__" becomes an entry like any unknown field.
  const fields = Object.create(null) as FieldErrors;
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    for (const key of Object.keys(input)) {
      if (Object.hasOwn(changeShape, key)) continue;
      const fixed = ownValue(FIXED_FIELDS, key);
      fields[key] = fixed ? `${fixed.label} cannot be changed in place: ${fixed.reason}` : 'Unknown field';
    }
  }
  const result = accountChangeSchema.safeParse(input);
  if (!result.success) Object.assign(fields, { ...fieldErrorsFromIssues(result.error.issues), ...fields });
  const { '': bodyProblem, ...named } = fields;
  if (bodyProblem !== undefined || !result.success || Object.keys(named).length > 0) {
    const fixed = Object.keys(named).filter((key) => Object.hasOwn(FIXED_FIELDS, key));
    const message =
      bodyProblem ??
      (fixed.length > 0
        ? `These fields cannot be changed in place: ${fixed.join(', ')}`
        : 'The change request is invalid');
    return { success: false, message, fields: named };
  }
  return { success: true, change: result.data };
}

/** The settings after a change; fields the change does not name keep their value. */
export function applyChange(current: ChangeableSettings, change: Omit<AccountChange, 'resourceVersion'>) {
  const next: ChangeableSettings = { ...current, allowedIpRanges: [...current.allowedIpRanges] };
  for (const field of CHANGEABLE_FIELDS) {
    const value = change[field];
    if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
  }
  // Without public access the firewall list means nothing; keep the account's state coherent.
  if (!next.publicNetworkAccess && change.publicNetworkAccess === false && change.allowedIpRanges === undefined) {
    next.allowedIpRanges = [];
  }
  return next;
}

/**
 * Azure's combination rules (one module, ./storage-rules.ts) applied to the account as the change
 * would leave it; each problem is reported on a field the person can change here.
 */
export function checkChangedSettings(next: ChangeableSettings, account: FixedCombination): FieldErrors {
  const problems: FieldErrors = {};
  const violations = ruleViolations({
    // Read back from the cluster these are plain strings; the rules compare them by value.
    accountKind: (account.kind ?? 'StorageV2') as AccountKind,
    accountTier: (account.tier ?? 'Standard') as AccountTier,
    replicationType: (account.replication ?? 'LRS') as ReplicationType,
    accessTier: next.accessTier as AccessTier | undefined,
    publicNetworkAccess: next.publicNetworkAccess,
    allowedIpRanges: next.allowedIpRanges,
    hierarchicalNamespace: account.hierarchicalNamespace,
    sftpEnabled: account.sftpEnabled,
    nfsv3Enabled: account.nfsv3Enabled,
    httpsOnly: next.httpsOnly,
  });
  for (const { field, message } of violations) {
    if ((CHANGEABLE_FIELDS as readonly string[]).includes(field)) problems[field] ??= message;
    // NFSv3 itself cannot change here; HTTPS only is the setting that collides with it.
    else if (field === 'nfsv3Enabled' && next.httpsOnly && account.hierarchicalNamespace) {
      problems['httpsOnly'] = `This account uses NFSv3: ${message}`;
    }
  }
  return problems;
}

export interface FieldChange {
  field: ChangeableField;
  label: string;
  from: ChangeableSettings[ChangeableField];
  to: ChangeableSettings[ChangeableField];
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The fields whose value differs, in the order the edit dialog shows them. */
export function diffSettings(current: ChangeableSettings, next: ChangeableSettings): FieldChange[] {
  return CHANGEABLE_FIELDS.filter((field) => !same(current[field], next[field])).map((field) => ({
    field,
    label: SETTING_LABELS[field],
    from: current[field],
    to: next[field],
  }));
}

/** The smallest change request that turns `current` into `next`. */
export function changeRequest(
  resourceVersion: string,
  current: ChangeableSettings,
  next: ChangeableSettings,
): AccountChange {
  const request: Record<string, unknown> = { resourceVersion };
  for (const { field, to } of diffSettings(current, next)) request[field] = to;
  return request as AccountChange;
}

/** The desired settings after an in-place change: only the fields the change names move. */
export function withChange(desired: OwnedSettings, change: Omit<AccountChange, 'resourceVersion'>): OwnedSettings {
  return { ...desired, ...applyChange(desired, change) };
}
