import 'server-only';
import { loadConfig } from '../../runtime/config';
import { logger } from '../../runtime/logger';
import { processWide } from '../../runtime/process-wide';
import type { IntentLedger } from '../../model/ledger';
import { createMemoryLedger } from './memory-ledger';
import { createPostgresLedger } from './postgres-ledger';

// The proxy, the route handlers and the pages are bundled separately but run in one process; the
// ledger is process-wide so they share one (one memory, one connection pool) instead of one each.

/** This process's ledger: PostgreSQL with PORTAL_DATABASE_URL, otherwise memory (not durable). */
export function getIntentLedger(): IntentLedger {
  const registry = processWide('intent-ledgers', () => new Map<string, IntentLedger>());
  const { databaseUrl } = loadConfig();
  const key = databaseUrl ?? 'memory';
  let ledger = registry.get(key);
  if (!ledger) {
    ledger = databaseUrl ? createPostgresLedger(databaseUrl) : createMemoryLedger();
    registry.set(key, ledger);
  }
  return ledger;
}

/**
 * Called once at start: applies the ledger's migrations (PostgreSQL), or warns that intent lives
 * only in memory. A database that is down now is not fatal: the ledger retries on first use, and
 * actions answer 503 until it can record them.
 */
export async function prepareIntentLedger(): Promise<void> {
  const ledger = getIntentLedger();
  if (!ledger.durable) {
    logger().warn(
      'intent ledger in memory: PORTAL_DATABASE_URL is not set, so the record of who asked for what is lost when the portal stops',
    );
    return;
  }
  try {
    await ledger.ready();
    logger().info('intent ledger ready in PostgreSQL');
  } catch (error) {
    logger().error({ err: error }, 'intent ledger not ready yet; it is retried on first use');
  }
}
