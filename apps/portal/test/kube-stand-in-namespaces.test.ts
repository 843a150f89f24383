/**
 * The stand-in's namespaces and Crossplane v2's namespaced groups (storage.azure.m.upbound.io,
 * azure.m.upbound.io), raw and through @kubernetes/client-node: namespaced paths for every verb, lists
 * and watches across namespaces, the 404 a write into a missing namespace gets, and the simulated
 * provider reconciling a namespaced Account against the ResourceGroups of its own namespace.
 */
import { CustomObjectsApi, KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './kube-stand-in-client';
import { eventually, startTestCluster, type TestCluster } from './kubernetes-harness';

const V2 = '/apis/storage.azure.m.upbound.io/v1beta1';
const V2_GROUPS = '/apis/azure.m.upbound.io/v1beta1';

let cluster: TestCluster;
let sequence = 0;

beforeAll(async () => {
  cluster = await startTestCluster({ teamNamespaces: ['webshop', 'payments'] });
});

afterAll(async () => {
  await cluster.dispose();
});

interface Account {
  metadata: { name: string; namespace?: string; resourceVersion: string };
  status?: { conditions?: { type: string; status: string; reason: string; message?: string }[] };
}

function account(name: string, resourceGroupName = 'rg-books-dev', namespace?: string): Record<string, unknown> {
  return {
    apiVersion: 'storage.azure.m.upbound.io/v1beta1',
    kind: 'Account',
    metadata: { name, ...(namespace ? { namespace } : {}) },
    spec: {
      providerConfigRef: { kind: 'ClusterProviderConfig', name: 'default' },
      forProvider: {
        accountReplicationType: 'LRS',
        accountTier: 'Standard',
        location: 'westeurope',
        resourceGroupName,
      },
    },
  };
}

const condition = (object: Account, type: string) => object.status?.conditions?.find((c) => c.type === type);

describe('Kubernetes stand-in namespaces', () => {
  it('serves /api/v1/namespaces: the system and team namespaces, get, create, and 409 for a taken name', async () => {
    const list = (await call(cluster.standIn, 'GET', '/api/v1/namespaces')).json<{ items: Account[] }>();
    expect(list.items.map((n) => n.metadata.name)).toEqual(
      expect.arrayContaining(['default', 'kube-system', 'payments', 'webshop']),
    );
    expect((await call(cluster.standIn, 'GET', '/api/v1/namespaces/webshop')).status).toBe(200);
    const missing = await call(cluster.standIn, 'GET', '/api/v1/namespaces/nowhere');
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ reason: 'NotFound', message: 'namespaces "nowhere" not found' });
    const made = await call(cluster.standIn, 'POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-new' } },
    });
    expect(made.status).toBe(201);
    expect(made.json()).toMatchObject({ metadata: { name: 'team-new' }, status: { phase: 'Active' } });
    const again = await call(cluster.standIn, 'POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-new' } },
    });
    expect(again.status).toBe(409);
    const discovery = (await call(cluster.standIn, 'GET', '/api/v1')).json<{ resources: { name: string }[] }>();
    expect(discovery.resources.map((r) => r.name)).toEqual(expect.arrayContaining(['events', 'namespaces']));
  });

  it('discovers the v2 groups as namespaced, with a namespaced ResourceGroup copy in each team namespace', async () => {
    const discovery = (await call(cluster.standIn, 'GET', V2)).json<{
      resources: { name: string; namespaced: boolean }[];
    }>();
    expect(discovery.resources.find((r) => r.name === 'accounts')?.namespaced).toBe(true);
    const groups = (await call(cluster.standIn, 'GET', `${V2_GROUPS}/namespaces/webshop/resourcegroups`)).json<{
      items: Account[];
    }>();
    expect(groups.items.map((g) => `${g.metadata.namespace}/${g.metadata.name}`)).toContain('webshop/rg-books-dev');
    // The cluster-scoped forms are untouched and still cluster-scoped.
    expect((await call(cluster.standIn, 'GET', '/apis/storage.azure.upbound.io/v1beta1/accounts')).status).toBe(200);
    expect(
      (await call(cluster.standIn, 'GET', '/apis/storage.azure.upbound.io/v1beta1/namespaces/webshop/accounts')).status,
    ).toBe(404);
  });

  it('creates, reads, patches and deletes a namespaced Account, which the provider makes Ready in its namespace', async () => {
    const name = `stnsweb${sequence++}`;
    const path = `${V2}/namespaces/webshop/accounts`;
    const created = await call(cluster.standIn, 'POST', path, { body: account(name) });
    expect(created.status).toBe(201);
    expect(created.json<Account>().metadata.namespace).toBe('webshop');
    const ready = await eventually(async () => {
      const got = (await call(cluster.standIn, 'GET', `${path}/${name}`)).json<Account>();
      return condition(got, 'Ready')?.status === 'True' ? got : undefined;
    }, `${name} to become Ready`);
    expect(condition(ready, 'Synced')?.status).toBe('True');
    // Not visible under another namespace; listed across namespaces at the group-version's root.
    expect((await call(cluster.standIn, 'GET', `${V2}/namespaces/payments/accounts/${name}`)).status).toBe(404);
    const all = (await call(cluster.standIn, 'GET', `${V2}/accounts`)).json<{ items: Account[] }>();
    expect(all.items.map((a) => `${a.metadata.namespace}/${a.metadata.name}`)).toContain(`webshop/${name}`);

    const patched = await call(cluster.standIn, 'PATCH', `${path}/${name}`, {
      body: { metadata: { labels: { team: 'web' } } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.status).toBe(200);
    expect(patched.json<Account>().metadata.namespace).toBe('webshop');

    const events = (
      await call(
        cluster.standIn,
        'GET',
        `/api/v1/namespaces/webshop/events?fieldSelector=${encodeURIComponent(`involvedObject.name=${name}`)}`,
      )
    ).json<{ items: { involvedObject: { namespace?: string } }[] }>();
    expect(events.items.length).toBeGreaterThan(0);
    expect(events.items.every((e) => e.involvedObject.namespace === 'webshop')).toBe(true);

    expect((await call(cluster.standIn, 'DELETE', `${path}/${name}`)).status).toBe(200);
    await eventually(
      async () => ((await call(cluster.standIn, 'GET', `${path}/${name}`)).status === 404 ? true : undefined),
      `${name} to be gone`,
    );
  });

  it('answers a create in a missing namespace with the API server 404, and a mismatched namespace with 400', async () => {
    const missing = await call(cluster.standIn, 'POST', `${V2}/namespaces/nowhere/accounts`, {
      body: account('stnowhere'),
    });
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({
      reason: 'NotFound',
      message: 'namespaces "nowhere" not found',
      details: { name: 'nowhere', kind: 'namespaces' },
    });
    const mismatch = await call(cluster.standIn, 'POST', `${V2}/namespaces/webshop/accounts`, {
      body: account('stmismatch', 'rg-books-dev', 'payments'),
    });
    expect(mismatch.status).toBe(400);
  });

  it('fails a namespaced Account whose resource group is not in its namespace, as the provider would', async () => {
    cluster.standIn.createNamespace('team-bare');
    const name = `stnsbare${sequence++}`;
    const path = `${V2}/namespaces/team-bare/accounts`;
    expect((await call(cluster.standIn, 'POST', path, { body: account(name) })).status).toBe(201);
    const failed = await eventually(async () => {
      const got = (await call(cluster.standIn, 'GET', `${path}/${name}`)).json<Account>();
      return condition(got, 'Synced')?.status === 'False' ? got : undefined;
    }, `${name} to fail`);
    expect(condition(failed, 'Synced')?.message).toMatch(/ResourceGroupNotFound/);
  });

  it('serves @kubernetes/client-node: namespaced create, get and list, and a cluster-wide list', async () => {
    const config = new KubeConfig();
    config.loadFromString(cluster.standIn.kubeconfig());
    const api = config.makeApiClient(CustomObjectsApi);
    const target = { group: 'storage.azure.m.upbound.io', version: 'v1beta1', plural: 'accounts' };
    const name = `stnspay${sequence++}`;
    await api.createNamespacedCustomObject({ ...target, namespace: 'payments', body: account(name) });
    const got = (await api.getNamespacedCustomObject({ ...target, namespace: 'payments', name })) as KubernetesObject;
    expect(got.metadata?.namespace).toBe('payments');
    const inNamespace = (await api.listNamespacedCustomObject({ ...target, namespace: 'payments' })) as {
      items: KubernetesObject[];
    };
    expect(inNamespace.items.map((o) => o.metadata?.name)).toContain(name);
    const everywhere = (await api.listClusterCustomObject(target)) as { items: KubernetesObject[] };
    expect(everywhere.items.some((o) => o.metadata?.name === name && o.metadata.namespace === 'payments')).toBe(true);
  });
});
