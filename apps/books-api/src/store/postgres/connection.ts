import { reconnectDelaySeconds } from '@books/shared-rules';
import postgres, { type Sql } from 'postgres';

export interface DatabaseSettings {
  /** A libpq URL; TLS through its query (`?sslmode=require`, `verify-full` ...). */
  url: string;
  /** Connections in the pool, at most. */
  poolSize: number;
  /** A statement running longer is cancelled by the server (and answered 503). */
  statementTimeoutMs: number;
  /** A store call waiting longer for the database, its connection included, answers 503 (database-wait.ts). */
  waitTimeoutMs: number;
}

/** Connecting to a server that does not answer gives up after this long, so requests fail fast. */
const CONNECT_TIMEOUT_SECONDS = 5;

/**
 * The pool of connections to PostgreSQL (porsager's `postgres`: it prepares each statement once
 * per connection and pipelines queries issued together).
 *
 * Every session runs with `plan_cache_mode = force_generic_plan`: each statement is planned once
 * per connection. Planning the page statement on every execution costs more than running it, and
 * with a parameter as OFFSET PostgreSQL's own choice (`auto`) keeps replanning it for ever, as it
 * guesses that a tenth of the table is skipped. Every statement but search's has one right plan
 * whatever its parameters (a key lookup, a page from a block). Search sets `force_custom_plan` for
 * its own transaction (see PostgresBookStore.search).
 */
export function connect(settings: DatabaseSettings): Sql {
  return postgres(settings.url, {
    max: settings.poolSize,
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    // Reconnect attempts no further apart than packages/shared-rules allows, not the driver's up to 20 s.
    backoff: reconnectDelaySeconds,
    idle_timeout: 60,
    onnotice: () => undefined,
    connection: {
      application_name: 'books-api',
      statement_timeout: settings.statementTimeoutMs,
      plan_cache_mode: 'force_generic_plan',
      // The text form of times the store reads (isoTimestamp in postgres-book-store.ts), whatever
      // the server's or the role's default.
      DateStyle: 'ISO, MDY',
    },
  });
}

/** Connections set apart for the short reads when the pool may have this many or more. */
const READER_MIN_POOL = 4;
/** How many: two, so that reads use both cores of a small database server. */
const READERS = 2;

interface Pools {
  /** Writes, searches, the login throttle, migrations: DATABASE_POOL_SIZE less the readers. */
  main: Sql;
  /** Pools of one connection each, for get, list and count (see PostgresBookStore). */
  readers: Sql[];
}

/**
 * The main pool and, within DATABASE_POOL_SIZE, two pools of one connection each for the short
 * reads. Why: the driver pipelines a query that finds no idle connection onto a busy one, so in a
 * shared pool a get can wait behind a write's WAL flush or a long search on the same connection.
 * On a reader pool a short read only ever waits behind other short reads; writes and searches stay
 * on the main pool. docs/performance.md lists this among the fast paths, with its test.
 */
export function connectPools(settings: DatabaseSettings): Pools {
  if (settings.poolSize < READER_MIN_POOL) return { main: connect(settings), readers: [] };
  return {
    main: connect({ ...settings, poolSize: settings.poolSize - READERS }),
    readers: Array.from({ length: READERS }, () => connect({ ...settings, poolSize: 1 })),
  };
}
