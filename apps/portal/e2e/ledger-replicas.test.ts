/**
 * The intent ledger as deployed: two production portal processes on one PostgreSQL ledger and one
 * Kubernetes stand-in, over HTTP. What one replica records, the other reads at its next request;
 * kubectl stripping the portal's annotations changes nothing either replica believes; a restarted
 * portal keeps every record, and one restarted while the cluster is down answers its inventory from
 * the ledger alone.
 * Run: npm run portal:build && node --import tsx --test e2e/ledger-replicas.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import type { StandIn } from '../kube-stand-in/index';
import { startPortalServer, type PortalServer } from '../kube-stand-in/portal-server';
import { startTestCluster, type TestCluster } from '../test/kubernetes-harness';
import { callPlatform as call, requestAccount, until } from './harness';
import { kubectlFor, stripPortalAnnotations, type Kubectl } from './kubectl';

const TIMING = { syncedDelayMs: 50, readyDelayMs: 300, deleteDelayMs: 300, retryDelayMs: 500 };
const NAME = 'stledgerpair';

let cluster: TestCluster;
let standIn: StandIn;
let postgres: TestPostgres;
let databaseUrl: string;
let kubectl: Kubectl;
const replicas: { a?: PortalServer; b?: PortalServer } = {};

interface Item {
  name: string;
  state: string;
  resourceVersion?: string;
  source?: string;
  classification: { code: string; fields: string[] };
}

interface HistoryEntry {
  id: string;
  action: string;
  by: string;
  status: string;
}

function startReplica(): Promise<PortalServer> {
  return startPortalServer({
    kubeconfigPath: cluster.kubeconfigPath,
    env: { PORTAL_AUTH: 'none', PORTAL_DATABASE_URL: databaseUrl },
  });
}

function replica(which: 'a' | 'b'): PortalServer {
  const portal = replicas[which];
  assert.ok(portal, `replica ${which} is running`);
  return portal;
}

const item = async (portal: PortalServer) => (await call<{ item: Item }>(portal, `/resources?name=${NAME}`)).body.item;
const history = async (portal: PortalServer) =>
  (await call<{ items: HistoryEntry[] }>(portal, `/resources/history?name=${NAME}`)).body.items;

/** Waits until this replica classifies the account so. */
function reads(portal: PortalServer, code: string, fields: string[] = []): Promise<Item> {
  return until(
    async () => {
      const found = await item(portal);
      return found.classification.code === code &&
        JSON.stringify(found.classification.fields) === JSON.stringify(fields)
        ? found
        : undefined;
    },
    `${portal.url} to read ${code} ${fields.join(', ')}`,
  );
}

before(async () => {
  [cluster, postgres] = await Promise.all([startTestCluster({ timing: TIMING }), startPostgres()]);
  standIn = cluster.standIn;
  databaseUrl = await postgres.createDatabase('portal_ledger_replicas');
  kubectl = kubectlFor(cluster.kubeconfigPath, cluster.directory);
  [replicas.a, replicas.b] = await Promise.all([startReplica(), startReplica()]);
});

after(async () => {
  await Promise.all([replicas.a?.stop(), replicas.b?.stop()]);
  await cluster?.dispose();
  await postgres?.stop();
});

describe('the intent ledger across replicas and restarts', () => {
  it('shows what one replica recorded to the other at its next request', async () => {
    const a = replica('a');
    const b = replica('b');
    const created = await requestAccount(a, NAME, { application: 'ledger', accessTier: 'Hot' });
    assert.equal(created.status, 201);
    // Recorded before the cluster call and settled after it: the other replica reads it at once.
    assert.deepEqual(
      (await history(b)).map((entry) => [entry.action, entry.status, entry.by]),
      [['create', 'applied', 'anonymous']],
    );
    const ready = await reads(b, 'in_sync');

    // A change through B is the desired state A compares with, at A's next request.
    const changed = await call(b, `/resources?name=${NAME}`, {
      method: 'PATCH',
      body: JSON.stringify({ resourceVersion: ready.resourceVersion, accessTier: 'Cool' }),
    });
    assert.equal(changed.status, 200);
    assert.deepEqual(
      (await history(a)).map((entry) => entry.action),
      ['change', 'create'],
    );
    await reads(a, 'in_sync');
  });

  it('keeps both replicas on intent when kubectl strips the annotations and edits the spec, and either restores it', async () => {
    const a = replica('a');
    const b = replica('b');
    await stripPortalAnnotations(kubectl, NAME);
    await kubectl(['patch', 'account', NAME, '--type=merge', '-p', '{"spec":{"forProvider":{"accessTier":"Hot"}}}']);
    await reads(a, 'cluster_drift', ['accessTier']);
    const drifted = await reads(b, 'cluster_drift', ['accessTier']);

    const restored = await call(b, `/resources/remediate?name=${NAME}`, {
      method: 'POST',
      body: JSON.stringify({ action: 'restore-intent', resourceVersion: drifted.resourceVersion }),
    });
    assert.equal(restored.status, 202);
    assert.deepEqual(
      (await history(a)).map((entry) => [entry.action, entry.status]),
      [
        ['restore-intent', 'applied'],
        ['change', 'applied'],
        ['create', 'applied'],
      ],
    );
    await reads(a, 'in_sync');
    const spec = standIn.accounts().find((account) => account.metadata.name === NAME)?.spec?.['forProvider'];
    assert.equal((spec as Record<string, unknown>)['accessTier'], 'Cool');
  });

  it('keeps every record and the desired state when a replica restarts', async () => {
    const before = await history(replica('a'));
    await replica('a').stop();
    replicas.a = await startReplica();
    const a = replica('a');
    assert.deepEqual(await history(a), before);
    // Desired state comes from the ledger, not the annotations kubectl removed: still in sync.
    await reads(a, 'in_sync');
  });

  it('answers the inventory from the ledger when it restarts while the cluster is down', async () => {
    await standIn.setUnreachable('refuse');
    try {
      await replica('b').stop();
      replicas.b = await startReplica();
      const b = replica('b');
      const { status, body } = await call<{ items: Item[]; clusterAvailable: boolean }>(b, '/resources');
      assert.equal(status, 200);
      assert.equal(body.clusterAvailable, false);
      const entry = body.items.find((candidate) => candidate.name === NAME);
      assert.equal(entry?.classification.code, 'cluster_unavailable');
      assert.equal(entry?.source, 'ledger');
      assert.equal((await history(b))[0]?.action, 'restore-intent');
      const write = await call(b, `/resources/resync?name=${NAME}`, { method: 'POST' });
      assert.equal(write.status, 503);
    } finally {
      await standIn.clearFaults();
    }
    await reads(replica('b'), 'in_sync');
  });
});
