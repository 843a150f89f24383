/**
 * The watch-fed cache against the Kubernetes stand-in, through a real kubeconfig and the production
 * cluster client: one list, then watch events (with bookmarks), a re-list after 410 Gone, a resumed
 * watch after a dropped connection, reconnection after an outage, and this portal's own writes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KubeConfig } from '@kubernetes/client-node';
import { createClusterCache, type ClusterCache } from '../src/server/backends/kubernetes/cluster-cache';
import { CLUSTER_SCOPE } from '../src/lib/platform/account-scope';
import { createClusterClient, LIST_CHUNK, type ClusterClient } from '../src/server/backends/kubernetes/cluster-client';
import { createKubernetesBackend } from '../src/server/backends/kubernetes/kubernetes-backend';
import { createLogger } from '../src/server/runtime/logger';
import { toStorageAccount } from '../src/server/model/account-mapper';
import type { AccountObject } from '../src/server/model/account-object';
import { PlatformUnavailableError } from '../src/server/model/errors';
import { eventually, startTestCluster, type TestCluster } from './kubernetes-harness';
import { storageRequest } from './storage-fixtures';

let cluster: TestCluster;
let client: ClusterClient;
let cache: ClusterCache | undefined;

/** Whole lists: a list's later chunks (with a continue token) are part of the first one's. */
const listsOf = (resource: string) =>
  cluster.standIn
    .requests()
    .filter((r) => r.verb === 'list' && r.resource === resource && !r.query.includes('continue=')).length;
const watchesOf = (resource: string) =>
  cluster.standIn.requests().filter((r) => r.verb === 'watch' && r.resource === resource);

beforeAll(async () => {
  cluster = await startTestCluster({ bookmarkIntervalMs: 200 });
  const config = new KubeConfig();
  config.loadFromFile(cluster.kubeconfigPath);
  client = createClusterClient(config, CLUSTER_SCOPE, 2000);
});

afterAll(async () => {
  await cluster.dispose();
});

afterEach(async () => {
  cache?.stop();
  cache = undefined;
  cluster.standIn.holdWatches(false);
  await cluster.standIn.clearFaults();
});

async function warmCache(): Promise<ClusterCache> {
  cache = createClusterCache(client, createLogger('silent'));
  cache.start();
  await cache.accounts.values();
  await cache.resourceGroups.values();
  return cache;
}

const names = async (c: ClusterCache) => (await c.accounts.values()).map((a) => a.name).sort();

describe('the watch-fed cluster cache', () => {
  it('lists once, then follows changes through a watch that asks for bookmarks, with no further list', async () => {
    cluster.standIn.fillAccounts(5, 'stinit');
    const listsBefore = listsOf('accounts');
    const c = await warmCache();
    expect(await names(c)).toEqual(
      cluster.standIn
        .accounts()
        .map((a) => a.metadata.name)
        .sort(),
    );
    expect(c.accounts.health()).toMatchObject({ synced: true, failing: false, objects: 5, relists: 0 });

    cluster.standIn.fillAccounts(3, 'stlater');
    await eventually(async () => ((await c.accounts.values()).length === 8 ? true : undefined), 'the watched adds');
    for (let read = 0; read < 5; read += 1) await c.accounts.values();
    expect(listsOf('accounts') - listsBefore).toBe(1);
    const watch = watchesOf('accounts').at(-1);
    expect(watch?.query).toContain('allowWatchBookmarks=true');
    expect(c.accounts.health().lastEventAt).toBeDefined();
  });

  it('lists a large collection in chunks, then follows it as one', async () => {
    cluster.standIn.fillAccounts(LIST_CHUNK * 2 + 10, 'stchunked');
    const total = cluster.standIn.accounts().length;
    const listsBefore = cluster.standIn.requests().filter((r) => r.verb === 'list' && r.resource === 'accounts');
    const c = await warmCache();
    expect((await names(c)).length).toBe(total);
    const chunks = cluster.standIn
      .requests()
      .filter((r) => r.verb === 'list' && r.resource === 'accounts')
      .slice(listsBefore.length);
    expect(chunks).toHaveLength(Math.ceil(total / LIST_CHUNK));
    expect(chunks.every((r) => r.query.includes(`limit=${LIST_CHUNK}`))).toBe(true);
    expect(chunks.slice(1).every((r) => r.query.includes('continue='))).toBe(true);

    cluster.standIn.fillAccounts(1, 'stafterchunks');
    await eventually(
      async () => ((await c.accounts.values()).length === total + 1 ? true : undefined),
      'the watched add',
    );
    expect(c.accounts.health()).toMatchObject({ synced: true, failing: false, relists: 0 });
  });

  it('holds equal parts of many accounts once, and every account reads as the mapper makes it', async () => {
    cluster.standIn.fillAccounts(12, 'stshared');
    const c = await warmCache();
    const cached = (await c.accounts.values()).filter((account) => account.name.startsWith('stshared'));
    expect(cached).toHaveLength(12);
    for (const account of cached) {
      const object = cluster.standIn.accounts().find((candidate) => candidate.metadata.name === account.name);
      expect(account).toStrictEqual(toStorageAccount(object as AccountObject));
    }
    const [first, ...others] = cached;
    for (const account of others) {
      expect(account.conditions).toBe(first?.conditions);
      expect(account.sync).toBe(first?.sync);
    }
    // The filled accounts spread over three replication types: three distinct views, each shared.
    expect(new Set(cached.map((account) => account.desired)).size).toBeLessThan(cached.length);
    expect(Object.isFrozen(first?.desired)).toBe(true);
  });

  it('moves its resourceVersion forward on bookmarks while its own collection is quiet', async () => {
    const c = await warmCache();
    const before = c.resourceGroups.health().resourceVersion;
    // Account writes advance the cluster's resourceVersion; only a bookmark tells the group watch.
    cluster.standIn.fillAccounts(2, 'stbookmark');
    const latest = cluster.standIn.accounts().map((a) => Number(a.metadata.resourceVersion));
    const newest = String(Math.max(...latest));
    await eventually(
      () => (c.resourceGroups.health().resourceVersion === newest ? true : undefined),
      `a bookmark at ${newest} (was ${before})`,
    );
  });

  it('resumes the watch from its resourceVersion after a dropped connection, without listing again', async () => {
    const c = await warmCache();
    const lists = listsOf('accounts');
    const version = c.accounts.health().resourceVersion;
    const watches = watchesOf('accounts').length;
    expect(cluster.standIn.dropWatches()).toBeGreaterThan(0);
    cluster.standIn.fillAccounts(1, 'stafterdrop');
    await eventually(
      async () => ((await names(c)).includes('stafterdrop00000') ? true : undefined),
      'the account made after the drop',
    );
    expect(listsOf('accounts')).toBe(lists);
    const resumed = watchesOf('accounts').slice(watches);
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed[0]?.query).toContain(`resourceVersion=${version}`);
    expect(c.accounts.health().reconnects).toBeGreaterThan(0);
  });

  it('lists again when its resourceVersion has expired (410 Gone), and sees what changed meanwhile', async () => {
    const c = await warmCache();
    const lists = listsOf('accounts');
    await cluster.standIn.setUnreachable('reset');
    cluster.standIn.fillAccounts(2, 'stexpired');
    cluster.standIn.compactHistory();
    await cluster.standIn.clearFaults();
    await eventually(
      async () => ((await names(c).catch((): string[] => [])).includes('stexpired00001') ? true : undefined),
      'the accounts made while the watch was away',
    );
    expect(listsOf('accounts')).toBe(lists + 1);
    expect(c.accounts.health().relists).toBe(1);
    expect(
      cluster.standIn.requests().some((r) => r.verb === 'watch' && r.resource === 'accounts' && r.status === 200),
    ).toBe(true);
  });

  it('answers 503 while the cluster is unreachable, and serves again once it is back', async () => {
    const c = await warmCache();
    await cluster.standIn.setUnreachable('reset');
    const error = await eventually(
      () =>
        c.accounts.values().then(
          () => undefined,
          (reason: unknown) => reason,
        ),
      'reads to fail while the cluster is away',
    );
    expect(error).toBeInstanceOf(PlatformUnavailableError);
    expect((error as Error).message).toMatch(/^The platform cluster is unreachable \(connection (reset|closed)\)/);
    expect(c.accounts.health()).toMatchObject({ synced: true, failing: true });
    expect(c.accounts.health().lastError).toMatch(/unreachable/);

    cluster.standIn.fillAccounts(1, 'stoutage');
    await cluster.standIn.clearFaults();
    await eventually(async () => ((await names(c)).includes('stoutage00000') ? true : undefined), 'the cache back');
    expect(c.accounts.health().failing).toBe(false);
  });

  it("shows this portal's own writes in its next read, before the watch has delivered them", async () => {
    const c = await warmCache();
    const backend = createKubernetesBackend(client, c);
    const context = {
      requestId: 'req-own-write',
      requestedBy: 'alice@example.test',
      principal: { subject: 'https://idp.example.test#alice', identity: 'alice@example.test', role: 'admin' as const },
    };
    cluster.standIn.holdWatches(true);
    const lastEventBefore = c.accounts.health().lastEventAt;
    const created = await backend.create(storageRequest({ name: 'stownwrite01' }), context);
    expect(created.name).toBe('stownwrite01');
    expect((await backend.list()).map((a) => a.name)).toContain('stownwrite01');
    expect((await backend.get('stownwrite01')).application).toBe('webshop');

    // Deleting keeps the object while Crossplane's finalizer is on it; wait for the provider to add it
    // (the stand-in's own view: the portal's watch is held).
    await eventually(
      () =>
        cluster.standIn.accounts().find((a) => a.metadata.name === 'stownwrite01')?.metadata.finalizers?.length
          ? true
          : undefined,
      'the provider finalizer',
    );
    await backend.delete('stownwrite01', context);
    expect((await backend.get('stownwrite01')).state).toBe('Deleting');
    expect(c.accounts.health().lastEventAt).toBe(lastEventBefore);

    cluster.standIn.holdWatches(false);
  });
});
