/**
 * `npm run db:migrate`: applies the PostgreSQL migrations to DATABASE_URL without serving, and
 * re-folds the search keys if searchFold changed (as a server does at start), then exits (0 when
 * the schema is current). Safe beside running servers: the same advisory lock
 * serialises it with their start-up migrations.
 */
import { ConfigError, loadConfig } from '../config.js';
import { connect } from '../store/postgres/connection.js';
import { isUnavailable } from '../store/postgres/database-errors.js';
import { prepareDatabase } from '../store/postgres/prepare-database.js';
import { describeRefold } from '../store/postgres/refold-search-keys.js';

/** An unreachable database is retried for about this long before giving up. */
const GIVE_UP_AFTER_MS = 30_000;

async function main(): Promise<number> {
  let database;
  try {
    database = loadConfig().database;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (database === undefined) {
    process.stderr.write('DATABASE_URL is not set: there is no database to migrate\n');
    return 1;
  }
  const sql = connect(database);
  const deadline = Date.now() + GIVE_UP_AFTER_MS;
  try {
    for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
      try {
        const { applied, refold } = await prepareDatabase(sql);
        process.stdout.write(
          applied.length === 0 ? 'The schema is up to date\n' : `Applied migrations ${applied.join(', ')}\n`,
        );
        const refolded = describeRefold(refold);
        if (refolded) process.stdout.write(`${refolded}\n`);
        return 0;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (!isUnavailable(error) || Date.now() + delay > deadline) {
          process.stderr.write(`Migration failed: ${message}\n`);
          return 1;
        }
        process.stderr.write(`Database not reachable (${message}); retrying in ${delay} ms\n`);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

process.exitCode = await main();
