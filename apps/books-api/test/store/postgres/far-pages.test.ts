import assert from 'node:assert/strict';
import { test } from 'node:test';
import postgres from 'postgres';
import { syntheticBooks } from '../../../bench/lib/book-generator.js';
import { bulkLoadBooks } from '../../../bench/lib/postgres-bulk-load.js';
import { BLOCK_BITS } from '../../../src/store/postgres/block-counts.js';
import { freshDatabase, freshPostgresStore } from '../../postgres.js';

/**
 * More than two groups of block counts (a group is 32 blocks of 1,024 books), so that a page is
 * found through every step of the search for its block: a group, a block in it, a position in it.
 */
const LOADED = 70_000;
const BLOCK = 1 << BLOCK_BITS;

test('every page of a large store, after deletes everywhere and creates at the end, is the right slice with the exact total', async (t) => {
  const database = await freshDatabase(t);
  const store = await freshPostgresStore(t, database);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => sql.end());
  await bulkLoadBooks(sql, syntheticBooks(), LOADED, { chunk: 5_000 });
  // Insertion order is seq order (the bulk loader writes the ids, so they are read back once here).
  const loaded = (await sql<{ id: string }[]>`select id::text as id from books order by seq`).map((row) => row.id);

  // A whole block emptied (its count becomes 0), every 97th book, and the first ten.
  const emptiedBlock = 40;
  const doomed = new Set<string>();
  for (const [index, id] of loaded.entries()) {
    const seq = index + 1;
    if (seq >> BLOCK_BITS === emptiedBlock || index % 97 === 0 || index < 10) doomed.add(id);
  }
  for (const id of doomed) assert.equal(await store.delete(id), true);
  const created: string[] = [];
  for (let i = 0; i < 30; i++) created.push((await store.create({ title: `New ${i}`, author: 'A', year: 2001 })).id);
  const expected = [...loaded.filter((id) => !doomed.has(id)), ...created];

  const total = expected.length;
  const skips = new Set([0, 1, 9, 255, 256, 257, 1_000, BLOCK - 1, BLOCK, BLOCK + 1, total - 21, total - 1, total]);
  for (let skip = 0; skip < total; skip += 1_789) skips.add(skip);
  // Around the emptied block, and the boundaries of the first groups of blocks.
  for (const near of [emptiedBlock * BLOCK - 500, 32 * BLOCK - 350, 64 * BLOCK - 700]) {
    for (const delta of [-1, 0, 1, 2]) skips.add(near + delta);
  }
  skips.add(total + 5);
  for (const skip of [...skips].sort((a, b) => a - b)) {
    const page = await store.list(skip, 20);
    assert.equal(page.total, total, `total at skip=${skip}`);
    assert.deepEqual(
      page.items.map((book) => book.id),
      expected.slice(skip, skip + 20),
      `page at skip=${skip}`,
    );
  }
  assert.deepEqual(
    (await store.list(total - 150, 100)).items.map((book) => book.id),
    expected.slice(total - 150, total - 50),
  );
});
