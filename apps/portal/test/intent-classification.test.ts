/**
 * Classification and remediation through the route handlers on the Kubernetes stand-in, with the
 * ledger in memory and no cloud observation: an outside edit of the cluster object is cluster_drift
 * naming the field, restore-intent puts it back, a cluster that lost its objects gives not_in_cluster
 * and recreate brings the account back under its external name, an unreachable cluster answers from
 * the ledger.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventually, startTestCluster, type TestCluster } from './kubernetes-harness';
import { standInRequest } from './stand-in-client';
import { PROXY_PROOF, TEST_PROXY_SECRET } from './proxy-sign-in';

// The first test of a file starts a cluster (and a child process or a database): slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const ORIGIN = 'http://portal.test';
const ACCOUNTS = '/apis/storage.azure.upbound.io/v1beta1/accounts';
let cluster: TestCluster;

interface Item {
  name: string;
  state: string;
  resourceVersion?: string;
  source?: string;
  classification?: { code: string; fields: string[] };
}

interface Inventory {
  items: Item[];
  total: number;
  next: string | null;
  previous: string | null;
  clusterAvailable: boolean;
  observedAt?: string;
}

async function routes() {
  vi.resetModules();
  return {
    resources: await import('../src/app/api/platform/resources/route'),
    remediate: await import('../src/app/api/platform/resources/remediate/route'),
    history: await import('../src/app/api/platform/resources/history/route'),
  };
}

function send(method: string, path: string, body?: unknown, user: Record<string, string> = {}) {
  return new Request(`${ORIGIN}${path}`, {
    method,
    headers: {
      host: 'portal.test',
      origin: ORIGIN,
      ...PROXY_PROOF,
      'x-forwarded-email': 'rita@books.example',
      'x-forwarded-groups': 'portal-admins',
      ...user,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function inventory(query = ''): Promise<Inventory> {
  const response = await (await routes()).resources.GET(send('GET', `/api/platform/resources${query}`));
  expect(response.status).toBe(200);
  return response.json() as Promise<Inventory>;
}

async function item(name: string): Promise<Item | undefined> {
  const response = await (await routes()).resources.GET(send('GET', `/api/platform/resources?name=${name}`));
  return response.status === 200 ? ((await response.json()) as { item: Item }).item : undefined;
}

const classified = (name: string, code: string) =>
  eventually(async () => {
    const found = await item(name);
    return found?.classification?.code === code ? found : undefined;
  }, `${name} to read ${code}`);

function remediate(name: string, body: unknown, dryRun = false, user: Record<string, string> = {}) {
  return routes().then(({ remediate: route }) =>
    route.POST(
      send('POST', `/api/platform/resources/remediate?name=${name}${dryRun ? '&dryRun=true' : ''}`, body, user),
    ),
  );
}

async function create(name: string) {
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
  expect(response.status).toBe(201);
  return classified(name, 'in_sync');
}

/** What a platform engineer does with kubectl: strip the portal's annotations and edit the spec. */
async function editOutsideThePortal(name: string, forProvider: Record<string, unknown>) {
  const { body } = await standInRequest<{ metadata: { annotations?: Record<string, string> } }>(
    cluster.standIn,
    'GET',
    `${ACCOUNTS}/${name}`,
  );
  const stripped = Object.fromEntries(
    Object.keys(body.metadata.annotations ?? {})
      .filter((key) => key.startsWith('platform-portal/'))
      .map((key) => [key, null]),
  );
  const patched = await standInRequest(
    cluster.standIn,
    'PATCH',
    `${ACCOUNTS}/${name}`,
    { metadata: { annotations: stripped }, spec: { forProvider } },
    'application/merge-patch+json',
  );
  expect(patched.status).toBe(200);
}

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
  vi.stubEnv('PORTAL_REQUESTER_GROUPS', 'portal-requesters');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await cluster.standIn.clearFaults();
});

describe('classification against intent', () => {
  it('lists each account with its class, whether the cluster answered, and when it was last read', async () => {
    await create('stclasslist');
    const answer = await inventory();
    expect(answer.clusterAvailable).toBe(true);
    expect(Date.parse(answer.observedAt ?? '')).not.toBeNaN();
    expect(answer.items.find((entry) => entry.name === 'stclasslist')?.classification).toEqual({
      code: 'in_sync',
      fields: [],
    });
  });

  it('names the field of a spec edited with its annotations stripped, and restore-intent puts it back', async () => {
    await create('stclassdrift');
    await editOutsideThePortal('stclassdrift', { minTlsVersion: 'TLS1_0' });
    const drifted = await classified('stclassdrift', 'cluster_drift');
    expect(drifted.classification?.fields).toEqual(['minTlsVersion']);

    const review = await remediate(
      'stclassdrift',
      { action: 'restore-intent', resourceVersion: drifted.resourceVersion },
      true,
    );
    expect(review.status).toBe(200);
    const planned = (await review.json()) as { changes: { field: string; from: unknown; to: unknown }[] };
    expect(planned.changes).toEqual([
      { field: 'minTlsVersion', label: 'Minimum TLS version', from: 'TLS1_0', to: 'TLS1_2' },
    ]);
    // The review changed nothing.
    expect((await item('stclassdrift'))?.classification?.code).toBe('cluster_drift');

    const applied = await remediate('stclassdrift', {
      action: 'restore-intent',
      resourceVersion: drifted.resourceVersion,
    });
    expect(applied.status).toBe(202);
    await classified('stclassdrift', 'in_sync');
    const spec = cluster.standIn.accounts().find((a) => a.metadata.name === 'stclassdrift')?.spec?.['forProvider'];
    expect((spec as Record<string, unknown>)['minTlsVersion']).toBe('TLS1_2');
    const { history } = await routes();
    const records = (await (
      await history.GET(send('GET', '/api/platform/resources/history?name=stclassdrift'))
    ).json()) as {
      items: { action: string; status: string }[];
    };
    expect(records.items[0]).toMatchObject({ action: 'restore-intent', status: 'applied' });
  });

  it('answers 409 to a remediation sent with a stale resourceVersion, and to one that does not apply', async () => {
    const ready = await create('stclassstale');
    await editOutsideThePortal('stclassstale', { httpsTrafficOnlyEnabled: false });
    await classified('stclassstale', 'cluster_drift');
    const stale = await remediate('stclassstale', { action: 'restore-intent', resourceVersion: ready.resourceVersion });
    expect(stale.status).toBe(409);
    const wrong = await remediate('stclassstale', { action: 'recreate' });
    expect(wrong.status).toBe(409);
    expect(((await wrong.json()) as { error: string }).error).toContain('restore the intent');
    const unknown = await remediate('stclassstale', { action: 'reboot' });
    expect(unknown.status).toBe(400);
  });

  it('never calls an account created outside the portal in sync', async () => {
    const created = await standInRequest(cluster.standIn, 'POST', ACCOUNTS, {
      apiVersion: 'storage.azure.upbound.io/v1beta1',
      kind: 'Account',
      metadata: { name: stKubectl },
      spec: {
        forProvider: {
          location: 'westeurope',
          resourceGroupName: 'rg-books-dev',
          accountTier: 'Standard',
          accountReplicationType: 'LRS',
          minTlsVersion: 'TLS1_0',
          publicNetworkAccessEnabled: true,
        },
      },
    });
    expect(created.status).toBe(201);
    const found = await eventually(async () => {
      const entry = await item(stKubectl);
      return entry?.state === 'Ready' ? entry : undefined;
    }, 'the kubectl-made account to become Ready');
    expect(found.classification?.code).toBe('cluster_drift');
    expect(found.classification?.fields).toEqual(expect.arrayContaining(['minTlsVersion', 'publicNetworkAccess']));
  });

  it('reads not_in_cluster after the cluster loses the object, and recreate brings it back by its external name', async () => {
    await create('stclasslost');
    cluster.standIn.reset();
    const lost = await classified('stclasslost', 'not_in_cluster');
    expect(lost.source).toBe('ledger');
    expect((await inventory()).items.find((entry) => entry.name === 'stclasslost')?.classification?.code).toBe(
      'not_in_cluster',
    );
    const requester = { 'x-forwarded-email': 'someone@books.example', 'x-forwarded-groups': 'portal-requesters' };
    expect((await remediate('stclasslost', { action: 'recreate' }, false, requester)).status).toBe(403);

    const review = await remediate('stclasslost', { action: 'recreate' }, true);
    expect(review.status).toBe(200);
    expect(cluster.standIn.accounts().some((a) => a.metadata.name === 'stclasslost')).toBe(false);
    expect((await remediate('stclasslost', { action: 'recreate' })).status).toBe(202);
    const back = cluster.standIn.accounts().find((a) => a.metadata.name === 'stclasslost');
    expect(back?.metadata.annotations?.['crossplane.io/external-name']).toBe('stclasslost');
    await classified('stclasslost', 'in_sync');
  });

  it('classifies an unchanged inventory once, and again once the cluster changes', async () => {
    await create('stclassonce');
    vi.resetModules();
    const { classifiedInventory } = await import('../src/server/services/inventory/inventory');
    // Two reads with nothing changed between them hand out the very same read model and items.
    const settled = await eventually(async () => {
      const first = await classifiedInventory();
      return (await classifiedInventory()).readModel === first.readModel ? first.readModel : undefined;
    }, 'two reads of an unchanged inventory to share their read model');
    expect(Object.isFrozen(settled.items)).toBe(true);
    expect((await classifiedInventory()).readModel.items).toBe(settled.items);
    cluster.standIn.fillAccounts(1, 'stclassoncemore');
    const changed = await eventually(async () => {
      const { readModel } = await classifiedInventory();
      return readModel.items.some((entry) => entry.name.startsWith('stclassoncemore')) ? readModel : undefined;
    }, 'the new account to be classified');
    expect(changed).not.toBe(settled);
    expect(changed.items).not.toBe(settled.items);
  });

  it('lets only admins adopt and manage, and viewers remediate nothing', async () => {
    const requester = { 'x-forwarded-email': 'someone@books.example', 'x-forwarded-groups': 'portal-requesters' };
    for (const action of ['adopt', 'manage']) {
      for (const dryRun of [true, false]) {
        const refused = await remediate('stnotadopted', { action }, dryRun, requester);
        expect(refused.status).toBe(403);
        expect(((await refused.json()) as { error: string }).error).toMatch(
          /needs the admin role; you are signed in as someone@books\.example with the requester role/,
        );
      }
    }
    const ready = await create('stclassviewer');
    await editOutsideThePortal('stclassviewer', { minTlsVersion: 'TLS1_1' });
    await classified('stclassviewer', 'cluster_drift');
    const viewer = { 'x-forwarded-email': 'viewer@books.example', 'x-forwarded-groups': 'readers' };
    const review = await remediate('stclassviewer', { action: 'restore-intent' }, true, viewer);
    expect(review.status).toBe(403);
    const applied = await remediate(
      'stclassviewer',
      { action: 'restore-intent', resourceVersion: ready.resourceVersion },
      false,
      viewer,
    );
    expect(applied.status).toBe(403);
    const spec = cluster.standIn.accounts().find((a) => a.metadata.name === 'stclassviewer')?.spec?.['forProvider'];
    expect((spec as Record<string, unknown>)['minTlsVersion']).toBe('TLS1_1');
  });

  it('answers the inventory from the ledger while the cluster is unreachable, and refuses writes with 503', async () => {
    await create('stclassdown');
    const before = await inventory();
    await cluster.standIn.setUnreachable('refuse');
    // The cache notices when its watch breaks; from then on reads answer from the ledger.
    const answer = await eventually(async () => {
      const read = await inventory();
      return read.clusterAvailable === false ? read : undefined;
    }, 'the inventory to say the cluster is unreachable');
    // The time of the last successful cluster read, which stays put while the cluster is down.
    expect(Date.parse(answer.observedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(before.observedAt ?? ''));
    expect((await inventory()).observedAt).toBe(answer.observedAt);
    expect(answer.items.find((entry) => entry.name === 'stclassdown')?.classification?.code).toBe(
      'cluster_unavailable',
    );
    // The ledger's answer comes in the same pages, filtered and sorted on the server.
    const intents = answer.items.map((entry) => entry.name);
    expect(answer.total).toBe(intents.length);
    expect(intents.length).toBeGreaterThan(1);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Inventory = await inventory(
        `?limit=1&sort=-name&class=cluster_unavailable${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page).toMatchObject({ clusterAvailable: false, total: intents.length });
      walked.push(...page.items.map((entry) => entry.name));
      cursor = page.next;
    } while (cursor);
    expect(walked).toEqual([...intents].sort().reverse());
    expect(await inventory('?q=STCLASSDOWN')).toMatchObject({ total: 1, items: [{ name: 'stclassdown' }] });
    expect(await inventory('?class=in_sync')).toMatchObject({ total: 0, items: [], clusterAvailable: false });
    const bad = await (await routes()).resources.GET(send('GET', '/api/platform/resources?class=drift'));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^class: must be one of in_sync, /);
    const { resources } = await routes();
    const write = await resources.POST(
      send('POST', '/api/platform/resources', {
        name: 'stclassdownnew',
        application: 'webshop',
        environment: 'dev',
        resourceGroup: 'rg-books-dev',
        location: 'westeurope',
      }),
    );
    expect(write.status).toBe(503);
  });
});

const stKubectl = 'stclasskubectl';
