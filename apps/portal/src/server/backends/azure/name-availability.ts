import 'server-only';
import type { StorageManagementClient } from '@azure/arm-storage';
import { armFailure } from './arm-failure';

/** Azure's answer on a storage account name, which is global across every subscription and tenant. */
export type NameAvailability =
  | { available: true }
  | { available: false; reason: 'AlreadyExists' | 'AccountNameInvalid' | 'Unknown'; message?: string };

export interface NameChecker {
  /** @throws NameCheckFailedError when Azure could not be asked (unreachable, throttling, no credential, too slow) */
  check(name: string): Promise<NameAvailability>;
}

/** Azure could not answer whether a name is free; `reason` is for people, never a token. */
export class NameCheckFailedError extends Error {
  constructor(
    readonly reason: string,
    readonly retryAfterMs: number | undefined,
    options: { cause: unknown },
  ) {
    super(reason, options);
    this.name = 'NameCheckFailedError';
  }
}

/** A create waits for this answer; longer than this and it is refused rather than left hanging. */
const NAME_CHECK_TIMEOUT_MS = 10_000;

/** Microsoft.Storage/checkNameAvailability through the SDK's public storageAccounts API. */
export function createArmNameChecker(
  storageClient: () => Promise<StorageManagementClient>,
  timeoutMs = NAME_CHECK_TIMEOUT_MS,
): NameChecker {
  return {
    async check(name) {
      try {
        const client = await storageClient();
        const answer = await client.storageAccounts.checkNameAvailability(
          { name, type: 'Microsoft.Storage/storageAccounts' },
          { abortSignal: AbortSignal.timeout(timeoutMs) },
        );
        if (answer.nameAvailable === true) return { available: true };
        const reason =
          answer.reason === 'AlreadyExists' || answer.reason === 'AccountNameInvalid' ? answer.reason : 'Unknown';
        return { available: false, reason, ...(answer.message ? { message: answer.message } : {}) };
      } catch (error) {
        const { reason, retryAfterMs } = armFailure(error);
        throw new NameCheckFailedError(reason, retryAfterMs, { cause: error });
      }
    },
  };
}
