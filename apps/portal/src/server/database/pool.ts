import 'server-only';
import { reconnectDelaySeconds } from '@books/shared-rules';
import postgres, { type Sql } from 'postgres';

/**
 * A pool of connections to the portal's database (PORTAL_DATABASE_URL): the session store and the
 * intent ledger each open one. Its reconnect attempts after a failure are spaced as the Books
 * API's are (`reconnectDelaySeconds` in packages/shared-rules, at most a second apart), not by the
 * driver's default, which grows to 20 s and kept sign-ins and actions failing that long after the
 * database was back.
 */
export function openPortalPool(databaseUrl: string): Sql {
  return postgres(databaseUrl, {
    max: 4,
    idle_timeout: 30,
    connect_timeout: 10,
    backoff: reconnectDelaySeconds,
    onnotice: () => undefined,
  });
}
