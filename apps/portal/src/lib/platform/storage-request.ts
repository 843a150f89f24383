/**
 * The one schema for a storage account request. The workflow form validates with it as the
 * person types, and the route handler validates every POST with it. The Azure rules it checks
 * live in ./storage-rules.ts, which the form also reads to steer its choices.
 * Pure module: safe to import from client components and from server code.
 */
import { z } from '../zod';
import { SETTING_LABELS } from './setting-labels';
import {
  ACCESS_TIERS,
  ACCOUNT_KINDS,
  ACCOUNT_TIERS,
  accountNameProblem,
  applicationProblem,
  ENVIRONMENTS,
  AZURE_PUBLIC_REGIONS,
  MAX_ALLOWED_IP_RANGES,
  REPLICATION_TYPES,
  RESOURCE_GROUP_PATTERN,
  ruleViolations,
} from './storage-rules';

const requiredString = (label: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${label} is required` : `${label} must be a string`;

const nameField = z
  .string({ error: 'Name must be a string' })
  .trim()
  .superRefine((value, ctx) => {
    // Empty means "generate a name"; anything typed must be a valid name.
    const problem = value === '' ? undefined : accountNameProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => (value === '' ? undefined : value))
  .optional();

function choice<const T extends readonly [string, ...string[]]>(values: T, label: string) {
  return z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` });
}

const booleanField = (label: string, fallback: boolean) =>
  z.boolean({ error: `${label} must be true or false` }).default(fallback);

const storageAccountRequestSchema = z
  .strictObject(
    {
      name: nameField,
      application: z
        .string({ error: requiredString('Application') })
        .trim()
        .superRefine((value, ctx) => {
          const problem = applicationProblem(value);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
      environment: choice(ENVIRONMENTS, 'Environment'),
      resourceGroup: z
        .string({ error: requiredString('Resource group') })
        .trim()
        .min(1, 'Resource group is required')
        .regex(RESOURCE_GROUP_PATTERN, 'Use 1-90 letters, digits, _ - . ( ), not ending with a period'),
      location: z.enum(AZURE_PUBLIC_REGIONS, {
        error: (issue) =>
          issue.input === undefined || issue.input === ''
            ? 'Location is required'
            : 'Location must be an Azure public region name, e.g. westeurope or westus3',
      }),
      accountKind: choice(ACCOUNT_KINDS, 'Account kind').default('StorageV2'),
      accountTier: choice(ACCOUNT_TIERS, 'Tier').default('Standard'),
      replicationType: choice(REPLICATION_TYPES, 'Replication').default('LRS'),
      accessTier: choice(ACCESS_TIERS, 'Access tier').optional(),
      publicNetworkAccess: booleanField(SETTING_LABELS.publicNetworkAccess, false),
      allowedIpRanges: z
        .array(z.string({ error: 'Each allowed IP range must be a string' }).trim(), {
          error: 'Allowed IP ranges must be a list of IPv4 addresses or CIDR ranges',
        })
        .max(MAX_ALLOWED_IP_RANGES, `At most ${MAX_ALLOWED_IP_RANGES} allowed IP ranges`)
        .default([]),
      hierarchicalNamespace: booleanField(SETTING_LABELS.hierarchicalNamespace, false),
      sftpEnabled: booleanField(SETTING_LABELS.sftpEnabled, false),
      nfsv3Enabled: booleanField(SETTING_LABELS.nfsv3Enabled, false),
      httpsOnly: booleanField(SETTING_LABELS.httpsOnly, true),
      sharedKeyAccess: booleanField(SETTING_LABELS.sharedKeyAccess, true),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Unknown field' : 'Request body must be a JSON object') },
  )
  .superRefine((request, ctx) => {
    for (const { field, message } of ruleViolations(request)) {
      ctx.addIssue({ code: 'custom', path: [field], message });
    }
  });

/** What a client sends (defaults may be left out). */
export type StorageAccountRequestInput = z.input<typeof storageAccountRequestSchema>;
/** A validated request: defaults filled in, an empty name removed. */
export type StorageAccountRequest = z.output<typeof storageAccountRequestSchema>;
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
