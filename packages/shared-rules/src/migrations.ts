import type { ReservedSql, Sql } from 'postgres';

/**
 * How both apps bring their PostgreSQL schema up to date: versioned migrations, each applied once
 * in its own transaction and recorded in a table of the app's, while one session holds an
 * advisory lock, so replicas starting together queue on the lock and each finds the work done by
 * the first.
 */

/** One versioned step of a schema; its SQL may hold several statements. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Where an app records its migrations, and the lock that serialises them. */
export interface MigrationLedger {
  /** The table of the versions applied, created when missing. */
  readonly table: string;
  /** The session-level advisory lock's key: a fixed number no other code of the database uses. */
  readonly lockKey: number;
}

/**
 * Runs `work` on one reserved connection that holds the advisory lock `lockKey`, so that work which
 * must happen once per database runs in one process at a time: the others wait, then find it done.
 */
export async function withAdvisoryLock<T>(
  sql: Sql,
  lockKey: number,
  work: (connection: ReservedSql) => Promise<T>,
): Promise<T> {
  const connection = await sql.reserve();
  try {
    await connection`select pg_advisory_lock(${lockKey})`;
    try {
      return await work(connection);
    } finally {
      await connection`select pg_advisory_unlock(${lockKey})`.catch(() => undefined);
    }
  } finally {
    connection.release();
  }
}

/**
 * Applies the migrations `table` does not record yet, in version order, each in its own transaction;
 * returns the versions applied. The caller holds the ledger's lock on `connection`.
 */
export async function applyMigrations(
  connection: ReservedSql,
  migrations: readonly Migration[],
  table: string,
): Promise<number[]> {
  await connection`
    create table if not exists ${connection(table)} (
      version    integer primary key,
      name       text not null,
      applied_at timestamptz not null default now()
    )`;
  const done = new Set(
    (await connection<{ version: number }[]>`select version from ${connection(table)}`).map((row) => row.version),
  );
  const applied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue;
    await connection.unsafe('begin');
    try {
      await connection.unsafe(migration.sql).simple(); // several statements in one migration
      await connection`insert into ${connection(table)} (version, name) values (${migration.version}, ${migration.name})`;
      await connection.unsafe('commit');
    } catch (error) {
      await connection.unsafe('rollback').catch(() => undefined);
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Migration ${migration.version} (${migration.name}) failed: ${reason}`, { cause: error });
    }
    applied.push(migration.version);
  }
  return applied;
}

/** Applies every migration not yet recorded in the ledger's table, under its lock; returns the versions applied. */
export function migrate(sql: Sql, migrations: readonly Migration[], ledger: MigrationLedger): Promise<number[]> {
  return withAdvisoryLock(sql, ledger.lockKey, (connection) => applyMigrations(connection, migrations, ledger.table));
}
