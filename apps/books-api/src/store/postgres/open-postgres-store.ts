import type { FastifyBaseLogger } from 'fastify';
import type { Sql } from 'postgres';
import { connectPools, type DatabaseSettings } from './connection.js';
import { errorCode, isUnavailable } from './database-errors.js';
import { PostgresBookStore, type PostgresBookStoreOptions } from './postgres-book-store.js';
import { prepareDatabase } from './prepare-database.js';
import { describeRefold } from './refold-search-keys.js';

/** Waits between attempts to reach the database at start: doubling from the first to the last. */
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 5_000;

export interface OpenedPostgresStore {
  store: PostgresBookStore;
  /** The main pool, for other services that keep shared state in the same database (the login throttle). */
  sql: Sql;
  /** Resolves once the migrations are applied, the search keys folded by this version, and the store answers. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the pool and, in the background, applies the migrations and re-folds the search keys if
 * searchFold changed (prepare-database.ts), retrying with backoff while the database is
 * unreachable. The server starts listening at once: until the schema is ready every call to the
 * store answers 503 (and `/api/ps` reports not ready), so an orchestrator sees a live
 * but unready process instead of a crash loop, and it recovers by itself when the database comes.
 */
export function openPostgresStore(
  settings: DatabaseSettings,
  log: FastifyBaseLogger,
  storeOptions: PostgresBookStoreOptions = {},
  /** Wraps each pool (a span per statement when tracing is on: telemetry/traced-sql.ts). */
  instrument: (pool: Sql) => Sql = (pool) => pool,
): OpenedPostgresStore {
  const pools = connectPools(settings);
  const sql = instrument(pools.main);
  const readers = pools.readers.map(instrument);
  const store = new PostgresBookStore(sql, { readers, waitTimeoutMs: settings.waitTimeoutMs, ...storeOptions });
  let closed = false;
  let wake: (() => void) | undefined;

  const ready = (async () => {
    for (let attempt = 1, delay = FIRST_RETRY_MS; !closed; attempt++, delay = Math.min(delay * 2, LAST_RETRY_MS)) {
      try {
        const { applied, refold } = await prepareDatabase(sql);
        if (applied.length > 0) log.info({ applied }, 'database migrations applied');
        const refolded = describeRefold(refold);
        if (refolded) log[refold.status === 'newer' ? 'warn' : 'info']({ refold }, refolded);
        store.markReady();
        await store.compactCounts().catch(() => undefined);
        return;
      } catch (error) {
        if (closed) return;
        // Unreachable is expected while the database starts (readiness says so meanwhile): an info
        // line with the reason, no stack. Anything else (rights, a broken migration) needs a person,
        // but retrying costs nothing and recovers once it is fixed.
        if (isUnavailable(error)) {
          const reason = errorCode(error) ?? (error as Error).message;
          log.info({ attempt, retryInMs: delay, reason }, 'database not reachable yet; retrying');
        } else {
          log.error({ err: error, attempt, retryInMs: delay }, 'database not ready; retrying');
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, delay).unref();
        });
      }
    }
  })();

  return {
    store,
    sql,
    ready,
    async close() {
      closed = true;
      wake?.();
      await store.stopBackgroundWork();
      await Promise.all([sql, ...readers].map((pool) => pool.end({ timeout: 5 })));
    },
  };
}
