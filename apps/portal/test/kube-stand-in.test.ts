/**
 * The Kubernetes stand-in's wire protocol as a client sees it: TLS with its own authority, which paths
 * need a token, and discovery that advertises only what is served.
 */
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './kube-stand-in-client';
import { startTestCluster, type TestCluster } from './kubernetes-harness';

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
});
