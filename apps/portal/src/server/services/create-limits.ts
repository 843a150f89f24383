import 'server-only';
import { hasRole, owns, type Principal } from '@/lib/auth/permissions';
import type { StorageAccount } from '@/lib/platform/types';
import type { CreateLimits } from '../runtime/config';
import { RECENT_CREATES_MS, type CreateFacts } from '../model/ledger';
import { TooManyRequestsError } from '../model/errors';

/**
 * The contract's create limits: per requester, a number of live accounts and of creates in any
 * hour; admins are not limited. Both are counted from the intent ledger when the create is
 * recorded, in the same step (ledger.appendCreate): with PORTAL_DATABASE_URL in one transaction
 * under an advisory lock on the requester, so every replica counts the same creates and two at
 * once cannot both pass; in memory, per process. Accounts in the cluster that the ledger never
 * recorded (made before it) count too, by their owner annotations and creationTimestamp.
 */

export const HOUR_MS = RECENT_CREATES_MS;
/** The live-account limit lifts only when an account is deleted; a minute is a fair time to look again. */
export const LIVE_LIMIT_RETRY_SECONDS = 60;

/** What one requester holds and has created lately, by account name. */
export interface CreateUsage {
  live: ReadonlySet<string>;
  /** Milliseconds since the epoch of each create of the last hour: a name created twice is two creates. */
  createdAt: readonly number[];
}

const minutes = (seconds: number) => Math.max(1, Math.round(seconds / 60));

/** @throws TooManyRequestsError when the principal may not create one more account now */
export function checkCreateLimits(principal: Principal, usage: CreateUsage, limits: CreateLimits, now: number): void {
  if (hasRole(principal, 'admin')) return;
  if (usage.live.size >= limits.maxAccountsPerUser) {
    throw new TooManyRequestsError(
      `You have ${usage.live.size} storage accounts, the most one requester may have (${limits.maxAccountsPerUser}); delete one you no longer need, or ask an admin`,
      LIVE_LIMIT_RETRY_SECONDS,
    );
  }
  const recent = usage.createdAt.filter((at) => at > now - HOUR_MS);
  if (recent.length >= limits.maxCreatesPerHour) {
    const retryAfter = Math.max(1, Math.ceil((Math.min(...recent) + HOUR_MS - now) / 1000));
    throw new TooManyRequestsError(
      `You created ${recent.length} storage accounts in the last hour, the most one requester may (${limits.maxCreatesPerHour}); try again in about ${minutes(retryAfter)} minutes`,
      retryAfter,
    );
  }
}

/** The ledger's counts joined with the cluster's objects of this requester, one entry per account. */
export function createUsage(
  principal: Principal,
  facts: Pick<CreateFacts, 'ownedLive' | 'recentCreates'>,
  clusterAccounts: readonly StorageAccount[],
  now: number,
): CreateUsage {
  const owned = clusterAccounts.filter((account) => owns(principal, account));
  const live = new Set(facts.ownedLive);
  for (const account of owned) {
    if (account.deletionRequestedAt === undefined && account.state !== 'Deleting') live.add(account.name);
  }
  const createdAt = facts.recentCreates.map(({ at }) => Date.parse(at));
  // An object of the last hour the ledger did not record (an outside create in its name) counts once more.
  const recorded = new Set(facts.recentCreates.map(({ account }) => account));
  for (const account of owned) {
    const at = Date.parse(account.createdAt ?? '');
    if (at > now - HOUR_MS && !recorded.has(account.name)) createdAt.push(at);
  }
  return { live, createdAt };
}

/**
 * The check the ledger runs as it records a create (ledger.appendCreate).
 * @throws TooManyRequestsError (429 with Retry-After)
 */
export function createLimitCheck(
  principal: Principal,
  limits: CreateLimits,
  clusterAccounts: readonly StorageAccount[],
): (facts: CreateFacts) => void {
  return (facts) => {
    if (hasRole(principal, 'admin')) return;
    const now = Date.now();
    checkCreateLimits(principal, createUsage(principal, facts, clusterAccounts, now), limits, now);
  };
}
