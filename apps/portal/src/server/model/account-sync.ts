import 'server-only';
import type { OwnedSettings } from '@/lib/platform/owned-settings';
import type { Condition, SyncReport } from '@/lib/platform/types';
import type { AccountObject } from './account-object';
import { CHANGE_KEYS, RECONCILE_REQUESTED_AT } from './change-annotations';

/**
 * Desired (spec.forProvider) against observed (status.atProvider), in the portal's terms, and the
 * drift report the detail page shows: Crossplane's conditions, values Azure reports differently,
 * and spec edits made outside the portal since its last change.
 */

/** JSON with object keys sorted: the API server gives objects back with keys in its own order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** Settings both sides know and disagree on; a side that says nothing is no disagreement. */
export function differingFields(desired: Partial<OwnedSettings>, reported: Partial<OwnedSettings>): string[] {
  return (Object.keys(desired) as (keyof OwnedSettings)[]).filter(
    (key) => reported[key] !== undefined && !same(desired[key], reported[key]),
  );
}

function lastApplied(annotations: Record<string, string>): Record<string, unknown> | undefined {
  const raw = annotations[CHANGE_KEYS.lastApplied];
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keys the portal last applied whose value in spec.forProvider is now different (or gone). Keys the
 * portal never set are not compared: Crossplane providers late-initialize spec.forProvider with
 * Azure's defaults after a create, which is no edit made elsewhere.
 */
function changedSinceLastApplied(forProvider: Record<string, unknown>, annotations: Record<string, string>): string[] {
  const applied = lastApplied(annotations);
  if (!applied) return [];
  return Object.keys(applied)
    .filter((key) => !same(applied[key] ?? null, forProvider[key] ?? null))
    .sort();
}

const describe = (condition: Condition) => [condition.reason, condition.message].filter(Boolean).join(': ');

export function syncReport(
  object: AccountObject,
  conditions: readonly Condition[],
  desired: Partial<OwnedSettings>,
  reported: Partial<OwnedSettings>,
): SyncReport {
  const annotations = object.metadata?.annotations ?? {};
  const forProvider = (object.spec?.forProvider ?? {}) as Record<string, unknown>;
  const deleting = Boolean(object.metadata?.deletionTimestamp);
  const reasons: string[] = [];

  const synced = conditions.find((c) => c.type === 'Synced');
  const ready = conditions.find((c) => c.type === 'Ready');
  if (synced?.status === 'False') {
    reasons.push(`Crossplane reports Synced=False: the desired state could not be applied (${describe(synced)})`);
  }
  if (!deleting && ready?.status === 'False' && ready.reason !== 'Creating' && ready.reason !== undefined) {
    reasons.push(`Crossplane reports Ready=False: Azure does not report the account as available (${describe(ready)})`);
  } else if (!deleting && (synced === undefined || ready?.status !== 'True')) {
    // A new account before its first reconcile, or one Azure is still creating: nothing is confirmed yet.
    reasons.push('Crossplane has not yet reported the account ready and synced');
  }
  const differing = deleting ? [] : differingFields(desired, reported);
  if (differing.length > 0) reasons.push(`Azure reports other values than the spec asks for: ${differing.join(', ')}`);
  const outside = changedSinceLastApplied(forProvider, annotations);
  if (outside.length > 0) {
    reasons.push(`The spec was changed outside the portal since its last change: ${outside.join(', ')}`);
  }

  const report: SyncReport = {
    inSync: reasons.length === 0,
    reasons,
    differingFields: differing,
    changedOutsidePortal: outside,
  };
  const requestedAt = annotations[RECONCILE_REQUESTED_AT];
  if (requestedAt) report.resyncRequestedAt = requestedAt;
  const requestedBy = annotations[CHANGE_KEYS.resyncRequestedBy];
  if (requestedBy) report.resyncRequestedBy = requestedBy;
  const handled = (object.status as { lastHandledReconcileAt?: unknown } | undefined)?.lastHandledReconcileAt;
  if (typeof handled === 'string' && handled) report.resyncHandledAt = handled;
  return report;
}
