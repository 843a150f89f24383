/**
 * The platform API route handlers on a cluster: a Kubernetes API stand-in reached through a real
 * kubeconfig and @kubernetes/client-node, so the production code path is the one under test.
 * Creating, reading, paging and deleting accounts; the cluster failing is
 * kubernetes-route-failures.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from './kubernetes-harness';
import { del, get, json, post, request, routes, clusterForRouteTests } from './kubernetes-routes-harness';

const cluster = clusterForRouteTests();

interface Item {
  name: string;
  state: string;
  stateDetail?: string;
  application?: string;
  environment?: string;
  requestId?: string;
  requestedBy?: string;
  deletionRequestedBy?: string;
  observed: { primaryBlobEndpoint?: string; id?: string };
  conditions: { type: string; status: string; reason?: string }[];
}

describe('platform API on a Kubernetes cluster', () => {
  it('GET /api/platform/resource-groups offers only the resource groups whose Ready condition is True', async () => {
    const { resourceGroups } = await routes();
    const response = await resourceGroups.GET(get('/api/platform/resource-groups'));
    expect(response.status).toBe(200);
    const { items } = await json<{ items: { name: string; ready: boolean; location?: string }[] }>(response);
    const readyInCluster = cluster.standIn
      .resourceGroups()
      .filter((g) =>
        (g.status?.['conditions'] as { type: string; status: string }[]).some(
          (c) => c.type === 'Ready' && c.status === 'True',
        ),
      )
      .map((g) => g.metadata.name);
    expect(items.map((g) => g.name).sort()).toEqual(readyInCluster.sort());
    expect(items.map((g) => g.name)).not.toContain('rg-sandbox-pending');
    expect(items.every((g) => g.ready && typeof g.location === 'string')).toBe(true);
  });

  it('POST ?dryRun=true has the API server validate the manifest and stores nothing', async () => {
    const { resources } = await routes();
    const before = cluster.standIn.accounts().length;
    const response = await resources.POST(post(request({ name: 'stdryrun01' }), '/api/platform/resources?dryRun=true'));
    expect(response.status).toBe(200);
    const body = await json<{ item: Item; manifest: { kind: string; metadata: { name?: string } } }>(response);
    expect(body.item.name).toBe('stdryrun01');
    expect(body.manifest.kind).toBe('Account');
    expect(cluster.standIn.accounts().length).toBe(before);
    const sent = cluster.standIn.requests().filter((r) => r.verb === 'create');
    expect(sent.at(-1)?.query).toContain('dryRun=All');
  });

  it('POST ?dryRun=true answers with what an admission policy of the cluster says', async () => {
    cluster.standIn.denyByPolicy({ policy: 'require-cost-center', message: 'storage accounts need a cost-center tag' });
    const { resources } = await routes();
    const response = await resources.POST(post(request({ name: 'stdryrun02' }), '/api/platform/resources?dryRun=true'));
    expect(response.status).toBe(400);
    const body = await json<{ error: string }>(response);
    expect(body.error).toContain('storage accounts need a cost-center tag');
    expect(body.error).toContain("ValidatingAdmissionPolicy 'require-cost-center'");
  });

  it('POST creates an Account with a generated name, labels and request annotations, and it becomes Ready', async () => {
    const { resources } = await routes();
    const response = await resources.POST(
      post(request(), '/api/platform/resources', {
        'x-request-id': 'req-create-0001',
        'x-forwarded-email': 'dev@books.example',
      }),
    );
    expect(response.status).toBe(201);
    const { item } = await json<{ item: Item }>(response);
    expect(item.name).toMatch(/^stwebshop[a-z0-9]{5}$/);
    expect(response.headers.get('location')).toBe(`/resources/${item.name}`);

    const stored = cluster.standIn.accounts().find((a) => a.metadata.name === item.name);
    // The portal picks the name itself (the intent is recorded under it before the cluster is asked).
    expect(stored?.metadata.generateName).toBeUndefined();
    expect(stored?.metadata.labels).toMatchObject({
      'platform-portal/application': 'webshop',
      'platform-portal/environment': 'dev',
    });
    expect(stored?.metadata.annotations).toMatchObject({
      'platform-portal/request-id': 'req-create-0001',
      'platform-portal/requested-by': 'dev@books.example',
    });
    expect(Date.parse(stored?.metadata.annotations?.['platform-portal/requested-at'] ?? '')).not.toBeNaN();

    const ready = await eventually(async () => {
      const { resources: fresh } = await routes();
      const answer = await json<{ item: Item }>(await fresh.GET(get(`/api/platform/resources?name=${item.name}`)));
      return answer.item.state === 'Ready' ? answer.item : undefined;
    }, 'the account to become Ready');
    expect(ready.observed.primaryBlobEndpoint).toBe(`https://${item.name}.blob.core.windows.net/`);
    expect(ready.observed.id).toContain(
      `/resourceGroups/rg-books-dev/providers/Microsoft.Storage/storageAccounts/${item.name}`,
    );
    expect(ready.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'Synced', status: 'True', reason: 'ReconcileSuccess' }),
        expect.objectContaining({ type: 'Ready', status: 'True', reason: 'Available' }),
      ]),
    );

    const list = await json<{ items: Item[] }>(await resources.GET(get('/api/platform/resources')));
    expect(list.items.map((i) => i.name)).toContain(item.name);
  });

  it('reads an account\'s events in the "default" namespace only, as a Role there allows', async () => {
    const { resources, data } = await routes();
    await resources.POST(post(request({ name: 'stevents02' })));
    // The portal's permissions: events in "default" through a Role, none across all namespaces.
    cluster.standIn.forbid({ verbs: ['*'], resources: ['events'], scope: 'cluster' });
    const detail = await eventually(async () => {
      const found = await data.getStorageAccountActivity('stevents02');
      return found.events.some((e) => e.reason === 'CreatedExternalResource') ? found : undefined;
    }, 'the events of stevents02 read in "default"');
    expect(detail.events[0]).toMatchObject({ type: 'Normal', reason: 'CreatedExternalResource' });
  });

  it('the detail data carries the events Crossplane recorded and the object as YAML', async () => {
    const { resources } = await routes();
    const { item } = await json<{ item: Item }>(await resources.POST(post(request({ name: 'stevents01' }))));
    const { data } = await routes();
    const detail = await eventually(async () => {
      const found = await data.getStorageAccountActivity(item.name);
      return found.events.some((e) => e.reason === 'CreatedExternalResource') ? found : undefined;
    }, 'the creation event');
    expect(detail.events[0]).toMatchObject({ type: 'Normal', reason: 'CreatedExternalResource', count: 1 });
    expect(detail.yaml).toContain('kind: Account');
    expect(detail.yaml).toContain('name: stevents01');
    expect(detail.yaml).toContain('finalizer.managedresource.crossplane.io');
  });

  it('POST with a name that exists answers 409', async () => {
    const { resources } = await routes();
    expect((await resources.POST(post(request({ name: 'sttaken01' })))).status).toBe(201);
    const response = await resources.POST(post(request({ name: 'sttaken01' })));
    expect(response.status).toBe(409);
    expect((await json<{ error: string }>(response)).error).toBe('A storage account named "sttaken01" already exists');
  });

  it('POST twice at once with the same Idempotency-Key creates one account and answers both with it', async () => {
    const { resources } = await routes();
    const before = cluster.standIn.accounts().length;
    const body = request({ application: 'twice' });
    const headers = { 'idempotency-key': 'double-click-0001' };
    const [first, second] = await Promise.all([
      resources.POST(post(body, undefined, headers)),
      resources.POST(post(body, undefined, headers)),
    ]);
    expect([first.status, second.status]).toEqual([201, 201]);
    const names = [(await json<{ item: Item }>(first)).item.name, (await json<{ item: Item }>(second)).item.name];
    expect(names[0]).toMatch(/^sttwice[a-z0-9]{5}$/);
    expect(names[1]).toBe(names[0]);
    const retried = await resources.POST(post(body, undefined, headers));
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect((await json<{ item: Item }>(retried)).item.name).toBe(names[0]);
    expect(cluster.standIn.accounts().length).toBe(before + 1);
  });

  it('POST answers 409 when the cluster reports a conflict on create', async () => {
    cluster.standIn.setConflictOnCreate(true);
    const { resources } = await routes();
    const response = await resources.POST(post(request({ name: 'stconflict01' })));
    expect(response.status).toBe(409);
  });

  it('POST answers 400 with the cluster message when an admission policy rejects the object, and nothing is stored', async () => {
    cluster.standIn.denyByPolicy({ policy: 'deny-prod-westeurope', message: 'new accounts in westeurope are frozen' });
    const { resources } = await routes();
    const response = await resources.POST(post(request({ name: 'stdenied01' })));
    expect(response.status).toBe(400);
    expect((await json<{ error: string }>(response)).error).toContain('new accounts in westeurope are frozen');
    expect(cluster.standIn.accounts().some((a) => a.metadata.name === 'stdenied01')).toBe(false);
  });

  it('POST refuses a resource group that exists but is not Ready, and one the cluster does not have', async () => {
    const { resources } = await routes();
    for (const resourceGroup of ['rg-sandbox-pending', 'rg-nobody-offers']) {
      const response = await resources.POST(post(request({ resourceGroup })));
      expect(response.status).toBe(400);
      const body = await json<{ fields: Record<string, string> }>(response);
      expect(body.fields['resourceGroup']).toContain(resourceGroup);
    }
  });

  it('an injected reconcile failure shows as state Failed with the provider message', async () => {
    const { resources } = await routes();
    cluster.standIn.injectFailure('stfailing01', 'authorization failed: the client does not have permission');
    expect((await resources.POST(post(request({ name: 'stfailing01' })))).status).toBe(201);
    const failed = await eventually(async () => {
      const { resources: fresh } = await routes();
      const { item } = await json<{ item: Item }>(await fresh.GET(get('/api/platform/resources?name=stfailing01')));
      return item.state === 'Failed' ? item : undefined;
    }, 'the account to fail');
    expect(failed.stateDetail).toContain('ReconcileError');
    expect(failed.stateDetail).toContain('authorization failed: the client does not have permission');
  });

  it('DELETE records who asked, the account shows Deleting, and then it disappears', async () => {
    const { resources } = await routes();
    expect((await resources.POST(post(request({ name: 'stdelete01' })))).status).toBe(201);
    await eventually(
      () =>
        cluster.standIn.accounts().find((a) => a.metadata.name === 'stdelete01')?.metadata.finalizers?.length
          ? true
          : undefined,
      'the provider finalizer',
    );
    const response = await resources.DELETE(
      del('stdelete01', { 'x-request-id': 'req-delete-0001', 'x-forwarded-user': 'alice' }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ item: { name: 'stdelete01' } });

    const deleting = cluster.standIn.accounts().find((a) => a.metadata.name === 'stdelete01');
    expect(deleting?.metadata.deletionTimestamp).toBeDefined();
    expect(deleting?.metadata.annotations).toMatchObject({
      'platform-portal/deletion-request-id': 'req-delete-0001',
      'platform-portal/deletion-requested-by': 'alice',
    });
    const shown = await json<{ item: Item }>(await resources.GET(get('/api/platform/resources?name=stdelete01')));
    expect(shown.item.state).toBe('Deleting');
    expect(shown.item.deletionRequestedBy).toBe('alice');

    await eventually(async () => {
      const { resources: fresh } = await routes();
      return (await fresh.GET(get('/api/platform/resources?name=stdelete01'))).status === 404 ? true : undefined;
    }, 'the account to be gone');
  });

  it('GET pages through the inventory with cursors: every account once, the total on each page', async () => {
    cluster.standIn.fillAccounts(120, 'stwalk');
    const { resources } = await routes();
    const inCluster = await eventually(async () => {
      const names = cluster.standIn.accounts().map((a) => a.metadata.name ?? '');
      const first = await json<{ total: number }>(await resources.GET(get('/api/platform/resources?limit=1')));
      return first.total === names.length ? names : undefined;
    }, 'the filled accounts to reach the portal');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `limit=50&sort=-name${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await resources.GET(get(`/api/platform/resources?${query}`));
      expect(response.status).toBe(200);
      const page = await json<{ items: Item[]; total: number; next: string | null }>(response);
      expect(page.total).toBe(inCluster.length);
      expect(page.items.length).toBeLessThanOrEqual(50);
      seen.push(...page.items.map((item) => item.name));
      cursor = page.next;
    } while (cursor);
    expect(seen).toEqual([...inCluster].sort().reverse());

    const filtered = await json<{ items: Item[]; total: number }>(
      await resources.GET(get('/api/platform/resources?q=STWALK0011&state=ready')),
    );
    expect(filtered.items.map((item) => item.name)).toEqual(Array.from({ length: 10 }, (_, i) => `stwalk0011${i}`));
    expect(filtered.total).toBe(10);
  });

  it('GET answers 400 naming the query parameter with a bad value, never 500', async () => {
    const { resources } = await routes();
    for (const [query, name] of [
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['sort=__proto__', 'sort'],
      ['state=__proto__', 'state'],
      ['state=toString', 'state'],
      ['cursor=%7B%7D', 'cursor'],
    ] as const) {
      const response = await resources.GET(get(`/api/platform/resources?${query}`));
      expect(response.status, query).toBe(400);
      expect((await json<{ error: string }>(response)).error, query).toMatch(new RegExp(`^${name}: `));
    }
  });

  it('GET and DELETE of an unknown name answer 404', async () => {
    const { resources } = await routes();
    const read = await resources.GET(get('/api/platform/resources?name=stnosuch01'));
    expect(read.status).toBe(404);
    expect((await json<{ error: string }>(read)).error).toBe('Storage account "stnosuch01" not found');
    expect((await resources.DELETE(del('stnosuch01'))).status).toBe(404);
  });
});
