import postgres, { type Sql } from 'postgres';

export interface DatabaseSettings {
  /** A libpq URL; TLS through its query (`?sslmode=require`, `verify-full` ...). */
  url: string;
  /** Connections in the pool, at most. */
  poolSize: number;
  /** A statement running longer is cancelled by the server (and answered 503). */
  statementTimeoutMs: number;
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
