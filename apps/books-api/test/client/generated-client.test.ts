import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createBooksClient } from '../../client/index.js';
import { CLIENT_SCHEMA_FILE, clientSchemaSource } from '../../client/generate.js';
import { buildTestApp } from '../helper.js';

test('the committed client types are what openapi-typescript generates from the served document', async () => {
  const committed = await readFile(CLIENT_SCHEMA_FILE, 'utf8');
  assert.equal(
    committed,
    await clientSchemaSource(),
    'client/schema.gen.ts is stale: run `npm run generate:client -w apps/books-api` and commit it',
  );
});

test('the generated client (openapi-fetch) creates, reads, changes, searches and deletes a book over HTTP', async (t) => {
  const app = await buildTestApp(t);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const books = createBooksClient(`http://127.0.0.1:${port}`);

  const created = await books.POST('/api/v1/books', { body: { title: 'Die Straße', author: 'Anna Weiß', year: 2001 } });
  assert.equal(created.response.status, 201);
  assert.ok(created.data);
  const path = { book_id: created.data.id };

  const changed = await books.PATCH('/api/v1/books/{book_id}', { params: { path }, body: { year: 2002 } });
  assert.equal(changed.data?.year, 2002);

  const found = await books.GET('/api/v1/books/search', { params: { query: { q: 'STRASSE' } } });
  assert.deepEqual(
    found.data?.items.map((book) => book.id),
    [created.data.id],
  );

  const deleted = await books.DELETE('/api/v1/books/{book_id}', { params: { path } });
  assert.equal(deleted.data?.message, `Book ${created.data.id} deleted successfully`);

  const missing = await books.GET('/api/v1/books/{book_id}', { params: { path: { book_id: randomUUID() } } });
  assert.equal(missing.response.status, 404);
  assert.deepEqual(missing.error, { detail: 'Book not found' });

  const invalid = await books.POST('/api/v1/books', { body: { title: '', author: 'A', year: 1800 } });
  assert.equal(invalid.response.status, 422);
  // The error type is the union of every documented error body: a 422's detail is the list.
  const detail = invalid.error?.detail;
  assert.ok(Array.isArray(detail));
  assert.deepEqual(
    detail.map((issue) => issue.type),
    ['string_too_short', 'greater_than_equal'],
  );
});
