import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp, json } from '../../../../helper.js';

test('GET /api/v1/books lists the three seeded books in order on a fresh service', async (t) => {
  const app = await buildTestApp(t);
  const response = await app.inject({ url: '/api/v1/books' });
  assert.equal(response.statusCode, 200);
  const page = json(response);
  assert.equal(page.total, 3);
  assert.equal(page.skip, 0);
  assert.equal(page.limit, 20);
  assert.deepEqual(
    page.items.map((book: { title: string }) => book.title),
    ['Clean Code', 'The Pragmatic Programmer', 'Designing Data-Intensive Applications'],
  );
});
