import { readdir, readFile } from 'node:fs/promises';
import {
  applyMigrations as applyMigrationsOf,
  migrate as migrateWith,
  withAdvisoryLock,
  type Migration,
  type MigrationLedger,
} from '@books/shared-rules';
import type { ReservedSql, Sql } from 'postgres';

export type { Migration };

/** The versioned SQL files, `NNNN_name.sql`, applied in order. The folder sits beside src/ and dist/. */
const MIGRATIONS_FOLDER = new URL('../../../migrations/', import.meta.url);

/** The Books API's ledger: its table, and the advisory lock its replicas queue on (a fixed number no other code uses). */
const LEDGER: MigrationLedger = { table: 'schema_migrations', lockKey: 4_217_790_113 };

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

/** Applies every migration file not yet recorded (packages/shared-rules' runner). Returns the versions it applied. */
export async function migrate(sql: Sql, migrations?: Migration[]): Promise<number[]> {
  return migrateWith(sql, migrations ?? (await readMigrations()), LEDGER);
}

/**
 * Runs `work` on one reserved connection that holds the migration advisory lock, so that work
 * which must happen once per database (migrations, re-folding search keys) runs in one process at
 * a time: the others wait and then find it done.
 */
export function withMigrationLock<T>(sql: Sql, work: (connection: ReservedSql) => Promise<T>): Promise<T> {
  return withAdvisoryLock(sql, LEDGER.lockKey, work);
}

/** Applies the migrations not yet recorded; the caller holds the migration lock on `connection`. */
export function applyMigrations(connection: ReservedSql, migrations: readonly Migration[]): Promise<number[]> {
  return applyMigrationsOf(connection, migrations, LEDGER.table);
}
