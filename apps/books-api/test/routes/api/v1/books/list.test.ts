import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryBookStore } from '../../../../../src/store/memory-book-store.js';
import { buildTestApp, json } from '../../../../helper.js';

const SEEDED_TITLES = ['Clean Code', 'The Pragmatic Programmer', 'Designing Data-Intensive Applications'];
const titles = (page: { items: { title: string }[] }) => page.items.map((book) => book.title);

test('GET /api/v1/books lists the three seeded books in order with default paging', async (t) => {
  const app = await buildTestApp(t);
  const response = await app.inject({ url: '/api/v1/books' });
  assert.equal(response.statusCode, 200);
  const page = json(response);
  assert.deepEqual({ total: page.total, skip: page.skip, limit: page.limit }, { total: 3, skip: 0, limit: 20 });
  assert.deepEqual(titles(page), SEEDED_TITLES);
  assert.deepEqual(page.items[0], {
    id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    title: 'Clean Code',
    author: 'Robert C. Martin',
    year: 2008,
    created_at: page.items[0].created_at,
  });
  assert.match(page.items[0].created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

test('GET /api/v1/books pages with skip and limit and reports the values used', async (t) => {
  const app = await buildTestApp(t);
  const page = json(await app.inject({ url: '/api/v1/books?skip=1&limit=1' }));
  assert.deepEqual(titles(page), ['The Pragmatic Programmer']);
  assert.deepEqual({ total: page.total, skip: page.skip, limit: page.limit }, { total: 3, skip: 1, limit: 1 });
  const beyond = json(await app.inject({ url: '/api/v1/books?skip=10' }));
  assert.deepEqual(beyond.items, []);
  assert.equal(beyond.total, 3);
});

test('GET /api/v1/books accepts the limit bounds 1 and 100', async (t) => {
  const app = await buildTestApp(t);
  assert.equal(json(await app.inject({ url: '/api/v1/books?limit=1' })).items.length, 1);
  assert.equal(json(await app.inject({ url: '/api/v1/books?limit=100' })).limit, 100);
});

test('GET /api/v1/books keeps insertion order after deletions and creations', async (t) => {
  const app = await buildTestApp(t);
  await app.inject({ method: 'DELETE', url: '/api/v1/books/1a5d9e27-8b16-4d8d-96a0-84b9a91db314' });
  for (const title of ['Fourth', 'Fifth']) {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/books',
      payload: { title, author: 'A', year: 2000 },
    });
    assert.equal(created.statusCode, 201);
  }
  await app.inject({
    method: 'PATCH',
    url: '/api/v1/books/3fa85f64-5717-4562-b3fc-2c963f66afa6',
    payload: { year: 2009 },
  });
  const page = json(await app.inject({ url: '/api/v1/books' }));
  assert.deepEqual(titles(page), ['Clean Code', 'Designing Data-Intensive Applications', 'Fourth', 'Fifth']);
  assert.equal(page.total, 4);
  assert.deepEqual(titles(json(await app.inject({ url: '/api/v1/books?skip=2&limit=5' }))), ['Fourth', 'Fifth']);
});

test('GET /api/v1/books pages through a large collection with many deletions in order', async (t) => {
  const store = new MemoryBookStore();
  for (let i = 0; i < 500; i += 1) await store.create({ title: `Book ${i}`, author: 'A', year: 2000 });
  const app = await buildTestApp(t, { store });
  const all = json(await app.inject({ url: '/api/v1/books?limit=100&skip=0' })).items as { id: string }[];
  // Delete every book whose number is not a multiple of 7 in the first 100: forces tombstone runs.
  for (const [index, book] of all.entries()) {
    if (index % 7 !== 0) await app.inject({ method: 'DELETE', url: `/api/v1/books/${book.id}` });
  }
  const expected = [
    ...Array.from({ length: 100 }, (_, i) => i).filter((i) => i % 7 === 0),
    ...Array.from({ length: 400 }, (_, i) => i + 100),
  ].map((i) => `Book ${i}`);
  const seen: string[] = [];
  for (let skip = 0; ; skip += 37) {
    const page = json(await app.inject({ url: `/api/v1/books?skip=${skip}&limit=37` }));
    assert.equal(page.total, expected.length);
    if (page.items.length === 0) break;
    seen.push(...titles(page));
  }
  assert.deepEqual(seen, expected);
});

test('GET /api/v1/books ignores unknown query parameters and takes the last of repeated ones', async (t) => {
  const app = await buildTestApp(t);
  const page = json(await app.inject({ url: '/api/v1/books?limit=abc&limit=2&foo=bar' }));
  assert.equal(page.limit, 2);
  assert.equal(page.items.length, 2);
});

test('GET /api/v1/books parses query integers as Pydantic does (whitespace, sign, trailing .0)', async (t) => {
  const app = await buildTestApp(t);
  const page = json(await app.inject({ url: '/api/v1/books?skip=%20%2B1%20&limit=2.0' }));
  assert.deepEqual({ skip: page.skip, limit: page.limit }, { skip: 1, limit: 2 });
});
