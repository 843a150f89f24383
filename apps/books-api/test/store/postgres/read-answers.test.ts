import assert from 'node:assert/strict';
import { test } from 'node:test';
import postgres from 'postgres';
import { isoTimestamp } from '../../../src/store/postgres/book-rows.js';
import { PostgresBookStore } from '../../../src/store/postgres/postgres-book-store.js';
import { freshDatabase, freshPostgresStore } from '../../postgres.js';

test('isoTimestamp turns PostgreSQL’s text of a UTC time into the API’s, to the millisecond', () => {
  assert.equal(isoTimestamp('2026-11-23 17:55:52.883'), '2026-11-23T17:55:52.883Z');
  assert.equal(isoTimestamp('2026-11-23 17:55:52.88'), '2026-11-23T17:55:52.880Z');
  assert.equal(isoTimestamp('2026-11-23 17:55:52.8'), '2026-11-23T17:55:52.800Z');
  assert.equal(isoTimestamp('2026-11-23 17:55:52'), '2026-11-23T17:55:52.000Z');
  assert.equal(isoTimestamp('2026-11-23 17:55:52.883999'), '2026-11-23T17:55:52.883Z');
  assert.equal(isoTimestamp('0999-01-02 03:04:05.006'), '0999-01-02T03:04:05.006Z');
  assert.equal(isoTimestamp('12345-01-02 03:04:05.006'), new Date('+012345-01-02T03:04:05.006Z').toISOString());
});

test('reads answer the row as it is now, also when another writer changed it in between', async (t) => {
  const database = await freshDatabase(t);
  const store = await freshPostgresStore(t, database);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => sql.end());
  const book = await store.create({ title: 'First', author: 'Writer', year: 2001 });
  assert.deepEqual(await store.get(book.id), book);
  // Unchanged rows may be answered with the same object; equal content either way.
  assert.deepEqual((await store.list(3, 1)).items, [book]);

  await sql`update books set title = 'Second', title_key = 'second' where id = ${book.id}`;
  assert.deepEqual(await store.get(book.id), { ...book, title: 'Second' });
  await sql`update books set year = 2002 where id = ${book.id}`;
  assert.deepEqual((await store.list(3, 1)).items, [{ ...book, title: 'Second', year: 2002 }]);
  await sql`update books set author = 'Other', author_key = 'other' where id = ${book.id}`;
  assert.deepEqual((await store.search('second', 0, 5)).items, [
    { ...book, title: 'Second', author: 'Other', year: 2002 },
  ]);
  // A time written by other means, with microseconds and in another session time zone.
  await sql.begin(async (tx) => {
    await tx`set local time zone 'America/New_York'`;
    await tx`update books set created_at = '2030-01-02 03:04:05.678999+00' where id = ${book.id}`;
  });
  assert.equal((await store.get(book.id))?.created_at, '2030-01-02T03:04:05.678Z');
  await sql`update books set created_at = '2030-01-02 03:04:05+00' where id = ${book.id}`;
  assert.equal((await store.get(book.id))?.created_at, '2030-01-02T03:04:05.000Z');
});

test('a store whose sessions default to another time zone and date style still answers UTC times', async (t) => {
  const database = await freshDatabase(t);
  const admin = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => admin.end());
  const [{ name } = { name: '' }] = await admin<{ name: string }[]>`select current_database() as name`;
  await admin.unsafe(`alter database "${name}" set timezone to 'Asia/Kolkata'`);
  await admin.unsafe(`alter database "${name}" set datestyle to 'SQL, DMY'`);
  const store = await freshPostgresStore(t, database);
  const book = await store.create({ title: 'Zoned', author: 'Clock', year: 2020 });
  assert.deepEqual(await store.get(book.id), book);
  assert.deepEqual((await store.list(3, 1)).items, [book]);
});

test('reads one at a time use one reader connection; concurrent reads use both', async (t) => {
  const database = await freshDatabase(t);
  await freshPostgresStore(t, database); // migrated
  // The store's reader pools, told apart by name in pg_stat_activity.
  const reader = (name: string) =>
    postgres(database.url, {
      max: 1,
      onnotice: () => undefined,
      connection: { application_name: name, plan_cache_mode: 'force_generic_plan', DateStyle: 'ISO, MDY' },
    });
  const readers = [reader('reader-0'), reader('reader-1')];
  const main = postgres(database.url, { max: 1, onnotice: () => undefined });
  const store = new PostgresBookStore(main, { readers });
  t.after(async () => {
    await store.stopBackgroundWork();
    await Promise.all([main, ...readers].map((sql) => sql.end()));
  });
  store.markReady();
  const readersSeen = async () =>
    (
      await main<{ name: string }[]>`
        select application_name as name from pg_stat_activity
        where datname = current_database() and application_name like 'reader-%' order by 1`
    ).map((row) => row.name);
  const [first] = (await store.list(0, 1)).items;
  for (let i = 0; i < 10; i++) {
    assert.equal((await store.get(first!.id))?.id, first!.id);
    assert.equal((await store.list(i % 3, 1)).total, 3);
  }
  assert.deepEqual(await readersSeen(), ['reader-0']);
  await Promise.all(Array.from({ length: 10 }, () => store.get(first!.id)));
  assert.deepEqual(await readersSeen(), ['reader-0', 'reader-1']);
});
