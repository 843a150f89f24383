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

const endings = new WeakMap<TestContext, (() => Promise<unknown>)[]>();

/**
 * Runs `ending` when the test ends, after the endings added here later: the last in goes first,
 * so a store or pool is closed before the database under it is dropped. Every pool a test opens on
 * a fresh database ends through here, never through a t.after of its own, which would run after the drop. (node:test runs a test's own
 * after hooks in the order they were added; a drop WITH FORCE under an open store cuts its
 * connections while its background statements still run, and closing it then waits them out.)
 */
export function atEnd(t: TestContext, ending: () => Promise<unknown>): void {
  let stack = endings.get(t);
  if (stack === undefined) {
    const created: (() => Promise<unknown>)[] = [];
    endings.set(t, created);
    t.after(async () => {
      for (const run of created.reverse()) await run();
    });
    stack = created;
  }
  stack.push(ending);
}

/** Settings for a fresh, empty database that is dropped when the test ends, after its stores are closed. */
export async function freshDatabase(t: TestContext, server?: TestPostgres): Promise<DatabaseSettings> {
  const owner = server ?? (await testPostgres());
  const url = await owner.createDatabase('books');
  atEnd(t, () => owner.dropDatabase(url));
  return { url, poolSize: 4, statementTimeoutMs: 10_000, waitTimeoutMs: 11_000 };
}

/** A PostgreSQL store on a fresh database, migrated (so seeded with the three books), closed when the test ends. */
export async function freshPostgresStore(t: TestContext, settings?: DatabaseSettings): Promise<PostgresBookStore> {
  const opened = openPostgresStore(settings ?? (await freshDatabase(t)), silentLogger);
  atEnd(t, () => opened.close());
  await opened.ready;
  return opened.store;
}
