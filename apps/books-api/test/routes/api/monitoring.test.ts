import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryBookStore } from '../../../src/store/memory-book-store.js';
import { buildTestApp, json } from '../../helper.js';

test('GET /api/ps reports status ok, the current book count and the switches', async (t) => {
  const app = await buildTestApp(t);
  const first = json(await app.inject({ url: '/api/ps' }));
  assert.equal(first.status, 'ok');
  assert.equal(first.books, 3);
  assert.equal(first.traffic_generator_enabled, false);
  assert.equal(first.chaos_headers_enabled, false);
  await app.inject({ method: 'POST', url: '/api/v1/books', payload: { title: 'T', author: 'A', year: 2000 } });
  assert.equal(json(await app.inject({ url: '/api/ps' })).books, 4);
});

test('GET /api/ps and GET / report switches that are on', async (t) => {
  const app = await buildTestApp(t, { config: { chaosHeadersEnabled: true, trafficGeneratorEnabled: true } });
  for (const url of ['/api/ps', '/']) {
    const body = json(await app.inject({ url }));
    assert.equal(body.traffic_generator_enabled, true, url);
    assert.equal(body.chaos_headers_enabled, true, url);
  }
});

test('HEAD /api/status answers 200 with X-System-Status: OK and no body', async (t) => {
  const app = await buildTestApp(t);
  const response = await app.inject({ method: 'HEAD', url: '/api/status' });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['x-system-status'], 'OK');
  // Without a length, Node's HTTP client does not reuse the connection after the answer.
  assert.equal(response.headers['content-length'], '0');
  assert.equal(response.body, '');
});

test('OPTIONS /api/options lists the supported methods in the Allow header and the body', async (t) => {
  const app = await buildTestApp(t);
  const response = await app.inject({ method: 'OPTIONS', url: '/api/options' });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['allow'], 'OPTIONS, GET, POST, PATCH, DELETE, HEAD');
  assert.deepEqual(json(response), { methods: ['OPTIONS', 'GET', 'POST', 'PATCH', 'DELETE', 'HEAD'] });
});

test('GET /api/redirect answers 307 to a current book, which can be followed', async (t) => {
  const app = await buildTestApp(t);
  const ids = new Set(json(await app.inject({ url: '/api/v1/books' })).items.map((book: { id: string }) => book.id));
  for (let i = 0; i < 10; i += 1) {
    const response = await app.inject({ url: '/api/redirect' });
    assert.equal(response.statusCode, 307);
    const location = String(response.headers['location']);
    const match = /^\/api\/v1\/books\/([0-9a-f-]{36})$/.exec(location);
    assert.ok(match, location);
    assert.ok(ids.has(match[1]!));
    assert.equal((await app.inject({ url: location })).statusCode, 200);
  }
});

test('GET /api/redirect never points at a deleted book and answers 404 when the store is empty', async (t) => {
  const app = await buildTestApp(t, { store: new MemoryBookStore() });
  const empty = await app.inject({ url: '/api/redirect' });
  assert.equal(empty.statusCode, 404);
  assert.deepEqual(json(empty), { detail: 'No books available' });
  const kept = json(
    await app.inject({ method: 'POST', url: '/api/v1/books', payload: { title: 'Kept', author: 'A', year: 2000 } }),
  );
  const gone = json(
    await app.inject({ method: 'POST', url: '/api/v1/books', payload: { title: 'Gone', author: 'A', year: 2000 } }),
  );
  await app.inject({ method: 'DELETE', url: `/api/v1/books/${gone.id}` });
  for (let i = 0; i < 10; i += 1) {
    assert.equal((await app.inject({ url: '/api/redirect' })).headers['location'], `/api/v1/books/${kept.id}`);
  }
});
