/**
 * Changing an account in place and asking for a resync, through the route handlers, a real
 * kubeconfig and @kubernetes/client-node against the Kubernetes API stand-in.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventually, startTestCluster, type TestCluster } from './kubernetes-harness';
import { standInRequest } from './stand-in-client';
import { storageRequest } from './storage-fixtures';
import { PROXY_PROOF, TEST_PROXY_SECRET } from './proxy-sign-in';

const ORIGIN = 'http://portal.test';
const RESOURCES = `${ORIGIN}/api/platform/resources`;
let cluster: TestCluster;

async function routes() {
  vi.resetModules();
  return {
    resources: await import('../src/app/api/platform/resources/route'),
    resync: await import('../src/app/api/platform/resources/resync/route'),
  };
}

interface Item {
  name: string;
  state: string;
  accessTier?: string;
  resourceVersion: string;
  desired: Record<string, unknown>;
  lastChangedBy?: string;
  sync: {
    inSync: boolean;
    reasons: string[];
    changedOutsidePortal: string[];
    resyncRequestedBy?: string;
    resyncRequestedAt?: string;
    resyncHandledAt?: string;
  };
}
type Body = { item: Item; changes?: { field: string }[]; error?: string; fields?: Record<string, string> };

const json = async (response: Response) => (await response.json()) as Body;
const headers = (extra: Record<string, string> = {}) => ({
  host: 'portal.test',
  origin: ORIGIN,
  ...PROXY_PROOF,
  'x-forwarded-user': 'platform-admin',
  'x-forwarded-groups': 'portal-admins',
  ...extra,
});

function patch(name: string, body: unknown, dryRun = false): Request {
  return new Request(`${RESOURCES}?name=${name}${dryRun ? '&dryRun=true' : ''}`, {
    method: 'PATCH',
    headers: headers({
      'content-type': 'application/json',
      'x-forwarded-email': 'owner@books.example',
      'x-forwarded-groups': 'portal-admins',
    }),
    body: JSON.stringify(body),
  });
}

async function read(name: string): Promise<Item> {
  const { resources } = await routes();
  return (await json(await resources.GET(new Request(`${RESOURCES}?name=${name}`, { headers: headers() })))).item;
}

async function readyAccount(name: string): Promise<Item> {
  const { resources } = await routes();
  const created = await resources.POST(
    new Request(RESOURCES, {
      method: 'POST',
      headers: headers({ 'content-type': 'application/json' }),
      body: JSON.stringify(storageRequest({ name })),
    }),
  );
  expect(created.status).toBe(201);
  return eventually(async () => {
    const item = await read(name);
    return item.state === 'Ready' ? item : undefined;
  }, `${name} to become Ready`);
}

const stored = (name: string) => cluster.standIn.accounts().find((a) => a.metadata.name === name);

beforeAll(async () => {
  cluster = await startTestCluster();
});

afterAll(async () => {
  await cluster.dispose();
});

beforeEach(() => {
  vi.stubEnv('PORTAL_MOCK_PLATFORM', 'false');
  vi.stubEnv('KUBECONFIG', cluster.kubeconfigPath);
  // Proxy mode: the forwarded identity is the signed-in user, an admin through its group.
  vi.stubEnv('PORTAL_AUTH', 'proxy');
  vi.stubEnv('PORTAL_PROXY_SECRET', TEST_PROXY_SECRET);
  vi.stubEnv('PORTAL_ADMIN_GROUPS', 'portal-admins');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await cluster.standIn.clearFaults();
  cluster.standIn.clearFailure();
});

describe('changing an account on a cluster', () => {
  it('PATCH merges the change into the Account, records who changed it, and Azure reports it', async () => {
    const account = await readyAccount('stchange01');
    const { resources } = await routes();
    const response = await resources.PATCH(
      patch('stchange01', {
        resourceVersion: account.resourceVersion,
        accessTier: 'Cool',
        publicNetworkAccess: true,
        allowedIpRanges: ['203.0.113.0/24'],
        environment: 'prod',
      }),
    );
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.changes?.map((c) => c.field)).toEqual([
      'accessTier',
      'publicNetworkAccess',
      'allowedIpRanges',
      'environment',
    ]);
    expect(body.item.lastChangedBy).toBe('owner@books.example');

    const object = stored('stchange01');
    expect(object?.spec?.['forProvider']).toMatchObject({
      accessTier: 'Cool',
      publicNetworkAccessEnabled: true,
      networkRules: [{ defaultAction: 'Deny', bypass: ['AzureServices'], ipRules: ['203.0.113.0/24'] }],
      tags: { application: 'webshop', environment: 'prod' },
    });
    expect(Object.values(object?.metadata.labels ?? {})).toContain('prod');

    const settled = await eventually(async () => {
      const item = await read('stchange01');
      return item.accessTier === 'Cool' && item.sync.inSync ? item : undefined;
    }, 'Azure to report the change');
    expect(settled.desired).toMatchObject({
      accessTier: 'Cool',
      allowedIpRanges: ['203.0.113.0/24'],
      environment: 'prod',
    });
  });

  it('PATCH ?dryRun=true has the API server check the change and stores nothing', async () => {
    const account = await readyAccount('stchange02');
    const { resources } = await routes();
    const response = await resources.PATCH(
      patch('stchange02', { resourceVersion: account.resourceVersion, minTlsVersion: 'TLS1_3' }, true),
    );
    expect(response.status).toBe(200);
    expect((await json(response)).changes?.map((c) => c.field)).toEqual(['minTlsVersion']);
    expect(stored('stchange02')?.spec?.['forProvider']).toMatchObject({ minTlsVersion: 'TLS1_2' });
    const patches = cluster.standIn.requests().filter((r) => r.verb === 'patch' && r.path.endsWith('/stchange02'));
    expect(patches.at(-1)?.query).toContain('dryRun=All');
  });

  it('PATCH with the version read before a concurrent change answers 409 and changes nothing', async () => {
    const account = await readyAccount('stchange03');
    const { resources } = await routes();
    const first = await resources.PATCH(
      patch('stchange03', { resourceVersion: account.resourceVersion, httpsOnly: true, accessTier: 'Cool' }),
    );
    expect(first.status).toBe(200);
    const second = await resources.PATCH(
      patch('stchange03', { resourceVersion: account.resourceVersion, accessTier: 'Hot' }),
    );
    expect(second.status).toBe(409);
    expect((await json(second)).error).toMatch(/changed by someone else after you loaded it/);
    expect(stored('stchange03')?.spec?.['forProvider']).toMatchObject({ accessTier: 'Cool' });
  });

  it('PATCH answers 400 naming a field that cannot change in place, and 404 for a missing account', async () => {
    const account = await readyAccount('stchange04');
    const { resources } = await routes();
    const fixed = await resources.PATCH(
      patch('stchange04', { resourceVersion: account.resourceVersion, replicationType: 'GRS' }),
    );
    expect(fixed.status).toBe(400);
    expect((await json(fixed)).fields?.['replicationType']).toMatch(/cannot be changed in place/);
    const missing = await resources.PATCH(patch('stnosuch99', { resourceVersion: '1', accessTier: 'Cool' }));
    expect(missing.status).toBe(404);
  });
});

describe('drift and resync on a cluster', () => {
  it('reports Synced=False and a spec edited outside the portal as out of sync', async () => {
    const account = await readyAccount('stdrift01');
    const { resources } = await routes();
    await resources.PATCH(patch('stdrift01', { resourceVersion: account.resourceVersion, accessTier: 'Cool' }));
    // Someone edits the spec with kubectl, bypassing the portal.
    const edited = await standInRequest(
      cluster.standIn,
      'PATCH',
      '/apis/storage.azure.upbound.io/v1beta1/accounts/stdrift01',
      { spec: { forProvider: { minTlsVersion: 'TLS1_3' } } },
      'application/merge-patch+json',
    );
    expect(edited.status).toBe(200);
    cluster.standIn.injectFailure('stdrift01', 'quota exceeded');
    const drifted = await eventually(async () => {
      const item = await read('stdrift01');
      return item.sync.reasons.some((r) => r.includes('Synced=False')) ? item : undefined;
    }, 'the failure to show');
    expect(drifted.sync.inSync).toBe(false);
    expect(drifted.sync.changedOutsidePortal).toEqual(['minTlsVersion']);
    expect(drifted.sync.reasons.join(' ')).toContain('quota exceeded');
  });

  it('reports a spec edited outside the portal right after create, before any change in the portal', async () => {
    await readyAccount('stdrift02');
    const annotations = stored('stdrift02')?.metadata.annotations ?? {};
    expect(JSON.parse(annotations['platform-portal/last-applied-for-provider'] ?? '{}')).toEqual(
      stored('stdrift02')?.spec?.['forProvider'],
    );
    expect((await read('stdrift02')).sync).toMatchObject({ inSync: true, changedOutsidePortal: [] });
    const edited = await standInRequest(
      cluster.standIn,
      'PATCH',
      '/apis/storage.azure.upbound.io/v1beta1/accounts/stdrift02',
      { spec: { forProvider: { accessTier: 'Cool' } } },
      'application/merge-patch+json',
    );
    expect(edited.status).toBe(200);
    // An edit by someone else reaches the portal through its watch, a moment later.
    const drifted = await eventually(async () => {
      const item = await read('stdrift02');
      return item.sync.inSync ? undefined : item;
    }, 'the edit to reach the portal');
    expect(drifted.sync.changedOutsidePortal).toEqual(['accessTier']);
  });

  it('POST resync touches the reconcile-request annotation, records who asked, and Crossplane handles it', async () => {
    await readyAccount('stresync01');
    const { resync } = await routes();
    const response = await resync.POST(
      new Request(`${RESOURCES}/resync?name=stresync01`, {
        method: 'POST',
        headers: headers({ 'x-forwarded-email': 'ops@books.example', 'x-forwarded-groups': 'portal-admins' }),
      }),
    );
    expect(response.status).toBe(202);
    const { item } = await json(response);
    expect(item.sync.resyncRequestedBy).toBe('ops@books.example');
    const annotations = stored('stresync01')?.metadata.annotations ?? {};
    expect(annotations['crossplane.io/reconcile-requested-at']).toBe(item.sync.resyncRequestedAt);
    expect(annotations['crossplane.io/paused']).toBeUndefined();
    await eventually(async () => {
      const fresh = await read('stresync01');
      return fresh.sync.resyncHandledAt === item.sync.resyncRequestedAt ? fresh : undefined;
    }, 'Crossplane to handle the resync');

    const missing = await resync.POST(
      new Request(`${RESOURCES}/resync?name=stnosuch98`, { method: 'POST', headers: headers() }),
    );
    expect(missing.status).toBe(404);
  });
});
