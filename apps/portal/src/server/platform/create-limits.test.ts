import { describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/permissions';
import type { StorageAccount } from '@/lib/platform/types';
import { checkCreateLimits, HOUR_MS, LIVE_LIMIT_RETRY_SECONDS, withinCreateLimits } from './create-limits';
import { TooManyRequestsError } from './errors';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const rita: Principal = { subject: 'https://idp#rita', identity: 'rita@example.com', role: 'requester' };
const ada: Principal = { subject: 'https://idp#ada', identity: 'ada@example.com', role: 'admin' };
const limits = { maxAccountsPerUser: 3, maxCreatesPerHour: 2 };

function account(name: string, owner: Principal, minutesAgo: number, extra: Partial<StorageAccount> = {}) {
  return {
    name,
    state: 'Ready',
    requestedBy: owner.identity,
    requestedBySubject: owner.subject,
    createdAt: new Date(NOW - minutesAgo * 60_000).toISOString(),
    ...extra,
  } as StorageAccount;
}

function refusal(run: () => void): TooManyRequestsError {
  try {
    run();
  } catch (error) {
    if (error instanceof TooManyRequestsError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('create limits', () => {
  it('refuses a requester at its live-account limit, counting only its own accounts that are not being deleted', () => {
    const accounts = [
      account('a1', rita, 600),
      account('a2', rita, 600),
      account('a3', rita, 600, { state: 'Deleting', deletionRequestedAt: 'x' }),
      account('b1', ada, 1),
    ];
    expect(() => checkCreateLimits(rita, accounts, [], limits, NOW)).not.toThrow();
    const refused = refusal(() => checkCreateLimits(rita, [...accounts, account('a4', rita, 600)], [], limits, NOW));
    expect(refused.status).toBe(429);
    expect(refused.retryAfterSeconds).toBe(LIVE_LIMIT_RETRY_SECONDS);
    expect(refused.message).toMatch(/3 storage accounts, the most one requester may have \(3\)/);
  });

  it('counts the last hour’s creates from the cluster’s timestamps and says when the oldest leaves the hour', () => {
    const accounts = [account('a1', rita, 50), account('a2', rita, 20), account('a0', rita, 61)];
    const refused = refusal(() => checkCreateLimits(rita, accounts, [], { ...limits, maxAccountsPerUser: 10 }, NOW));
    expect(refused.retryAfterSeconds).toBe(10 * 60);
    expect(refused.message).toMatch(/2 storage accounts in the last hour.*about 10 minutes/);
  });

  it('counts creates this process remembers whose accounts have left the cluster', () => {
    const remembered = [{ name: 'gone', at: NOW - 30 * 60_000 }];
    expect(() => checkCreateLimits(rita, [account('a1', rita, 10)], remembered, limits, NOW)).toThrow(
      TooManyRequestsError,
    );
    // The same account seen in both places is one create.
    expect(() =>
      checkCreateLimits(rita, [account('a1', rita, 10)], [{ name: 'a1', at: NOW - 10 * 60_000 }], limits, NOW),
    ).not.toThrow();
    expect(() =>
      checkCreateLimits(rita, [account('a1', rita, 10)], [{ name: 'old', at: NOW - HOUR_MS }], limits, NOW),
    ).not.toThrow();
  });

  it('does not limit admins', () => {
    const many = Array.from({ length: 30 }, (_, i) => account(`z${i}`, ada, 1));
    expect(() => checkCreateLimits(ada, many, [], limits, NOW)).not.toThrow();
  });

  it('lets only one of two creates at once through when one is left', async () => {
    const created: string[] = [];
    const list = async () =>
      created.map((name) => ({ ...account(name, rita, 0), createdAt: new Date().toISOString() }));
    const create = (name: string) => async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      created.push(name);
      return { name };
    };
    const one = { maxAccountsPerUser: 1, maxCreatesPerHour: 10 };
    const results = await Promise.allSettled([
      withinCreateLimits(rita, one, list, create('first')),
      withinCreateLimits(rita, one, list, create('second')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect(created).toEqual(['first']);
  });
});
