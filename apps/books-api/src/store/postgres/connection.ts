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
 * per connection. Planning the page statement on every execution cost more than running it (7.5k
 * against 21k executions/s at 10k books), and with a parameter as OFFSET PostgreSQL's own choice
 * (`auto`) keeps replanning it for ever, as it guesses that a tenth of the table is skipped. Every
 * statement but search's has one right plan whatever its parameters (a key lookup, a page from a
 * block). Search sets `force_custom_plan` for its own transaction (see PostgresBookStore.search).
 */
export function connect(settings: DatabaseSettings): Sql {
  return postgres(settings.url, {
    max: settings.poolSize,
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
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

export interface Pools {
  /** Writes, searches, the login throttle, migrations: DATABASE_POOL_SIZE less the readers. */
  main: Sql;
  /** Pools of one connection each, for get, list and count (see PostgresBookStore). */
  readers: Sql[];
}

/**
 * The main pool and, within DATABASE_POOL_SIZE, two pools of one connection each for the short
 * reads. Why: under many concurrent requests the driver (postgres 3.4.9) sends a query that finds
 * no idle connection down a busy one (pipelining, which saves a round trip), and its queue of
 * busy connections then grows by a hole for every such query and is searched from the start on
 * every move, so that with 50 concurrent gets on a pool of 10 a quarter of node's CPU went into
 * that search (queue.js `remove` in a CPU profile). A pool of one connection never leaves such a
 * hole. Reads take well under a millisecond, so a read queued behind another on one connection
 * waits little; writes (which wait for the WAL flush) and searches (up to hundreds of
 * milliseconds) stay on the main pool, where nothing short waits behind them.
 */
export function connectPools(settings: DatabaseSettings): Pools {
  if (settings.poolSize < READER_MIN_POOL) return { main: connect(settings), readers: [] };
  return {
    main: connect({ ...settings, poolSize: settings.poolSize - READERS }),
    readers: Array.from({ length: READERS }, () => connect({ ...settings, poolSize: 1 })),
  };
}
