/**
 * The create limits shared by portal replicas: two portal processes on one ledger in a real
 * PostgreSQL count one requester's accounts and creates together, so creates sent to both at
 * once never pass the limit, and creates spread over both (with the accounts deleted again)
 * still add up to the hourly limit. In memory each process counts only its own.
 */
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually, startTestCluster, type TestCluster } from './kubernetes-harness';
import { startRouteHost, type ProxyUser, type RouteHost } from './route-host';

// Each file starts a cluster, a database and portal processes: slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const LIVE_LIMIT = 2;
const HOURLY_LIMIT = 3;
let cluster: TestCluster;
let database: TestPostgres;
let replicas: RouteHost[] = [];

const requester = (user: string): ProxyUser => ({ user, groups: 'portal-requesters' });

function create(replica: RouteHost, as: ProxyUser) {
  return replica.call<{ item?: { name: string }; error?: string }>('POST', '/api/platform/resources', as, {
    application: 'limits',
    environment: 'dev',
    resourceGroup: 'rg-books-dev',
    location: 'westeurope',
  });
}

async function deleteAndWait(replica: RouteHost, name: string, as: ProxyUser) {
  expect((await replica.call('DELETE', `/api/platform/resources?name=${name}`, as)).status).toBe(200);
  await eventually(
    () => (cluster.standIn.accounts().some((account) => account.metadata.name === name) ? undefined : true),
    `${name} to leave the cluster`,
  );
}

beforeAll(async () => {
  [cluster, database] = await Promise.all([startTestCluster(), startPostgres()]);
  const env = {
    PORTAL_DATABASE_URL: await database.createDatabase('portal_create_limits_replicas'),
    PORTAL_MAX_ACCOUNTS_PER_USER: String(LIVE_LIMIT),
    PORTAL_MAX_CREATES_PER_HOUR: String(HOURLY_LIMIT),
  };
  replicas = await Promise.all([
    startRouteHost(cluster, { azure: false, env }),
    startRouteHost(cluster, { azure: false, env }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.stop()));
  await cluster?.dispose();
  await database?.stop();
}, 60_000);

describe('create limits across two replicas on one PostgreSQL ledger', () => {
  it('lets through no more than the live-account limit of creates sent to both replicas at once', async () => {
    const hana = requester('hana');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => create(replicas[index % 2]!, hana)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 201, 429, 429, 429, 429, 429, 429]);
    expect(
      cluster.standIn
        .accounts()
        .filter((account) => account.metadata.annotations?.['platform-portal/requested-by-subject'] === 'hana'),
    ).toHaveLength(LIVE_LIMIT);
  });

  it('adds up the creates of the hour made on either replica, though their accounts were deleted', async () => {
    const otto = requester('otto');
    for (let index = 0; index < HOURLY_LIMIT; index += 1) {
      const replica = replicas[index % 2]!;
      const created = await create(replica, otto);
      expect(created.status).toBe(201);
      await deleteAndWait(replicas[(index + 1) % 2]!, created.body.item!.name, otto);
    }
    for (const replica of replicas) {
      const refused = await create(replica, otto);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatch(/created 3 storage accounts in the last hour/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    }
  });
});
