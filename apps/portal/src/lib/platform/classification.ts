/**
 * Where an account stands against what people asked for: the portal's intent (the ledger), the
 * cluster object Crossplane works from, and the account Azure holds. One pure function decides it
 * for every inventory item, from what the portal last read of each side.
 * Pure module: safe in the browser and on the server.
 */
import { OWNED_FIELDS, sameOwnedValue, type OwnedField, type OwnedSettings } from './owned-settings';

export const CLASSIFICATION_CODES = [
  'in_sync',
  'pending',
  'cluster_drift',
  'drifted',
  'not_in_cluster',
  'desired_only',
  'cloud_only',
  'observation_unavailable',
  'cluster_unavailable',
] as const;
export type ClassificationCode = (typeof CLASSIFICATION_CODES)[number];

export interface Classification {
  code: ClassificationCode;
  /** The owned fields that differ (cluster_drift: cluster object against intent; drifted: Azure against intent). */
  fields: OwnedField[];
}

/** Words for each class, as the inventory, the overview and the detail page show them. */
export const CLASSIFICATION_LABELS: Record<ClassificationCode, string> = {
  in_sync: 'In sync',
  pending: 'Pending',
  cluster_drift: 'Changed in the cluster',
  drifted: 'Changed in Azure',
  not_in_cluster: 'Missing from the cluster',
  desired_only: 'Not in Azure',
  cloud_only: 'Not requested (Azure only)',
  observation_unavailable: 'Azure not readable',
  cluster_unavailable: 'Cluster unreachable',
};

/** One sentence per class saying what it means and what to do. */
export const CLASSIFICATION_HINTS: Record<ClassificationCode, string> = {
  in_sync: 'The cluster object and Azure hold what was asked for through the portal.',
  pending: 'Crossplane is still provisioning, changing or deleting this account.',
  cluster_drift:
    'The cluster object no longer asks for what was requested through the portal (edited with kubectl, or created outside the portal). Restore the intent, or accept what is there.',
  drifted:
    'Azure holds other values than were requested (changed outside Crossplane). Restore the intent, or accept the cloud values as the new intent.',
  not_in_cluster:
    'The portal has intent for this account but the cluster has no object for it (the cluster was rebuilt or the object removed). Recreate it: Crossplane takes over the existing Azure account by its external name.',
  desired_only: 'The portal has intent for this account but Azure has no such account, and nothing is creating it.',
  cloud_only:
    'Azure holds this account, tagged by the portal or in an approved resource group, but nobody asked for it through the portal. An admin may adopt it (observe only).',
  observation_unavailable:
    'Azure could not be read, so whether the account is as requested is unknown. It is retried in the background.',
  cluster_unavailable: 'The cluster cannot be reached; this is what the portal last recorded as intent.',
};

/** What the portal last read of the cluster object; undefined when there is none. */
export interface ClusterSide {
  /** spec.forProvider in owned terms (a value the spec leaves out is undefined). */
  spec: Partial<OwnedSettings>;
  /** Crossplane is still at work: provisioning, changing, deleting, or retrying after a failure. */
  busy: boolean;
  /** managementPolicies ["Observe"]: Crossplane only reads the account. */
  observeOnly: boolean;
}

/** What the portal last read of Azure, when it observes Azure at all. */
export type CloudSide =
  { status: 'unconfigured' } | { status: 'unavailable' } | { status: 'observed'; account?: Partial<OwnedSettings> };

export interface ClassificationInput {
  clusterAvailable: boolean;
  /** The desired settings of the last applied intent, if any. */
  intent?: OwnedSettings;
  cluster?: ClusterSide;
  cloud: CloudSide;
}

/**
 * Owned fields where `actual` states something other than `intent`. A field either side leaves out
 * is not compared: a provider may fill in what the intent left to Azure's default, and a side that
 * has not reported a value has not drifted.
 */
export function fieldsDifferingFromIntent(
  intent: Partial<OwnedSettings>,
  actual: Partial<OwnedSettings>,
): OwnedField[] {
  return OWNED_FIELDS.filter(
    (field) =>
      intent[field] !== undefined && actual[field] !== undefined && !sameOwnedValue(intent[field], actual[field]),
  );
}

/** The owned fields a side states at all: everything it holds that nobody asked for. */
function statedFields(settings: Partial<OwnedSettings>): OwnedField[] {
  return OWNED_FIELDS.filter((field) => settings[field] !== undefined);
}

const result = (code: ClassificationCode, fields: OwnedField[] = []): Classification => ({ code, fields });

export function classify(input: ClassificationInput): Classification {
  const { intent, cluster, cloud } = input;
  if (!input.clusterAvailable) return result('cluster_unavailable');

  if (!intent) {
    // Nobody asked for this through the portal: never "in sync", whatever it holds.
    if (cluster) return result('cluster_drift', statedFields(cluster.spec));
    return result('cloud_only');
  }

  if (!cluster) {
    if (cloud.status === 'observed' && !cloud.account) return result('desired_only');
    return result('not_in_cluster');
  }
  if (cluster.busy) return result('pending');
  // An adopted account is observed only: its spec says nothing the portal asked for yet.
  const clusterFields = cluster.observeOnly ? [] : fieldsDifferingFromIntent(intent, cluster.spec);
  if (clusterFields.length > 0) return result('cluster_drift', clusterFields);

  switch (cloud.status) {
    case 'unconfigured':
      return result('in_sync');
    case 'unavailable':
      return result('observation_unavailable');
    case 'observed': {
      if (!cloud.account) return result('desired_only');
      const cloudFields = fieldsDifferingFromIntent(intent, cloud.account);
      return cloudFields.length > 0 ? result('drifted', cloudFields) : result('in_sync');
    }
  }
}

/** How many items are in each class, every class present (zero included), for the overview. */
export function countByClass(items: readonly { classification: Classification }[]): Record<ClassificationCode, number> {
  const counts = Object.fromEntries(CLASSIFICATION_CODES.map((code) => [code, 0])) as Record<
    ClassificationCode,
    number
  >;
  for (const item of items) counts[item.classification.code] += 1;
  return counts;
}
