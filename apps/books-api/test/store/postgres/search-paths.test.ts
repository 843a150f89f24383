import assert from 'node:assert/strict';
import { test } from 'node:test';
import postgres from 'postgres';
import { createPrng } from '../../../bench/lib/book-generator.js';
import { bulkLoadBooks, type BulkBook } from '../../../bench/lib/postgres-bulk-load.js';
import { createSeededStore } from '../../../src/plugins/app/book-store.js';
import { searchCondition } from '../../../src/store/postgres/search-queries.js';
import { freshDatabase, freshPostgresStore } from '../../postgres.js';

/**
 * Words in exactly as many books as the PostgreSQL store answers from one pass over the matches
 * (5,000), one fewer and one more, with and without a trigram, and rare ones: every way a search
 * can go (one pass; one pass that overflows, then a count and a walk), compared with the memory
 * store at the boundaries, past the total and after updates have moved rows away from insertion
 * order on disk.
 */
const BOOKS = 10_600;
const WORDS: { word: string; books: number; field: 'title' | 'author' }[] = [
  { word: 'wolf', books: 5_000, field: 'title' },
  { word: 'bear', books: 5_001, field: 'author' },
  { word: 'lynx', books: 4_999, field: 'author' },
  { word: 'жя', books: 5_000, field: 'author' },
  { word: 'юф', books: 5_001, field: 'title' },
  { word: 'otter', books: 37, field: 'title' },
  { word: 'ъы', books: 12, field: 'author' },
];

function shuffled(count: number, random: () => number): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** Books whose words never run into each other: a needle can only match a whole word. */
function books(): BulkBook[] {
  const random = createPrng(5_001);
  const made = Array.from({ length: BOOKS }, (_, index) => ({ title: `b${index}`, author: `a${index}`, year: 2000 }));
  for (const { word, books: count, field } of WORDS) {
    for (const index of shuffled(BOOKS, random).slice(0, count)) made[index]![field] += ` ${word}`;
  }
  return made;
}

test('searches answer like the memory store around 5,000 matches, past the total and after rows move on disk', async (t) => {
  const database = await freshDatabase(t);
  const store = await freshPostgresStore(t, database);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => sql.end());
  const inputs = books();
  await bulkLoadBooks(sql, inputs, inputs.length, { chunk: 5_000 });
  const reference = createSeededStore();
  const ids = (await sql<{ id: string }[]>`select id::text as id from books order by seq offset 3`).map(
    (row) => row.id,
  );
  for (const [index, id] of ids.entries()) reference.insert(id, inputs[index]!);

  // Updates write new row versions at the end of the table, so a scan meets those books out of
  // insertion order; the words stay, so the totals stay on their boundaries. Deletes take books
  // with none of the words.
  const random = createPrng(17);
  for (const index of shuffled(3_000, random).slice(0, 200)) {
    const title = `${inputs[index]!.title} 2e`;
    assert.equal(
      (await store.update(ids[index]!, { title }))?.title,
      (await reference.update(ids[index]!, { title }))?.title,
    );
  }
  const plain = ids.filter((_, index) => !/ /.test(inputs[index]!.title) && !/ /.test(inputs[index]!.author));
  for (const id of plain.slice(0, 40)) assert.equal(await store.delete(id), await reference.delete(id));

  for (const { word, books: count } of [...WORDS, { word: 'b1', books: -1 }, { word: 'a', books: -1 }]) {
    const skips = [0, 1, 4_980, 4_998, 4_999, 5_000, 5_001, 5_010, 9_999];
    for (const [skip, limit] of [
      ...skips.map((skip) => [skip, 20] as const),
      [0, 100] as const,
      [4_990, 100] as const,
    ]) {
      const expected = await reference.search(word, skip, limit);
      if (count >= 0) assert.equal(expected.total, count, `the reference's total of "${word}"`);
      const actual = await store.search(word, skip, limit);
      assert.equal(actual.total, expected.total, `total of "${word}" at ${skip}`);
      assert.deepEqual(
        actual.items.map((book) => book.id),
        expected.items.map((book) => book.id),
        `page of "${word}" at ${skip}, ${limit}`,
      );
    }
  }
});

test('a query shorter than a trigram is never answered from the trigram index, a longer one is', async (t) => {
  const database = await freshDatabase(t);
  await freshPostgresStore(t, database);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => sql.end());
  await bulkLoadBooks(sql, books(), 2_000, { chunk: 2_000 });
  // With sequential scans priced out, the planner takes any index that can answer the condition:
  // reading every entry of the trigram index is what a query without a trigram must never do.
  await sql`set enable_seqscan = off`;
  const plan = async (needle: string) =>
    (await sql<{ 'QUERY PLAN': string }[]>`explain select count(*) from books where ${searchCondition(sql, needle)}`)
      .map((row) => row['QUERY PLAN'])
      .join('\n');
  for (const needle of ['a', 'ot', 'жя', '%_']) {
    assert.doesNotMatch(await plan(needle), /books_search_keys/, `plan of "${needle}"`);
  }
  for (const needle of ['otter', 'wolf']) {
    assert.match(await plan(needle), /books_search_keys/, `plan of "${needle}"`);
  }
});
