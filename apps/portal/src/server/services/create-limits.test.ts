import { describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/permissions';
import type { StorageAccount } from '@/lib/platform/types';
import { checkCreateLimits, createLimitCheck, createUsage, HOUR_MS, LIVE_LIMIT_RETRY_SECONDS } from './create-limits';
import { TooManyRequestsError } from '../model/errors';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const rita: Principal = { subject: 'https://idp#rita', identity: 'rita@example.com', role: 'requester' };
const ada: Principal = { subject: 'https://idp#ada', identity: 'ada@example.com', role: 'admin' };
const limits = { maxAccountsPerUser: 3, maxCreatesPerHour: 2 };
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

function account(name: string, owner: Principal, minutesAgo: number, extra: Partial<StorageAccount> = {}) {
  return {
    name,
    state: 'Ready',
    requestedBy: owner.identity,
    requestedBySubject: owner.subject,
    createdAt: ago(minutesAgo),
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

const noFacts = { ownedLive: [], recentCreates: [] };

describe('create limits', () => {
  it('refuses a requester at its live-account limit, counting the ledger’s and the cluster’s accounts once each', () => {
    const cluster = [
      account('a1', rita, 600),
      account('a3', rita, 600, { state: 'Deleting', deletionRequestedAt: 'x' }),
      account('b1', ada, 1),
    ];
    const facts = { ownedLive: ['a1', 'a2'], recentCreates: [] };
    const usage = createUsage(rita, facts, cluster, NOW);
    expect([...usage.live].sort()).toEqual(['a1', 'a2']);
    expect(() => checkCreateLimits(rita, usage, limits, NOW)).not.toThrow();
    const more = createUsage(rita, { ...facts, ownedLive: ['a1', 'a2', 'a4'] }, cluster, NOW);
    const refused = refusal(() => checkCreateLimits(rita, more, limits, NOW));
    expect(refused.status).toBe(429);
    expect(refused.retryAfterSeconds).toBe(LIVE_LIMIT_RETRY_SECONDS);
    expect(refused.message).toMatch(/3 storage accounts, the most one requester may have \(3\)/);
  });

  it('counts every create of the last hour, a name created twice as two, and says when the oldest leaves the hour', () => {
    const facts = {
      ownedLive: [],
      recentCreates: [
        { account: 'again', at: ago(50) },
        { account: 'again', at: ago(20) },
      ],
    };
    const refused = refusal(() =>
      checkCreateLimits(rita, createUsage(rita, facts, [], NOW), { ...limits, maxAccountsPerUser: 10 }, NOW),
    );
    expect(refused.retryAfterSeconds).toBe(10 * 60);
    expect(refused.message).toMatch(/2 storage accounts in the last hour.*about 10 minutes/);
  });

  it('counts an account of the last hour that only the cluster knows, and nothing older than the hour', () => {
    const recent = createUsage(rita, noFacts, [account('outside', rita, 10), account('old', rita, 61)], NOW);
    expect(recent.createdAt).toEqual([NOW - 10 * 60_000]);
    const both = createUsage(
      rita,
      { ownedLive: [], recentCreates: [{ account: 'outside', at: ago(10) }] },
      [account('outside', rita, 10)],
      NOW,
    );
    expect(both.createdAt).toHaveLength(1);
    expect(createUsage(rita, noFacts, [account('x', rita, 0)], NOW + HOUR_MS).createdAt).toEqual([]);
  });

  it('does not limit admins', () => {
    const many = Array.from({ length: 30 }, (_, i) => account(`z${i}`, ada, 1));
    const facts = {
      ownedLive: many.map((a) => a.name),
      recentCreates: many.map((a) => ({ account: a.name, at: ago(1) })),
    };
    expect(() => createLimitCheck(ada, limits, many)({ life: { live: false }, ...facts })).not.toThrow();
    expect(() => createLimitCheck(rita, limits, [])({ life: { live: false }, ...facts })).toThrow(TooManyRequestsError);
  });
});
