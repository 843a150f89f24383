import 'server-only';
import { trace } from '@opentelemetry/api';
import { reconnectDelaySeconds, tracedSql, tracingSwitch } from '@books/shared-rules';
import postgres, { type Sql } from 'postgres';

/**
 * A pool of connections to the portal's database (PORTAL_DATABASE_URL): the session store and the
 * intent ledger each open one. Its reconnect attempts after a failure are spaced as the Books
 * API's are (`reconnectDelaySeconds` in packages/shared-rules, at most a second apart), not by the
 * driver's default, which grows to 20 s and kept sign-ins and actions failing that long after the
 * database was back. While tracing is on, each statement sent within a request is a CLIENT span
 * (operation and table, never values: packages/shared-rules, traced-sql.ts).
 */
export function openPortalPool(databaseUrl: string): Sql {
  const pool = postgres(databaseUrl, {
    max: 4,
    idle_timeout: 30,
    connect_timeout: 10,
    backoff: reconnectDelaySeconds,
    onnotice: () => undefined,
  });
  // The switch itself, not loadConfig(): the pool opens in tools and tests that set no PORTAL_AUTH.
  return tracingSwitch(process.env).enabled ? tracedSql(pool, trace.getTracer('platform-portal-database')) : pool;
}
