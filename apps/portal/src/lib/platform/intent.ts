/**
 * The portal's record of intent as pages and API clients see it: one entry per accepted action on
 * an account, with who asked, when, what it changed in the desired state and how it ended.
 * Pure module: safe in the browser and on the server.
 */
import type { OwnedFieldChange } from './owned-settings';

export const INTENT_ACTIONS = [
  'create',
  'change',
  'resync',
  'delete',
  'restore-intent',
  'accept-cloud',
  'recreate',
  'adopt',
  'manage',
] as const;
export type IntentAction = (typeof INTENT_ACTIONS)[number];

/** `pending` until the cluster call it preceded has answered. */
export type IntentStatus = 'pending' | 'applied' | 'failed';

/** A person as the ledger records them: the stable subject ownership compares, and a name to show. */
export interface Actor {
  subject: string;
  display: string;
}

/** One entry of GET /api/platform/resources/history, newest first. */
export interface HistoryItem {
  id: string;
  action: IntentAction;
  /** Who asked, as people read it (actor.display). */
  by: string;
  actor: Actor;
  /** When the intent was recorded (before the cluster call). */
  at: string;
  status: IntentStatus;
  /** Why it failed, when it did. */
  reason?: string;
  /** When the outcome was recorded. */
  settledAt?: string;
  /** What the action changed in the desired state; empty for a resync. */
  changes: OwnedFieldChange[];
  /** The trace of the request that recorded it (32 hex digits); null when it was not traced. */
  traceId: string | null;
}

export const INTENT_ACTION_LABELS: Record<IntentAction, string> = {
  create: 'Created',
  change: 'Changed',
  resync: 'Resync requested',
  delete: 'Deletion requested',
  'restore-intent': 'Intent restored',
  'accept-cloud': 'Cloud values accepted',
  recreate: 'Recreated',
  adopt: 'Adopted (observe only)',
  manage: 'Moved to full management',
};
