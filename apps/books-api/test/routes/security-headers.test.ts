import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hs256Config, READER } from '../auth/fixtures.js';
import { exchange, listeningApp } from '../raw-http.js';

const NOSNIFF = 'nosniff';

/** Answers of every kind the router gives: routes, errors, redirects, 404/405, documentation and its assets. */
const ROUTED: { method: string; path: string; body?: string; type?: string; status: number }[] = [
  { method: 'GET', path: '/', status: 200 },
  { method: 'GET', path: '/api/ps', status: 200 },
  { method: 'HEAD', path: '/api/status', status: 200 },
  { method: 'GET', path: '/api/redirect', status: 307 },
  { method: 'GET', path: '/api/v1/books?limit=1', status: 200 },
  { method: 'GET', path: '/api/v1/books/3fa85f64-5717-4562-b3fc-2c963f66afa6', status: 200 },
  { method: 'GET', path: '/api/v1/books/not-a-uuid', status: 422 },
  { method: 'POST', path: '/api/v1/books', body: '{"title":', type: 'application/json', status: 422 },
  { method: 'POST', path: '/api/v1/books', body: 'x', type: 'text/plain', status: 415 },
  { method: 'GET', path: '/api/v1/books', status: 200 },
  { method: 'GET', path: '/api/ps/', status: 307 },
  { method: 'GET', path: '/no/such/path', status: 404 },
  { method: 'PUT', path: '/api/ps', status: 405 },
  { method: 'GET', path: '/api/v1/books/%zz', status: 400 },
  {
    method: 'POST',
    path: '/token',
    body: 'username=a&password=b',
    type: 'application/x-www-form-urlencoded',
    status: 503,
  },
  { method: 'GET', path: '/openapi.json', status: 200 },
  { method: 'GET', path: '/docs', status: 200 },
  { method: 'GET', path: '/docs/static/swagger-ui.css', status: 200 },
  { method: 'GET', path: '/docs/static/swagger-initializer.js', status: 200 },
  { method: 'GET', path: '/redoc', status: 200 },
  { method: 'GET', path: '/redoc/redoc.standalone.js', status: 200 },
  { method: 'GET', path: '/favicon.ico', status: 204 },
  { method: 'GET', path: '/metrics', status: 200 },
];

test('every routed answer carries X-Content-Type-Options: nosniff, errors and documentation included', async (t) => {
  const { port } = await listeningApp(t);
  for (const { method, path, body, type, status } of ROUTED) {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      redirect: 'manual',
      ...(body === undefined ? {} : { body, headers: { 'content-type': type ?? 'application/json' } }),
    });
    await response.arrayBuffer();
    assert.equal(response.status, status, `${method} ${path}`);
    assert.equal(response.headers.get('x-content-type-options'), NOSNIFF, `${method} ${path}`);
  }
});

test('the answers written before routing carry X-Content-Type-Options: nosniff', async (t) => {
  const { port } = await listeningApp(t);
  const requests: [string, number][] = [
    ['GARBAGE\r\n\r\n', 400],
    [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['GET / HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n', 417],
    ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 400],
    ['GET / HTTP/1.1\r\n\r\n', 400],
  ];
  for (const [request, status] of requests) {
    const [response] = await exchange(port, request);
    assert.equal(response?.status, status, JSON.stringify(request.slice(0, 40)));
    assert.equal(response?.headers['x-content-type-options'], NOSNIFF, JSON.stringify(request.slice(0, 40)));
  }
});

test('POST /token answers its token with Cache-Control: no-store and Pragma: no-cache', async (t) => {
  const { port } = await listeningApp(t, { config: await hs256Config() });
  const response = await fetch(`http://127.0.0.1:${port}/token`, {
    method: 'POST',
    body: new URLSearchParams({ username: READER.username, password: READER.password }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.equal(response.headers.get('pragma'), 'no-cache');
  assert.equal(response.headers.get('x-content-type-options'), NOSNIFF);
  assert.ok(((await response.json()) as { access_token: string }).access_token);
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | null): Map<string, string[]> {
  assert.ok(header, 'a Content-Security-Policy header');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0] !== '')
      .map(([name, ...values]) => [name!, values]),
  );
}

test('/docs, its assets and /redoc carry a same-origin CSP that forbids framing and inline scripts', async (t) => {
  const { port } = await listeningApp(t);
  for (const path of ['/docs', '/docs/static/swagger-initializer.js', '/docs/static/oauth2-redirect.html', '/redoc']) {
    const response = await fetch(`http://127.0.0.1:${port}${path}`);
    await response.arrayBuffer();
    assert.equal(response.status, 200, path);
    const csp = directives(response.headers.get('content-security-policy'));
    assert.deepEqual(csp.get('default-src'), ["'self'"], path);
    assert.deepEqual(csp.get('script-src'), ["'self'"], `${path}: scripts from this server only, none inline`);
    assert.deepEqual(csp.get('frame-ancestors'), ["'none'"], path);
    assert.deepEqual(csp.get('object-src'), ["'none'"], path);
    assert.deepEqual(csp.get('connect-src'), ["'self'"], path);
  }
});
