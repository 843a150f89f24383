import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp, json } from '../helper.js';

const CLEAN_CODE = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

test('an unknown route answers 404 {"detail":"Not Found"}', async (t) => {
  const app = await buildTestApp(t);
  for (const url of ['/nope', '/api/v1/nope', '/api/v1/books/a/b', '/api/v2/books']) {
    const response = await app.inject({ url });
    assert.equal(response.statusCode, 404, url);
    assert.deepEqual(json(response), { detail: 'Not Found' });
  }
});

test("a wrong method on a known path answers 405 with exactly the path's methods in Allow", async (t) => {
  const app = await buildTestApp(t);
  const cases: [string, string, string][] = [
    ['PUT', '/api/v1/books', 'GET, POST'],
    ['DELETE', '/api/v1/books', 'GET, POST'],
    ['HEAD', '/api/v1/books', 'GET, POST'],
    ['POST', `/api/v1/books/${CLEAN_CODE}`, 'GET, PATCH, DELETE'],
    ['PUT', '/api/v1/books/not-even-a-uuid', 'GET, PATCH, DELETE'],
    // PATCH and DELETE of /search reach the {book_id} route (and fail its UUID check), so they are allowed.
    ['POST', '/api/v1/books/search', 'GET, PATCH, DELETE'],
    ['GET', '/api/status', 'HEAD'],
    ['POST', '/api/status', 'HEAD'],
    ['GET', '/api/options', 'OPTIONS'],
    ['DELETE', '/', 'GET'],
    ['POST', '/api/ps', 'GET'],
    ['PUT', '/docs', 'GET, HEAD'],
  ];
  for (const [method, url, allow] of cases) {
    const response = await app.inject({ method: method as 'GET', url });
    assert.equal(response.statusCode, 405, `${method} ${url}`);
    if (method !== 'HEAD') assert.deepEqual(json(response), { detail: 'Method Not Allowed' });
    assert.equal(response.headers['allow'], allow, `${method} ${url}`);
  }
});

test('a wrong method changes nothing in the store', async (t) => {
  const app = await buildTestApp(t);
  await app.inject({
    method: 'PUT',
    url: `/api/v1/books/${CLEAN_CODE}`,
    payload: { title: 'X', author: 'Y', year: 2000 },
  });
  assert.equal(json(await app.inject({ url: `/api/v1/books/${CLEAN_CODE}` })).title, 'Clean Code');
});

test('a body over 1 MiB answers 413 and stores nothing', async (t) => {
  const app = await buildTestApp(t);
  const payload = JSON.stringify({ title: 'T', author: 'A', year: 2000, padding: 'x'.repeat(1024 * 1024) });
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/books',
    headers: { 'content-type': 'application/json' },
    payload,
  });
  assert.equal(response.statusCode, 413);
  assert.equal(typeof json(response).detail, 'string');
  assert.match(json(response).detail, /1048576 bytes/);
  assert.equal(json(await app.inject({ url: '/api/v1/books' })).total, 3);
});

test('a body just under 1 MiB is read (and rejected only for its content)', async (t) => {
  const app = await buildTestApp(t);
  const payload = JSON.stringify({ title: 'x'.repeat(1024 * 1024 - 100) });
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/books',
    headers: { 'content-type': 'application/json' },
    payload,
  });
  assert.equal(response.statusCode, 422);
});

test('a non-JSON content type on POST and PATCH answers 415 naming what is accepted', async (t) => {
  const app = await buildTestApp(t);
  for (const [method, url] of [
    ['POST', '/api/v1/books'],
    ['PATCH', `/api/v1/books/${CLEAN_CODE}`],
  ] as const) {
    for (const contentType of [
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'nonsense',
    ]) {
      const response = await app.inject({ method, url, headers: { 'content-type': contentType }, payload: 'title=x' });
      assert.equal(response.statusCode, 415, `${method} ${contentType}`);
      assert.match(json(response).detail, /application\/json/);
    }
  }
  assert.equal(json(await app.inject({ url: '/api/v1/books' })).total, 3);
  assert.equal(json(await app.inject({ url: `/api/v1/books/${CLEAN_CODE}` })).title, 'Clean Code');
});

test('a JSON body without a Content-Type is read as JSON, as FastAPI does', async (t) => {
  const app = await buildTestApp(t);
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/books',
    payload: Buffer.from(JSON.stringify({ title: 'T', author: 'A', year: 2000 })),
  });
  assert.equal(response.statusCode, 201, response.body);
});

test('a path with broken percent-encoding answers 400 with a detail, not a 500', async (t) => {
  const app = await buildTestApp(t);
  for (const url of ['/api/v1/books/%zz', '/api/v1/books/%E0%A4%A', '/%']) {
    const response = await app.inject({ url });
    assert.ok(response.statusCode >= 400 && response.statusCode < 500, `${url}: ${response.statusCode}`);
    assert.equal(typeof json(response).detail, 'string');
    assert.ok(response.headers['x-request-id']);
  }
});

test('garbage bodies and odd requests never produce a 500', async (t) => {
  const app = await buildTestApp(t);
  const bodies = [
    Buffer.from([0, 1, 2, 3, 255, 254]),
    Buffer.from('{"a":' + '['.repeat(5000)),
    Buffer.from('['.repeat(20000) + ']'.repeat(20000)),
    Buffer.from('{"title": "' + '['.repeat(5000) + '", "author": "A", "year": 2000}'),
    Buffer.from('{"title": "\u0000"}'),
    Buffer.from('{"title": "\\ud800", "author": "A", "year": 2000}'),
    Buffer.from('NaN'),
    Buffer.from('{"year": 1e400}'),
  ];
  for (const payload of bodies) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/books',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    assert.ok(
      response.statusCode < 500,
      `${payload.toString('latin1').slice(0, 30)}: ${response.statusCode} ${response.body}`,
    );
    assert.equal(typeof json(response), 'object');
  }
  const headers = { 'x-custom': 'x'.repeat(8000), 'content-type': 'application/json; charset=utf-8; charset=latin1' };
  const response = await app.inject({ method: 'POST', url: '/api/v1/books?limit=%FF', headers, payload: '{}' });
  assert.ok(response.statusCode < 500, response.body);
});

test('an unexpected failure answers 500 {"detail":"Internal Server Error"} without internals', async (t) => {
  const store = {
    list: () => {
      throw new Error('secret database password in message');
    },
  };
  const app = await buildTestApp(t, { store: store as never });
  const response = await app.inject({ url: '/api/v1/books' });
  assert.equal(response.statusCode, 500);
  assert.deepEqual(json(response), { detail: 'Internal Server Error' });
  assert.ok(response.headers['x-request-id']);
});
