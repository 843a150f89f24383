import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp, json } from '../../../../helper.js';

const CLEAN_CODE = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

test('POST /api/v1/books creates a book with a generated id and created_at, and it can be read back', async (t) => {
  const app = await buildTestApp(t);
  const before = Date.now();
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/books',
    payload: { title: 'Refactoring', author: 'Martin Fowler', year: 2018 },
  });
  assert.equal(response.statusCode, 201);
  const book = json(response);
  assert.match(book.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.deepEqual(Object.keys(book), ['id', 'title', 'author', 'year', 'created_at']);
  assert.deepEqual(
    { title: book.title, author: book.author, year: book.year },
    { title: 'Refactoring', author: 'Martin Fowler', year: 2018 },
  );
  assert.ok(book.created_at.endsWith('Z'));
  assert.ok(Date.parse(book.created_at) >= before - 1);
  assert.deepEqual(json(await app.inject({ url: `/api/v1/books/${book.id}` })), book);
  assert.equal(json(await app.inject({ url: '/api/v1/books' })).total, 4);
});

test('POST /api/v1/books accepts a title of 200 emoji (lengths count code points)', async (t) => {
  const app = await buildTestApp(t);
  const title = '📚'.repeat(200);
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/books',
    payload: { title, author: '✍️'.slice(0, 1).repeat(100), year: 1900 },
  });
  assert.equal(response.statusCode, 201);
  assert.equal(json(response).title, title);
});

test('POST /api/v1/books accepts the bounds of every field', async (t) => {
  const app = await buildTestApp(t);
  for (const payload of [
    { title: 'a', author: 'b', year: 1900 },
    { title: 'a'.repeat(200), author: 'b'.repeat(100), year: 2100 },
  ]) {
    assert.equal((await app.inject({ method: 'POST', url: '/api/v1/books', payload })).statusCode, 201);
  }
});

test('POST /api/v1/books accepts application/*+json with a charset', async (t) => {
  const app = await buildTestApp(t);
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/books',
    headers: { 'content-type': 'application/vnd.books+json; charset=utf-8' },
    payload: JSON.stringify({ title: 'T', author: 'A', year: 2001 }),
  });
  assert.equal(response.statusCode, 201);
});

test('GET /api/v1/books/{id} reads a book by id, including an upper-case or un-hyphenated id', async (t) => {
  const app = await buildTestApp(t);
  for (const id of [
    CLEAN_CODE,
    CLEAN_CODE.toUpperCase(),
    CLEAN_CODE.replaceAll('-', ''),
    `{${CLEAN_CODE}}`,
    `urn:uuid:${CLEAN_CODE}`,
  ]) {
    const response = await app.inject({ url: `/api/v1/books/${id}` });
    assert.equal(response.statusCode, 200, id);
    assert.equal(json(response).id, CLEAN_CODE);
    assert.equal(json(response).title, 'Clean Code');
  }
});

test('GET, PATCH and DELETE of an unknown id answer 404 Book not found', async (t) => {
  const app = await buildTestApp(t);
  for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
    const response = await app.inject({
      method,
      url: `/api/v1/books/${UNKNOWN}`,
      ...(method === 'PATCH' && { payload: {} }),
    });
    assert.equal(response.statusCode, 404, method);
    assert.deepEqual(json(response), { detail: 'Book not found' });
  }
});

test('PATCH /api/v1/books/{id} with {} returns the book unchanged', async (t) => {
  const app = await buildTestApp(t);
  const before = json(await app.inject({ url: `/api/v1/books/${CLEAN_CODE}` }));
  const response = await app.inject({ method: 'PATCH', url: `/api/v1/books/${CLEAN_CODE}`, payload: {} });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(json(response), before);
});

test('PATCH /api/v1/books/{id} changes only the fields present', async (t) => {
  const app = await buildTestApp(t);
  const before = json(await app.inject({ url: `/api/v1/books/${CLEAN_CODE}` }));
  const response = await app.inject({ method: 'PATCH', url: `/api/v1/books/${CLEAN_CODE}`, payload: { year: 2010 } });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(json(response), { ...before, year: 2010 });
  const titled = json(
    await app.inject({
      method: 'PATCH',
      url: `/api/v1/books/${CLEAN_CODE}`,
      payload: { title: 'Clean Code 2', author: 'Bob' },
    }),
  );
  assert.deepEqual(titled, { ...before, year: 2010, title: 'Clean Code 2', author: 'Bob' });
  assert.deepEqual(json(await app.inject({ url: `/api/v1/books/${CLEAN_CODE}` })), titled);
});

test('PATCH /api/v1/books/{id} rejects null, unknown fields and out-of-bounds values, and changes nothing', async (t) => {
  const app = await buildTestApp(t);
  const before = json(await app.inject({ url: `/api/v1/books/${CLEAN_CODE}` }));
  const cases: [unknown, string[]][] = [
    [{ title: null }, ['string_type']],
    [{ author: null, year: null }, ['string_type', 'int_type']],
    [{ year: 1899 }, ['greater_than_equal']],
    [{ year: 2101 }, ['less_than_equal']],
    [{ title: '' }, ['string_too_short']],
    [{ author: 'x'.repeat(101) }, ['string_too_long']],
    [{ id: UNKNOWN }, ['extra_forbidden']],
    [{ created_at: '2020-01-01T00:00:00Z', title: 'ok' }, ['extra_forbidden']],
  ];
  for (const [payload, types] of cases) {
    const response = await app.inject({
      method: 'PATCH',
      url: `/api/v1/books/${CLEAN_CODE}`,
      payload: payload as object,
    });
    assert.equal(response.statusCode, 422, JSON.stringify(payload));
    assert.deepEqual(
      json(response).detail.map((issue: { type: string }) => issue.type),
      types,
      JSON.stringify(payload),
    );
  }
  assert.deepEqual(json(await app.inject({ url: `/api/v1/books/${CLEAN_CODE}` })), before);
});

test('PATCH /api/v1/books/{id} without a body is a missing body', async (t) => {
  const app = await buildTestApp(t);
  const response = await app.inject({
    method: 'PATCH',
    url: `/api/v1/books/${CLEAN_CODE}`,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(response.statusCode, 422);
  assert.deepEqual(json(response), {
    detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
  });
});

test('DELETE /api/v1/books/{id} deletes the book and confirms it', async (t) => {
  const app = await buildTestApp(t);
  const response = await app.inject({ method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE.toUpperCase()}` });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(json(response), { message: `Book ${CLEAN_CODE} deleted successfully` });
  assert.equal((await app.inject({ url: `/api/v1/books/${CLEAN_CODE}` })).statusCode, 404);
  assert.equal((await app.inject({ method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE}` })).statusCode, 404);
  assert.equal(json(await app.inject({ url: '/api/v1/books' })).total, 2);
});
