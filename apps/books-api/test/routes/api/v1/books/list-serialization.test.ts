import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryBookStore } from '../../../../../src/store/memory-book-store.js';
import { buildTestApp } from '../../../../helper.js';

test('GET /api/v1/books answers JSON in UTF-8 with exactly the page fields, in schema order', async (t) => {
  const store = new MemoryBookStore({
    now: () => new Date('2026-01-02T03:04:05.678Z'),
    newId: () => '0b6f8a3e-53a4-4d3c-9d3a-1f0c1d2e3f40',
  });
  await store.create({ title: 'Straße 📚', author: 'Zoë "Q" Ø', year: 2001 });
  const app = await buildTestApp(t, { store });
  const response = await app.inject({ url: '/api/v1/books?skip=0&limit=5' });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(
    response.body,
    '{"items":[{"id":"0b6f8a3e-53a4-4d3c-9d3a-1f0c1d2e3f40","title":"Straße 📚","author":"Zoë \\"Q\\" Ø",' +
      '"year":2001,"created_at":"2026-01-02T03:04:05.678Z"}],"total":1,"skip":0,"limit":5}',
  );
});
