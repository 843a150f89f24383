import 'server-only';
import type { Logger } from 'pino';
import type { ResourceGroup, StorageAccount } from '@/lib/platform/types';
import { followAccounts } from '../../live/follow-accounts';
import { logger } from '../../runtime/logger';
import { processWide } from '../../runtime/process-wide';
import { toStorageAccount } from '../../model/account-mapper';
import type { AccountObject } from '../../model/account-object';
import { SharedValues } from '../../runtime/shared-values';
import { DEFAULT_CALL_TIMEOUT_MS, type ClusterClient } from './cluster-client';
import { toResourceGroup, type ResourceGroupObject } from './resource-group-mapper';
import type { CollectionHealth } from './collection-options';
import { namespacedKey } from './object-fields';
import { WatchedCollection } from './watched-collection';

/**
 * The portal's read path on a cluster: Accounts and ResourceGroups kept in memory by watches
 * (watched-collection.ts), one cache per server process. Page views and API reads are answered
 * from here and cause no LIST at the cluster once it is warm; this portal's own writes are applied
 * as the API server answered them, so its next read shows them.
 */

export interface ClusterCache {
  readonly accounts: WatchedCollection<StorageAccount>;
  readonly resourceGroups: WatchedCollection<ResourceGroup | undefined>;
  start(): void;
  stop(): void;
}

export interface ClusterCacheHealth {
  accounts: CollectionHealth;
  resourceGroups: CollectionHealth;
}

/**
 * The record with its settings views, conditions and drift report replaced by the instances equal
 * ones already hold (see SharedValues). The parts that name the account itself (its name, uid,
 * Azure id, timestamps) stay its own.
 */
function shareParts(account: StorageAccount, shared: SharedValues): StorageAccount {
  account.desired = shared.share(account.desired);
  account.reported = shared.share(account.reported);
  account.sync = shared.share(account.sync);
  account.conditions = shared.share(account.conditions.map((condition) => shared.share(condition)));
  return account;
}

export function createClusterCache(client: ClusterClient, baseLogger: Logger = logger()): ClusterCache {
  const log = baseLogger.child({ component: 'cluster-cache' });
  const readTimeoutMs = DEFAULT_CALL_TIMEOUT_MS + 1000;
  const shared = new SharedValues();
  const accounts = new WatchedCollection<StorageAccount>({
    name: 'storage accounts',
    source: {
      list: (continueToken) => client.listAccounts(continueToken),
      watch: (version, handlers) => client.watchAccounts(version, handlers),
    },
    map: (object) => shareParts(toStorageAccount(object as AccountObject), shared),
    logger: log,
    readTimeoutMs,
  });
  const resourceGroups = new WatchedCollection<ResourceGroup | undefined>({
    name: 'resource groups',
    source: {
      list: (continueToken) => client.listResourceGroups(continueToken),
      watch: (version, handlers) => client.watchResourceGroups(version, handlers),
    },
    map: (object) => toResourceGroup(object as ResourceGroupObject),
    keyOf: namespacedKey,
    logger: log,
    readTimeoutMs,
  });
  return {
    accounts,
    resourceGroups,
    start() {
      accounts.start();
      resourceGroups.start();
    },
    stop() {
      accounts.stop();
      resourceGroups.stop();
    },
  };
}

// Next.js may load a server module once per bundle (route handlers, pages); the cache is
// process-wide so every copy shares one, with one set of watches.
interface Registry {
  current?: { key: string; cache: ClusterCache; unfollow: () => void };
}
const registry = (): Registry => processWide<Registry>('cluster-cache', () => ({}));

/**
 * The process's cache for the cluster `key` names (API server and credentials), started on first
 * use. Another key (a test pointing at another cluster) stops the previous cache first.
 */
export function processClusterCache(key: string, client: ClusterClient): ClusterCache {
  const holder = registry();
  const current = holder.current;
  if (current?.key === key) return current.cache;
  current?.cache.stop();
  current?.unfollow();
  const cache = createClusterCache(client);
  // The live event stream hears every change of the accounts this cache follows.
  holder.current = { key, cache, unfollow: followAccounts(cache.accounts) };
  cache.start();
  return cache;
}

/** The health of this process's cache, or undefined when it has none (development mode, no cluster). */
export function clusterCacheHealth(): ClusterCacheHealth | undefined {
  const cache = registry().current?.cache;
  return cache ? { accounts: cache.accounts.health(), resourceGroups: cache.resourceGroups.health() } : undefined;
}
