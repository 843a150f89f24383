import type { Sql } from 'postgres';
import { applyMigrations, readMigrations, withMigrationLock, type Migration } from './migrations.js';
import { refoldSearchKeys, type RefoldOptions, type RefoldOutcome } from './refold-search-keys.js';

interface PreparedDatabase {
  /** The migration versions applied now (none when the schema was current). */
  applied: number[];
  refold: RefoldOutcome;
}

interface PrepareOptions extends RefoldOptions {
  migrations?: Migration[];
}

/**
 * Everything a database needs before a server of this version may use it, done once however many
 * processes start together: the pending migrations, then the search keys re-folded if this
 * version's searchFold is newer than theirs, all under the migration advisory lock. Used at start
 * (open-postgres-store.ts) and by `npm run db:migrate`.
 */
export async function prepareDatabase(sql: Sql, options: PrepareOptions = {}): Promise<PreparedDatabase> {
  const migrations = options.migrations ?? (await readMigrations());
  return withMigrationLock(sql, async (connection) => {
    const applied = await applyMigrations(connection, migrations);
    const refold = await refoldSearchKeys(connection, options);
    return { applied, refold };
  });
}
