/**
 * A create never takes over an account (contract, "Security defaults, second round"): through the
 * real routes of a portal process on the Kubernetes stand-in and, through the official SDK, the ARM
 * stand-in. A create of an Azure account nobody in the cluster manages, of a name another requester
 * holds in the ledger, or of a name Azure reports taken is 409 and changes nothing: no ledger
 * record, no Account, no change in Azure, no create counted against the limits. When Azure cannot be
 * asked the create fails closed (503). The owner may create her own name again once it is deleted.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually, startTestCluster, type TestCluster } from './kubernetes-harness';
import { startRouteHost, type ProxyUser, type RouteHost } from './route-host';
import { armAccountRequest, standInRequest } from './stand-in-client';

// Each file starts a cluster and portal processes: slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const ACCOUNTS = '/apis/storage.azure.upbound.io/v1beta1/accounts';
const ALICE: ProxyUser = { user: 'alice', groups: 'portal-requesters' };
const BOB: ProxyUser = { user: 'bob', groups: 'portal-requesters' };
/** Bob's creates an hour: refused creates must not use them up. */
const CREATES_PER_HOUR = 2;

let cluster: TestCluster;
/** Observes Azure and asks it for names, as a portal with PORTAL_AZURE_SUBSCRIPTION_ID does. */
let portal: RouteHost;
/** Talks to no Azure: only the ledger and the cluster stand between a create and a takeover. */
let blind: RouteHost;

const request = (name: string) => ({
  name,
  application: 'webshop',
  environment: 'dev',
  resourceGroup: 'rg-books-dev',
  location: 'westeurope',
});

function create(host: RouteHost, name: string, as: ProxyUser) {
  return host.call<{ error?: string; item?: { name: string } }>('POST', '/api/platform/resources', as, request(name));
}

async function history(host: RouteHost, name: string) {
  const answer = await host.call<{ items: { action: string; actor: { subject: string } }[] }>(
    'GET',
    `/api/platform/resources/history?name=${name}`,
    ALICE,
  );
  expect(answer.status).toBe(200);
  return answer.body.items;
}

const inCluster = (name: string) => cluster.standIn.accounts().some((account) => account.metadata.name === name);

async function ready(host: RouteHost, name: string) {
  await eventually(async () => {
    const { body } = await host.call<{ item?: { state: string } }>(
      'GET',
      `/api/platform/resources?name=${name}`,
      ALICE,
    );
    return body.item?.state === 'Ready' ? true : undefined;
  }, `${name} to become Ready`);
}

/** An account someone made in Azure outside the portal (another team's, in any resource group). */
async function putInAzure(name: string, resourceGroup: string, tags: Record<string, string>) {
  const status = await armAccountRequest(cluster.standIn, 'PUT', resourceGroup, name, {
    location: 'westeurope',
    kind: 'StorageV2',
    sku: { name: 'Standard_LRS' },
    tags,
    properties: { publicNetworkAccess: 'Disabled', minimumTlsVersion: 'TLS1_2' },
  });
  expect(status).toBe(200);
}

/** Every way a refused create could have changed something. */
async function expectNothingChanged(host: RouteHost, name: string, recordsBefore: number, azureBefore: unknown) {
  expect(await history(host, name)).toHaveLength(recordsBefore);
  expect(inCluster(name)).toBe(false);
  expect(cluster.standIn.azure.get(name)).toEqual(azureBefore);
}

beforeAll(async () => {
  cluster = await startTestCluster();
  await putInAzure('sttakecloud', 'rg-books-dev', { application: 'payroll', environment: 'prod' });
  await putInAzure('sttakeother', 'rg-someone-else', {});
  const env = { PORTAL_MAX_CREATES_PER_HOUR: String(CREATES_PER_HOUR) };
  [portal, blind] = await Promise.all([
    startRouteHost(cluster, { env }),
    startRouteHost(cluster, { azure: false, env }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([portal?.stop(), blind?.stop()]);
  await cluster?.dispose();
});

describe('a create never takes over', () => {
  it('refuses a name Azure holds that no Account manages (cloud_only, or in any resource group)', async () => {
    for (const name of ['sttakecloud', 'sttakeother']) {
      const before = cluster.standIn.azure.get(name);
      const refused = await create(portal, name, BOB);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toContain('does not manage');
      await expectNothingChanged(portal, name, 0, before);
    }
  });

  it('refuses a name Azure reports taken in another subscription', async () => {
    cluster.standIn.arm.takeNameElsewhere('sttakeelsewhere');
    const refused = await create(portal, 'sttakeelsewhere', BOB);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('taken');
    await expectNothingChanged(portal, 'sttakeelsewhere', 0, undefined);
    expect(
      cluster.standIn.arm
        .requests()
        .some((call) => call.method === 'POST' && call.path.endsWith('/checkNameAvailability') && call.status === 200),
    ).toBe(true);
  });

  it('refuses a name another requester holds in the ledger, even after the cluster lost its Account', async () => {
    expect((await create(blind, 'sttakeledger', ALICE)).status).toBe(201);
    await ready(blind, 'sttakeledger');
    // The cluster loses the Account (Azure keeps the account): the name is not_in_cluster, still Alice's.
    const orphaned = await standInRequest(
      cluster.standIn,
      'PATCH',
      `${ACCOUNTS}/sttakeledger`,
      { spec: { deletionPolicy: 'Orphan' } },
      'application/merge-patch+json',
    );
    expect(orphaned.status).toBe(200);
    expect((await standInRequest(cluster.standIn, 'DELETE', `${ACCOUNTS}/sttakeledger`)).status).toBeLessThan(300);
    await eventually(() => (inCluster('sttakeledger') ? undefined : true), 'the Account to be gone');
    const azureBefore = cluster.standIn.azure.get('sttakeledger');
    expect(azureBefore).toBeDefined();

    const refused = await create(blind, 'sttakeledger', BOB);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('alice');
    await expectNothingChanged(blind, 'sttakeledger', 1, azureBefore);
  });

  it('answers 503, creating nothing, when Azure cannot be asked whether the name is free', async () => {
    cluster.standIn.arm.setFaults({ throttle: { retryAfterSeconds: 2 } });
    try {
      const refused = await create(portal, 'sttakeunasked', BOB);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(refused.body.error).toContain('nothing was created');
    } finally {
      cluster.standIn.arm.clearFaults();
    }
    await expectNothingChanged(portal, 'sttakeunasked', 0, undefined);
  });

  it('counted none of the refused creates against the requester', async () => {
    for (let index = 0; index < CREATES_PER_HOUR; index += 1) {
      expect((await create(portal, `sttakebob${index}`, BOB)).status).toBe(201);
    }
    expect((await create(portal, 'sttakebobmore', BOB)).status).toBe(429);
  });

  it('lets the owner create her name again once she deleted it', async () => {
    expect((await create(portal, 'sttakeagain', ALICE)).status).toBe(201);
    await ready(portal, 'sttakeagain');
    expect((await portal.call('DELETE', '/api/platform/resources?name=sttakeagain', ALICE)).status).toBe(200);
    await eventually(
      () => (inCluster('sttakeagain') || cluster.standIn.azure.get('sttakeagain') ? undefined : true),
      'the account to be gone from the cluster and Azure',
    );
    const again = await create(portal, 'sttakeagain', ALICE);
    expect(again.status).toBe(201);
    expect((await history(portal, 'sttakeagain')).map((record) => record.action)).toEqual([
      'create',
      'delete',
      'create',
    ]);
  });
});
