import 'server-only';
import type { ReservedSql, Sql } from 'postgres';

/**
 * The portal's schema in PORTAL_DATABASE_URL, as versioned migrations applied at start under a
 * PostgreSQL advisory lock, so replicas starting together apply each one once. The same small
 * approach as the Books API's (apps/books-api/src/store/postgres/migrations.ts): a migration
 * library would bring a second PostgreSQL driver or a folder of files, and the portal's Next.js
 * bundle carries these as code, not as files it has to find at run time.
 */

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** A fixed key no other code uses; replicas queue on it and find the work done by the first. */
export const PORTAL_MIGRATION_LOCK_KEY = 7_414_206_101;

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
];

/** Applies every migration not yet recorded, each in its own transaction; returns the versions applied. */
export async function migratePortalDatabase(
  sql: Sql,
  migrations: readonly Migration[] = PORTAL_MIGRATIONS,
): Promise<number[]> {
  const connection = await sql.reserve();
  try {
    await connection`select pg_advisory_lock(${PORTAL_MIGRATION_LOCK_KEY})`;
    try {
      return await applyMigrations(connection, migrations);
    } finally {
      await connection`select pg_advisory_unlock(${PORTAL_MIGRATION_LOCK_KEY})`.catch(() => undefined);
    }
  } finally {
    connection.release();
  }
}

async function applyMigrations(connection: ReservedSql, migrations: readonly Migration[]): Promise<number[]> {
  await connection`
    create table if not exists portal_schema_migrations (
      version    integer primary key,
      name       text not null,
      applied_at timestamptz not null default now()
    )`;
  const done = new Set(
    (await connection<{ version: number }[]>`select version from portal_schema_migrations`).map((row) => row.version),
  );
  const applied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue;
    await connection.unsafe('begin');
    try {
      await connection.unsafe(migration.sql).simple(); // several statements in one migration
      await connection`insert into portal_schema_migrations (version, name) values (${migration.version}, ${migration.name})`;
      await connection.unsafe('commit');
    } catch (error) {
      await connection.unsafe('rollback').catch(() => undefined);
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`Portal migration ${migration.version} (${migration.name}) failed: ${message}`, { cause: error });
    }
    applied.push(migration.version);
  }
  return applied;
}
