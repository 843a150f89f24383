import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { buildTestApp, json } from '../helper.js';
import { exchange, listeningApp } from '../raw-http.js';

const CLEAN_CODE = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const PRAGMATIC = '1a5d9e27-8b16-4d8d-96a0-84b9a91db314';

/** Bodies a route that reads none must not be refused for: broken JSON, unparsed types, a broken type, too large. */
const BODIES: readonly { name: string; headers: Record<string, string>; payload: string }[] = [
  { name: 'broken JSON', headers: { 'content-type': 'application/json' }, payload: '{"title":' },
  { name: 'JSON that is not an object', headers: { 'content-type': 'application/json' }, payload: '[1,2]' },
  { name: 'no Content-Type, not JSON', headers: {}, payload: 'garbage' },
  { name: 'a type no parser reads', headers: { 'content-type': 'application/xml' }, payload: '<book/>' },
  { name: 'a Content-Type that cannot be parsed', headers: { 'content-type': ';;;' }, payload: 'x' },
  { name: 'a form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=%zz' },
  {
    name: 'over the 1 MiB body limit',
    headers: { 'content-type': 'application/json' },
    payload: 'x'.repeat(1_100_000),
  },
];

describe('a body on a route that declares none is ignored, as FastAPI ignores it', () => {
  test('GET, DELETE and OPTIONS answer as without the body', async (t) => {
    const app = await buildTestApp(t);
    for (const body of BODIES) {
      const requests: [InjectOptions & { url: string }, number][] = [
        [{ method: 'GET', url: '/api/v1/books?limit=1' }, 200],
        [{ method: 'GET', url: `/api/v1/books/${CLEAN_CODE}` }, 200],
        [{ method: 'GET', url: '/api/ps' }, 200],
        [{ method: 'OPTIONS', url: '/api/options' }, 200],
        // A DELETE of a book that is not there reads no body either: the same 404 as without one.
        [{ method: 'DELETE', url: '/api/v1/books/00000000-0000-4000-8000-000000000000' }, 404],
      ];
      for (const [request, status] of requests) {
        const response = await app.inject({ ...request, headers: body.headers, payload: body.payload });
        assert.equal(response.statusCode, status, `${request.method} ${request.url} with ${body.name}`);
      }
    }
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/v1/books/${PRAGMATIC}`,
      headers: { 'content-type': 'application/json' },
      payload: '{broken',
    });
    assert.equal(deleted.statusCode, 200);
    assert.deepEqual(json(deleted), { message: `Book ${PRAGMATIC} deleted successfully` });
  });

  test('a request answered 404 or 405 gets that answer, never a complaint about its body', async (t) => {
    const app = await buildTestApp(t);
    for (const body of BODIES) {
      for (const [method, url, status] of [
        ['PUT', '/api/v1/books', 405],
        ['POST', '/api/ps', 405],
        ['POST', `/api/v1/books/${CLEAN_CODE}`, 405],
        ['POST', '/nothing-here', 404],
      ] as const) {
        const response = await app.inject({ method, url, headers: body.headers, payload: body.payload });
        assert.equal(response.statusCode, status, `${method} ${url} with ${body.name}: ${response.body}`);
      }
    }
  });

  test('routes that declare a body still read and check it', async (t) => {
    const app = await buildTestApp(t);
    const post = (headers: Record<string, string>, payload: string) =>
      app.inject({ method: 'POST', url: '/api/v1/books', headers, payload });
    assert.equal((await post({ 'content-type': 'application/json' }, '{"title":')).statusCode, 422);
    assert.equal((await post({ 'content-type': 'application/xml' }, '<book/>')).statusCode, 415);
    assert.equal((await post({ 'content-type': 'application/json' }, 'x'.repeat(1_100_000))).statusCode, 413);
    const patch = await app.inject({
      method: 'PATCH',
      url: `/api/v1/books/${CLEAN_CODE}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"year": 2009}',
    });
    assert.equal(json(patch).year, 2009);
  });

  test('over HTTP, the ignored body is skipped and the next request on the connection is answered', async (t) => {
    const { app, port } = await listeningApp(t);
    const body = 'x'.repeat(2 * 1024 * 1024);
    const remove =
      `DELETE /api/v1/books/${CLEAN_CODE} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n${body}`;
    const chunked =
      'GET /api/ps HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '5\r\na,b,c\r\n0\r\n\r\n';
    const list = 'GET /api/v1/books HTTP/1.1\r\nHost: localhost\r\n\r\n';
    const responses = await exchange(port, remove + chunked + list);
    assert.deepEqual(
      responses.map(({ status }) => status),
      [200, 200, 200],
    );
    assert.equal(JSON.parse(responses[2]!.body).total, 2);
    assert.equal(await app.bookStore.count(), 2);
  });
});
