import assert from 'node:assert/strict';
import { test } from 'node:test';
import postgres, { type Sql } from 'postgres';
import { syntheticBooks } from '../../../bench/lib/book-generator.js';
import { bulkLoadBooks } from '../../../bench/lib/postgres-bulk-load.js';
import { migrate, readMigrations } from '../../../src/store/postgres/migrations.js';
import { BLOCK_BITS, GROUP_BITS } from '../../../src/store/postgres/block-counts.js';
import { freshDatabase, freshPostgresStore } from '../../postgres.js';

/** Books in a group of blocks: loading more than this puts books in two groups. */
const GROUP = 1 << (BLOCK_BITS + GROUP_BITS);

/**
 * Each group's compacted count, from the group rows and from the block rows of shard 0: equal when
 * the trigger kept them.
 */
async function groupSums(sql: Sql) {
  const fromGroups = await sql<{ grp: string; live: string }[]>`
    select grp::text, live::text from book_group_counts where live <> 0 order by grp`;
  const fromBlocks = await sql<{ grp: string; live: string }[]>`
    select (block >> ${GROUP_BITS})::text as grp, sum(live)::text as live from book_block_counts
    where shard = 0 group by 1 having sum(live) <> 0 order by 1`;
  const [books] = await sql<{ n: string }[]>`select count(*)::text as n from books`;
  return { fromGroups: [...fromGroups], fromBlocks: [...fromBlocks], books: Number(books!.n) };
}

test('group counts stay the sums of their compacted blocks through concurrent creates, deletes and compaction', async (t) => {
  const database = await freshDatabase(t);
  const store = await freshPostgresStore(t, { ...database, poolSize: 8 });
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => sql.end());
  await bulkLoadBooks(sql, syntheticBooks(), GROUP + 1_500, { chunk: 5_000 });
  const loaded = (await sql<{ id: string }[]>`select id::text as id from books order by seq`).map((row) => row.id);
  const victims = loaded.filter((_, index) => index % 211 === 0);
  // Deletes in both groups, creates at the end crossing into a new block, and compactions, all at once.
  await Promise.all([
    ...victims.map((id) => store.delete(id)),
    ...Array.from({ length: 700 }, (_, i) => store.create({ title: `Late ${i}`, author: 'Load', year: 2001 })),
    store.compactCounts(),
    store.compactCounts(),
  ]);
  await store.compactCounts();
  const sums = await groupSums(sql);
  assert.deepEqual(sums.fromGroups, sums.fromBlocks);
  assert.equal(sums.books, loaded.length - victims.length + 700);
  assert.equal(await store.count(), sums.books);
  assert.equal((await store.list(sums.books - 5, 20)).total, sums.books);
  // Compacted: the total reads the group rows and the shard rows of the two newest blocks only.
  const [shards] = await sql<{ n: number }[]>`
    select count(*)::int as n from book_block_counts
    where shard <> 0 and block < (select max(block) - 1 from book_block_counts)`;
  assert.equal(shards!.n, 0);
  assert.equal(sums.fromGroups.length, 2, 'two groups of compacted counts');
});

test('writers of the previous version, whose shard can be 0, still move the total', async (t) => {
  const database = await freshDatabase(t);
  const store = await freshPostgresStore(t, database);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => sql.end());
  // The create and delete statements of the store before migration 0004, as a replica still
  // serving during a rolling update runs them, for a session whose pid % 32749 is 0.
  const [created] = await sql<{ id: string }[]>`
    with inserted as (
      insert into books (id, title, author, year, created_at, title_key, author_key)
      values (gen_random_uuid(), 'Old', 'Replica', 2001, now(), 'old', 'replica')
      returning seq, id
    ), counted as (
      insert into book_block_counts (block, shard, live)
      select seq >> 10, 0, 1 from inserted
      on conflict (block, shard) do update set live = book_block_counts.live + 1
    )
    select id::text as id from inserted`;
  assert.equal(await store.count(), 4);
  const page = await store.list(0, 20);
  assert.equal(page.total, 4);
  assert.equal(page.items.at(-1)?.id, created!.id);
  await sql`
    with deleted as (
      delete from books where id = ${created!.id} returning seq
    )
    insert into book_block_counts (block, shard, live)
    select seq >> 10, 0, -1 from deleted
    on conflict (block, shard) do update set live = book_block_counts.live - 1`;
  assert.equal(await store.count(), 3);
  assert.equal((await store.list(0, 20)).total, 3);
});

test('migration 0004 counts the groups of a database written before it', async (t) => {
  const database = await freshDatabase(t);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => sql.end());
  const migrations = await readMigrations();
  await migrate(
    sql,
    migrations.filter((migration) => migration.version < 4),
  );
  // Books in two groups, with block counts split over several shards as writers leave them.
  const extra = GROUP + 300;
  await sql`
    insert into books (id, title, author, year, created_at, title_key, author_key)
    select gen_random_uuid(), 'Book ' || n, 'Author', 2000, now(), 'book ' || n, 'author'
    from generate_series(1, ${extra}) n`;
  await sql`delete from book_block_counts`;
  await sql`
    insert into book_block_counts (block, shard, live)
    select seq >> 10, seq % 7, count(*) from books group by 1, 2`;
  await migrate(sql, migrations);
  const sums = await groupSums(sql);
  assert.deepEqual(sums.fromGroups, sums.fromBlocks);
  assert.equal(sums.fromGroups.length, 2);
  const store = await freshPostgresStore(t, database);
  assert.equal(await store.count(), 3 + extra);
  const far = await store.list(3 + extra - 2, 20);
  assert.equal(far.total, 3 + extra);
  assert.deepEqual(
    far.items.map((book) => book.title),
    [`Book ${extra - 1}`, `Book ${extra}`],
  );
});
