/**
 * The Kubernetes stand-in's wire protocol as a client sees it: TLS with its own authority, which paths
 * need a token, and discovery that advertises only what is served.
 */
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './kube-stand-in-client';
import { startTestCluster, type TestCluster } from './kubernetes-harness';
import { standInRequest } from './stand-in-client';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster();
});

afterAll(async () => {
  await cluster.dispose();
});

interface ApiResourceList {
  resources: { name: string; verbs: string[] }[];
}

describe('Kubernetes stand-in wire protocol', () => {
  it('serves TLS that a client trusting only the authority in its kubeconfig accepts', async () => {
    expect(cluster.standIn.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const kubeconfig = cluster.standIn.kubeconfig();
    const data = /certificate-authority-data: (\S+)/.exec(kubeconfig)?.[1] ?? '';
    expect(Buffer.from(data, 'base64').toString()).toBe(cluster.standIn.certificateAuthority);
    expect(kubeconfig).not.toContain('insecure-skip-tls-verify');
    const response = await call(cluster.standIn, 'GET', '/apis');
    expect(response.status).toBe(200);
  });

  it('refuses a TLS handshake from a client that does not trust its authority', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const req = request(`${cluster.standIn.url}/version`, (res) => resolve(`answered ${res.statusCode}`));
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      req.end();
    });
    expect(outcome).toMatch(/CERT|SELF_SIGNED|UNABLE_TO/);
  });

  it('answers /version and health checks without a token, and 401 Unauthorized elsewhere', async () => {
    const version = await call(cluster.standIn, 'GET', '/version', { token: null });
    expect(version.status).toBe(200);
    expect(version.json()).toMatchObject({ major: '1', gitVersion: expect.stringMatching(/^v1\./) as unknown });
    expect((await call(cluster.standIn, 'GET', '/readyz', { token: null })).status).toBe(200);
    const apis = await call(cluster.standIn, 'GET', '/apis', { token: null });
    expect(apis.status).toBe(401);
    expect(apis.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    expect((await call(cluster.standIn, 'GET', '/apis', { token: 'wrong' })).status).toBe(401);
  });

  it('advertises in discovery only the verbs it serves', async () => {
    const accounts = (
      await call(cluster.standIn, 'GET', '/apis/storage.azure.upbound.io/v1beta1')
    ).json<ApiResourceList>();
    const account = accounts.resources.find((r) => r.name === 'accounts');
    expect(account?.verbs).not.toContain('deletecollection');
    const core = (await call(cluster.standIn, 'GET', '/api/v1')).json<ApiResourceList>();
    expect(core.resources.find((r) => r.name === 'events')?.verbs).not.toContain('create');
    const refused = await call(cluster.standIn, 'DELETE', '/apis/storage.azure.upbound.io/v1beta1/accounts');
    expect(refused.status).toBe(405);
  });

  it('seeds resource groups labelled with the platform-portal/ prefix the manifests use, not another product prefix', async () => {
    const groups = (await call(cluster.standIn, 'GET', '/apis/azure.upbound.io/v1beta1/resourcegroups')).json<{
      items: { metadata: { name: string; labels?: Record<string, string> } }[];
    }>();
    expect(groups.items.length).toBeGreaterThan(0);
    for (const group of groups.items) {
      expect(group.metadata.labels).toEqual({ 'platform-portal/approved': 'true' });
    }
    expect(JSON.stringify(cluster.standIn.resourceGroups())).not.toContain('platform.books.dev');
  });

  it('fills itself with Ready accounts through its control API, refusing a bad count or prefix', async () => {
    const filled = await standInRequest<{ added: number; accounts: number }>(
      cluster.standIn,
      'POST',
      '/__stand-in/accounts',
      { count: 3, prefix: 'stctl' },
    );
    expect(filled.status).toBe(200);
    expect(filled.body.added).toBe(3);
    const again = await standInRequest<{ added: number }>(cluster.standIn, 'POST', '/__stand-in/accounts', {
      count: 3,
      prefix: 'stctl',
    });
    expect(again.body.added).toBe(0);
    const listed = (await call(cluster.standIn, 'GET', '/apis/storage.azure.upbound.io/v1beta1/accounts')).json<{
      items: { metadata: { name: string }; status: { conditions: { type: string; status: string }[] } }[];
    }>();
    const names = listed.items.map((item) => item.metadata.name).filter((name) => name.startsWith('stctl'));
    expect(names).toEqual(['stctl00000', 'stctl00001', 'stctl00002']);
    for (const item of listed.items) {
      expect(item.status.conditions).toContainEqual(expect.objectContaining({ type: 'Ready', status: 'True' }));
    }
    for (const body of [{ count: 0 }, { count: 'many' }, { count: 2, prefix: 'Bad-Prefix' }]) {
      const refused = await standInRequest<{ error: string }>(cluster.standIn, 'POST', '/__stand-in/accounts', body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/count|prefix/);
    }
  });

  it('answers 410 Gone to a watch from before a compaction of its history', async () => {
    const before = cluster.standIn.accounts().at(-1)?.metadata.resourceVersion ?? '1';
    cluster.standIn.fillAccounts(1, 'stcompact');
    const compacted = await standInRequest<{ resourceVersion: string }>(
      cluster.standIn,
      'POST',
      '/__stand-in/history/compact',
      {},
    );
    expect(Number(compacted.body.resourceVersion)).toBeGreaterThan(Number(before));
    const watch = await call(
      cluster.standIn,
      'GET',
      `/apis/storage.azure.upbound.io/v1beta1/accounts?watch=true&resourceVersion=${before}`,
    );
    expect(watch.status).toBe(200);
    expect(JSON.parse(watch.text.trim().split('\n')[0] ?? '{}')).toMatchObject({
      type: 'ERROR',
      object: { code: 410, reason: 'Expired' },
    });
  });
});
