import 'server-only';
import { PORTAL_KEYS, settingsFromForProvider } from '@/lib/platform/account-manifest';
import type { AccountState, Condition, ObservedAccount, StorageAccount } from '@/lib/platform/types';
import type { AccountObject, KubernetesCondition } from './account-object';
import { syncReport } from './account-sync';
import { CHANGE_KEYS } from './change-annotations';

function toCondition(raw: KubernetesCondition): Condition | undefined {
  if (!raw.type) return undefined;
  const status = raw.status === 'True' || raw.status === 'False' ? raw.status : 'Unknown';
  return {
    type: raw.type,
    status,
    ...(raw.reason ? { reason: raw.reason } : {}),
    ...(raw.message ? { message: raw.message } : {}),
    ...(raw.lastTransitionTime ? { lastTransitionTime: raw.lastTransitionTime } : {}),
  };
}

function describe(condition: Condition | undefined): string | undefined {
  if (!condition) return undefined;
  const parts = [condition.reason, condition.message].filter(Boolean);
  return parts.length > 0 ? parts.join(': ') : undefined;
}

/**
 * Crossplane reports Synced (did the last reconcile work?) and Ready (is the cloud resource
 * usable?). A deletion timestamp wins over both: the object is on its way out.
 */
export function deriveState(
  conditions: readonly Condition[],
  deletionRequested: boolean,
): { state: AccountState; detail?: string } {
  const ready = conditions.find((c) => c.type === 'Ready');
  const synced = conditions.find((c) => c.type === 'Synced');
  const detail = (c: Condition | undefined) => {
    const text = describe(c);
    return text === undefined ? {} : { detail: text };
  };

  if (deletionRequested) return { state: 'Deleting', ...detail(ready ?? synced) };
  if (synced?.status === 'False') return { state: 'Failed', ...detail(synced) };
  if (ready?.status === 'True') return { state: 'Ready', ...detail(ready) };
  if (ready?.status === 'False') {
    // Creating is the normal path to Ready; anything else (Unavailable) means the provider gave up.
    return ready.reason === 'Creating' || ready.reason === undefined
      ? { state: 'Provisioning', ...detail(ready) }
      : { state: 'Failed', ...detail(ready) };
  }
  if (!ready && (!synced || synced.status === 'True')) return { state: 'Provisioning', ...detail(synced) };
  return { state: 'Unknown', ...detail(ready ?? synced) };
}

const asString = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

function observed(atProvider: Record<string, unknown> | undefined): ObservedAccount {
  if (!atProvider) return {};
  const keys = [
    'id',
    'primaryLocation',
    'secondaryLocation',
    'primaryBlobEndpoint',
    'primaryDfsEndpoint',
    'primaryFileEndpoint',
    'primaryWebEndpoint',
  ] as const;
  const result: ObservedAccount = {};
  for (const key of keys) {
    const value = asString(atProvider[key]);
    if (value !== undefined) result[key] = value;
  }
  return result;
}

/** Only Observe (no '*', Create, Update or Delete): Crossplane reads the Azure account and changes nothing. */
export function observesOnly(policies: unknown): boolean {
  if (!Array.isArray(policies) || policies.length === 0) return false;
  return !policies.some((policy) => ['*', 'Create', 'Update', 'Delete', 'LateInitialize'].includes(String(policy)));
}

/** Turns a raw Account object into the portal's StorageAccount; tolerant of missing fields. */
export function toStorageAccount(object: AccountObject): StorageAccount {
  const metadata = object.metadata ?? {};
  const labels = metadata.labels ?? {};
  const annotations = metadata.annotations ?? {};

  const conditions = (object.status?.conditions ?? []).map(toCondition).filter((c): c is Condition => c !== undefined);
  const { state, detail } = deriveState(conditions, Boolean(metadata.deletionTimestamp));
  const externalName = annotations[PORTAL_KEYS.externalName];
  // Spec is what was asked for; atProvider is what Azure reports. The summary prefers the observed value.
  const desiredView = settingsFromForProvider(object.spec?.forProvider);
  const reportedView = settingsFromForProvider(object.status?.atProvider);
  const summary = { ...desiredView, ...reportedView };

  const account: StorageAccount = {
    name: metadata.name ?? '',
    namespace: metadata.namespace || null,
    state,
    conditions,
    observed: observed(object.status?.atProvider),
    desired: desiredView,
    reported: reportedView,
    sync: syncReport(object, conditions, desiredView, reportedView),
  };
  const optional: Partial<StorageAccount> = {
    uid: metadata.uid,
    application: labels[PORTAL_KEYS.application],
    environment: labels[PORTAL_KEYS.environment],
    resourceGroup: summary.resourceGroup,
    location: summary.location,
    kind: summary.kind,
    tier: summary.tier,
    replication: summary.replication,
    sku: summary.tier && summary.replication ? `${summary.tier}_${summary.replication}` : undefined,
    accessTier: summary.accessTier,
    stateDetail: detail,
    createdAt: metadata.creationTimestamp,
    deletionRequestedAt: metadata.deletionTimestamp,
    requestedBy: annotations[PORTAL_KEYS.requestedBy],
    requestedBySubject: annotations[PORTAL_KEYS.requestedBySubject],
    deletionRequestedBy: annotations[PORTAL_KEYS.deletionRequestedBy],
    requestId: annotations[PORTAL_KEYS.requestId],
    externalName: externalName && externalName !== metadata.name ? externalName : undefined,
    resourceVersion: metadata.resourceVersion,
    lastChangedBy: annotations[CHANGE_KEYS.changedBy],
    lastChangedAt: annotations[CHANGE_KEYS.changedAt],
    observeOnly: observesOnly(object.spec?.managementPolicies) ? true : undefined,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) (account as unknown as Record<string, unknown>)[key] = value;
  }
  return account;
}
