/**
 * The ledger's create check in both stores: the check sees the name's life as recorded, a refusal
 * appends nothing, and in PostgreSQL two ledgers on one database (two portal replicas) cannot both
 * record a create of one name when the check refuses a name that is held.
 */
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownedChanges } from '../src/lib/platform/owned-settings';
import type { CreateFacts, IntentLedger, NewIntent } from '../src/server/model/ledger';
import { createMemoryLedger } from '../src/server/backends/ledger/memory-ledger';
import { createPostgresLedger } from '../src/server/backends/ledger/postgres-ledger';
import { STANDARD_INTENT } from './storage-fixtures';

const rita = { subject: 'https://login.example.com#rita-sub', display: 'rita@example.com' };
const omar = { subject: 'https://login.example.com#omar-sub', display: 'Omar' };

function intent(account: string, overrides: Partial<NewIntent> = {}): NewIntent {
  return {
    account,
    action: 'create',
    actor: rita,
    requestId: `req-${account}`,
    desired: STANDARD_INTENT,
    changes: ownedChanges(undefined, STANDARD_INTENT),
    ...overrides,
  };
}

class Held extends Error {}
/** The portal's rule in small: a live name is refused to anyone but its owner. */
const refuseHeld =
  (subject: string) =>
  ({ life }: CreateFacts) => {
    if (life.live && life.owner?.subject !== subject) throw new Held('held');
  };

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
  databaseUrl = await server.createDatabase('portal_ledger_create_check');
}, 120_000);

afterAll(async () => {
  await Promise.all(opened.map((ledger) => ledger.close()));
  await server?.stop();
}, 60_000);

describe.each([
  ['memory', createMemoryLedger],
  ['PostgreSQL', openPostgres],
] as const)('the create check of the ledger in %s', (store, open) => {
  const name = (base: string) => `${base}${store === 'memory' ? 'm' : 'p'}`;

  it('sees the life of the name, and a refusal records nothing', async () => {
    const ledger = open();
    const account = name('stcheckheld');
    const seen: CreateFacts[] = [];
    const created = await ledger.appendCreate(intent(account), (facts) => void seen.push(facts));
    expect(seen).toEqual([{ life: { live: false }, ownedLive: [], recentCreates: [] }]);

    // Pending, Rita's: Omar is refused, Rita may try again.
    await expect(
      ledger.appendCreate(intent(account, { actor: omar }), refuseHeld(omar.subject)),
    ).rejects.toBeInstanceOf(Held);
    expect(await ledger.history(account)).toHaveLength(1);
    await ledger.settle(created.id, { status: 'applied' });

    const deleted = await ledger.append(intent(account, { action: 'delete', desired: null, changes: [] }));
    await ledger.settle(deleted.id, { status: 'applied' });
    // Deleted: the name is free again, for anyone.
    await ledger.appendCreate(intent(account, { actor: omar }), (facts) => {
      expect(facts.life).toEqual({ live: false });
      expect(facts.ownedLive).toEqual([]);
    });
    expect((await ledger.history(account)).map((item) => item.actor.subject)).toEqual([
      omar.subject,
      rita.subject,
      rita.subject,
    ]);
  });
});

describe.each([
  ['memory', createMemoryLedger],
  ['PostgreSQL', openPostgres],
] as const)('what the ledger in %s counts for the create limits', (store, open) => {
  const name = (base: string) => `${base}${store === 'memory' ? 'm' : 'p'}`;
  const person = (who: string) => ({ subject: `idp#${who}-${store}`, display: who });

  it('counts the accounts a person holds and her creates of the hour that did not fail', async () => {
    const ledger = open();
    const lena = person('lena');
    const settled = async (account: string, status: 'applied' | 'failed', overrides: Partial<NewIntent> = {}) => {
      const record = await ledger.appendCreate(intent(account, { actor: lena, ...overrides }), () => undefined);
      await ledger.settle(record.id, status === 'applied' ? { status } : { status, reason: 'refused' });
    };
    await settled(name('stcountkept'), 'applied');
    await settled(name('stcountfailed'), 'failed');
    await ledger.appendCreate(intent(name('stcountpending'), { actor: lena }), () => undefined);
    await settled(name('stcountgone'), 'applied');
    const deleted = await ledger.append(
      intent(name('stcountgone'), { actor: omar, action: 'delete', desired: null, changes: [] }),
    );
    await ledger.settle(deleted.id, { status: 'applied' });
    // Someone else's change of Lena's account does not make it theirs.
    const changed = await ledger.append(intent(name('stcountkept'), { actor: omar, action: 'change', changes: [] }));
    await ledger.settle(changed.id, { status: 'applied' });

    let facts: CreateFacts | undefined;
    await ledger.appendCreate(intent(name('stcountnext'), { actor: lena }), (seen) => void (facts = seen));
    expect(facts?.ownedLive.sort()).toEqual([name('stcountkept'), name('stcountpending')].sort());
    expect(facts?.recentCreates.map((entry) => entry.account).sort()).toEqual(
      [name('stcountgone'), name('stcountkept'), name('stcountpending')].sort(),
    );
    let omars: CreateFacts | undefined;
    await ledger.appendCreate(intent(name('stcountomar'), { actor: omar }), (seen) => void (omars = seen));
    expect(omars?.ownedLive.filter((account) => account.startsWith('stcount'))).toEqual([]);
  });
});

describe('the create check across PostgreSQL replicas', () => {
  it('lets one person record no more creates than the limit when two replicas are asked at once', async () => {
    const replicas = [openPostgres(), openPostgres()];
    await Promise.all(replicas.map((replica) => replica.ready()));
    const hana = { subject: 'idp#hana', display: 'hana' };
    class OverLimit extends Error {}
    const atMostThree = (facts: CreateFacts) => {
      if (facts.recentCreates.length >= 3) throw new OverLimit('limit');
    };
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) =>
        replicas[index % 2]!.appendCreate(intent(`stlimitrace${index}`, { actor: hana }), atMostThree),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    expect(results.filter((result) => result.status === 'rejected' && result.reason instanceof OverLimit)).toHaveLength(
      7,
    );
  });

  it('records one create of a name that two replicas are asked for at once', async () => {
    const replicas = [openPostgres(), openPostgres()];
    await Promise.all(replicas.map((replica) => replica.ready()));
    const account = 'stcheckrace';
    const actors = Array.from({ length: 12 }, (_, index) => ({ subject: `idp#person${index}`, display: `${index}` }));
    const results = await Promise.allSettled(
      actors.map((actor, index) =>
        replicas[index % 2]!.appendCreate(intent(account, { actor }), refuseHeld(actor.subject)),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((result) => result.status === 'rejected' && result.reason instanceof Held)).toHaveLength(
      actors.length - 1,
    );
    expect(await replicas[0]!.history(account)).toHaveLength(1);
  });
});
