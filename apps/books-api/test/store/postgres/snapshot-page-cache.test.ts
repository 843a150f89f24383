import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import postgres from 'postgres';
import { syntheticBooks } from '../../../bench/lib/book-generator.js';
import { bulkLoadBooks } from '../../../bench/lib/postgres-bulk-load.js';
import type { Slice } from '../../../src/store/book-store.js';
import type { DatabaseSettings } from '../../../src/store/postgres/connection.js';
import { PostgresBookStore } from '../../../src/store/postgres/postgres-book-store.js';
import { freshDatabase, freshPostgresStore } from '../../postgres.js';

/**
 * A store whose one reader connection counts its statements, and how many scans of the books
 * table the database has counted (pg_stat_force_next_flush() makes the reader's session report
 * its counts before answering, so the figure is exact when read).
 */
function countingStore(t: TestContext, database: DatabaseSettings) {
  const counted = { statements: 0 };
  const options = { onnotice: () => undefined, connection: { plan_cache_mode: 'force_generic_plan' } } as const;
  const main = postgres(database.url, { ...options, max: 1 });
  const reader = postgres(database.url, { ...options, max: 1, debug: () => (counted.statements += 1) });
  const store = new PostgresBookStore(main, { readers: [reader] });
  t.after(async () => {
    await store.stopBackgroundWork();
    await Promise.all([main.end(), reader.end()]);
  });
  store.markReady();
  const booksScans = async () => {
    await reader`select pg_stat_force_next_flush()`;
    counted.statements -= 1;
    const [row] = await main<{ scans: number }[]>`
      select (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::int as scans
      from pg_stat_user_tables where relname = 'books'`;
    return row!.scans;
  };
  return { store, counted, booksScans };
}

/** A page and total read straight from the table, in one statement, with no cache on the way. */
async function freshPage(sql: postgres.Sql, skip: number, limit: number) {
  const rows = await sql<{ total: number; id: string | null; title: string | null }[]>`
    select (select count(*)::int from books) as total, page.id, page.title
    from (select 1) one left join lateral (
      select seq, id, title from books order by seq offset ${skip} limit ${limit}
    ) page on true order by page.seq`;
  return {
    total: rows[0]!.total,
    items: rows.filter((row) => row.id !== null).map((row) => ({ id: row.id, title: row.title })),
  };
}

type FreshPage = Awaited<ReturnType<typeof freshPage>>;

const shape = (page: Slice) => ({ total: page.total, items: page.items.map(({ id, title }) => ({ id, title })) });

test('a page read again while nothing changed is the same object, one statement that reads no book', async (t) => {
  const database = await freshDatabase(t);
  await freshPostgresStore(t, database); // migrated and seeded
  const { store, counted, booksScans } = countingStore(t, database);
  const other = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => other.end());
  // Past the first block, so that far pages are found from the block counts.
  await bulkLoadBooks(other, syntheticBooks(), 1_500);

  const first = await store.list(0, 20);
  assert.equal(first.total, 1_503);
  const scansAfterFirst = await booksScans();
  const statementsAfterFirst = counted.statements;
  for (let index = 0; index < 3; index++) {
    const again = await store.list(0, 20);
    assert.equal(again, first);
    assert.equal(again.items, first.items);
  }
  assert.equal(counted.statements, statementsAfterFirst + 3, 'one statement a list');
  assert.equal(await booksScans(), scansAfterFirst, 'the books were read again');

  // A far page (found from the block counts) too.
  const far = await store.list(1_400, 20);
  assert.equal(far.items.length, 20);
  const scansAfterFar = await booksScans();
  assert.equal(await store.list(1_400, 20), far);
  assert.equal(await booksScans(), scansAfterFar);

  // Another page is cached on its own; the first one still is.
  const second = await store.list(1, 2);
  assert.equal(second.items.length, 2);
  assert.equal(await store.list(1, 2), second);
  assert.equal(await store.list(0, 20), first);

  // A transaction that changes no book still moves the snapshot: the page is read again (equal
  // content), never assumed.
  const scansBefore = await booksScans();
  await other`select pg_current_xact_id()`;
  const reread = await store.list(0, 20);
  assert.notEqual(reread, first);
  assert.deepEqual(reread, first);
  assert.ok((await booksScans()) > scansBefore, 'the books were not read again');
});

test('a write through another replica is seen by the next list: create, update, delete', async (t) => {
  const database = await freshDatabase(t);
  const writer = await freshPostgresStore(t, database);
  const reader = await freshPostgresStore(t, database);
  const fresh = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => fresh.end());

  const before = await reader.list(0, 20);
  assert.equal(await reader.list(0, 20), before);

  const created = await writer.create({ title: 'Made Elsewhere', author: 'Other Replica', year: 2020 });
  const afterCreate = await reader.list(0, 20);
  assert.equal(afterCreate.total, 4);
  assert.deepEqual(afterCreate.items.at(-1), created);
  assert.deepEqual(shape(afterCreate), await freshPage(fresh, 0, 20));

  await writer.update(created.id, { title: 'Renamed Elsewhere' });
  const afterUpdate = await reader.list(0, 20);
  assert.equal(afterUpdate.total, 4);
  assert.equal(afterUpdate.items.at(-1)?.title, 'Renamed Elsewhere');

  // A write by other means than the store (a migration, an operator's statement) too.
  await fresh`update books set year = 1999 where id = ${created.id}`;
  assert.equal((await reader.list(0, 20)).items.at(-1)?.year, 1999);

  assert.equal(await writer.delete(created.id), true);
  const afterDelete = await reader.list(0, 20);
  assert.equal(afterDelete.total, 3);
  assert.deepEqual(shape(afterDelete), shape(before));
  assert.deepEqual(shape(afterDelete), await freshPage(fresh, 0, 20));
});

test('lists on two replicas during writes through both never answer a state older than the request', async (t) => {
  const database = await freshDatabase(t);
  const replicas = [await freshPostgresStore(t, database), await freshPostgresStore(t, database)] as const;
  const fresh = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => fresh.end());
  const pages = [
    [0, 20],
    [2, 3],
  ] as const;

  // The writes run one after another, so the database goes through states 0, 1, 2 ... in order;
  // after each write the state's pages are read straight from the table.
  const states: FreshPage[][] = [];
  const readStates = async () => Promise.all(pages.map(([skip, limit]) => freshPage(fresh, skip, limit)));
  states.push(await readStates());
  let completed = 0;
  let started = 0;
  // The lists run until the writes end, also when one fails: a loop on `completed` would spin for
  // ever after a failed write and keep the test process alive.
  let writing = true;
  const WRITES = 60;
  const ids: string[] = [];
  const writes = (async () => {
    try {
      for (let index = 0; index < WRITES; index++) {
        const store = replicas[index % 2]!;
        started = index + 1;
        const step = index % 5;
        if (step === 0 || step === 1 || ids.length === 0) {
          ids.push((await store.create({ title: `Book ${index}`, author: 'Writer', year: 2000 })).id);
        } else if (step === 2 || step === 3) {
          await store.update(ids[index % ids.length]!, { title: `Renamed ${index}` });
        } else {
          await store.delete(ids.shift()!);
        }
        states.push(await readStates());
        completed = index + 1;
      }
    } finally {
      writing = false;
    }
  })();

  let reused = 0;
  const answers: { replica: number; which: number; oldest: number; newest: number; page: Slice }[] = [];
  const listLoop = async (replica: number) => {
    const last = new Map<number, Slice>();
    while (writing) {
      for (const [which, [skip, limit]] of pages.entries()) {
        const oldest = completed;
        const page = await replicas[replica]!.list(skip, limit);
        const newest = started;
        if (last.get(which) === page) reused += 1;
        last.set(which, page);
        answers.push({ replica, which, oldest, newest, page });
      }
    }
  };
  await Promise.all([writes, listLoop(0), listLoop(1), listLoop(0), listLoop(1)]);

  // Each answer must be a state the database was in during the request: not older than the
  // writes that had returned when it was sent, not newer than those begun when it came back.
  const failures = answers.filter(({ which, oldest, newest, page }) => {
    const answered = JSON.stringify(shape(page));
    return !states.slice(oldest, newest + 1).some((state) => JSON.stringify(state[which]) === answered);
  });
  assert.deepEqual(
    failures.map(
      ({ replica, which, oldest, page }) =>
        `replica ${replica} page ${which} after ${oldest} writes: ${JSON.stringify(shape(page))}`,
    ),
    [],
  );
  assert.ok(answers.length > 2 * WRITES, `only ${answers.length} lists`);
  assert.ok(reused > 0, 'no list was answered from the cache');
  // Totals stay exact: the cached answers agree with the table once the writes stopped.
  for (const store of replicas) {
    for (const [which, [skip, limit]] of pages.entries()) {
      assert.deepEqual(shape(await store.list(skip, limit)), states.at(-1)![which]);
    }
  }
});
