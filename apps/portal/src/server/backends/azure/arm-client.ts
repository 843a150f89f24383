import 'server-only';
import type { StorageManagementClient } from '@azure/arm-storage';

/** Where the portal's Azure calls go (PORTAL_AZURE_SUBSCRIPTION_ID, PORTAL_AZURE_ARM_ENDPOINT). */
export interface ArmClientSettings {
  subscriptionId: string;
  armEndpoint?: string;
}

/**
 * The storage client through the official SDK and DefaultAzureCredential exactly as it comes
 * (workload identity, managed identity including the IDENTITY_ENDPOINT / IDENTITY_HEADER form,
 * environment credentials, the Azure CLI ...), made on first use: a portal that never calls Azure
 * never loads the SDK. One client per caller of this function, so its calls share one credential.
 */
export function lazyStorageClient(settings: ArmClientSettings): () => Promise<StorageManagementClient> {
  let client: Promise<StorageManagementClient> | undefined;
  return () =>
    (client ??= Promise.all([import('@azure/arm-storage'), import('@azure/identity')]).then(
      ([{ StorageManagementClient }, { DefaultAzureCredential }]) =>
        new StorageManagementClient(new DefaultAzureCredential(), settings.subscriptionId, {
          ...(settings.armEndpoint ? { endpoint: settings.armEndpoint } : {}),
          // One retry, then the caller decides: a background read tries again later, a create refuses.
          retryOptions: { maxRetries: 1 },
        }),
    ));
}
