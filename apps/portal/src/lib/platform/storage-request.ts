/**
 * The one schema for a storage account request. The workflow form validates with it as the
 * person types, and the route handler validates every POST with it, so the rules cannot drift.
 * Pure module: safe to import from client components and from server code.
 */
import { z } from 'zod';

export const ENVIRONMENTS = ['dev', 'test', 'staging', 'prod'] as const;
export const LOCATIONS = [
  'westeurope',
  'northeurope',
  'swedencentral',
  'germanywestcentral',
  'uksouth',
  'eastus',
  'eastus2',
  'westus2',
] as const;
export const ACCOUNT_KINDS = ['StorageV2', 'BlobStorage', 'BlockBlobStorage', 'FileStorage', 'Storage'] as const;
export const ACCOUNT_TIERS = ['Standard', 'Premium'] as const;
export const REPLICATION_TYPES = ['LRS', 'ZRS', 'GRS', 'RAGRS', 'GZRS', 'RAGZRS'] as const;
export const ACCESS_TIERS = ['Hot', 'Cool'] as const;

export type Environment = (typeof ENVIRONMENTS)[number];
export type Location = (typeof LOCATIONS)[number];
export type AccountKind = (typeof ACCOUNT_KINDS)[number];
export type AccountTier = (typeof ACCOUNT_TIERS)[number];
export type ReplicationType = (typeof REPLICATION_TYPES)[number];
export type AccessTier = (typeof ACCESS_TIERS)[number];

/** Azure rule: these kinds exist only on Premium storage. */
export const PREMIUM_ONLY_KINDS: readonly AccountKind[] = ['BlockBlobStorage', 'FileStorage'];
/** Azure rule: an access tier can be chosen only for these kinds. */
export const ACCESS_TIER_KINDS: readonly AccountKind[] = ['BlobStorage', 'FileStorage', 'StorageV2'];
/** Azure rule: Premium storage cannot replicate to a paired region. */
export const GEO_REDUNDANT_REPLICATION: readonly ReplicationType[] = ['GRS', 'RAGRS', 'GZRS', 'RAGZRS'];

export const STORAGE_ACCOUNT_NAME_PATTERN = /^[a-z0-9]{3,24}$/;
/** Application names become label values and part of generated account names. */
export const APPLICATION_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
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

const requiredString = (label: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${label} is required` : `${label} must be a string`;

const nameField = z
  .string({ error: 'Name must be a string' })
  .trim()
  .refine((value) => value === '' || STORAGE_ACCOUNT_NAME_PATTERN.test(value), {
    message: 'Use 3-24 lower-case letters and digits, or leave empty to generate a name',
  })
  .transform((value) => (value === '' ? undefined : value))
  .optional();

function choice<const T extends readonly [string, ...string[]]>(values: T, label: string) {
  return z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` });
}

const booleanField = (label: string, fallback: boolean) =>
  z.boolean({ error: `${label} must be true or false` }).default(fallback);

export const storageAccountRequestSchema = z
  .strictObject(
    {
      name: nameField,
      application: z
        .string({ error: requiredString('Application') })
        .trim()
        .regex(
          APPLICATION_PATTERN,
          'Use 1-40 lower-case letters, digits and hyphens, starting and ending with a letter or digit',
        ),
      environment: choice(ENVIRONMENTS, 'Environment'),
      resourceGroup: z
        .string({ error: requiredString('Resource group') })
        .trim()
        .regex(RESOURCE_GROUP_PATTERN, 'Use 1-90 letters, digits, _ - . ( ), not ending with a period'),
      location: choice(LOCATIONS, 'Location'),
      accountKind: choice(ACCOUNT_KINDS, 'Account kind').default('StorageV2'),
      accountTier: choice(ACCOUNT_TIERS, 'Tier').default('Standard'),
      replicationType: choice(REPLICATION_TYPES, 'Replication').default('LRS'),
      accessTier: choice(ACCESS_TIERS, 'Access tier').optional(),
      publicNetworkAccess: booleanField('Public network access', false),
      allowedIpRanges: z
        .array(z.string({ error: 'Each allowed IP range must be a string' }).trim(), {
          error: 'Allowed IP ranges must be a list of IPv4 addresses or CIDR ranges',
        })
        .max(MAX_ALLOWED_IP_RANGES, `At most ${MAX_ALLOWED_IP_RANGES} allowed IP ranges`)
        .default([]),
      hierarchicalNamespace: booleanField('Hierarchical namespace', false),
      sftpEnabled: booleanField('SFTP', false),
      nfsv3Enabled: booleanField('NFSv3', false),
      httpsOnly: booleanField('HTTPS only', true),
      sharedKeyAccess: booleanField('Shared key access', true),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Unknown field' : 'Request body must be a JSON object') },
  )
  .superRefine((request, ctx) => {
    const problem = (path: keyof typeof request, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message });

    if (PREMIUM_ONLY_KINDS.includes(request.accountKind) && request.accountTier !== 'Premium') {
      problem('accountTier', `${request.accountKind} accounts exist only on the Premium tier`);
    }
    if (request.accountTier === 'Premium' && GEO_REDUNDANT_REPLICATION.includes(request.replicationType)) {
      problem('replicationType', 'Premium accounts support only LRS or ZRS replication');
    }
    if (request.accessTier !== undefined && !ACCESS_TIER_KINDS.includes(request.accountKind)) {
      problem('accessTier', `An access tier applies only to ${ACCESS_TIER_KINDS.join(', ')} accounts`);
    }
    if (request.hierarchicalNamespace && !supportsHierarchicalNamespace(request.accountKind, request.accountTier)) {
      problem(
        'hierarchicalNamespace',
        'Hierarchical namespace needs a Standard StorageV2 or a Premium BlockBlobStorage account',
      );
    }
    if (request.sftpEnabled && !request.hierarchicalNamespace) {
      problem('sftpEnabled', 'SFTP requires hierarchical namespace');
    }
    if (request.nfsv3Enabled && !request.hierarchicalNamespace) {
      problem('nfsv3Enabled', 'NFSv3 requires hierarchical namespace');
    } else if (request.nfsv3Enabled && request.httpsOnly) {
      problem('nfsv3Enabled', 'NFSv3 cannot be used while HTTPS-only traffic is required');
    }
    const badRange = request.allowedIpRanges.find((range) => !isAllowedIpRange(range));
    if (badRange !== undefined) {
      problem('allowedIpRanges', `"${badRange}" is not an IPv4 address or a CIDR range from /8 to /30`);
    } else if (request.allowedIpRanges.length > 0 && !request.publicNetworkAccess) {
      problem('allowedIpRanges', 'Allowed IP ranges need public network access turned on');
    }
  });

export function supportsHierarchicalNamespace(kind: AccountKind, tier: AccountTier): boolean {
  return (kind === 'StorageV2' && tier === 'Standard') || (kind === 'BlockBlobStorage' && tier === 'Premium');
}

/** What a client sends (defaults may be left out). */
export type StorageAccountRequestInput = z.input<typeof storageAccountRequestSchema>;
/** A validated request: defaults filled in, an empty name removed. */
export type StorageAccountRequest = z.output<typeof storageAccountRequestSchema>;
export type RequestField = keyof StorageAccountRequest;
/** Field name -> the first problem with it. */
export type FieldErrors = Partial<Record<string, string>>;

/** Collapses zod issues to one message per top-level field, the shape the API and form share. */
export function fieldErrorsFromIssues(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [String(issue.path[0] ?? '')];
    for (const key of keys) {
      fields[key] ??= issue.message;
    }
  }
  return fields;
}

export type ParsedStorageRequest =
  { success: true; request: StorageAccountRequest } | { success: false; message: string; fields: FieldErrors };

export function parseStorageAccountRequest(input: unknown): ParsedStorageRequest {
  const result = storageAccountRequestSchema.safeParse(input);
  if (result.success) return { success: true, request: result.data };
  // A problem with the body as a whole (not an object) has no field to sit beside.
  const { '': bodyProblem, ...fields } = fieldErrorsFromIssues(result.error.issues);
  return { success: false, message: bodyProblem ?? 'The storage account request is invalid', fields };
}
