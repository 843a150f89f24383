import 'server-only';
import { hasRole, owns, type Principal } from '@/lib/auth/permissions';
import type { StorageAccount } from '@/lib/platform/types';
import type { CreateLimits } from '../config';
import { TooManyRequestsError } from './errors';

/**
 * The contract's create limits: per requester, a number of live accounts and of creates in any
 * hour; admins are not limited. Both are counted from the cluster's own objects (the owner's
 * subject and creationTimestamp), so a restart or a second replica sees the same counts. An
 * account created and deleted again within the hour has left the cluster, so this process also
 * remembers its own creates of the last hour and counts those too.
 */

export const HOUR_MS = 60 * 60 * 1000;
/** The live-account limit lifts only when an account is deleted; a minute is a fair time to look again. */
export const LIVE_LIMIT_RETRY_SECONDS = 60;

export interface CreateRecord {
  name: string;
  /** Milliseconds since the epoch. */
  at: number;
}

const minutes = (seconds: number) => Math.max(1, Math.round(seconds / 60));

/** @throws TooManyRequestsError when the principal may not create one more account now */
export function checkCreateLimits(
  principal: Principal,
  accounts: readonly StorageAccount[],
  remembered: readonly CreateRecord[],
  limits: CreateLimits,
  now: number,
): void {
  if (hasRole(principal, 'admin')) return;
  const owned = accounts.filter((account) => owns(principal, account));
  const live = owned.filter((account) => account.deletionRequestedAt === undefined && account.state !== 'Deleting');
  if (live.length >= limits.maxAccountsPerUser) {
    throw new TooManyRequestsError(
      `You have ${live.length} storage accounts, the most one requester may have (${limits.maxAccountsPerUser}); delete one you no longer need, or ask an admin`,
      LIVE_LIMIT_RETRY_SECONDS,
    );
  }
  const since = now - HOUR_MS;
  const createdAt = new Map<string, number>();
  for (const account of owned) {
    const at = Date.parse(account.createdAt ?? '');
    if (at > since) createdAt.set(account.name, at);
  }
  for (const record of remembered)
    if (record.at > since && !createdAt.has(record.name)) createdAt.set(record.name, record.at);
  if (createdAt.size >= limits.maxCreatesPerHour) {
    const retryAfter = Math.max(1, Math.ceil((Math.min(...createdAt.values()) + HOUR_MS - now) / 1000));
    throw new TooManyRequestsError(
      `You created ${createdAt.size} storage accounts in the last hour, the most one requester may (${limits.maxCreatesPerHour}); try again in about ${minutes(retryAfter)} minutes`,
      retryAfter,
    );
  }
}

const remembered = new Map<string, CreateRecord[]>();
const queues = new Map<string, Promise<unknown>>();

function recent(subject: string, now: number): CreateRecord[] {
  for (const [key, records] of remembered) {
    const kept = records.filter((record) => record.at > now - HOUR_MS);
    if (kept.length === 0) remembered.delete(key);
    else remembered.set(key, kept);
  }
  return remembered.get(subject) ?? [];
}

/** Runs one person's creates one after another, so two at once cannot both pass the count. */
function serialized<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}

/**
 * Creates through `create` when the principal is within its limits.
 * @throws TooManyRequestsError (429 with Retry-After)
 */
export function withinCreateLimits<T extends { name: string }>(
  principal: Principal,
  limits: CreateLimits,
  listAccounts: () => Promise<readonly StorageAccount[]>,
  create: () => Promise<T>,
): Promise<T> {
  if (hasRole(principal, 'admin')) return create();
  return serialized(principal.subject, async () => {
    checkCreateLimits(principal, await listAccounts(), recent(principal.subject, Date.now()), limits, Date.now());
    const item = await create();
    remembered.set(principal.subject, [...recent(principal.subject, Date.now()), { name: item.name, at: Date.now() }]);
    return item;
  });
}
