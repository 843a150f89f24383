import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import postgres from 'postgres';
import type { FastifyInstance } from 'fastify';
import { syntheticBooks } from '../../bench/lib/book-generator.js';
import { bulkLoadBooks, type BulkBook } from '../../bench/lib/postgres-bulk-load.js';
import { buildApp } from '../../src/app.js';
import { defaultConfig } from '../../src/config.js';
import { createSeededStore } from '../../src/plugins/app/book-store.js';
import { json } from '../helper.js';
import { freshDatabase, freshPostgresStore } from '../postgres.js';

/**
 * Three blocks of counts and more (a block is 1,024 books), synthetic books plus text that
 * folds differently from a naive lower() and characters COPY's text format must escape.
 */
const SYNTHETIC = 2_990;
const AWKWARD: BulkBook[] = [
  { title: 'İstanbul Notları', author: 'ΟΔΥΣΣΕΥΣ Σ', year: 1999 },
  { title: 'Die Straße', author: 'Tab\tand\\backslash', year: 2001 },
  { title: 'Line\nbreak\r\nbook', author: 'ﬁne Ligature', year: 1950 },
  { title: '%_ wildcards \\N', author: 'Quote "and" \'apostrophe\'', year: 2020 },
];

function* books(): Generator<BulkBook> {
  const synthetic = syntheticBooks();
  for (let i = 0; i < SYNTHETIC; i++) {
    yield synthetic.next().value as BulkBook;
    if (i % 1000 === 500) yield* AWKWARD;
  }
}
const COUNT = SYNTHETIC + 3 * AWKWARD.length;

const QUERIES = [
  'eleanor whitfield',
  'in the',
  'the',
  'a',
  'xu',
  'istanbul',
  'i̇stanbul',
  'σ',
  'ss',
  'fi',
  '\\',
  '\t',
  '%_',
  'n\\',
];

interface Page {
  total: number;
  items: { id: string; title: string; author: string; year: number; created_at: string }[];
}

const withoutIds = (page: Page) => ({
  total: page.total,
  items: page.items.map(({ title, author, year }) => ({ title, author, year })),
});

async function memoryApp(t: TestContext): Promise<FastifyInstance> {
  const store = createSeededStore();
  for (const book of books()) await store.create(book);
  const app = await buildApp({ config: defaultConfig(), store });
  t.after(() => app.close());
  return app;
}

async function bulkLoadedApp(t: TestContext): Promise<FastifyInstance> {
  const database = await freshDatabase(t);
  const store = await freshPostgresStore(t, database);
  const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => sql.end());
  await bulkLoadBooks(sql, books(), COUNT, { chunk: 700 });
  const app = await buildApp({ config: defaultConfig(), store });
  t.after(() => app.close());
  return app;
}

const get = async (app: FastifyInstance, url: string): Promise<Page> => {
  const response = await app.inject({ url });
  assert.equal(response.statusCode, 200, url);
  return json<Page>(response);
};

test("the benchmark's bulk loader fills PostgreSQL so that pages, totals and searches match a store filled by create()", async (t) => {
  const [memory, loaded] = await Promise.all([memoryApp(t), bulkLoadedApp(t)]);

  for (const skip of [0, 1, 1_020, 1_021, 2_048, COUNT - 17, COUNT + 2, COUNT + 3]) {
    const url = `/api/v1/books?skip=${skip}&limit=20`;
    assert.deepEqual(withoutIds(await get(loaded, url)), withoutIds(await get(memory, url)), url);
  }
  assert.equal((await get(loaded, '/api/v1/books?limit=1')).total, COUNT + 3);
  for (const q of QUERIES) {
    for (const skip of [0, 40]) {
      const url = `/api/v1/books/search?q=${encodeURIComponent(q)}&skip=${skip}&limit=20`;
      assert.deepEqual(withoutIds(await get(loaded, url)), withoutIds(await get(memory, url)), url);
    }
  }
  const health = json<{ books: number }>(await loaded.inject({ url: '/api/ps' }));
  assert.equal(health.books, COUNT + 3);
});

test('books loaded in bulk keep exact totals through later creates and deletes, and answer by id', async (t) => {
  const loaded = await bulkLoadedApp(t);
  const middle = (await get(loaded, '/api/v1/books?skip=1500&limit=3')).items;
  assert.equal(middle.length, 3);
  const one = await loaded.inject({ url: `/api/v1/books/${middle[1]!.id}` });
  assert.deepEqual(json(one), middle[1]);
  assert.match(middle[1]!.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

  for (const book of middle) {
    assert.equal((await loaded.inject({ method: 'DELETE', url: `/api/v1/books/${book.id}` })).statusCode, 200);
  }
  const created = await loaded.inject({
    method: 'POST',
    url: '/api/v1/books',
    payload: { title: 'After the load', author: 'Bench', year: 2026 },
  });
  assert.equal(created.statusCode, 201);
  const last = await get(loaded, `/api/v1/books?skip=${COUNT - 1}&limit=20`);
  assert.equal(last.total, COUNT + 3 - 3 + 1);
  assert.deepEqual(last.items.at(-1), json(created));
  const search = await get(loaded, '/api/v1/books/search?q=after%20the%20load');
  assert.deepEqual(search.items, [json(created)]);
});
