/**
 * The create limits through the real route handlers on the Kubernetes stand-in, in proxy mode,
 * with the ledger in memory: counts come from the process's ledger and the cluster's objects, so
 * they hold when the modules are loaded afresh, and a create deleted again within the hour still
 * counts. (Across replicas, on PostgreSQL: test/create-limits-replicas.test.ts.)
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PORTAL_KEYS } from '../src/lib/platform/account-manifest';
import { eventually, startTestCluster, type TestCluster } from './kubernetes-harness';
import { TEST_PROXY_SECRET, throughProxy } from './proxy-sign-in';

const ORIGIN = 'http://portal.test';
let cluster: TestCluster;

/** A fresh load of the route module: a restarted portal, with nothing remembered in memory. */
async function restartedRoutes() {
  vi.resetModules();
  return import('../src/app/api/platform/resources/route');
}

const requester = (user: string) => throughProxy({ 'x-forwarded-user': user, 'x-forwarded-groups': 'developers' });
const ADMIN = throughProxy({ 'x-forwarded-user': 'ada', 'x-forwarded-groups': 'portal-admins' });

function create(headers: Record<string, string>): Request {
  return new Request(`${ORIGIN}/api/platform/resources`, {
    method: 'POST',
    headers: { host: 'portal.test', origin: ORIGIN, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      application: 'limits',
      environment: 'dev',
      resourceGroup: 'rg-books-dev',
      location: 'westeurope',
    }),
  });
}

function remove(name: string, headers: Record<string, string>): Request {
  return new Request(`${ORIGIN}/api/platform/resources?name=${name}`, {
    method: 'DELETE',
    headers: { host: 'portal.test', origin: ORIGIN, ...headers },
  });
}

async function created(response: Response): Promise<string> {
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { item: { name: string } }).item.name;
}

const ownedBy = (user: string) =>
  cluster.standIn
    .accounts()
    .filter((account) => account.metadata.annotations?.[PORTAL_KEYS.requestedBySubject] === user);

beforeAll(async () => {
  cluster = await startTestCluster();
});

afterAll(async () => {
  await cluster.dispose();
});

beforeEach(() => {
  vi.stubEnv('PORTAL_MOCK_PLATFORM', 'false');
  vi.stubEnv('KUBECONFIG', cluster.kubeconfigPath);
  vi.stubEnv('PORTAL_AUTH', 'proxy');
  vi.stubEnv('PORTAL_PROXY_SECRET', TEST_PROXY_SECRET);
  vi.stubEnv('PORTAL_ADMIN_GROUPS', 'portal-admins');
  vi.stubEnv('PORTAL_REQUESTER_GROUPS', 'developers');
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('create limits on a cluster', () => {
  it('answers 429 with Retry-After past the hourly limit, also after a restart, and never limits an admin', async () => {
    vi.stubEnv('PORTAL_MAX_CREATES_PER_HOUR', '2');
    let routes = await restartedRoutes();
    await created(await routes.POST(create(requester('hana'))));
    await created(await routes.POST(create(requester('hana'))));
    const refused = await routes.POST(create(requester('hana')));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await refused.json()).toEqual({
      error: expect.stringMatching(/created 2 storage accounts in the last hour/),
    });
    expect(ownedBy('hana')).toHaveLength(2);

    routes = await restartedRoutes();
    expect((await routes.POST(create(requester('hana')))).status).toBe(429);
    // Limits are per person.
    await created(await routes.POST(create(requester('hugo'))));
    for (let i = 0; i < 3; i += 1) await created(await routes.POST(create(ADMIN)));
  });

  it('answers 429 at the live-account limit until one of them is deleted', async () => {
    vi.stubEnv('PORTAL_MAX_ACCOUNTS_PER_USER', '2');
    let routes = await restartedRoutes();
    const first = await created(await routes.POST(create(requester('lena'))));
    await created(await routes.POST(create(requester('lena'))));
    routes = await restartedRoutes();
    const refused = await routes.POST(create(requester('lena')));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/the most one requester may have \(2\)/) });

    expect((await routes.DELETE(remove(first, requester('lena')))).status).toBe(200);
    await created(await routes.POST(create(requester('lena'))));
  });

  it('counts a create whose account was deleted again within the hour', async () => {
    vi.stubEnv('PORTAL_MAX_CREATES_PER_HOUR', '2');
    const routes = await restartedRoutes();
    const name = await created(await routes.POST(create(requester('otto'))));
    expect((await routes.DELETE(remove(name, requester('otto')))).status).toBe(200);
    await eventually(() => (ownedBy('otto').length === 0 ? true : undefined), 'the account to leave the cluster');
    await created(await routes.POST(create(requester('otto'))));
    expect((await routes.POST(create(requester('otto')))).status).toBe(429);
  });
});
