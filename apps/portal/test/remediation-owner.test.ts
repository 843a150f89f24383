/**
 * The owner through remediation (contract, "Security defaults, second round"): the owner is whom
 * the ledger recorded at create; recreate, restore-intent, change and resync by anyone keep her,
 * the actor is recorded beside her, and adopt makes the adopting admin the owner. Through the real
 * routes of a portal process on the Kubernetes and ARM stand-ins, with the ledger in memory and in
 * PostgreSQL.
 */
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually, startTestCluster, type TestCluster } from './kubernetes-harness';
import { startRouteHost, type ProxyUser, type RouteHost } from './route-host';
import { armAccountRequest, standInRequest } from './stand-in-client';

// Each file starts a cluster, a database and portal processes: slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const ACCOUNTS = '/apis/storage.azure.upbound.io/v1beta1/accounts';
// Alice has no e-mail at all: only her subject can make an account hers.
const ALICE: ProxyUser = { user: 'alice', groups: 'portal-requesters' };
const BOB: ProxyUser = { user: 'bob', groups: 'portal-requesters' };
const ADMIN: ProxyUser = { user: 'root', groups: 'portal-admins' };

interface Item {
  name: string;
  state: string;
  resourceVersion?: string;
  requestedBy?: string;
  requestedBySubject?: string;
  classification?: { code: string };
}

let cluster: TestCluster;
let database: TestPostgres;
const hosts: Record<string, RouteHost> = {};

/** An account someone made in Azure with the portal's tags: cloud_only, for an admin to adopt. */
async function putTaggedInAzure(name: string) {
  const status = await armAccountRequest(cluster.standIn, 'PUT', 'rg-books-dev', name, {
    location: 'westeurope',
    kind: 'StorageV2',
    sku: { name: 'Standard_LRS' },
    tags: { application: 'webshop', environment: 'dev' },
    properties: { publicNetworkAccess: 'Disabled', minimumTlsVersion: 'TLS1_2' },
  });
  expect(status).toBe(200);
}

beforeAll(async () => {
  [cluster, database] = await Promise.all([startTestCluster(), startPostgres()]);
  await Promise.all([putTaggedInAzure('stowneradoptm'), putTaggedInAzure('stowneradoptp')]);
  const databaseUrl = await database.createDatabase('portal_remediation_owner');
  // Azure is read again every second, so what the provider does there is seen without a long wait.
  const env = { PORTAL_OBSERVATION_TTL_SECONDS: '1' };
  [hosts['memory'], hosts['PostgreSQL']] = await Promise.all([
    startRouteHost(cluster, { env }),
    startRouteHost(cluster, { env: { ...env, PORTAL_DATABASE_URL: databaseUrl } }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(hosts).map((host) => host.stop()));
  await cluster?.dispose();
  await database?.stop();
}, 60_000);

describe.each(['memory', 'PostgreSQL'])('the owner through remediation (ledger in %s)', (store) => {
  const host = () => hosts[store]!;
  const name = (base: string) => `${base}${store === 'memory' ? 'm' : 'p'}`;
  const item = async (account: string, as: ProxyUser = ALICE) =>
    (await host().call<{ item?: Item }>('GET', `/api/platform/resources?name=${account}`, as)).body.item;
  const classified = (account: string, code: string) =>
    eventually(async () => {
      const found = await item(account);
      return found?.classification?.code === code ? found : undefined;
    }, `${account} to read ${code}`);
  const annotations = (account: string) =>
    cluster.standIn.accounts().find((object) => object.metadata.name === account)?.metadata.annotations ?? {};
  const remediate = (account: string, action: string, as: ProxyUser, resourceVersion?: string) =>
    host().call<{ error?: string }>('POST', `/api/platform/resources/remediate?name=${account}`, as, {
      action,
      ...(resourceVersion ? { resourceVersion } : {}),
    });
  const change = (account: string, as: ProxyUser, resourceVersion: string) =>
    host().call<{ error?: string }>('PATCH', `/api/platform/resources?name=${account}`, as, {
      resourceVersion,
      minTlsVersion: 'TLS1_3',
    });

  async function createReady(account: string) {
    const created = await host().call('POST', '/api/platform/resources', ALICE, {
      name: account,
      application: 'webshop',
      environment: 'dev',
      resourceGroup: 'rg-books-dev',
      location: 'westeurope',
    });
    expect(created.status).toBe(201);
    return classified(account, 'in_sync');
  }

  /** The cluster loses the Account and Azure keeps the account, as when a cluster is rebuilt. */
  async function loseFromCluster(account: string) {
    const orphan = { spec: { deletionPolicy: 'Orphan' } };
    expect(
      (await standInRequest(cluster.standIn, 'PATCH', `${ACCOUNTS}/${account}`, orphan, 'application/merge-patch+json'))
        .status,
    ).toBe(200);
    expect((await standInRequest(cluster.standIn, 'DELETE', `${ACCOUNTS}/${account}`)).status).toBeLessThan(300);
    return classified(account, 'not_in_cluster');
  }

  it('lets an owner without a verified e-mail recreate her own account, which still names her', async () => {
    const account = name('stownerself');
    await createReady(account);
    const lost = await loseFromCluster(account);
    expect(lost).toMatchObject({ requestedBy: 'alice', requestedBySubject: 'alice' });
    expect((await remediate(account, 'recreate', BOB)).status).toBe(403);
    const recreated = await remediate(account, 'recreate', ALICE);
    expect(recreated.status).toBe(202);
    expect(annotations(account)).toMatchObject({
      'platform-portal/requested-by': 'alice',
      'platform-portal/requested-by-subject': 'alice',
    });
  });

  it('keeps the owner when an admin recreates her account, recording the admin as the actor', async () => {
    const account = name('stowneradmin');
    await createReady(account);
    await loseFromCluster(account);
    expect((await remediate(account, 'recreate', ADMIN)).status).toBe(202);
    expect(annotations(account)).toMatchObject({
      'platform-portal/requested-by-subject': 'alice',
      'platform-portal/last-changed-by-subject': 'root',
    });
    const history = await host().call<{ items: { action: string; actor: { subject: string } }[] }>(
      'GET',
      `/api/platform/resources/history?name=${account}`,
      ALICE,
    );
    expect(history.body.items.map((entry) => [entry.action, entry.actor.subject])).toEqual([
      ['recreate', 'root'],
      ['create', 'alice'],
    ]);
    const back = await classified(account, 'in_sync');
    expect(back).toMatchObject({ requestedBy: 'alice', requestedBySubject: 'alice' });
    // Still hers to change and resync, and still not Bob's.
    expect((await change(account, BOB, back.resourceVersion!)).status).toBe(403);
    expect((await change(account, ALICE, back.resourceVersion!)).status).toBe(200);
    expect((await host().call('POST', `/api/platform/resources/resync?name=${account}`, ALICE)).status).toBe(202);
  });

  it('keeps the owner by the ledger when kubectl stripped the annotations, and restore-intent writes her back', async () => {
    const account = name('stownerstrip');
    await createReady(account);
    const stripped = Object.fromEntries(
      Object.keys(annotations(account))
        .filter((key) => key.startsWith('platform-portal/'))
        .map((key) => [key, null]),
    );
    const edit = { metadata: { annotations: stripped }, spec: { forProvider: { minTlsVersion: 'TLS1_0' } } };
    const patched = await standInRequest(
      cluster.standIn,
      'PATCH',
      `${ACCOUNTS}/${account}`,
      edit,
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(200);
    const drifted = await classified(account, 'cluster_drift');
    expect((await remediate(account, 'restore-intent', BOB, drifted.resourceVersion)).status).toBe(403);
    expect((await remediate(account, 'restore-intent', ALICE, drifted.resourceVersion)).status).toBe(202);
    expect(annotations(account)).toMatchObject({ 'platform-portal/requested-by-subject': 'alice' });
  });

  it('makes the adopting admin the owner', async () => {
    const account = name('stowneradopt');
    await classified(account, 'cloud_only');
    expect((await remediate(account, 'adopt', ADMIN)).status).toBe(202);
    expect(annotations(account)).toMatchObject({
      'platform-portal/requested-by': 'root',
      'platform-portal/requested-by-subject': 'root',
    });
    const adopted = await eventually(async () => {
      const found = await item(account);
      return found?.state === 'Ready' ? found : undefined;
    }, `${account} to be observed`);
    expect(adopted).toMatchObject({ requestedBySubject: 'root' });
    expect((await host().call('POST', `/api/platform/resources/resync?name=${account}`, ALICE)).status).toBe(403);
  });
});
