import 'server-only';
import { randomUUID } from 'node:crypto';
import type { ISql, JSONValue } from 'postgres';
import type { Actor, IntentAction } from '@/lib/platform/intent';
import type { OwnedFieldChange, OwnedSettings } from '@/lib/platform/owned-settings';
import { migratePortalDatabase } from '../database/migrations';
import { openPortalPool } from '../database/pool';
import {
  frozenDesiredStates,
  historyItem,
  LedgerUnavailableError,
  type CreateFacts,
  type DesiredState,
  type IntentLedger,
  type IntentOutcome,
  type IntentRecord,
  type NewIntent,
  RECENT_CREATES_MS,
} from '../../model/ledger';
import { nameLife } from '../../model/name-life';

interface RecordRow {
  seq: string;
  id: string;
  account: string;
  action: IntentAction;
  actor_subject: string;
  actor_display: string;
  request_id: string;
  recorded_at: Date;
  desired: OwnedSettings | null;
  changes: OwnedFieldChange[];
  trace_id: string | null;
}

interface HistoryRow extends RecordRow {
  status: 'applied' | 'failed' | null;
  reason: string | null;
  settled_at: Date | null;
}

interface AppliedRow extends RecordRow {
  settled_at: Date;
}

interface LifeRow {
  action: IntentAction;
  actor_subject: string;
  actor_display: string;
  status: 'applied' | 'failed' | null;
}

/**
 * Advisory lock namespaces (the two-key form, so they never meet the migrations' one-key lock): a
 * create holds its actor's and its name's for the length of its transaction.
 */
const CREATES_BY_ACTOR_LOCK = 7414;
const CREATES_OF_NAME_LOCK = 7415;

/**
 * Outcomes are read again this far back on every refresh: an outcome's time is taken inside its
 * insert, and one that commits a moment after a later one must still be seen.
 */
const REREAD_SECONDS = 30;

function toRecord(row: RecordRow): IntentRecord {
  const actor: Actor = { subject: row.actor_subject, display: row.actor_display };
  return {
    id: row.id,
    account: row.account,
    action: row.action,
    actor,
    requestId: row.request_id,
    at: new Date(row.recorded_at).toISOString(),
    desired: row.desired,
    changes: row.changes,
    ...(row.trace_id === null ? {} : { traceId: row.trace_id }),
  };
}

/**
 * The ledger in PostgreSQL (PORTAL_DATABASE_URL): shared by every portal replica and kept across
 * restarts. Desired state is held in memory and brought up to date from the outcomes appended since
 * the last read, so an inventory read costs one small query however many accounts there are.
 */
export function createPostgresLedger(databaseUrl: string): IntentLedger {
  const sql = openPortalPool(databaseUrl);
  let migrated: Promise<void> | undefined;
  const ready = () => {
    migrated ??= migratePortalDatabase(sql).then(
      () => undefined,
      (error: unknown) => {
        migrated = undefined; // try again on the next call
        throw error;
      },
    );
    return migrated;
  };
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      await ready();
      return await work();
    } catch (error) {
      throw error instanceof LedgerUnavailableError ? error : new LedgerUnavailableError({ cause: error });
    }
  };

  async function insert(query: ISql, intent: NewIntent): Promise<IntentRecord> {
    const [row] = await query<RecordRow[]>`
      insert into portal_intents (id, account, action, actor_subject, actor_display, request_id, desired, changes, trace_id)
      values (${randomUUID()}, ${intent.account}, ${intent.action}, ${intent.actor.subject},
              ${intent.actor.display}, ${intent.requestId},
              ${intent.desired === null ? null : sql.json(intent.desired as unknown as JSONValue)},
              ${sql.json(intent.changes as unknown as JSONValue)}, ${intent.traceId ?? null})
      returning *`;
    if (!row) throw new Error('the insert returned no row');
    return toRecord(row);
  }

  async function lifeOf(query: ISql, account: string) {
    const rows = await query<LifeRow[]>`
      select i.action, i.actor_subject, i.actor_display, o.status
      from portal_intents i left join portal_intent_outcomes o on o.intent_id = i.id
      where i.account = ${account}
      order by i.seq desc`;
    return nameLife(
      rows.map((row) => ({
        action: row.action,
        status: row.status ?? 'pending',
        actor: { subject: row.actor_subject, display: row.actor_display },
      })),
    );
  }

  /** What one person holds and has created lately, as the create limits count it (CreateFacts). */
  async function usageOf(query: ISql, subject: string): Promise<Pick<CreateFacts, 'ownedLive' | 'recentCreates'>> {
    // Per account this person ever started, the newest create or adopt that did not fail, and
    // whether an applied delete came after it; it is theirs if they started it and none did.
    const owned = await query<{ account: string }[]>`
      select s.account from (
        select distinct on (i.account) i.account, i.actor_subject, i.seq
        from portal_intents i left join portal_intent_outcomes o on o.intent_id = i.id
        where i.action in ('create', 'adopt') and (o.status is null or o.status = 'applied')
          and i.account in (
            select account from portal_intents where actor_subject = ${subject} and action in ('create', 'adopt'))
        order by i.account, i.seq desc
      ) s
      where s.actor_subject = ${subject}
        and not exists (
          select 1 from portal_intents d join portal_intent_outcomes od on od.intent_id = d.id
          where d.account = s.account and d.action = 'delete' and od.status = 'applied' and d.seq > s.seq)`;
    const recent = await query<{ account: string; recorded_at: Date }[]>`
      select i.account, i.recorded_at
      from portal_intents i left join portal_intent_outcomes o on o.intent_id = i.id
      where i.actor_subject = ${subject} and i.action = 'create'
        and i.recorded_at > ${new Date(Date.now() - RECENT_CREATES_MS)}
        and (o.status is null or o.status = 'applied')
      order by i.recorded_at`;
    return {
      ownedLive: owned.map((row) => row.account),
      recentCreates: recent.map((row) => ({ account: row.account, at: new Date(row.recorded_at).toISOString() })),
    };
  }

  /** The last applied record of each account (null desired: deleted), and how far outcomes were read. */
  const latest = new Map<string, { seq: bigint; state: DesiredState | null }>();
  /** Per account, the newest applied create or adopt, and the newest applied delete: its owner (name-life.ts). */
  const lifeStarts = new Map<string, { seq: bigint; actor: Actor }>();
  const lifeEnds = new Map<string, bigint>();
  let readUpTo: Date | undefined;
  let handedOut: ReadonlyMap<string, Readonly<DesiredState>> | undefined;
  let refreshing: Promise<void> | undefined;

  async function readOutcomes(): Promise<void> {
    const since = readUpTo ? new Date(readUpTo.getTime() - REREAD_SECONDS * 1000) : new Date(0);
    const rows = await sql<AppliedRow[]>`
      select i.*, o.recorded_at as settled_at
      from portal_intent_outcomes o join portal_intents i on i.id = o.intent_id
      where o.status = 'applied' and o.recorded_at >= ${since}
      order by o.recorded_at`;
    for (const row of rows) {
      const seq = BigInt(row.seq);
      const known = latest.get(row.account);
      if (!known || known.seq < seq) {
        handedOut = undefined;
        const record = toRecord(row);
        latest.set(row.account, {
          seq,
          state:
            record.desired === null
              ? null
              : {
                  account: record.account,
                  desired: record.desired,
                  recordId: record.id,
                  action: record.action,
                  actor: record.actor,
                  at: record.at,
                },
        });
      }
      if (row.action === 'create' || row.action === 'adopt') {
        const start = lifeStarts.get(row.account);
        if (!start || start.seq < seq) {
          lifeStarts.set(row.account, { seq, actor: { subject: row.actor_subject, display: row.actor_display } });
          handedOut = undefined;
        }
      } else if (row.action === 'delete' && (lifeEnds.get(row.account) ?? -1n) < seq) {
        lifeEnds.set(row.account, seq);
        handedOut = undefined;
      }
      const settled = new Date(row.settled_at);
      if (!readUpTo || settled > readUpTo) readUpTo = settled;
    }
  }

  /** The state with its owner: the newest applied create or adopt, unless a delete was applied after it. */
  function withOwner(state: DesiredState): DesiredState {
    const start = lifeStarts.get(state.account);
    if (!start || start.seq < (lifeEnds.get(state.account) ?? -1n)) return state;
    return { ...state, owner: start.actor };
  }

  const refresh = () => {
    refreshing ??= guarded(readOutcomes).finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  return {
    durable: true,
    ready: () => guarded(async () => undefined),
    append: (intent: NewIntent) => guarded(() => insert(sql, intent)),
    async appendCreate(intent: NewIntent, check: (facts: CreateFacts) => void) {
      // The check's refusal is the answer, not a ledger failure: it passes through as thrown.
      let refusal: { error: unknown } | undefined;
      try {
        return await guarded(() =>
          sql.begin(async (tx) => {
            // Every replica's creates by this actor, and of this name, queue here until this one commits.
            await tx`select pg_advisory_xact_lock(${CREATES_BY_ACTOR_LOCK}, hashtext(${intent.actor.subject}))`;
            await tx`select pg_advisory_xact_lock(${CREATES_OF_NAME_LOCK}, hashtext(${intent.account}))`;
            const facts: CreateFacts = {
              life: await lifeOf(tx, intent.account),
              ...(await usageOf(tx, intent.actor.subject)),
            };
            try {
              check(facts);
            } catch (error) {
              refusal = { error };
              throw error;
            }
            return insert(tx, intent);
          }),
        );
      } catch (error) {
        throw refusal ? refusal.error : error;
      }
    },
    settle: (id: string, outcome: IntentOutcome) =>
      guarded(async () => {
        await sql`
          insert into portal_intent_outcomes (intent_id, status, reason)
          values (${id}, ${outcome.status}, ${outcome.status === 'failed' ? outcome.reason : null})`;
      }),
    history: (account: string) =>
      guarded(async () => {
        const rows = await sql<HistoryRow[]>`
          select i.*, o.status, o.reason, o.recorded_at as settled_at
          from portal_intents i left join portal_intent_outcomes o on o.intent_id = i.id
          where i.account = ${account}
          order by i.seq desc`;
        return rows.map((row) =>
          historyItem(
            toRecord(row),
            row.status === null || row.settled_at === null
              ? undefined
              : row.status === 'failed'
                ? { status: 'failed', reason: row.reason ?? '', at: new Date(row.settled_at).toISOString() }
                : { status: 'applied', at: new Date(row.settled_at).toISOString() },
          ),
        );
      }),
    async desired(account: string) {
      await refresh();
      const state = latest.get(account)?.state;
      return state ? structuredClone(withOwner(state)) : undefined;
    },
    async desiredAll() {
      await refresh();
      handedOut ??= frozenDesiredStates([...latest.values()].flatMap(({ state }) => (state ? [withOwner(state)] : [])));
      return handedOut;
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
