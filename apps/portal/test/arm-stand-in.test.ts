/**
 * The Azure Resource Manager stand-in and the simulated Azure it shares with the Kubernetes stand-in:
 * what the provider reconciles is in ARM, an ARM edit is Azure's until Crossplane reconciles again,
 * Observe-only accounts are read and never written, and ARM's paging, errors and faults are the real
 * ones' shapes. Calls go over https trusting only the stand-ins' one authority.
 */
import { request } from 'node:https';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ArmStorageAccount } from '../kube-stand-in/index';
import { eventually, startTestCluster, type TestCluster } from './kubernetes-harness';
import { standInRequest } from './stand-in-client';

const ACCOUNTS = '/apis/storage.azure.upbound.io/v1beta1/accounts';
const API_VERSION = 'api-version=2023-05-01';
let cluster: TestCluster;

interface Answer<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

function arm<T = ArmStorageAccount>(
  method: string,
  path: string,
  options: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const { standIn } = cluster;
  const token = options.token === undefined ? standIn.arm.token : options.token;
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const url = path.startsWith('https://') ? path : `${standIn.arm.url}${path}`;
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      {
        method,
        ca: standIn.certificateAuthority,
        headers: {
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as T,
          }),
        );
      },
    );
    call.on('error', reject);
    call.end(payload);
  });
}

const sub = () => `/subscriptions/${cluster.standIn.arm.subscriptionId}`;
const accountPath = (group: string, name: string) =>
  `${sub()}/resourceGroups/${group}/providers/Microsoft.Storage/storageAccounts/${name}?${API_VERSION}`;

interface KubeAccount {
  metadata: { name: string; annotations?: Record<string, string> };
  status?: { atProvider?: Record<string, unknown>; conditions?: { type: string; status: string; message?: string }[] };
}

const kube = (method: string, path: string, body?: unknown, contentType?: string) =>
  standInRequest<KubeAccount>(cluster.standIn, method, path, body, contentType);

async function createAccount(
  name: string,
  spec: Record<string, unknown> = {},
  annotations: Record<string, string> = {},
) {
  const created = await kube('POST', ACCOUNTS, {
    apiVersion: 'storage.azure.upbound.io/v1beta1',
    kind: 'Account',
    metadata: { name, annotations },
    spec: {
      forProvider: {
        location: 'westeurope',
        resourceGroupName: 'rg-books-dev',
        accountTier: 'Standard',
        accountReplicationType: 'LRS',
        minTlsVersion: 'TLS1_2',
        publicNetworkAccessEnabled: false,
        tags: { application: 'webshop', environment: 'dev' },
      },
      ...spec,
    },
  });
  expect(created.status).toBe(201);
}

const condition = (account: KubeAccount, type: string) => account.status?.conditions?.find((c) => c.type === type);

async function ready(name: string): Promise<KubeAccount> {
  return eventually(async () => {
    const { body } = await kube('GET', `${ACCOUNTS}/${name}`);
    return condition(body, 'Ready')?.status === 'True' ? body : undefined;
  }, `${name} to become Ready`);
}

beforeAll(async () => {
  cluster = await startTestCluster({ arm: { pageSize: 2 } });
});

afterAll(async () => {
  await cluster.dispose();
});

afterEach(() => {
  cluster.standIn.arm.clearFaults();
});

describe('ARM stand-in on the simulated Azure', () => {
  it('serves what the provider created, in ARM terms, over TLS from the same authority as the cluster', async () => {
    await createAccount('starmcreated');
    await ready('starmcreated');
    const { status, body } = await arm('GET', accountPath('rg-books-dev', 'starmcreated'));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      name: 'starmcreated',
      type: 'Microsoft.Storage/storageAccounts',
      location: 'westeurope',
      sku: { name: 'Standard_LRS', tier: 'Standard' },
      tags: { application: 'webshop', environment: 'dev' },
      properties: { minimumTlsVersion: 'TLS1_2', publicNetworkAccess: 'Disabled', provisioningState: 'Succeeded' },
    });
    expect(body.id).toBe(
      `${sub()}/resourceGroups/rg-books-dev/providers/Microsoft.Storage/storageAccounts/starmcreated`,
    );
  });

  it('keeps an ARM edit in Azure until Crossplane reconciles again, which puts the spec back', async () => {
    await createAccount('starmedited');
    await ready('starmedited');
    const edited = await arm('PATCH', accountPath('rg-books-dev', 'starmedited'), {
      body: { properties: { publicNetworkAccess: 'Enabled', minimumTlsVersion: 'TLS1_0' } },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.properties).toMatchObject({ publicNetworkAccess: 'Enabled', minimumTlsVersion: 'TLS1_0' });
    expect((await arm('GET', accountPath('rg-books-dev', 'starmedited'))).body.properties.minimumTlsVersion).toBe(
      'TLS1_0',
    );

    const requested = new Date().toISOString();
    await kube(
      'PATCH',
      `${ACCOUNTS}/starmedited`,
      { metadata: { annotations: { 'crossplane.io/reconcile-requested-at': requested } } },
      'application/merge-patch+json',
    );
    await eventually(async () => {
      const { body } = await arm('GET', accountPath('rg-books-dev', 'starmedited'));
      return body.properties.minimumTlsVersion === 'TLS1_2' && body.properties.publicNetworkAccess === 'Disabled'
        ? true
        : undefined;
    }, 'the provider to restore the spec in Azure');
  });

  it('lists the subscription and one resource group in pages joined by nextLink', async () => {
    for (const [group, name] of [
      ['rg-books-prod', 'starmlista'],
      ['rg-books-prod', 'starmlistb'],
      ['rg-books-prod', 'starmlistc'],
    ] as const) {
      const put = await arm('PUT', accountPath(group, name), {
        body: { location: 'westeurope', kind: 'StorageV2', sku: { name: 'Standard_GRS' }, tags: { team: 'books' } },
      });
      expect(put.status).toBe(200);
    }
    const names: string[] = [];
    let next: string | undefined =
      `${sub()}/resourceGroups/rg-books-prod/providers/Microsoft.Storage/storageAccounts?${API_VERSION}`;
    let pages = 0;
    while (next) {
      const page: Answer<{ value: ArmStorageAccount[]; nextLink?: string }> = await arm('GET', next);
      expect(page.status).toBe(200);
      expect(page.body.value.length).toBeLessThanOrEqual(2);
      names.push(...page.body.value.map((account) => account.name));
      next = page.body.nextLink;
      pages += 1;
    }
    expect(names).toEqual(['starmlista', 'starmlistb', 'starmlistc']);
    expect(pages).toBe(2);

    const all: string[] = [];
    next = `${sub()}/providers/Microsoft.Storage/storageAccounts?${API_VERSION}`;
    while (next) {
      const page: Answer<{ value: ArmStorageAccount[]; nextLink?: string }> = await arm('GET', next);
      all.push(...page.body.value.map((account) => account.name));
      next = page.body.nextLink;
    }
    expect(all).toEqual(expect.arrayContaining(['starmlista', 'starmlistb', 'starmlistc', 'starmcreated']));
    expect(new Set(all).size).toBe(all.length);
  });

  it('answers as ARM does: 404 ResourceNotFound, 401 without the token, 400 without api-version', async () => {
    const missing = await arm<{ error: { code: string; message: string } }>(
      'GET',
      accountPath('rg-books-dev', 'stnosuch'),
    );
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ResourceNotFound');
    expect(missing.body.error.message).toContain("'Microsoft.Storage/storageAccounts/stnosuch'");
    const anonymous = await arm<{ error: { code: string } }>('GET', accountPath('rg-books-dev', 'starmcreated'), {
      token: null,
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('AuthenticationFailed');
    const unversioned = await arm<{ error: { code: string } }>(
      'GET',
      `${sub()}/providers/Microsoft.Storage/storageAccounts`,
    );
    expect(unversioned.status).toBe(400);
    expect(unversioned.body.error.code).toBe('MissingApiVersionParameter');
  });

  it('throttles with 429 and Retry-After, and fails with a 5xx, for as many calls as asked', async () => {
    cluster.standIn.arm.setFaults({ throttle: { retryAfterSeconds: 7, remaining: 1 } });
    const throttled = await arm<{ error: { code: string } }>('GET', accountPath('rg-books-dev', 'starmcreated'));
    expect(throttled.status).toBe(429);
    expect(throttled.headers['retry-after']).toBe('7');
    expect(throttled.body.error.code).toBe('TooManyRequests');
    expect((await arm('GET', accountPath('rg-books-dev', 'starmcreated'))).status).toBe(200);

    cluster.standIn.arm.setFaults({ serverError: { status: 503 } });
    expect((await arm('GET', accountPath('rg-books-dev', 'starmcreated'))).status).toBe(503);
    expect((await arm('GET', accountPath('rg-books-dev', 'starmcreated'))).status).toBe(503);
    cluster.standIn.arm.clearFaults();
    expect((await arm('GET', accountPath('rg-books-dev', 'starmcreated'))).status).toBe(200);
  });

  it("checks a name across Azure: this subscription's accounts and names held elsewhere are taken", async () => {
    const check = (name: unknown, type: unknown = 'Microsoft.Storage/storageAccounts') =>
      arm<{ nameAvailable: boolean; reason?: string; message?: string }>(
        'POST',
        `${sub()}/providers/Microsoft.Storage/checkNameAvailability?${API_VERSION}`,
        { body: { name, type } },
      );
    await arm('PUT', accountPath('rg-books-prod', 'starmnamehere'), { body: { location: 'westeurope' } });
    expect((await check('starmnamehere')).body).toEqual({
      nameAvailable: false,
      reason: 'AlreadyExists',
      message: 'The storage account named starmnamehere is already taken.',
    });
    expect((await check('starmnamefree')).body).toEqual({ nameAvailable: true });
    cluster.standIn.arm.takeNameElsewhere('starmnamefree');
    expect((await check('starmnamefree')).body).toMatchObject({ nameAvailable: false, reason: 'AlreadyExists' });
    // Held elsewhere: taken, yet never in this subscription's list.
    const listed = await arm<{ value: ArmStorageAccount[] }>(
      'GET',
      `${sub()}/providers/Microsoft.Storage/storageAccounts?${API_VERSION}`,
    );
    expect(listed.body.value.map((account) => account.name)).not.toContain('starmnamefree');
    expect((await check('Not_Valid')).body).toMatchObject({ nameAvailable: false, reason: 'AccountNameInvalid' });
    expect((await check('starmnamefree', 'Microsoft.Web/sites')).status).toBe(400);
    cluster.standIn.arm.setFaults({ serverError: { status: 503, remaining: 1 } });
    expect((await check('starmnameother')).status).toBe(503);
  });

  it('hands out its token to the managed-identity request that carries the identity header', async () => {
    const { identityEndpoint, identityHeader, token } = cluster.standIn.arm;
    const path = `${identityEndpoint}?api-version=2019-08-01&resource=${encodeURIComponent(cluster.standIn.arm.url)}`;
    const granted = await arm<{ access_token: string; token_type: string; expires_on: string }>('GET', path, {
      token: null,
      headers: { 'x-identity-header': identityHeader },
    });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ access_token: token, token_type: 'Bearer' });
    expect(Number(granted.body.expires_on)).toBeGreaterThan(Date.now() / 1000);
    expect((await arm('GET', path, { token: null })).status).toBe(401);
  });
});

describe('simulated provider with managementPolicies ["Observe"]', () => {
  it('reports an existing Azure account in atProvider and never writes to it', async () => {
    await arm('PUT', accountPath('rg-books-dev', 'starmobserved'), {
      body: { location: 'westeurope', sku: { name: 'Standard_LRS' }, properties: { minimumTlsVersion: 'TLS1_0' } },
    });
    const before = (await arm('GET', accountPath('rg-books-dev', 'starmobserved'))).body;
    await createAccount(
      'starmobserveobj',
      { managementPolicies: ['Observe'], forProvider: { minTlsVersion: 'TLS1_2' } },
      { 'crossplane.io/external-name': 'starmobserved' },
    );
    const observed = await ready('starmobserveobj');
    expect(observed.status?.atProvider).toMatchObject({ minTlsVersion: 'TLS1_0', resourceGroupName: 'rg-books-dev' });
    expect((await arm('GET', accountPath('rg-books-dev', 'starmobserved'))).body).toEqual(before);

    // Deleting an observed account leaves Azure's account alone.
    expect((await kube('DELETE', `${ACCOUNTS}/starmobserveobj`)).status).toBe(200);
    await eventually(
      async () => ((await kube('GET', `${ACCOUNTS}/starmobserveobj`)).status === 404 ? true : undefined),
      'the object to go',
    );
    expect((await arm('GET', accountPath('rg-books-dev', 'starmobserved'))).status).toBe(200);
  });

  it('reports Synced=False when the account to observe does not exist, and creates nothing', async () => {
    await createAccount('starmghost', { managementPolicies: ['Observe'] });
    const failed = await eventually(async () => {
      const { body } = await kube('GET', `${ACCOUNTS}/starmghost`);
      return condition(body, 'Synced')?.status === 'False' ? body : undefined;
    }, 'an observe failure');
    expect(condition(failed, 'Synced')?.message).toContain('cannot observe external resource');
    expect((await arm('GET', accountPath('rg-books-dev', 'starmghost'))).status).toBe(404);
  });
});

describe('Kubernetes stand-in reset', () => {
  it('loses every Account while Azure keeps its accounts', async () => {
    await createAccount('starmreset');
    await ready('starmreset');
    cluster.standIn.reset();
    expect(cluster.standIn.accounts()).toEqual([]);
    expect((await kube('GET', `${ACCOUNTS}/starmreset`)).status).toBe(404);
    expect((await arm('GET', accountPath('rg-books-dev', 'starmreset'))).status).toBe(200);
  });
});
