import { readdir, readFile } from 'node:fs/promises';
import type { ReservedSql, Sql } from 'postgres';

/** The versioned SQL files, `NNNN_name.sql`, applied in order. The folder sits beside src/ and dist/. */
const MIGRATIONS_FOLDER = new URL('../../../migrations/', import.meta.url);

/**
 * The key of the session-level advisory lock that serialises migrations: replicas starting together
 * queue on it, and each finds the work done by the first. A fixed number no other code uses.
 */
const MIGRATION_LOCK_KEY = 4_217_790_113;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export async function readMigrations(folder: URL = MIGRATIONS_FOLDER): Promise<Migration[]> {
  const files = (await readdir(folder)).filter((file) => file.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = /^(\d+)_([\w-]+)\.sql$/.exec(file);
    if (!match) throw new Error(`Migration file name ${file} is not NNNN_name.sql`);
    const version = Number(match[1]);
    if (migrations.some((known) => known.version === version)) throw new Error(`Two migrations are version ${version}`);
    migrations.push({ version, name: match[2] ?? file, sql: await readFile(new URL(file, folder), 'utf8') });
  }
  return migrations;
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, each in its own transaction,
 * while holding the advisory lock on one reserved connection. Returns the versions it applied.
 */
export async function migrate(sql: Sql, migrations?: Migration[]): Promise<number[]> {
  const pending = migrations ?? (await readMigrations());
  return withMigrationLock(sql, (connection) => applyMigrations(connection, pending));
}

/**
 * Runs `work` on one reserved connection that holds the migration advisory lock, so that work
 * which must happen once per database (migrations, re-folding search keys) runs in one process at
 * a time: the others wait and then find it done.
 */
export async function withMigrationLock<T>(sql: Sql, work: (connection: ReservedSql) => Promise<T>): Promise<T> {
  const connection = await sql.reserve();
  try {
    await connection`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    try {
      return await work(connection);
    } finally {
      await connection`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.catch(() => undefined);
    }
  } finally {
    connection.release();
  }
}

/** Applies the migrations not yet recorded; the caller holds the migration lock on `connection`. */
export async function applyMigrations(connection: ReservedSql, migrations: Migration[]): Promise<number[]> {
  await connection`
    create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`;
  const done = new Set(
    (await connection<{ version: number }[]>`select version from schema_migrations`).map((row) => row.version),
  );
  const applied: number[] = [];
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    await connection.unsafe('begin');
    try {
      await connection.unsafe(migration.sql).simple(); // several statements in one file
      await connection`insert into schema_migrations (version, name) values (${migration.version}, ${migration.name})`;
      await connection.unsafe('commit');
    } catch (error) {
      await connection.unsafe('rollback').catch(() => undefined);
      throw new Error(`Migration ${migration.version} (${migration.name}) failed: ${describe(error)}`, {
        cause: error,
      });
    }
    applied.push(migration.version);
  }
  return applied;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
