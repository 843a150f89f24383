import 'server-only';
import { loadConfig } from '../../runtime/config';
import { logger } from '../../runtime/logger';
import { processWide } from '../../runtime/process-wide';
import { lazyStorageClient } from './arm-client';
import { createArmObserver } from './arm-observer';
import type { CloudObserver, CloudSnapshot } from './cloud-observer';
import { createArmNameChecker, type NameChecker } from './name-availability';

// Shared by the route handlers and the pages of one process, as the ledger is.
interface AzureSide {
  key: string;
  observer: CloudObserver;
  names: NameChecker;
}
const holder = (): { current?: AzureSide } => processWide('cloud-observer', () => ({}));

// One object, so what is derived from a snapshot can be kept while it stays the same.
const NOTHING_OBSERVED: CloudSnapshot = Object.freeze({ status: 'unconfigured' });
const UNCONFIGURED: CloudObserver = {
  snapshot: async () => NOTHING_OBSERVED,
  refresh: async () => NOTHING_OBSERVED,
};

/** This process's reads of Azure, one client and credential for both; undefined without PORTAL_AZURE_SUBSCRIPTION_ID. */
function azureSide(): AzureSide | undefined {
  const config = loadConfig().azure;
  if (!config) return undefined;
  const side = holder();
  const key = `${config.subscriptionId}@${config.armEndpoint ?? 'azure'}`;
  if (side.current?.key !== key) {
    const client = lazyStorageClient(config);
    const observer = createArmObserver(config, (error, message) => logger().warn({ err: error }, message), client);
    side.current = { key, observer, names: createArmNameChecker(client) };
  }
  return side.current;
}

/** The cloud observer of this process; without PORTAL_AZURE_SUBSCRIPTION_ID nothing is observed. */
export function getCloudObserver(): CloudObserver {
  return azureSide()?.observer ?? UNCONFIGURED;
}

/** Azure's storage account name check; undefined when the portal does not talk to Azure. */
export function getNameChecker(): NameChecker | undefined {
  return azureSide()?.names;
}
