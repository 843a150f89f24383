import type { StorageAccount as ArmStorageAccount } from '@azure/arm-storage';
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

/** Why Azure could not be read, for people: never a token or a raw stack. */
function reasonOf(error: unknown): { reason: string; retryAfterMs?: number } {
  const status = (error as { statusCode?: unknown }).statusCode;
  const headers = (error as { response?: { headers?: { get?: (name: string) => string | undefined } } }).response
    ?.headers;
  const retryAfter = Number(headers?.get?.('retry-after'));
  const retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined;
  if (status === 429) {
    return {
      reason: 'Azure Resource Manager is throttling the portal’s reads (429); they are retried in the background',
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  if (status === 401 || status === 403) {
    return { reason: `Azure Resource Manager refused the portal’s credentials (${status})` };
  }
  if (typeof status === 'number') return { reason: `Azure Resource Manager answered ${status}` };
  const name = (error as { name?: unknown }).name;
  if (name === 'CredentialUnavailableError' || name === 'AggregateAuthenticationError') {
    return { reason: 'No Azure credential is available to the portal (DefaultAzureCredential found none that works)' };
  }
  return { reason: 'Azure Resource Manager could not be reached' };
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
      const { reason, retryAfterMs } = reasonOf(error);
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
