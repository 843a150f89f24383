import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp, json } from '../../../../helper.js';

const titles = (page: { items: { title: string }[] }) => page.items.map((book) => book.title);

test('GET /api/v1/books/search matches a substring of the title, case-insensitively', async (t) => {
  const app = await buildTestApp(t);
  const page = json(await app.inject({ url: '/api/v1/books/search?q=PRAGMATIC' }));
  assert.deepEqual(titles(page), ['The Pragmatic Programmer']);
  assert.deepEqual({ total: page.total, skip: page.skip, limit: page.limit }, { total: 1, skip: 0, limit: 20 });
});

test('GET /api/v1/books/search matches a substring of the author', async (t) => {
  const app = await buildTestApp(t);
  const page = json(await app.inject({ url: '/api/v1/books/search?q=martin' }));
  assert.deepEqual(titles(page), ['Clean Code', 'Designing Data-Intensive Applications']);
  assert.equal(page.total, 2);
});

test('GET /api/v1/books/search pages the matches and total counts all of them', async (t) => {
  const app = await buildTestApp(t);
  const page = json(await app.inject({ url: '/api/v1/books/search?q=martin&skip=1&limit=1' }));
  assert.deepEqual(titles(page), ['Designing Data-Intensive Applications']);
  assert.deepEqual({ total: page.total, skip: page.skip, limit: page.limit }, { total: 2, skip: 1, limit: 1 });
});

test('GET /api/v1/books/search answers an empty page when nothing matches', async (t) => {
  const app = await buildTestApp(t);
  const page = json(await app.inject({ url: '/api/v1/books/search?q=zzz' }));
  assert.deepEqual(page, { items: [], total: 0, skip: 0, limit: 20 });
});

test('GET /api/v1/books/search finds created books and forgets deleted ones', async (t) => {
  const app = await buildTestApp(t);
  const created = json(
    await app.inject({
      method: 'POST',
      url: '/api/v1/books',
      payload: { title: 'Refactoring', author: 'Martin Fowler', year: 2018 },
    }),
  );
  await app.inject({ method: 'DELETE', url: '/api/v1/books/3fa85f64-5717-4562-b3fc-2c963f66afa6' });
  const page = json(await app.inject({ url: '/api/v1/books/search?q=MARTIN' }));
  assert.deepEqual(titles(page), ['Designing Data-Intensive Applications', 'Refactoring']);
  assert.equal(page.items[1].id, created.id);
});

test('GET /api/v1/books/search treats q as text, not a pattern', async (t) => {
  const app = await buildTestApp(t);
  assert.equal(json(await app.inject({ url: '/api/v1/books/search?q=.*' })).total, 0);
  assert.equal(json(await app.inject({ url: '/api/v1/books/search?q=C.%20Martin' })).total, 1);
});

test('GET /api/v1/books/search folds case fully on both sides (ß, dotted I, final sigma, ligatures)', async (t) => {
  const app = await buildTestApp(t);
  const books = [
    { title: 'Die Straße', author: 'Anna Weiß', year: 2001 },
    { title: 'İstanbul Hatırası', author: 'Ahmet Ümit', year: 2010 },
    { title: 'Ο ΔΡΟΜΟΣ', author: 'Νίκος Καζαντζάκης', year: 1950 },
    { title: 'The ﬁnal ﬂight', author: 'Jane Doe', year: 2020 },
  ];
  for (const payload of books) {
    assert.equal((await app.inject({ method: 'POST', url: '/api/v1/books', payload })).statusCode, 201);
  }
  const search = async (q: string) =>
    titles(json(await app.inject({ url: `/api/v1/books/search?q=${encodeURIComponent(q)}` })));
  assert.deepEqual(await search('STRASSE'), ['Die Straße']);
  assert.deepEqual(await search('weiss'), ['Die Straße']);
  assert.deepEqual(await search('straẞe'), ['Die Straße']);
  assert.deepEqual(await search('i̇stanbul'), ['İstanbul Hatırası']);
  assert.deepEqual(await search('İSTANBUL'), ['İstanbul Hatırası']);
  assert.deepEqual(await search('δρομος'), ['Ο ΔΡΟΜΟΣ']);
  assert.deepEqual(await search('ΔΡΌΜΟΣ'), []);
  assert.deepEqual(await search('final flight'), ['The ﬁnal ﬂight']);
  assert.deepEqual(await search('FINAL'), ['The ﬁnal ﬂight']);
});
