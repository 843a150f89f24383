/** The longest pause between two attempts to reconnect to a database that is down. */
export const MAX_RECONNECT_DELAY_SECONDS = 1;

/**
 * The pause before a PostgreSQL pool's next attempt to open a connection, after `attempt` failed
 * ones: what both apps pass as the `backoff` option of the driver (postgres.js, which counts the
 * failed attempts over the whole pool and starts again from 0 after a success).
 *
 * Why not the driver's default: it grows to 20 s, so a pool that kept retrying through an outage
 * of a few seconds would stay away for up to 20 s after the database is back, while the apps'
 * 503s tell clients to try again within seconds. Capped at a second, a pool costs the server at
 * most one failed attempt per connection a second; the random half keeps replicas and connections
 * from knocking at the same instant.
 */
export function reconnectDelaySeconds(attempt: number): number {
  const grown = Math.min(0.05 * 2 ** attempt, MAX_RECONNECT_DELAY_SECONDS);
  return grown * (0.5 + Math.random() / 2);
}
