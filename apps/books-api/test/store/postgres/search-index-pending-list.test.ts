import assert from 'node:assert/strict';
import { test } from 'node:test';
import postgres from 'postgres';
import { PostgresBookStore } from '../../../src/store/postgres/postgres-book-store.js';
import { freshDatabase, freshPostgresStore } from '../../postgres.js';

// migrations/0005 and pending-list-cleaner.ts: writes leave their search entries in the index's
// pending list, searches still find them there, and the store moves them into the index proper
// shortly after. The list's length is read from the index's metapage (pageinspect).

/** Entries waiting in the search index's pending list, read from its metapage. */
async function pendingEntries(sql: postgres.Sql): Promise<number> {
  await sql`create extension if not exists pageinspect`;
  const [row] = await sql<{ pending: number }[]>`
    select n_pending_tuples::int as pending from gin_metapage_info(get_raw_page('books_search_keys', 0))`;
  return row!.pending;
}

const book = (index: number) => ({ title: `Pending title ${index} quokka`, author: `Author ${index}`, year: 2000 });

test('the search index takes new entries into a bounded pending list', async (t) => {
  const database = await freshDatabase(t);
  await freshPostgresStore(t, database);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => sql.end());
  const [row] = await sql<{ options: string[] }[]>`
    select reloptions as options from pg_class where relname = 'books_search_keys'`;
  assert.deepEqual([...row!.options].sort(), ['fastupdate=on', 'gin_pending_list_limit=256']);
  // A write that does not go through the store leaves its entries pending: nothing else moves them.
  await sql`insert into books (id, title, author, year, created_at, title_key, author_key)
    values (gen_random_uuid(), 'Direct', 'Writer', 1999, now(), 'direct', 'writer')`;
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok((await pendingEntries(sql)) > 0);
});

test('creates and updates through the store have their pending entries moved shortly after', async (t) => {
  const database = await freshDatabase(t);
  const store = await freshPostgresStore(t, database);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => sql.end());
  const created = await Promise.all(Array.from({ length: 120 }, (_, index) => store.create(book(index))));
  await store.pendingEntriesMoved();
  assert.equal(await pendingEntries(sql), 0);

  await Promise.all(
    created.slice(0, 40).map((one, index) => store.update(one.id, { title: `Renamed ${index} wombat` })),
  );
  await store.pendingEntriesMoved();
  assert.equal(await pendingEntries(sql), 0);
  assert.equal((await store.search('wombat', 0, 100)).total, 40);
  assert.equal((await store.search('quokka', 0, 100)).total, 80);
});

test('searches find books whose entries are still pending, exactly as once they are moved', async (t) => {
  const database = await freshDatabase(t);
  const store = await freshPostgresStore(t, database);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => sql.end());
  await store.stopBackgroundWork(); // nothing moves the entries while the searches run
  const created = [];
  for (let index = 0; index < 30; index++) created.push(await store.create(book(index)));
  assert.ok((await pendingEntries(sql)) >= 30);
  const queries = ['quokka', 'pending title 1', 'author 2', 'title 29 q', 'zz-none'];
  const whilePending = await Promise.all(queries.map((query) => store.search(query, 0, 50)));
  assert.deepEqual(
    whilePending.map((page) => page.total),
    [30, 11, 11, 1, 0],
  );
  assert.deepEqual(whilePending[3]!.items, [created[29]]);
  await sql`select gin_clean_pending_list('books_search_keys')`;
  assert.equal(await pendingEntries(sql), 0);
  const afterMove = await Promise.all(queries.map((query) => store.search(query, 0, 50)));
  assert.deepEqual(afterMove, whilePending);
});

test('one process at a time moves the entries: the others try again once the lock is free', async (t) => {
  const database = await freshDatabase(t);
  const store = await freshPostgresStore(t, database);
  const sql = postgres(database.url, { max: 2, onnotice: () => undefined });
  t.after(() => sql.end());
  const holder = await sql.reserve();
  await holder`begin`;
  await holder`select pg_advisory_xact_lock(4217790114)`;
  await store.create(book(1));
  await new Promise((resolve) => setTimeout(resolve, 400)); // several tries, all refused
  assert.ok((await pendingEntries(sql)) > 0);
  await holder`commit`;
  holder.release();
  await store.pendingEntriesMoved();
  assert.equal(await pendingEntries(sql), 0);
});

test('two stores on one database each leave nothing pending after their writes', async (t) => {
  const database = await freshDatabase(t);
  const first = await freshPostgresStore(t, database);
  const second = await freshPostgresStore(t, database);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => sql.end());
  await Promise.all(Array.from({ length: 100 }, (_, index) => (index % 2 ? first : second).create(book(index))));
  await Promise.all([first.pendingEntriesMoved(), second.pendingEntriesMoved()]);
  assert.equal(await pendingEntries(sql), 0);
  assert.equal((await first.search('quokka', 0, 1)).total, 100);
});

test('a store that cannot move the entries still answers every write and search', async (t) => {
  const database = await freshDatabase(t);
  await freshPostgresStore(t, database);
  // A store whose pool lacks the right to move them: a role that does not own the index.
  const admin = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => admin.end());
  const role = `writer_${Date.now()}`;
  await admin.unsafe(`create role ${role} login`);
  await admin.unsafe(`grant all on all tables in schema public to ${role}`);
  t.after(() => admin.unsafe(`drop owned by ${role}; drop role ${role}`).catch(() => undefined));
  const url = new URL(database.url);
  url.username = role;
  const writer = postgres(url.toString(), { max: 2, onnotice: () => undefined });
  const store = new PostgresBookStore(writer);
  store.markReady();
  t.after(async () => {
    await store.stopBackgroundWork();
    await writer.end();
  });
  for (let index = 0; index < 5; index++) await store.create(book(index));
  await store.pendingEntriesMoved();
  assert.equal((await store.search('quokka', 0, 10)).total, 5);
  assert.ok((await pendingEntries(admin)) >= 5);
});
