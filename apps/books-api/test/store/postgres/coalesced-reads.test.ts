import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import { randomUUID } from 'node:crypto';
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import postgres from 'postgres';
import { StoreUnavailableError, type Book, type Slice } from '../../../src/store/book-store.js';
import type { DatabaseSettings } from '../../../src/store/postgres/connection.js';
import { PostgresBookStore } from '../../../src/store/postgres/postgres-book-store.js';
import { SEED_BOOKS } from '../../../src/store/seed.js';
import { atEnd, freshDatabase, freshPostgresStore } from '../../postgres.js';

// The last test stops the server: only a server the tests own can be stopped.
let server: TestPostgres;
before(async () => {
  server = await startPostgres({ ownServer: true });
});
after(() => server.stop());

/**
 * A store on two reader connections of its own, how many statements the readers have sent, and
 * how many transactions the database has committed (in READ COMMITTED outside a transaction
 * block, one per statement, and one more for each statement that a session prepares). The
 * readers' sessions report their counts first (pg_stat_force_next_flush()), so the figure is exact.
 */
function storeWithReaders(t: TestContext, database: DatabaseSettings) {
  const options = { onnotice: () => undefined, connection: { plan_cache_mode: 'force_generic_plan' } } as const;
  const main = postgres(database.url, { ...options, max: 1 });
  const sent = { statements: 0 };
  const counted = { ...options, max: 1, debug: () => (sent.statements += 1) };
  const readers = [postgres(database.url, counted), postgres(database.url, counted)];
  const store = new PostgresBookStore(main, { readers });
  // The store's background work first: a move of the search index's entries must not outlive its
  // pool, and the pools close before the database is dropped (a drop cuts a move in flight).
  atEnd(t, async () => {
    await store.stopBackgroundWork();
    await Promise.all([main, ...readers].map((pool) => pool.end()));
  });
  store.markReady();
  const commits = async () => {
    await Promise.all([main, ...readers].map((pool) => pool`select pg_stat_force_next_flush()`));
    const [row] = await main<{ commits: number }[]>`
      select xact_commit::int8::float8 as commits from pg_stat_database where datname = current_database()`;
    return row!.commits;
  };
  return { store, main, commits, sent };
}

test('concurrent gets go in few statements, and each answers its own book or undefined', async (t) => {
  const database = await freshDatabase(t, server);
  await freshPostgresStore(t, database); // migrated and seeded
  const { store, commits } = storeWithReaders(t, database);
  const created: Book[] = [];
  for (let index = 0; index < 40; index++) {
    created.push(await store.create({ title: `Book ${index}`, author: `Author ${index % 7}`, year: 1900 + index }));
  }
  const missing = Array.from({ length: 10 }, () => randomUUID());
  const known = new Map<string, Book | undefined>(created.map((book) => [book.id, book]));
  for (const id of missing) known.set(id, undefined);
  // Hits, misses, the same id many times over, and another spelling of a known id.
  const asked: string[] = [];
  for (let round = 0; round < 6; round++) asked.push(...known.keys());
  asked.push(...Array.from({ length: 20 }, () => created[3]!.id));
  const shuffled = asked.map((id) => ({ id, key: Math.random() })).sort((a, b) => a.key - b.key);

  const before = await commits();
  const answers = await Promise.all(shuffled.map(({ id }) => store.get(id)));
  const statements = (await commits()) - before - 3; // less the three flushes that report them
  for (const [index, { id }] of shuffled.entries()) assert.deepEqual(answers[index], known.get(id), id);
  // The same id answers the same object, as RecentBooks makes it.
  const third = shuffled.flatMap(({ id }, index) => (id === created[3]!.id ? [answers[index]] : []));
  assert.ok(third.every((book) => book === third[0]));
  assert.equal(
    await store.get(created[5]!.id.toUpperCase()),
    answers[shuffled.findIndex(({ id }) => id === created[5]!.id)],
  );
  assert.equal(await store.get(`{${created[6]!.id}}`), answers[shuffled.findIndex(({ id }) => id === created[6]!.id)]);
  assert.equal(await store.get('not-a-uuid'), undefined);
  // 320 gets: two alone (one per reader), the rest in batches of at most 64 ids.
  assert.ok(statements >= 3, `${statements} statements: the test counts nothing`);
  assert.ok(statements <= 20, `${statements} statements for ${shuffled.length} gets`);
});

test('a get asked for after a write through another store returned sees it, also while gets wait', async (t) => {
  const database = await freshDatabase(t, server);
  const writer = await freshPostgresStore(t, database);
  const { store } = storeWithReaders(t, database);
  const id = SEED_BOOKS[0]!.id;
  for (let round = 0; round < 20; round++) {
    // Gets in flight and waiting, so that the get after the write waits in the queue.
    const busy = Array.from({ length: 30 }, () => store.get(id));
    const title = `Title ${round}`;
    await writer.update(id, { title });
    const after = await store.get(id);
    assert.equal(after?.title, title, `round ${round}`);
    await Promise.all(busy);
  }
  const book = await writer.create({ title: 'New', author: 'Someone', year: 2020 });
  const busy = Array.from({ length: 30 }, () => store.get(id));
  assert.deepEqual(await store.get(book.id), book);
  await Promise.all(busy);
  assert.equal(await writer.delete(book.id), true);
  const waiting = Array.from({ length: 30 }, () => store.get(id));
  assert.equal(await store.get(book.id), undefined);
  await Promise.all(waiting);
});

test('concurrent lists of one page share statements and answer the page; different pages answer their own', async (t) => {
  const database = await freshDatabase(t, server);
  const writer = await freshPostgresStore(t, database); // migrated and seeded
  for (let index = 0; index < 40; index++) {
    await writer.create({ title: `Book ${index}`, author: `Author ${index % 7}`, year: 1900 + index });
  }
  const { store, sent } = storeWithReaders(t, database);
  // 43 books: full pages, a page cut short by the end, a page past it.
  const pages = [
    [0, 10],
    [0, 20],
    [5, 10],
    [38, 10],
    [100, 10],
  ] as const;
  // Read one at a time through another store (its own pools and page cache).
  const expected: Slice[] = [];
  for (const [skip, limit] of pages) expected.push(await writer.list(skip, limit));

  // Both readers connected (a connection's first statement is preceded by the driver's own).
  await Promise.all([store.list(0, 1), store.list(1, 1)]);
  let before = sent.statements;
  const same = await Promise.all(Array.from({ length: 100 }, () => store.list(0, 10)));
  let statements = sent.statements - before;
  for (const page of same) assert.deepEqual(page, expected[0]);
  // One statement alone, then one for all that waited: the same snapshot, so the same Slice.
  assert.ok(
    same.every((page) => page === same[0]),
    'every request of one page answers the same Slice',
  );
  assert.equal(statements, 2, 'one statement alone, one for the 99 that waited');

  const asked = pages
    .flatMap((page, index) => Array.from({ length: 30 }, () => ({ page, index, key: Math.random() })))
    .sort((a, b) => a.key - b.key);
  before = sent.statements;
  const answers = await Promise.all(asked.map(({ page: [skip, limit] }) => store.list(skip, limit)));
  statements = sent.statements - before;
  for (const [index, answer] of answers.entries()) assert.deepEqual(answer, expected[asked[index]!.index]);
  // Each page's first list alone, then one statement for the 29 that waited: no page waits for another.
  assert.equal(statements, pages.length * 2, `statements for ${asked.length} lists of ${pages.length} pages`);
});

test('a list asked for after a write through another store returned sees it, also while lists of its page wait', async (t) => {
  const database = await freshDatabase(t, server);
  const writer = await freshPostgresStore(t, database);
  const { store } = storeWithReaders(t, database);
  // Lists of the page all along, so that a statement for it is in flight when the list after a
  // write is asked for, which then waits in the queue.
  let writing = true;
  const busy = Array.from({ length: 10 }, async () => {
    while (writing) await store.list(0, 10);
  });
  try {
    const id = SEED_BOOKS[0]!.id;
    for (let round = 0; round < 20; round++) {
      const title = `Title ${round}`;
      await writer.update(id, { title });
      const after = await store.list(0, 10);
      assert.equal(after.items.find((book) => book.id === id)?.title, title, `round ${round}`);
    }
    const book = await writer.create({ title: 'New', author: 'Someone', year: 2020 });
    const withBook = await store.list(0, 10);
    assert.equal(withBook.total, SEED_BOOKS.length + 1);
    assert.deepEqual(withBook.items.at(-1), book);
    assert.equal(await writer.delete(book.id), true);
    const without = await store.list(0, 10);
    assert.equal(without.total, SEED_BOOKS.length);
    assert.ok(without.items.every(({ id }) => id !== book.id));
  } finally {
    writing = false;
    await Promise.all(busy);
  }
});

test('gets and lists queued when the database stops each answer StoreUnavailableError, and work again after it returns', async (t) => {
  const database = await freshDatabase(t, server);
  await freshPostgresStore(t, database);
  const { store } = storeWithReaders(t, database);
  const id = SEED_BOOKS[1]!.id;
  // Whether each answer is the right one: 100 gets and 100 lists of a page that starts with the book.
  const reads = () => [
    ...Array.from({ length: 100 }, () => store.get(id).then((book) => book?.id === id)),
    ...Array.from({ length: 100 }, () =>
      store.list(1, 2).then((page) => page.items[0]?.id === id && page.total === SEED_BOOKS.length),
    ),
  ];
  assert.ok((await Promise.all(reads())).every(Boolean));

  await server.stopServer();
  try {
    const results = await Promise.allSettled(reads());
    for (const result of results) {
      assert.equal(result.status, 'rejected');
      assert.ok(result.reason instanceof StoreUnavailableError, String(result.reason));
    }
  } finally {
    await server.startServer();
  }
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answers = await Promise.allSettled(reads());
    if (answers.every((answer) => answer.status === 'fulfilled' && answer.value)) break;
    for (const answer of answers) {
      if (answer.status === 'rejected') assert.ok(answer.reason instanceof StoreUnavailableError);
      else assert.ok(answer.value, 'a wrong answer');
    }
    if (Date.now() > deadline) throw new Error('reads did not recover');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

test('a store that is not ready answers StoreUnavailableError for every get and list, queued or not', async (t) => {
  const database = await freshDatabase(t, server);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => sql.end());
  const store = new PostgresBookStore(sql);
  const results = await Promise.allSettled([
    ...Array.from({ length: 10 }, () => store.get(SEED_BOOKS[0]!.id)),
    ...Array.from({ length: 10 }, () => store.list(0, 20)),
  ]);
  for (const result of results) {
    assert.equal(result.status, 'rejected');
    assert.ok(result.reason instanceof StoreUnavailableError);
  }
});
