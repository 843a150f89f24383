import type { TestContext } from 'node:test';
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import pino from 'pino';
import type { DatabaseSettings } from '../src/store/postgres/connection.js';
import { openPostgresStore } from '../src/store/postgres/open-postgres-store.js';
import type { PostgresBookStore } from '../src/store/postgres/postgres-book-store.js';

/** Which store buildTestApp gives a test by default: `BOOKS_TEST_STORE=postgres` runs the suites on PostgreSQL. */
export const TEST_STORE = process.env.BOOKS_TEST_STORE === 'postgres' ? 'postgres' : 'memory';

export const silentLogger = pino({ enabled: process.env.DEBUG_TEST_LOG === '1', level: 'error' });

let shared: Promise<TestPostgres> | undefined;

/** The PostgreSQL server of this test process: TEST_DATABASE_URL's, or one throwaway cluster. */
export function testPostgres(): Promise<TestPostgres> {
  shared ??= startPostgres();
  return shared;
}

/** Settings for a fresh, empty database that is dropped when the test ends. */
export async function freshDatabase(t: TestContext, server?: TestPostgres): Promise<DatabaseSettings> {
  const owner = server ?? (await testPostgres());
  const url = await owner.createDatabase('books');
  t.after(() => owner.dropDatabase(url));
  return { url, poolSize: 4, statementTimeoutMs: 10_000, waitTimeoutMs: 11_000 };
}

/** A PostgreSQL store on a fresh database, migrated (so seeded with the three books), closed when the test ends. */
export async function freshPostgresStore(t: TestContext, settings?: DatabaseSettings): Promise<PostgresBookStore> {
  const opened = openPostgresStore(settings ?? (await freshDatabase(t)), silentLogger);
  t.after(() => opened.close());
  await opened.ready;
  return opened.store;
}
