import 'server-only';
import { loadConfig } from '../config';
import { logger } from '../log/logger';
import { createArmObserver } from './arm-observer';
import type { CloudObserver, CloudSnapshot } from './cloud-observer';

// Shared by the route handlers and the pages of one process, as the ledger is.
const OBSERVER = Symbol.for('books-portal.cloud-observer');
type Holder = typeof globalThis & { [OBSERVER]?: { key: string; observer: CloudObserver } };

// One object, so what is derived from a snapshot can be kept while it stays the same.
const NOTHING_OBSERVED: CloudSnapshot = Object.freeze({ status: 'unconfigured' });
const UNCONFIGURED: CloudObserver = {
  snapshot: async () => NOTHING_OBSERVED,
  refresh: async () => NOTHING_OBSERVED,
};

/** The cloud observer of this process; without PORTAL_AZURE_SUBSCRIPTION_ID nothing is observed. */
export function getCloudObserver(): CloudObserver {
  const config = loadConfig().azure;
  if (!config) return UNCONFIGURED;
  const holder = globalThis as Holder;
  const key = `${config.subscriptionId}@${config.armEndpoint ?? 'azure'}`;
  if (holder[OBSERVER]?.key !== key) {
    const observer = createArmObserver(config, (error, message) => logger().warn({ err: error }, message));
    holder[OBSERVER] = { key, observer };
  }
  return holder[OBSERVER].observer;
}
