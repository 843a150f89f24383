import 'server-only';
import type { StorageAccount as ArmStorageAccount } from '@azure/arm-storage';
import { armFailure } from './arm-failure';
import { toCloudAccount, type CloudAccount } from './cloud-account';

/** What the portal last read of Azure. Reads never wait for Azure once a first observation exists. */
export type CloudSnapshot =
  | { status: 'unconfigured' }
  | { status: 'observed'; observedAt: string; accounts: ReadonlyMap<string, CloudAccount> }
  | { status: 'unavailable'; reason: string; since: string; lastObservedAt?: string };

export interface CloudObserver {
  /** The latest observation; starts a background refresh when it is older than the time to live. */
  snapshot(): Promise<CloudSnapshot>;
  /** Reads Azure now (after an action the portal knows changed it), answering the new observation. */
  refresh(): Promise<CloudSnapshot>;
}

export interface CloudObserverOptions {
  /** Every storage account of the subscription, page by page (the SDK follows nextLink). */
  list: () => AsyncIterable<ArmStorageAccount>;
  ttlMs: number;
  /** How long the first read of a process may wait for the first observation. */
  firstWaitMs?: number;
  /** After a failure, the next read tries again this soon at the earliest (unless Azure said Retry-After). */
  retryMs?: number;
  log?: (error: unknown, message: string) => void;
}

/**
 * Observations of the subscription's storage accounts, cached for the time to live and refreshed
 * in the background, one read at a time. A failed read marks the observation unavailable (the
 * classification then never says "in sync"), and the next read after the back-off tries again.
 */
export function createCloudObserver(options: CloudObserverOptions): CloudObserver {
  const retryMs = options.retryMs ?? 5000;
  let current: CloudSnapshot | undefined;
  let observedAtMs = 0;
  let nextTryMs = 0;
  let running: Promise<CloudSnapshot> | undefined;

  async function read(): Promise<CloudSnapshot> {
    try {
      const accounts = new Map<string, CloudAccount>();
      for await (const raw of options.list()) {
        const account = toCloudAccount(raw);
        if (account) accounts.set(account.name.toLowerCase(), account);
      }
      observedAtMs = Date.now();
      current = { status: 'observed', observedAt: new Date(observedAtMs).toISOString(), accounts };
    } catch (error) {
      const { reason, retryAfterMs } = armFailure(error);
      options.log?.(error, `cloud observation failed: ${reason}`);
      nextTryMs = Date.now() + (retryAfterMs ?? retryMs);
      const lastObservedAt =
        current?.status === 'observed'
          ? current.observedAt
          : current?.status === 'unavailable'
            ? current.lastObservedAt
            : undefined;
      current = {
        status: 'unavailable',
        reason,
        since: current?.status === 'unavailable' ? current.since : new Date().toISOString(),
        ...(lastObservedAt ? { lastObservedAt } : {}),
      };
    }
    return current;
  }

  function start(): Promise<CloudSnapshot> {
    running ??= read().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    async snapshot() {
      const now = Date.now();
      const stale =
        current === undefined ||
        (current.status === 'observed' && now - observedAtMs >= options.ttlMs) ||
        (current.status === 'unavailable' && now >= nextTryMs);
      if (!stale && current) return current;
      const reading = start();
      if (current) return current;
      // The first read of a process waits a little for the first observation rather than saying "unavailable".
      const waited = await Promise.race([
        reading,
        new Promise<undefined>((resolve) => {
          const timer = setTimeout(resolve, options.firstWaitMs ?? 10_000) as unknown as { unref?: () => void };
          timer.unref?.();
        }),
      ]);
      return (
        waited ?? {
          status: 'unavailable',
          reason: 'The first read of Azure Resource Manager has not finished yet',
          since: new Date().toISOString(),
        }
      );
    },
    refresh: () => start(),
  };
}
