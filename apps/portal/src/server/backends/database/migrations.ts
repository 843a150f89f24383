import 'server-only';
import { migrate, type Migration } from '@books/shared-rules';
import type { Sql } from 'postgres';

/**
 * The portal's schema in PORTAL_DATABASE_URL, as versioned migrations applied at start by the
 * runner both apps share (packages/shared-rules: each migration once, under a PostgreSQL advisory
 * lock, so replicas starting together apply each one once). The portal's Next.js bundle carries
 * them as code, not as files it has to find at run time.
 */

/** A fixed key no other code uses; replicas queue on it and find the work done by the first. */
const PORTAL_MIGRATION_LOCK_KEY = 7_414_206_101;

export const PORTAL_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'intent_ledger',
    sql: `
      create table portal_intents (
        seq           bigint generated always as identity primary key,
        id            uuid not null unique,
        account       text not null,
        action        text not null,
        actor_subject text not null,
        actor_display text not null,
        request_id    text not null,
        recorded_at   timestamptz not null default clock_timestamp(),
        desired       jsonb,
        changes       jsonb not null
      );
      create index portal_intents_by_account on portal_intents (account, seq desc);

      -- One outcome per intent, appended after the cluster call; the primary key refuses a second.
      create table portal_intent_outcomes (
        intent_id   uuid primary key references portal_intents (id),
        status      text not null check (status in ('applied', 'failed')),
        reason      text,
        recorded_at timestamptz not null default clock_timestamp()
      );
      create index portal_intent_outcomes_by_time on portal_intent_outcomes (recorded_at);

      -- Records are appended, never rewritten: the database refuses an update, delete or truncate.
      create function portal_ledger_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'the intent ledger is append-only: % on % refused', tg_op, tg_table_name;
      end
      $$;
      create trigger portal_intents_append_only before update or delete on portal_intents
        for each row execute function portal_ledger_append_only();
      create trigger portal_intents_no_truncate before truncate on portal_intents
        for each statement execute function portal_ledger_append_only();
      create trigger portal_intent_outcomes_append_only before update or delete on portal_intent_outcomes
        for each row execute function portal_ledger_append_only();
      create trigger portal_intent_outcomes_no_truncate before truncate on portal_intent_outcomes
        for each statement execute function portal_ledger_append_only();
    `,
  },
  {
    version: 2,
    name: 'intent_trace_id',
    // The trace of the request that recorded an intent (issue 42); null before, and with tracing off.
    sql: `alter table portal_intents add column trace_id text;`,
  },
  {
    version: 3,
    name: 'intent_ledger_by_actor',
    // The create limits count one person's creates (ledger.appendCreate) without reading every record.
    sql: `create index portal_intents_by_actor on portal_intents (actor_subject, recorded_at);`,
  },
];

/** Applies every migration not yet recorded, each in its own transaction; returns the versions applied. */
export function migratePortalDatabase(
  sql: Sql,
  migrations: readonly Migration[] = PORTAL_MIGRATIONS,
): Promise<number[]> {
  return migrate(sql, migrations, { table: 'portal_schema_migrations', lockKey: PORTAL_MIGRATION_LOCK_KEY });
}
