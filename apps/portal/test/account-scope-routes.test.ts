/**
 * Both account scopes through the portal's real routes, in a portal process on the Kubernetes
 * stand-in (contract, "Portal: Crossplane v2 namespaced accounts and live updates"). Namespaced
 * (PORTAL_ACCOUNT_SCOPE=namespaced): Crossplane v2 Accounts in the namespace of their application,
 * referencing a ClusterProviderConfig; create, list and filter by namespace, change, resync,
 * remediation and delete all act in that namespace; a missing namespace is a 400 naming it.
 * Cluster scope, the default, keeps cluster-scoped v1 Accounts and says `"namespace": null`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from './kube-stand-in-client';
import { eventually, startTestCluster, type TestCluster } from './kubernetes-harness';
import { startRouteHost, type ProxyUser, type RouteHost } from './route-host';

vi.setConfig({ testTimeout: 120_000 });

const ALICE: ProxyUser = { user: 'alice', groups: 'portal-requesters' };
const ADMIN: ProxyUser = { user: 'root', groups: 'portal-admins' };
const V2 = '/apis/storage.azure.m.upbound.io/v1beta1';

interface Item {
  name: string;
  namespace: string | null;
  state: string;
  resourceVersion?: string;
  desired: { accessTier?: string };
}
interface Failure {
  error: string;
  fields?: Record<string, string>;
}

let cluster: TestCluster;
let namespaced: RouteHost;
let clusterScoped: RouteHost;

beforeAll(async () => {
  cluster = await startTestCluster({ teamNamespaces: ['webshop', 'payments'] });
  [namespaced, clusterScoped] = await Promise.all([
    startRouteHost(cluster, { azure: false, env: { PORTAL_ACCOUNT_SCOPE: 'namespaced' } }),
    startRouteHost(cluster, { azure: false }),
  ]);
});

afterAll(async () => {
  await Promise.all([namespaced?.stop(), clusterScoped?.stop()]);
  await cluster?.dispose();
});

const request = (name: string, application = 'webshop', resourceGroup = 'rg-books-dev') => ({
  name,
  application,
  environment: 'dev',
  resourceGroup,
  location: 'westeurope',
});

function inCluster(name: string) {
  return cluster.standIn.accounts().find((account) => account.metadata.name === name);
}

async function readyItem(host: RouteHost, name: string): Promise<Item> {
  return eventually(async () => {
    const { body } = await host.call<{ item?: Item }>('GET', `/api/platform/resources?name=${name}`, ALICE);
    return body.item?.state === 'Ready' ? body.item : undefined;
  }, `${name} to become Ready`);
}

async function page(host: RouteHost, query: string) {
  return host.call<{ items: Item[]; total: number } & Failure>('GET', `/api/platform/resources?${query}`, ALICE);
}

describe('namespaced scope (Crossplane v2)', () => {
  it("creates a v2 Account in its application's namespace, referencing the ClusterProviderConfig", async () => {
    const created = await namespaced.call<{ item: Item }>(
      'POST',
      '/api/platform/resources',
      ALICE,
      request('stnsweb01'),
    );
    expect(created.status).toBe(201);
    expect(created.body.item).toMatchObject({ name: 'stnsweb01', namespace: 'webshop' });
    const object = inCluster('stnsweb01') as unknown as {
      apiVersion: string;
      metadata: { namespace?: string };
      spec: { providerConfigRef?: unknown };
    };
    expect(object.apiVersion).toBe('storage.azure.m.upbound.io/v1beta1');
    expect(object.metadata.namespace).toBe('webshop');
    expect(object.spec.providerConfigRef).toEqual({ kind: 'ClusterProviderConfig', name: 'default' });
    // The provider reconciled it against the resource group of its own namespace.
    expect((await readyItem(namespaced, 'stnsweb01')).namespace).toBe('webshop');
  });

  it('lists every namespace with each item naming its own, and filters by ?namespace=', async () => {
    expect(
      (await namespaced.call('POST', '/api/platform/resources', ALICE, request('stnspay01', 'payments'))).status,
    ).toBe(201);
    await readyItem(namespaced, 'stnspay01');
    const all = await page(namespaced, 'limit=500');
    expect(all.status).toBe(200);
    const byName = new Map(all.body.items.map((item) => [item.name, item.namespace]));
    expect(byName.get('stnsweb01')).toBe('webshop');
    expect(byName.get('stnspay01')).toBe('payments');

    const payments = await page(namespaced, 'namespace=payments');
    expect(payments.body.items.map((item) => item.name)).toEqual(['stnspay01']);
    expect(payments.body.total).toBe(1);
    const bad = await page(namespaced, 'namespace=Not_A_Namespace');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^namespace: /);
  });

  it('offers each namespace its own resource groups, and refuses a group of another namespace', async () => {
    const groups = await namespaced.call<{ items: { name: string; namespace?: string }[] }>(
      'GET',
      '/api/platform/resource-groups',
      ALICE,
    );
    expect(groups.status).toBe(200);
    const namespaces = new Set(groups.body.items.filter((g) => g.name === 'rg-books-dev').map((g) => g.namespace));
    expect(namespaces).toEqual(new Set(['webshop', 'payments']));

    cluster.standIn.createNamespace('team-bare');
    const refused = await namespaced.call<Failure>(
      'POST',
      '/api/platform/resources',
      ALICE,
      request('stnsbare01', 'team-bare'),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.fields?.['resourceGroup']).toContain('in namespace "team-bare"');
    expect(inCluster('stnsbare01')).toBeUndefined();
  });

  it('answers 400 naming a namespace that does not exist, and creates nothing', async () => {
    for (const dryRun of ['', '?dryRun=true']) {
      const refused = await namespaced.call<Failure>(
        'POST',
        `/api/platform/resources${dryRun}`,
        ALICE,
        request('stnsnone01', 'no-such-team'),
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain('namespace "no-such-team" does not exist');
      expect(refused.body.fields?.['application']).toContain('"no-such-team"');
    }
    expect(inCluster('stnsnone01')).toBeUndefined();
    expect(cluster.standIn.namespaces()).not.toContain('no-such-team');
    const history = await namespaced.call<{ items: unknown[] }>(
      'GET',
      '/api/platform/resources/history?name=stnsnone01',
      ALICE,
    );
    expect(history.body.items).toEqual([]);
  });

  it('changes, resyncs and deletes the Account in its namespace', async () => {
    const before = await readyItem(namespaced, 'stnsweb01');
    const changed = await namespaced.call<{ item: Item }>('PATCH', '/api/platform/resources?name=stnsweb01', ALICE, {
      resourceVersion: before.resourceVersion,
      accessTier: 'Cool',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.item.desired.accessTier).toBe('Cool');
    const object = inCluster('stnsweb01') as unknown as { spec: { forProvider: { accessTier?: string } } };
    expect(object.spec.forProvider.accessTier).toBe('Cool');

    const resynced = await namespaced.call('POST', '/api/platform/resources/resync?name=stnsweb01', ALICE);
    expect(resynced.status).toBe(202);

    const deleted = await namespaced.call('DELETE', '/api/platform/resources?name=stnsweb01', ALICE);
    expect(deleted.status).toBe(200);
    await eventually(async () => (inCluster('stnsweb01') ? undefined : true), 'stnsweb01 to be gone');
    const requests = cluster.standIn.requests().filter((r) => r.path.includes('/accounts/stnsweb01'));
    expect(requests.map((r) => r.path)).toContain(`${V2}/namespaces/webshop/accounts/stnsweb01`);
    expect(requests.every((r) => r.path.startsWith(`${V2}/namespaces/webshop/`))).toBe(true);
  });

  it('recreates an Account lost from the cluster in the namespace of its application', async () => {
    expect((await namespaced.call('POST', '/api/platform/resources', ALICE, request('stnslost01'))).status).toBe(201);
    await readyItem(namespaced, 'stnslost01');
    // Lost behind the portal's back, as `kubectl delete` would do it.
    const removed = await call(cluster.standIn, 'DELETE', `${V2}/namespaces/webshop/accounts/stnslost01`);
    expect(removed.status).toBeLessThan(300);
    await eventually(async () => {
      const { body } = await namespaced.call<{ item?: { classification?: { code: string } } }>(
        'GET',
        '/api/platform/resources?name=stnslost01',
        ALICE,
      );
      return body.item?.classification?.code === 'not_in_cluster' ? true : undefined;
    }, 'stnslost01 to be not_in_cluster');
    const recreated = await namespaced.call('POST', '/api/platform/resources/remediate?name=stnslost01', ADMIN, {
      action: 'recreate',
    });
    expect(recreated.status).toBe(202);
    const object = inCluster('stnslost01') as unknown as { apiVersion: string; metadata: { namespace?: string } };
    expect(object.apiVersion).toBe('storage.azure.m.upbound.io/v1beta1');
    expect(object.metadata.namespace).toBe('webshop');
  });
});

describe('cluster scope (the default)', () => {
  it('creates a cluster-scoped v1 Account, and its items say "namespace": null', async () => {
    const created = await clusterScoped.call<{ item: Item }>(
      'POST',
      '/api/platform/resources',
      ALICE,
      request('stclscope01'),
    );
    expect(created.status).toBe(201);
    expect(created.body.item.namespace).toBeNull();
    const object = inCluster('stclscope01') as unknown as {
      apiVersion: string;
      metadata: { namespace?: string };
      spec: { providerConfigRef?: unknown };
    };
    expect(object.apiVersion).toBe('storage.azure.upbound.io/v1beta1');
    expect(object.metadata.namespace).toBeUndefined();
    expect(object.spec.providerConfigRef).toBeUndefined();
    expect((await readyItem(clusterScoped, 'stclscope01')).namespace).toBeNull();
  });
});
