/**
 * The Kubernetes stand-in's API beyond what the portal calls, as other clients use it: watch streams
 * (raw and through @kubernetes/client-node's informer), server-side Table printing, JSON patch with
 * `test` operations, PUT with optimistic locking, the status subresource, DeleteOptions in the body,
 * field validation and the OpenAPI v3 documents kubectl reads.
 */
import { CustomObjectsApi, KubeConfig, makeInformer, type KubernetesObject } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { humanDuration } from '../kube-stand-in/tables';
import { call, type RawResponse } from './kube-stand-in-client';
import { eventually, startTestCluster, type TestCluster } from './kubernetes-harness';

const ACCOUNTS = '/apis/storage.azure.upbound.io/v1beta1/accounts';
const GROUPS = '/apis/azure.upbound.io/v1beta1/resourcegroups';
const TABLE =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

let cluster: TestCluster;
let sequence = 0;

beforeAll(async () => {
  cluster = await startTestCluster();
});

afterAll(async () => {
  await cluster.dispose();
});

interface Account {
  metadata: { name: string; resourceVersion: string; generation: number; annotations?: Record<string, string> };
  spec: { forProvider: Record<string, unknown> };
  status?: Record<string, unknown>;
}

interface WatchEvent {
  type: string;
  object: {
    kind?: string;
    code?: number;
    reason?: string;
    metadata?: Account['metadata'] & { annotations?: Record<string, string> };
  };
}

function manifest(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'storage.azure.upbound.io/v1beta1',
    kind: 'Account',
    metadata: { name },
    spec: {
      forProvider: {
        accountReplicationType: 'LRS',
        accountTier: 'Standard',
        location: 'westeurope',
        resourceGroupName: 'rg-books-dev',
      },
    },
    ...extra,
  };
}

async function createAccount(): Promise<Account> {
  sequence += 1;
  const response = await call(cluster.standIn, 'POST', ACCOUNTS, { body: manifest(`stproto${sequence}`) });
  expect(response.status).toBe(201);
  return response.json<Account>();
}

async function readAccount(name: string): Promise<Account> {
  return (await call(cluster.standIn, 'GET', `${ACCOUNTS}/${name}`)).json<Account>();
}

/** A new account once the provider has finished with it, so its resourceVersion holds still. */
async function settledAccount(): Promise<Account> {
  const { metadata } = await createAccount();
  return eventually(async () => {
    const account = await readAccount(metadata.name);
    const conditions = (account.status?.['conditions'] ?? []) as { type: string; status: string }[];
    return conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? account : undefined;
  }, `${metadata.name} to become Ready`);
}

function events(response: RawResponse): WatchEvent[] {
  return response.text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as WatchEvent);
}

describe('Kubernetes stand-in watch', () => {
  it('replays the changes after a resourceVersion, then ends with a bookmark when its timeout is up', async () => {
    const listed = (await call(cluster.standIn, 'GET', ACCOUNTS)).json<{ metadata: { resourceVersion: string } }>();
    const account = await createAccount();
    const response = await call(
      cluster.standIn,
      'GET',
      `${ACCOUNTS}?watch=true&allowWatchBookmarks=true&timeoutSeconds=1&resourceVersion=${listed.metadata.resourceVersion}`,
    );
    expect(response.status).toBe(200);
    const stream = events(response);
    const own = stream.filter((e) => e.object.metadata?.name === account.metadata.name);
    expect(own[0]).toMatchObject({
      type: 'ADDED',
      object: { metadata: { resourceVersion: account.metadata.resourceVersion } },
    });
    expect(stream.at(-1)).toMatchObject({ type: 'BOOKMARK', object: { kind: 'Account' } });
    expect(Number(stream.at(-1)?.object.metadata?.resourceVersion)).toBeGreaterThanOrEqual(
      Number(account.metadata.resourceVersion),
    );
  });

  it('starts with the current objects as ADDED when no resourceVersion is given, filtered by field selector', async () => {
    const response = await call(
      cluster.standIn,
      'GET',
      `${GROUPS}?watch=1&timeoutSeconds=1&fieldSelector=${encodeURIComponent('metadata.name=rg-books-prod')}`,
    );
    expect(events(response)).toEqual([
      expect.objectContaining({ type: 'ADDED', object: expect.objectContaining({ kind: 'ResourceGroup' }) as unknown }),
    ]);
    expect(events(response)[0]?.object.metadata?.name).toBe('rg-books-prod');
  });

  it('marks the end of the initial events with a bookmark when sendInitialEvents is asked for', async () => {
    const response = await call(
      cluster.standIn,
      'GET',
      `${GROUPS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1`,
    );
    const stream = events(response);
    const end = stream.findIndex((e) => e.type === 'BOOKMARK');
    expect(stream.slice(0, end).map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'ADDED', 'ADDED']);
    expect(stream[end]?.object.metadata?.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
  });

  it('answers a resourceVersion older than its history with a 410 Expired ERROR event', async () => {
    const response = await call(cluster.standIn, 'GET', `${GROUPS}?watch=true&resourceVersion=1`);
    expect(events(response)).toEqual([
      { type: 'ERROR', object: expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired' }) as unknown },
    ]);
  });

  it('feeds @kubernetes/client-node informers: the initial list, then additions and changes as they happen', async () => {
    const config = new KubeConfig();
    config.loadFromString(cluster.standIn.kubeconfig());
    const api = config.makeApiClient(CustomObjectsApi);
    const informer = makeInformer<KubernetesObject>(
      config,
      ACCOUNTS,
      () =>
        api.listClusterCustomObject({
          group: 'storage.azure.upbound.io',
          version: 'v1beta1',
          plural: 'accounts',
        }) as never,
    );
    const added: string[] = [];
    const ready = new Set<string>();
    informer.on('add', (o) => added.push(o.metadata?.name ?? ''));
    informer.on('update', (o) => {
      const conditions = ((o as { status?: { conditions?: { type: string; status: string }[] } }).status?.conditions ??
        []) as { type: string; status: string }[];
      if (conditions.some((c) => c.type === 'Ready' && c.status === 'True')) ready.add(o.metadata?.name ?? '');
    });
    await informer.start();
    try {
      const account = await createAccount();
      const name = account.metadata.name;
      await eventually(() => (added.includes(name) ? true : undefined), `the informer to see ${name} added`);
      await eventually(() => (ready.has(name) ? true : undefined), `the informer to see ${name} become Ready`);
      expect(informer.get(name)?.metadata?.name).toBe(name);
    } finally {
      await informer.stop();
    }
  });
});

describe('Kubernetes stand-in chunked lists', () => {
  it('answers limit with a continue token naming where the chunk ended, so a deletion in between skips nothing', async () => {
    cluster.standIn.fillAccounts(5, `stchunk${sequence++}`);
    type Chunk = { metadata: { continue?: string; remainingItemCount?: number }; items: Account[] };
    const list = async (query: string) => (await call(cluster.standIn, 'GET', `${ACCOUNTS}${query}`)).json<Chunk>();
    const all = (await list('')).items.map((a) => a.metadata.name);

    let chunk = await list('?limit=2');
    const seen = chunk.items.map((a) => a.metadata.name);
    expect(seen).toEqual(all.slice(0, 2));
    // The first account goes for good before the next chunk is asked for.
    expect((await call(cluster.standIn, 'DELETE', `${ACCOUNTS}/${seen[0]}`)).status).toBeLessThan(300);
    await eventually(
      () => (cluster.standIn.accounts().some((a) => a.metadata.name === seen[0]) ? undefined : true),
      'the deleted account gone',
    );
    while (chunk.metadata.continue) {
      expect(chunk.metadata.remainingItemCount).toBeGreaterThan(0);
      chunk = await list(`?limit=2&continue=${chunk.metadata.continue}`);
      expect(chunk.items.length).toBeLessThanOrEqual(2);
      seen.push(...chunk.items.map((a) => a.metadata.name));
    }
    expect(seen).toEqual(all);
  });
});

describe('Kubernetes stand-in server-side printing', () => {
  it('answers kubectl get with a Table of the CRD printer columns', async () => {
    const response = await call(cluster.standIn, 'GET', GROUPS, { headers: { accept: TABLE } });
    expect(response.headers['content-type']).toBe('application/json;as=Table;v=v1;g=meta.k8s.io');
    const table = response.json<{
      kind: string;
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[]; object: { kind: string; metadata: { name: string } } }[];
    }>();
    expect(table.kind).toBe('Table');
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'READY', 'SYNCED', 'EXTERNAL-NAME', 'AGE']);
    const pending = table.rows.find((r) => r.cells[0] === 'rg-sandbox-pending');
    expect(pending?.cells.slice(0, 4)).toEqual(['rg-sandbox-pending', 'False', 'True', 'rg-sandbox-pending']);
    expect(pending?.cells[4]).toMatch(/^\d+s$/);
    expect(pending?.object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'rg-sandbox-pending' } });
  });

  it('answers plain JSON when the client prefers it over a Table', async () => {
    const response = await call(cluster.standIn, 'GET', `${GROUPS}/rg-books-dev`, {
      headers: { accept: 'application/json, application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    expect(response.json()).toMatchObject({ kind: 'ResourceGroup' });
  });

  it('prints ages as kube-apiserver does', () => {
    expect(humanDuration(-5000)).toBe('<invalid>');
    expect(humanDuration(119_000)).toBe('119s');
    expect(humanDuration(150_000)).toBe('2m30s');
    expect(humanDuration(3 * 3600_000 + 5 * 60_000)).toBe('3h5m');
    expect(humanDuration(3 * 86_400_000 + 2 * 3600_000)).toBe('3d2h');
    expect(humanDuration(400 * 86_400_000)).toBe('400d');
  });
});

describe('Kubernetes stand-in writes', () => {
  it('applies a JSON patch whose test operations hold and refuses one whose test fails, changing nothing', async () => {
    const account = await createAccount();
    const path = `${ACCOUNTS}/${account.metadata.name}`;
    const jsonPatch = { 'content-type': 'application/json-patch+json' };
    const refused = await call(cluster.standIn, 'PATCH', path, {
      headers: jsonPatch,
      body: [
        { op: 'test', path: '/spec/forProvider/accountTier', value: 'Premium' },
        { op: 'add', path: '/spec/forProvider/accessTier', value: 'Cool' },
      ],
    });
    expect(refused.status).toBe(422);
    expect(refused.json()).toMatchObject({ kind: 'Status', reason: 'Invalid' });
    expect((await readAccount(account.metadata.name)).spec.forProvider['accessTier']).toBeUndefined();

    const applied = await call(cluster.standIn, 'PATCH', path, {
      headers: jsonPatch,
      body: [
        { op: 'test', path: '/spec/forProvider/accountTier', value: 'Standard' },
        { op: 'add', path: '/spec/forProvider/accessTier', value: 'Cool' },
      ],
    });
    expect(applied.status).toBe(200);
    expect(applied.json<Account>().spec.forProvider['accessTier']).toBe('Cool');
    expect(applied.json<Account>().metadata.generation).toBe(account.metadata.generation + 1);

    const malformed = await call(cluster.standIn, 'PATCH', path, { headers: jsonPatch, body: { op: 'add' } });
    expect(malformed.status).toBe(400);
  });

  it('refuses a merge patch carrying a stale resourceVersion with 409 Conflict, and merges strategic merge patches', async () => {
    const account = await createAccount();
    const path = `${ACCOUNTS}/${account.metadata.name}`;
    await call(cluster.standIn, 'PATCH', path, {
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
      body: { metadata: { annotations: { 'example.com/owner': 'books' } } },
    });
    expect((await readAccount(account.metadata.name)).metadata.annotations?.['example.com/owner']).toBe('books');
    const stale = await call(cluster.standIn, 'PATCH', path, {
      headers: { 'content-type': 'application/merge-patch+json' },
      body: {
        metadata: { resourceVersion: account.metadata.resourceVersion },
        spec: { forProvider: { accessTier: 'Hot' } },
      },
    });
    expect(stale.status).toBe(409);
    expect(stale.json()).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });
  });

  it('replaces an object with PUT only at its current resourceVersion, leaving status to the subresource', async () => {
    const { metadata } = await settledAccount();
    const path = `${ACCOUNTS}/${metadata.name}`;
    const changedFrom = (account: Account) => ({
      ...account,
      spec: { forProvider: { ...account.spec.forProvider, accessTier: 'Cool' } },
      status: { atProvider: { forged: true } },
    });
    // The stand-in's reconciler may still write the object just after Ready (on a busy machine
    // it does so later), so the PUT is made from a fresh read until one lands on the current version.
    const { current, changed, replaced } = await eventually(async () => {
      const latest = await readAccount(metadata.name);
      const body = changedFrom(latest);
      const response = await call(cluster.standIn, 'PUT', path, { body });
      if (response.status === 409) return undefined;
      return { current: latest, changed: body, replaced: response };
    }, `a PUT of ${metadata.name} at its current resourceVersion`);
    expect(replaced.status).toBe(200);
    expect(replaced.json<Account>().spec.forProvider['accessTier']).toBe('Cool');
    expect(JSON.stringify(replaced.json<Account>().status ?? {})).not.toContain('forged');

    const stale = await call(cluster.standIn, 'PUT', path, { body: changed });
    expect(stale.status).toBe(409);
    expect(stale.json<{ message: string }>().message).toContain('the object has been modified');

    const { resourceVersion: _dropped, ...withoutVersion } = current.metadata;
    const unconditional = await call(cluster.standIn, 'PUT', path, { body: { ...changed, metadata: withoutVersion } });
    expect(unconditional.status).toBe(422);

    // The PUT of the spec above makes the reconciler write the object again: retry from a fresh read.
    const status = await eventually(async () => {
      const latest = await readAccount(current.metadata.name);
      const response = await call(cluster.standIn, 'PUT', `${path}/status`, {
        body: { ...latest, spec: { forProvider: {} }, status: { ...latest.status, note: 'written through /status' } },
      });
      return response.status === 409 ? undefined : response;
    }, `a PUT of ${metadata.name}/status at its current resourceVersion`);
    expect(status.status).toBe(200);
    expect(status.json<Account>().status?.['note']).toBe('written through /status');
    expect(status.json<Account>().spec.forProvider['accessTier']).toBe('Cool');
  });

  it('honours DeleteOptions sent as the body: dryRun stores nothing, a failed precondition is 409', async () => {
    const account = await createAccount();
    const path = `${ACCOUNTS}/${account.metadata.name}`;
    const dryRun = await call(cluster.standIn, 'DELETE', path, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] },
    });
    expect(dryRun.status).toBe(200);
    expect((await readAccount(account.metadata.name)).metadata).not.toHaveProperty('deletionTimestamp');
    const precondition = await call(cluster.standIn, 'DELETE', path, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'someone-else' } },
    });
    expect(precondition.status).toBe(409);
    expect(precondition.json()).toMatchObject({ reason: 'Conflict' });
  });

  it('refuses unknown fields under fieldValidation=Strict and warns about them by default', async () => {
    const strict = await call(cluster.standIn, 'POST', `${ACCOUNTS}?fieldValidation=Strict`, {
      body: manifest('stunknownfield', { extra: true }),
    });
    expect(strict.status).toBe(400);
    expect(strict.json<{ message: string }>().message).toContain('unknown field "extra"');
    const warned = await call(cluster.standIn, 'POST', `${ACCOUNTS}?dryRun=All`, {
      body: manifest('stunknownfield', { extra: true }),
    });
    expect(warned.status).toBe(201);
    expect(warned.headers['warning']).toBe('299 - "unknown field \\"extra\\""');
  });
});

describe('Kubernetes stand-in discovery and OpenAPI', () => {
  it('lists the accounts/status subresource in discovery', async () => {
    const list = (await call(cluster.standIn, 'GET', '/apis/storage.azure.upbound.io/v1beta1')).json<{
      resources: { name: string; verbs: string[] }[];
    }>();
    expect(list.resources.find((r) => r.name === 'accounts/status')?.verbs).toEqual(['get', 'patch', 'update']);
    expect(list.resources.find((r) => r.name === 'accounts')?.verbs).toEqual(
      expect.arrayContaining(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
    );
  });

  it('publishes OpenAPI v3 documents whose PATCH operations declare server-side field validation', async () => {
    const root = (await call(cluster.standIn, 'GET', '/openapi/v3')).json<{
      paths: Record<string, { serverRelativeURL: string }>;
    }>();
    const url = root.paths['apis/storage.azure.upbound.io/v1beta1']?.serverRelativeURL ?? '';
    expect(url).toMatch(/^\/openapi\/v3\/apis\/storage\.azure\.upbound\.io\/v1beta1\?hash=[0-9A-F]+$/);
    const document = (await call(cluster.standIn, 'GET', url)).json<{
      paths: Record<
        string,
        { patch?: { parameters: { name: string; in: string }[]; 'x-kubernetes-group-version-kind': unknown } }
      >;
      components: { schemas: Record<string, unknown> };
    }>();
    const patch = document.paths['/apis/storage.azure.upbound.io/v1beta1/accounts/{name}']?.patch;
    expect(patch?.parameters).toContainEqual(expect.objectContaining({ name: 'fieldValidation', in: 'query' }));
    expect(patch?.['x-kubernetes-group-version-kind']).toEqual({
      group: 'storage.azure.upbound.io',
      version: 'v1beta1',
      kind: 'Account',
    });
    expect(document.components.schemas).toHaveProperty(['io.upbound.azure.storage.v1beta1.Account']);
  });
});
