import type { StorageManagementClient } from '@azure/arm-storage';
import { createCloudObserver, type CloudObserver } from './cloud-observer';

/** What the observer needs of the configuration (PORTAL_AZURE_*). */
export interface ArmObserverSettings {
  subscriptionId: string;
  armEndpoint?: string;
  observationTtlSeconds: number;
}

/**
 * Storage accounts read through Azure Resource Manager with the official SDK and
 * DefaultAzureCredential exactly as it comes (workload identity, managed identity including the
 * IDENTITY_ENDPOINT / IDENTITY_HEADER form, environment credentials, the Azure CLI ...).
 *
 * The SDK is loaded on the first read, not with this module: a portal that observes no
 * subscription (PORTAL_AZURE_SUBSCRIPTION_ID unset) never loads it.
 */
export function createArmObserver(
  settings: ArmObserverSettings,
  log?: (error: unknown, message: string) => void,
): CloudObserver {
  let client: Promise<StorageManagementClient> | undefined;
  const storageClient = () =>
    (client ??= Promise.all([import('@azure/arm-storage'), import('@azure/identity')]).then(
      ([{ StorageManagementClient }, { DefaultAzureCredential }]) =>
        new StorageManagementClient(new DefaultAzureCredential(), settings.subscriptionId, {
          ...(settings.armEndpoint ? { endpoint: settings.armEndpoint } : {}),
          // Background reads: one retry, then the next refresh tries again, instead of minutes of back-off.
          retryOptions: { maxRetries: 1 },
        }),
    ));
  return createCloudObserver({
    list: async function* () {
      yield* (await storageClient()).storageAccounts.list();
    },
    ttlMs: settings.observationTtlSeconds * 1000,
    ...(log ? { log } : {}),
  });
}
