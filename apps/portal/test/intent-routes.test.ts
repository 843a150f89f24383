/**
 * The intent ledger through the route handlers on the Kubernetes stand-in, in both stores: every
 * create, change, resync and delete is recorded before the cluster call, its outcome after, and
 * GET /api/platform/resources/history answers the records newest first.
 */
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventually, startTestCluster, type TestCluster } from './kubernetes-harness';
import { PROXY_PROOF, TEST_PROXY_SECRET } from './proxy-sign-in';

// The first test of a file starts a cluster (and a child process or a database): slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const ORIGIN = 'http://portal.test';
let cluster: TestCluster;
let server: TestPostgres;
let postgresUrl: string;

interface HistoryEntry {
  id: string;
  action: string;
  by: string;
  actor: { subject: string; display: string };
  at: string;
  status: string;
  reason?: string;
  changes: { field: string; from?: unknown; to?: unknown }[];
}

async function routes() {
  vi.resetModules();
  return {
    resources: await import('../src/app/api/platform/resources/route'),
    resync: await import('../src/app/api/platform/resources/resync/route'),
    history: await import('../src/app/api/platform/resources/history/route'),
  };
}

const headers = (extra: Record<string, string> = {}) => ({
  host: 'portal.test',
  origin: ORIGIN,
  ...PROXY_PROOF,
  'x-forwarded-user': 'rita',
  'x-forwarded-email': 'rita@books.example',
  'x-forwarded-groups': 'portal-admins',
  ...extra,
});

const send = (method: string, path: string, body?: unknown) =>
  new Request(`${ORIGIN}${path}`, {
    method,
    headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function history(name: string): Promise<{ status: number; items: HistoryEntry[] }> {
  const response = await (await routes()).history.GET(send('GET', `/api/platform/resources/history?name=${name}`));
  const body = (await response.json()) as { items: HistoryEntry[] };
  return { status: response.status, items: body.items };
}

async function readyAccount(name: string, extra: Record<string, unknown> = {}) {
  const { resources } = await routes();
  const created = await resources.POST(
    send('POST', '/api/platform/resources', {
      name,
      application: 'webshop',
      environment: 'dev',
      resourceGroup: 'rg-books-dev',
      location: 'westeurope',
      accessTier: 'Hot',
      ...extra,
    }),
  );
  expect(created.status).toBe(201);
  return eventually(async () => {
    const answer = await (await routes()).resources.GET(send('GET', `/api/platform/resources?name=${name}`));
    const { item } = (await answer.json()) as { item: { state: string; resourceVersion: string } };
    return item.state === 'Ready' ? item : undefined;
  }, `${name} to become Ready`);
}

beforeAll(async () => {
  [cluster, server] = await Promise.all([startTestCluster(), startPostgres()]);
  postgresUrl = await server.createDatabase('portal_intent_routes');
}, 120_000);

afterAll(async () => {
  await cluster?.dispose();
  await server?.stop();
}, 60_000);

afterEach(async () => {
  vi.unstubAllEnvs();
  await cluster.standIn.clearFaults();
});

describe.each([
  ['memory', () => undefined],
  ['PostgreSQL', () => postgresUrl],
])('intent ledger (%s) through the platform API', (store, databaseUrl) => {
  const suffix = store === 'memory' ? 'm' : 'p';

  beforeEach(() => {
    vi.stubEnv('PORTAL_MOCK_PLATFORM', 'false');
    vi.stubEnv('KUBECONFIG', cluster.kubeconfigPath);
    vi.stubEnv('PORTAL_AUTH', 'proxy');
    vi.stubEnv('PORTAL_PROXY_SECRET', TEST_PROXY_SECRET);
    vi.stubEnv('PORTAL_ADMIN_GROUPS', 'portal-admins');
    const url = databaseUrl();
    if (url) vi.stubEnv('PORTAL_DATABASE_URL', url);
  });

  it('records a create with who asked and every desired setting, applied once the cluster took it', async () => {
    const name = `sthistcreate${suffix}`;
    await readyAccount(name);
    const { status, items } = await history(name);
    expect(status).toBe(200);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      action: 'create',
      by: 'rita@books.example',
      // Proxy mode: the forwarded user is the subject; the forwarded e-mail is shown.
      actor: { subject: 'rita', display: 'rita@books.example' },
      status: 'applied',
    });
    expect(items[0]?.changes).toContainEqual({ field: 'location', label: 'Location', to: 'westeurope' });
    expect(items[0]?.changes).toContainEqual({ field: 'minTlsVersion', label: 'Minimum TLS version', to: 'TLS1_2' });
  });

  it('records a change, a resync and a delete, newest first, with what each changed', async () => {
    const name = `sthistflow${suffix}`;
    const ready = await readyAccount(name);
    const { resources, resync } = await routes();
    const changed = await resources.PATCH(
      send('PATCH', `/api/platform/resources?name=${name}`, {
        resourceVersion: ready.resourceVersion,
        publicNetworkAccess: true,
        allowedIpRanges: ['203.0.113.0/24'],
      }),
    );
    expect(changed.status).toBe(200);
    expect((await resync.POST(send('POST', `/api/platform/resources/resync?name=${name}`))).status).toBe(202);
    expect((await resources.DELETE(send('DELETE', `/api/platform/resources?name=${name}`))).status).toBe(200);

    const { items } = await history(name);
    expect(items.map((item) => [item.action, item.status])).toEqual([
      ['delete', 'applied'],
      ['resync', 'applied'],
      ['change', 'applied'],
      ['create', 'applied'],
    ]);
    expect(items[2]?.changes).toEqual([
      { field: 'publicNetworkAccess', label: 'Public network access', from: false, to: true },
      { field: 'allowedIpRanges', label: 'Allowed IP ranges', from: [], to: ['203.0.113.0/24'] },
    ]);
    expect(items[1]?.changes).toEqual([]);
    const times = items.map((item) => Date.parse(item.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('records a create the cluster refused as failed, with the reason', async () => {
    const name = `sthistfail${suffix}`;
    cluster.standIn.setConflictOnCreate(true);
    const { resources } = await routes();
    const response = await resources.POST(
      send('POST', '/api/platform/resources', {
        name,
        application: 'webshop',
        environment: 'dev',
        resourceGroup: 'rg-books-dev',
        location: 'westeurope',
      }),
    );
    expect(response.status).toBe(409);
    const { items } = await history(name);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ action: 'create', status: 'failed' });
    expect(items[0]?.reason).toBe(((await response.json()) as { error: string }).error);
  });

  it('records a create without a name under the name the portal chose for it', async () => {
    const { resources } = await routes();
    const response = await resources.POST(
      send('POST', '/api/platform/resources', {
        application: 'ledger',
        environment: 'dev',
        resourceGroup: 'rg-books-dev',
        location: 'westeurope',
      }),
    );
    expect(response.status).toBe(201);
    const { item } = (await response.json()) as { item: { name: string } };
    expect(item.name).toMatch(/^stledger[a-z0-9]{5}$/);
    expect((await history(item.name)).items.map((entry) => entry.action)).toEqual(['create']);
  });

  it('records nothing for a dry run or for an account nobody asked for', async () => {
    const { resources } = await routes();
    const name = `sthistdry${suffix}`;
    const response = await resources.POST(
      send('POST', '/api/platform/resources?dryRun=true', {
        name,
        application: 'webshop',
        environment: 'dev',
        resourceGroup: 'rg-books-dev',
        location: 'westeurope',
      }),
    );
    expect(response.status).toBe(200);
    expect(await history(name)).toEqual({ status: 200, items: [] });
  });
});

describe('intent ledger guarding the cluster', () => {
  beforeEach(() => {
    vi.stubEnv('PORTAL_MOCK_PLATFORM', 'false');
    vi.stubEnv('KUBECONFIG', cluster.kubeconfigPath);
    vi.stubEnv('PORTAL_AUTH', 'proxy');
    vi.stubEnv('PORTAL_PROXY_SECRET', TEST_PROXY_SECRET);
    vi.stubEnv('PORTAL_ADMIN_GROUPS', 'portal-admins');
  });

  it('refuses a create with 503 and never calls the cluster when the ledger cannot record it', async () => {
    vi.stubEnv('PORTAL_DATABASE_URL', 'postgres://portal@127.0.0.1:1/portal');
    const { resources } = await routes();
    const creates = () => cluster.standIn.requests().filter((r) => r.verb === 'create').length;
    const before = creates();
    const response = await resources.POST(
      send('POST', '/api/platform/resources', {
        name: 'stnoledger',
        application: 'webshop',
        environment: 'dev',
        resourceGroup: 'rg-books-dev',
        location: 'westeurope',
      }),
    );
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toMatch(/intent ledger/);
    expect(creates()).toBe(before);
    expect(cluster.standIn.accounts().some((a) => a.metadata.name === 'stnoledger')).toBe(false);
  });

  it('GET /api/platform/resources/history answers 400 without a valid name and 405 to other methods', async () => {
    const { history: route } = await routes();
    const missing = await route.GET(send('GET', '/api/platform/resources/history'));
    expect(missing.status).toBe(400);
    const bad = await route.GET(send('GET', '/api/platform/resources/history?name=Not_Valid'));
    expect(bad.status).toBe(400);
    const post = await route.POST(send('POST', '/api/platform/resources/history?name=stx'));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});
