import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp, json } from '../helper.js';
import { exchange, listeningApp } from '../raw-http.js';

const CLEAN_CODE = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

/** A concrete path for each documented path template. */
const concrete = (template: string) => template.replace('{book_id}', CLEAN_CODE);

/** Whether a concrete path matches a documented template (`{name}` is one non-empty segment). */
const matches = (template: string, path: string) => new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(path);

test('HEAD on a documented GET operation answers 405 with Allow, as FastAPI API routes do', async (t) => {
  const app = await buildTestApp(t);
  const paths = json<{ paths: Record<string, Record<string, unknown>> }>(
    await app.inject({ url: '/openapi.json' }),
  ).paths;
  const getPaths = Object.keys(paths).filter((template) => 'get' in paths[template]!);
  assert.ok(getPaths.length >= 6, `documented GET paths: ${getPaths.join(', ')}`);
  for (const template of getPaths) {
    const url = concrete(template);
    const response = await app.inject({ method: 'HEAD', url, headers: { 'x-request-id': 'head-probe' } });
    assert.equal(response.statusCode, 405, `HEAD ${url}`);
    assert.equal(response.body, '', `HEAD ${url}: no body`);
    assert.match(String(response.headers['content-type']), /^application\/json/, `HEAD ${url}`);
    assert.equal(response.headers['x-request-id'], 'head-probe', `HEAD ${url}`);
    const allow = String(response.headers['allow']).split(', ');
    assert.ok(allow.includes('GET') && !allow.includes('HEAD'), `HEAD ${url}: Allow ${allow.join(', ')}`);
  }
});

test("a 405's Allow lists exactly the methods the document gives the path (HEAD only where documented)", async (t) => {
  const app = await buildTestApp(t);
  const paths = json<{ paths: Record<string, Record<string, unknown>> }>(
    await app.inject({ url: '/openapi.json' }),
  ).paths;
  for (const template of Object.keys(paths)) {
    const url = concrete(template);
    // Every template the path matches: /api/v1/books/search is also a {book_id}, as in the router.
    const documented = new Set(
      Object.keys(paths)
        .filter((other) => matches(other, url))
        .flatMap((other) => Object.keys(paths[other]!).map((method) => method.toUpperCase())),
    );
    const response = await app.inject({ method: 'PUT', url });
    assert.equal(response.statusCode, 405, `PUT ${url}`);
    assert.deepEqual(new Set(String(response.headers['allow']).split(', ')), documented, `PUT ${url}`);
  }
});

test('HEAD still answers where Starlette serves it: /api/status, /docs, /redoc, /openapi.json, /favicon.ico', async (t) => {
  const app = await buildTestApp(t);
  for (const [url, status] of [
    ['/api/status', 200],
    ['/docs', 200],
    ['/redoc', 200],
    ['/openapi.json', 200],
    ['/favicon.ico', 204],
  ] as const) {
    const get = url === '/api/status' ? undefined : await app.inject({ url });
    const head = await app.inject({ method: 'HEAD', url });
    assert.equal(head.statusCode, status, `HEAD ${url}`);
    assert.equal(head.body, '', `HEAD ${url}: no body`);
    if (get !== undefined) {
      assert.equal(head.headers['content-type'], get.headers['content-type'], `HEAD ${url}: GET's Content-Type`);
      assert.equal(head.headers['content-length'], get.headers['content-length'], `HEAD ${url}: GET's length`);
    }
    const wrong = await app.inject({ method: 'PUT', url });
    const allow = String(wrong.headers['allow']);
    assert.equal(allow, url === '/api/status' ? 'HEAD' : 'GET, HEAD', `PUT ${url}`);
  }
});

test('a HEAD answered 405 over HTTP has no body and leaves the connection usable', async (t) => {
  const { port } = await listeningApp(t);
  const head = 'HEAD /api/v1/books HTTP/1.1\r\nHost: localhost\r\n\r\n';
  const responses = await exchange(port, head + head, { headRequests: true });
  assert.deepEqual(
    responses.map(({ status, headers }) => [status, headers.allow, headers.connection]),
    [
      [405, 'GET, POST', 'keep-alive'],
      [405, 'GET, POST', 'keep-alive'],
    ],
  );
  for (const response of responses) {
    assert.ok(response.headers['x-request-id'], 'X-Request-ID');
    assert.equal(response.body, '');
  }
});
