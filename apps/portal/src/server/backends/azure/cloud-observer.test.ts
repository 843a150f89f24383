import type { StorageAccount as ArmStorageAccount } from '@azure/arm-storage';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCloudObserver, type CloudSnapshot } from './cloud-observer';

/**
 * The observer's cache over a list function that stands where ARM's paged list is: the time to live,
 * the background refresh, one read at a time, and the back-off after a failure.
 */

const TTL_MS = 60_000;

function account(name: string, minimumTlsVersion = 'TLS1_2'): ArmStorageAccount {
  return {
    name,
    id: `/subscriptions/s/resourceGroups/rg-books-dev/providers/Microsoft.Storage/storageAccounts/${name}`,
    location: 'westeurope',
    minimumTlsVersion,
    tags: { application: 'webshop', environment: 'dev' },
  };
}

/** An error as the SDK throws it for an ARM answer (a RestError with the response's headers). */
function armError(statusCode: number, retryAfterSeconds?: number): Error {
  return Object.assign(new Error(`ARM answered ${statusCode}`), {
    statusCode,
    response: {
      headers: { get: (name: string) => (name === 'retry-after' ? retryAfterSeconds?.toString() : undefined) },
    },
  });
}

/** A list whose every read is answered by the test, in order. */
function scriptedList() {
  const reads: { resolve: (accounts: ArmStorageAccount[]) => void; reject: (error: unknown) => void }[] = [];
  const list = vi.fn(() => {
    const answer = new Promise<ArmStorageAccount[]>((resolve, reject) => reads.push({ resolve, reject }));
    return (async function* () {
      yield* await answer;
    })();
  });
  return { list, reads };
}

const observed = (snapshot: CloudSnapshot) => {
  expect(snapshot.status).toBe('observed');
  return snapshot as Extract<CloudSnapshot, { status: 'observed' }>;
};

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z') });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('cloud observer', () => {
  it('waits for the first observation, then answers from it for the time to live without reading again', async () => {
    const { list, reads } = scriptedList();
    const observer = createCloudObserver({ list, ttlMs: TTL_MS });
    const first = observer.snapshot();
    reads[0]?.resolve([account('stone'), account('sttwo')]);
    const snapshot = observed(await first);
    expect([...snapshot.accounts.keys()]).toEqual(['stone', 'sttwo']);
    expect(snapshot.observedAt).toBe('2026-11-26T12:00:00.000Z');

    vi.advanceTimersByTime(TTL_MS - 1);
    expect(await observer.snapshot()).toBe(snapshot);
    expect(list).toHaveBeenCalledTimes(1);
  });

  it('answers the last observation at once when it is stale, and reads again in the background, once', async () => {
    const { list, reads } = scriptedList();
    const observer = createCloudObserver({ list, ttlMs: TTL_MS });
    const first = observer.snapshot();
    reads[0]?.resolve([account('stone')]);
    const before = observed(await first);

    vi.advanceTimersByTime(TTL_MS);
    // Stale: both reads get the last observation; only one read of Azure starts.
    expect(await observer.snapshot()).toBe(before);
    expect(await observer.snapshot()).toBe(before);
    expect(list).toHaveBeenCalledTimes(2);

    // refresh() joins the read already running rather than starting another.
    const refreshed = observer.refresh();
    reads[1]?.resolve([account('stone', 'TLS1_0')]);
    const after = observed(await refreshed);
    expect(list).toHaveBeenCalledTimes(2);
    expect(await observer.snapshot()).toBe(after);
    expect(after.accounts.get('stone')?.settings.minTlsVersion).toBe('TLS1_0');
    expect(after.observedAt).toBe('2026-11-26T12:01:00.000Z');
  });

  it('is unavailable after a failed read, with the reason and the time of the last observation, and waits Retry-After', async () => {
    const { list, reads } = scriptedList();
    const log = vi.fn();
    const observer = createCloudObserver({ list, ttlMs: TTL_MS, retryMs: 5_000, log });
    const first = observer.snapshot();
    reads[0]?.resolve([account('stone')]);
    const before = observed(await first);

    vi.advanceTimersByTime(TTL_MS);
    const refreshing = observer.refresh();
    reads[1]?.reject(armError(429, 30));
    const failed = await refreshing;
    expect(failed).toMatchObject({ status: 'unavailable', lastObservedAt: before.observedAt });
    expect(failed.status === 'unavailable' && failed.reason).toMatch(/throttling.*\(429\)/);
    expect(log).toHaveBeenCalledOnce();
    expect(await observer.snapshot()).toBe(failed);

    // Azure said to come back in 30 s: not before, even though the usual back-off is 5 s.
    vi.advanceTimersByTime(29_000);
    await observer.snapshot();
    expect(list).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1_000);
    expect(await observer.snapshot()).toBe(failed);
    expect(list).toHaveBeenCalledTimes(3);
    const recovering = observer.refresh();
    reads[2]?.resolve([account('stone')]);
    expect((await recovering).status).toBe('observed');
  });

  it('says why it could not read, without a token or a stack', async () => {
    const { list, reads } = scriptedList();
    const observer = createCloudObserver({ list, ttlMs: TTL_MS });
    const first = observer.snapshot();
    reads[0]?.reject(armError(403));
    expect(await first).toMatchObject({
      status: 'unavailable',
      reason: 'Azure Resource Manager refused the portal’s credentials (403)',
    });
    vi.advanceTimersByTime(5_000);
    const second = observer.refresh();
    reads[1]?.reject(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1 Bearer abc.def'), { code: 'ECONNREFUSED' }),
    );
    const snapshot = await second;
    expect(snapshot).toMatchObject({ status: 'unavailable', reason: 'Azure Resource Manager could not be reached' });
    expect(JSON.stringify(snapshot)).not.toContain('Bearer');
  });

  it('answers unavailable rather than wait on a first read that does not finish', async () => {
    const { list } = scriptedList();
    const observer = createCloudObserver({ list, ttlMs: TTL_MS, firstWaitMs: 10_000 });
    const first = observer.snapshot();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await first).toMatchObject({
      status: 'unavailable',
      reason: 'The first read of Azure Resource Manager has not finished yet',
    });
    expect(list).toHaveBeenCalledOnce();
  });
});
