import 'server-only';
import { PlatformUnavailableError } from './errors';
import type { Actor, HistoryItem, IntentAction } from '@/lib/platform/intent';
import type { OwnedFieldChange, OwnedSettings } from '@/lib/platform/owned-settings';
import type { NameLife } from './name-life';

/**
 * The intent ledger: every accepted action on an account, appended before the portal calls the
 * cluster, and its outcome appended after. Nothing is ever rewritten. An account's desired state is
 * the desired settings of its last applied record; a record whose desired state is null (a delete)
 * means nothing is wanted any more.
 */

export interface NewIntent {
  account: string;
  action: IntentAction;
  actor: Actor;
  requestId: string;
  /** The account's desired settings after the action; null once it is deleted. */
  desired: OwnedSettings | null;
  changes: OwnedFieldChange[];
  /** The trace of the request that recorded it, while tracing is on. */
  traceId?: string;
}

export interface IntentRecord extends NewIntent {
  id: string;
  /** ISO time the intent was recorded. */
  at: string;
}

export type IntentOutcome = { status: 'applied' } | { status: 'failed'; reason: string };

/** The desired state of one account: the last applied record that wants it to exist. */
export interface DesiredState {
  account: string;
  desired: OwnedSettings;
  /** The record it comes from. */
  recordId: string;
  action: IntentAction;
  /** Who asked for that record: the last actor, not necessarily the owner. */
  actor: Actor;
  at: string;
  /**
   * Whose account it is: the actor of the applied create or adopt since its last applied delete
   * (name-life.ts). Absent when the ledger holds neither, for an account created before the ledger.
   */
  owner?: Actor;
}

/** What the ledger knows when a create is about to be recorded. */
export interface CreateFacts {
  /** The name's current life: whether intent holds it, and whose it is. */
  life: NameLife;
  /** The accounts whose life the creating actor started (create or adopt, not failed) and no applied delete ended. */
  ownedLive: string[];
  /** The creating actor's creates of the last hour that did not fail (in flight included), oldest first. */
  recentCreates: { account: string; at: string }[];
}

/** How far back `recentCreates` reaches. */
export const RECENT_CREATES_MS = 60 * 60 * 1000;

export interface IntentLedger {
  /** False for the in-memory ledger: intent is lost when the process ends. */
  readonly durable: boolean;
  /** Resolves once the ledger can be used (PostgreSQL: migrations applied). @throws LedgerUnavailableError */
  ready(): Promise<void>;
  /** Appends an intent with outcome pending. @throws LedgerUnavailableError */
  append(intent: NewIntent): Promise<IntentRecord>;
  /**
   * Appends a create once `check` has accepted the facts, in one step: no other create of that name
   * or by that actor is recorded between the check and the append (in PostgreSQL, one transaction
   * under advisory locks, so across replicas too). @throws what `check` throws; LedgerUnavailableError
   */
  appendCreate(intent: NewIntent, check: (facts: CreateFacts) => void): Promise<IntentRecord>;
  /** Appends the outcome of a recorded intent; an intent has at most one. @throws LedgerUnavailableError */
  settle(id: string, outcome: IntentOutcome): Promise<void>;
  /** Every record of one account, newest first. */
  history(account: string): Promise<HistoryItem[]>;
  /** The desired state of one account, if the portal wants it to exist. */
  desired(account: string): Promise<DesiredState | undefined>;
  /**
   * The desired state of every account the portal wants to exist: the same frozen map until that
   * changes, so a reader can keep what it derives from it.
   */
  desiredAll(): Promise<ReadonlyMap<string, Readonly<DesiredState>>>;
  close(): Promise<void>;
}

/**
 * The ledger cannot be read or written; the action that needed it is refused (503), because no
 * action may reach the cluster unrecorded. The cause (logged, never answered) says why.
 */
export class LedgerUnavailableError extends PlatformUnavailableError {
  constructor(options?: { cause?: unknown }) {
    super('The portal’s intent ledger cannot be reached, so nothing was changed. Try again in a moment.', options);
  }
}

/** The history item of a record and its outcome (shared by both ledgers, so they answer alike). */
export function historyItem(record: IntentRecord, outcome: (IntentOutcome & { at: string }) | undefined): HistoryItem {
  return {
    id: record.id,
    action: record.action,
    by: record.actor.display,
    actor: record.actor,
    at: record.at,
    status: outcome?.status ?? 'pending',
    ...(outcome?.status === 'failed' ? { reason: outcome.reason } : {}),
    ...(outcome ? { settledAt: outcome.at } : {}),
    changes: record.changes,
    traceId: record.traceId ?? null,
  };
}

/** A frozen copy of every desired state, as desiredAll hands it out. */
export function frozenDesiredStates(states: Iterable<DesiredState>): ReadonlyMap<string, Readonly<DesiredState>> {
  const frozen = (value: unknown): unknown => {
    if (value !== null && typeof value === 'object') {
      for (const inner of Object.values(value)) frozen(inner);
      Object.freeze(value);
    }
    return value;
  };
  return new Map([...states].map((state) => [state.account, frozen(structuredClone(state)) as DesiredState]));
}
