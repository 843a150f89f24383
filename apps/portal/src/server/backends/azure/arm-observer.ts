import 'server-only';
import type { StorageManagementClient } from '@azure/arm-storage';
import { lazyStorageClient, type ArmClientSettings } from './arm-client';
import { createCloudObserver, type CloudObserver } from './cloud-observer';

/** What the observer needs of the configuration (PORTAL_AZURE_*). */
export interface ArmObserverSettings extends ArmClientSettings {
  observationTtlSeconds: number;
}

/**
 * Storage accounts read through Azure Resource Manager with the official SDK (arm-client.ts). The
 * SDK is loaded on the first read, not with this module: a portal that observes no subscription
 * (PORTAL_AZURE_SUBSCRIPTION_ID unset) never loads it.
 */
export function createArmObserver(
  settings: ArmObserverSettings,
  log?: (error: unknown, message: string) => void,
  storageClient: () => Promise<StorageManagementClient> = lazyStorageClient(settings),
): CloudObserver {
  return createCloudObserver({
    list: async function* () {
      yield* (await storageClient()).storageAccounts.list();
    },
    ttlMs: settings.observationTtlSeconds * 1000,
    ...(log ? { log } : {}),
  });
}
