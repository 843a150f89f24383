import 'server-only';
import { randomUUID } from 'node:crypto';
import type { HistoryItem } from '@/lib/platform/intent';
import {
  frozenDesiredStates,
  historyItem,
  type DesiredState,
  type IntentLedger,
  type IntentOutcome,
  type IntentRecord,
  type NewIntent,
  RECENT_CREATES_MS,
  type CreateFacts,
} from '../../model/ledger';
import { nameLife, STARTS_A_LIFE, type LifeRecord } from '../../model/name-life';

/**
 * The ledger in this process's memory: for development and single-replica trials only. It is lost
 * on restart, which the portal says at start and on its settings page.
 */
export function createMemoryLedger(): IntentLedger {
  const records: IntentRecord[] = [];
  const byId = new Map<string, IntentRecord>();
  const outcomes = new Map<string, IntentOutcome & { at: string }>();
  /** The last applied record of each account, in the order outcomes arrived. */
  const desired = new Map<string, DesiredState>();
  const appliedOrder = new Map<string, number>();
  let handedOut: ReadonlyMap<string, Readonly<DesiredState>> | undefined;

  const append = (intent: NewIntent): IntentRecord => {
    const record: IntentRecord = { ...structuredClone(intent), id: randomUUID(), at: new Date().toISOString() };
    records.push(record);
    byId.set(record.id, record);
    return structuredClone(record);
  };
  /** The name's life from its records, or from its applied ones only (what desired state rests on). */
  const lifeOf = (account: string, only?: 'applied') =>
    nameLife(
      records
        .filter((record) => record.account === account)
        .map((record): LifeRecord => ({ ...record, status: outcomes.get(record.id)?.status ?? 'pending' }))
        .filter((record) => only === undefined || record.status === only)
        .reverse(),
    );

  /** What one person holds and has created lately, as the create limits count it. */
  const usageOf = (subject: string): Pick<CreateFacts, 'ownedLive' | 'recentCreates'> => {
    const statusOf = (record: IntentRecord) => outcomes.get(record.id)?.status ?? 'pending';
    const since = Date.now() - RECENT_CREATES_MS;
    const started = new Set(
      records
        .filter((record) => record.actor.subject === subject && STARTS_A_LIFE.has(record.action))
        .map((record) => record.account),
    );
    const ownedLive = [...started].filter((account) => {
      // A failed create started nothing: it is no account to count.
      const counted = records.filter(
        (record) => record.account === account && !(STARTS_A_LIFE.has(record.action) && statusOf(record) === 'failed'),
      );
      const life = nameLife(counted.map((record): LifeRecord => ({ ...record, status: statusOf(record) })).reverse());
      return life.live && life.owner?.subject === subject;
    });
    const recentCreates = records
      .filter(
        (record) =>
          record.actor.subject === subject &&
          record.action === 'create' &&
          statusOf(record) !== 'failed' &&
          Date.parse(record.at) > since,
      )
      .map((record) => ({ account: record.account, at: record.at }));
    return { ownedLive, recentCreates };
  };

  return {
    durable: false,
    async ready() {},
    async append(intent: NewIntent) {
      return append(intent);
    },
    async appendCreate(intent, check) {
      // Nothing is awaited between the check and the append: in one process that is one step.
      check({ life: lifeOf(intent.account), ...usageOf(intent.actor.subject) });
      return append(intent);
    },
    async settle(id, outcome) {
      const record = byId.get(id);
      if (!record) throw new Error(`No intent ${id} to settle`);
      if (outcomes.has(id)) throw new Error(`Intent ${id} already has an outcome`);
      outcomes.set(id, { ...outcome, at: new Date().toISOString() });
      if (outcome.status !== 'applied') return;
      handedOut = undefined;
      // The later record wins, whichever outcome arrived first: that is the order people asked in.
      const index = records.indexOf(record);
      if ((appliedOrder.get(record.account) ?? -1) < index) {
        appliedOrder.set(record.account, index);
        if (record.desired === null) desired.delete(record.account);
        else {
          desired.set(record.account, {
            account: record.account,
            desired: record.desired,
            recordId: record.id,
            action: record.action,
            actor: record.actor,
            at: record.at,
          });
        }
      }
      const state = desired.get(record.account);
      if (!state) return;
      const { owner } = lifeOf(record.account, 'applied');
      if (owner) state.owner = owner;
      else delete state.owner;
    },
    async history(account): Promise<HistoryItem[]> {
      return records
        .filter((record) => record.account === account)
        .reverse()
        .map((record) => structuredClone(historyItem(record, outcomes.get(record.id))));
    },
    async desired(account) {
      const state = desired.get(account);
      return state ? structuredClone(state) : undefined;
    },
    async desiredAll() {
      handedOut ??= frozenDesiredStates(desired.values());
      return handedOut;
    },
    async close() {},
  };
}
