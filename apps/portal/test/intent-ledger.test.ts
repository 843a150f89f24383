/**
 * The intent ledger in both stores: memory, and a real PostgreSQL (TEST_DATABASE_URL, else a
 * throwaway cluster) where two ledgers on one database stand for two portal replicas and a new
 * ledger on the same database stands for a restarted portal.
 */
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownedChanges } from '../src/lib/platform/owned-settings';
import type { IntentLedger, NewIntent } from '../src/server/model/ledger';
import { createMemoryLedger } from '../src/server/backends/ledger/memory-ledger';
import { createPostgresLedger } from '../src/server/backends/ledger/postgres-ledger';
import { PORTAL_MIGRATIONS } from '../src/server/backends/database/migrations';
import { STANDARD_INTENT } from './storage-fixtures';

const desired = STANDARD_INTENT;

const rita = { subject: 'https://login.example.com|rita-sub', display: 'rita@example.com' };
const omar = { subject: 'https://login.example.com|omar-sub', display: 'Omar' };

function intent(account: string, overrides: Partial<NewIntent> = {}): NewIntent {
  return {
    account,
    action: 'create',
    actor: rita,
    requestId: `req-${account}`,
    desired,
    changes: ownedChanges(undefined, desired),
    ...overrides,
  };
}

let server: TestPostgres;
let databaseUrl: string;
const opened: IntentLedger[] = [];

function openPostgres(): IntentLedger {
  const ledger = createPostgresLedger(databaseUrl);
  opened.push(ledger);
  return ledger;
}

beforeAll(async () => {
  server = await startPostgres();
  databaseUrl = await server.createDatabase('portal_ledger');
}, 120_000);

afterAll(async () => {
  await Promise.all(opened.map((ledger) => ledger.close()));
  await server?.stop();
}, 60_000);

const stores: [string, () => IntentLedger][] = [
  ['memory', createMemoryLedger],
  ['PostgreSQL', openPostgres],
];

describe.each(stores)('intent ledger in %s', (storeName, open) => {
  const name = (base: string) => `${base}${storeName === 'memory' ? 'm' : 'p'}`;

  it('answers a recorded intent as pending until its outcome is appended', async () => {
    const ledger = open();
    const account = name('stpending');
    const record = await ledger.append(intent(account));
    expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
    let [item] = await ledger.history(account);
    expect(item).toMatchObject({
      id: record.id,
      action: 'create',
      by: 'rita@example.com',
      actor: rita,
      status: 'pending',
    });
    expect(Date.parse(item!.at)).not.toBeNaN();
    // Pending is not yet desired state: the cluster has not taken it.
    expect(await ledger.desired(account)).toBeUndefined();

    await ledger.settle(record.id, { status: 'applied' });
    [item] = await ledger.history(account);
    expect(item?.status).toBe('applied');
    expect((await ledger.desired(account))?.desired).toEqual(desired);
  });

  it('lists history newest first, with the reason of a failure and the fields each action changed', async () => {
    const ledger = open();
    const account = name('sthistory');
    const created = await ledger.append(intent(account));
    await ledger.settle(created.id, { status: 'applied' });
    const publicAccess = { ...desired, publicNetworkAccess: true };
    const changed = await ledger.append(
      intent(account, {
        action: 'change',
        actor: omar,
        desired: publicAccess,
        changes: ownedChanges(desired, publicAccess),
      }),
    );
    await ledger.settle(changed.id, { status: 'failed', reason: 'Storage account was changed by someone else' });

    const items = await ledger.history(account);
    expect(items.map((item) => [item.action, item.status, item.by])).toEqual([
      ['change', 'failed', 'Omar'],
      ['create', 'applied', 'rita@example.com'],
    ]);
    expect(items[0]?.reason).toBe('Storage account was changed by someone else');
    expect(items[0]?.changes).toEqual([
      { field: 'publicNetworkAccess', label: 'Public network access', from: false, to: true },
    ]);
    // A failed action leaves the desired state where it was.
    expect((await ledger.desired(account))?.desired.publicNetworkAccess).toBe(false);
  });

  it('takes the last applied record as desired state, and nothing once a delete is applied', async () => {
    const ledger = open();
    const account = name('stdeleted');
    const created = await ledger.append(intent(account));
    await ledger.settle(created.id, { status: 'applied' });
    expect((await ledger.desiredAll()).has(account)).toBe(true);
    const deleted = await ledger.append(intent(account, { action: 'delete', desired: null, changes: [] }));
    await ledger.settle(deleted.id, { status: 'applied' });
    expect(await ledger.desired(account)).toBeUndefined();
    expect((await ledger.desiredAll()).has(account)).toBe(false);
    expect((await ledger.history(account)).map((item) => item.action)).toEqual(['delete', 'create']);
  });

  it('hands out the same frozen desired states until they change', async () => {
    const ledger = open();
    const account = name('stsamemap');
    const created = await ledger.append(intent(account));
    await ledger.settle(created.id, { status: 'applied' });
    const first = await ledger.desiredAll();
    expect(await ledger.desiredAll()).toBe(first);
    const state = first.get(account);
    expect(Object.isFrozen(state) && Object.isFrozen(state?.desired.allowedIpRanges)).toBe(true);
    const failed = await ledger.append(intent(account, { action: 'change' }));
    await ledger.settle(failed.id, { status: 'failed', reason: 'refused' });
    expect(await ledger.desiredAll()).toBe(first);
    const changed = await ledger.append(
      intent(account, { action: 'change', desired: { ...desired, accessTier: 'Cool' } }),
    );
    await ledger.settle(changed.id, { status: 'applied' });
    const second = await ledger.desiredAll();
    expect(second).not.toBe(first);
    expect(second.get(account)?.desired.accessTier).toBe('Cool');
  });

  it('keeps the later intent when two outcomes arrive in the other order', async () => {
    const ledger = open();
    const account = name('stordered');
    const first = await ledger.append(intent(account));
    const second = await ledger.append(
      intent(account, { action: 'change', desired: { ...desired, minTlsVersion: 'TLS1_3' }, changes: [] }),
    );
    await ledger.settle(second.id, { status: 'applied' });
    await ledger.settle(first.id, { status: 'applied' });
    expect((await ledger.desired(account))?.desired.minTlsVersion).toBe('TLS1_3');
  });

  it('refuses a second outcome for one intent', async () => {
    const ledger = open();
    const record = await ledger.append(intent(name('sttwice')));
    await ledger.settle(record.id, { status: 'applied' });
    await expect(ledger.settle(record.id, { status: 'failed', reason: 'late' })).rejects.toThrow();
    expect((await ledger.history(name('sttwice')))[0]?.status).toBe('applied');
  });

  it('has no history for an account nobody asked for', async () => {
    expect(await open().history(name('stnobody'))).toEqual([]);
  });
});

describe('intent ledger in PostgreSQL, across replicas and restarts', () => {
  it('shows what one replica recorded to another at its next read', async () => {
    const replicaA = openPostgres();
    const replicaB = openPostgres();
    expect((await replicaB.desiredAll()).has('streplica')).toBe(false);
    const record = await replicaA.append(intent('streplica'));
    await replicaA.settle(record.id, { status: 'applied' });
    expect((await replicaB.desiredAll()).get('streplica')?.desired).toEqual(desired);
    expect((await replicaB.history('streplica'))[0]).toMatchObject({ id: record.id, status: 'applied' });

    const removal = await replicaB.append(intent('streplica', { action: 'delete', desired: null, changes: [] }));
    await replicaB.settle(removal.id, { status: 'applied' });
    expect(await replicaA.desired('streplica')).toBeUndefined();
  });

  it('keeps the history and desired state when the portal restarts', async () => {
    const before = openPostgres();
    const record = await before.append(intent('strestart', { actor: omar }));
    await before.settle(record.id, { status: 'applied' });
    await before.close();
    opened.splice(opened.indexOf(before), 1);

    const after = openPostgres();
    expect((await after.history('strestart')).map((item) => [item.id, item.by, item.status])).toEqual([
      [record.id, 'Omar', 'applied'],
    ]);
    expect((await after.desired('strestart'))?.actor).toEqual(omar);
  });

  it('applies its migrations once when replicas start together', async () => {
    const fresh = await server.createDatabase('portal_ledger_start');
    const ledgers = [createPostgresLedger(fresh), createPostgresLedger(fresh), createPostgresLedger(fresh)];
    opened.push(...ledgers);
    await Promise.all(ledgers.map((ledger) => ledger.ready()));
    const sql = postgres(fresh, { max: 1, onnotice: () => undefined });
    try {
      const rows = await sql<{ version: number }[]>`select version from portal_schema_migrations order by version`;
      expect(rows.map((row) => row.version)).toEqual(PORTAL_MIGRATIONS.map((migration) => migration.version));
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it('refuses to rewrite or remove a record, even by hand', async () => {
    const ledger = openPostgres();
    const record = await ledger.append(intent('stappendonly'));
    await ledger.settle(record.id, { status: 'applied' });
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
    try {
      await expect(
        sql`update portal_intents set actor_display = 'someone else' where id = ${record.id}`,
      ).rejects.toThrow(/append-only/);
      await expect(sql`delete from portal_intent_outcomes where intent_id = ${record.id}`).rejects.toThrow(
        /append-only/,
      );
      await expect(sql`truncate portal_intents cascade`).rejects.toThrow(/append-only/);
    } finally {
      await sql.end({ timeout: 5 });
    }
    expect((await ledger.history('stappendonly'))[0]?.by).toBe('rita@example.com');
  });

  it('answers 503 without touching anything when the database cannot be reached', async () => {
    const ledger = createPostgresLedger('postgres://nobody@127.0.0.1:1/portal');
    opened.push(ledger);
    const error = await ledger.append(intent('stunreachable')).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 503, name: 'LedgerUnavailableError' });
  });
});
