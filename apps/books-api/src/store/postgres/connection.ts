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
 * Every session runs with `plan_cache_mode = force_custom_plan`: after five executions PostgreSQL
 * may switch a prepared `LIKE $1` to a generic plan, which cannot know that `%xu%` has no trigram
 * and scans the whole trigram index (seconds at a million books). Planning each execution costs
 * microseconds for these statements.
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
      plan_cache_mode: 'force_custom_plan',
    },
  });
}
