import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp } from '../helper.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('every response carries a new X-Request-ID when none is sent, errors included', async (t) => {
  const app = await buildTestApp(t);
  const requests = [
    { url: '/' },
    { url: '/api/v1/books' },
    { url: '/nope' },
    { method: 'PUT', url: '/api/v1/books' },
    { url: '/api/v1/books?limit=0' },
    { method: 'POST', url: '/api/v1/books', headers: { 'content-type': 'text/plain' }, payload: 'x' },
    {
      method: 'POST',
      url: '/api/v1/books',
      headers: { 'content-type': 'application/json' },
      payload: 'x'.repeat(1024 * 1024 + 1),
    },
    { method: 'HEAD', url: '/api/status' },
    { url: '/api/redirect' },
  ];
  const ids = new Set<string>();
  for (const request of requests) {
    const response = await app.inject(request as never);
    const id = String(response.headers['x-request-id']);
    assert.match(id, UUID, `${request.url} ${response.statusCode}`);
    ids.add(id);
  }
  assert.equal(ids.size, requests.length);
});

test('an incoming X-Request-ID of 1-128 visible ASCII characters is echoed', async (t) => {
  const app = await buildTestApp(t);
  for (const id of ['a', 'abc-123_XYZ.~!', 'x'.repeat(128)]) {
    for (const url of ['/api/v1/books', '/nope']) {
      const response = await app.inject({ url, headers: { 'x-request-id': id } });
      assert.equal(response.headers['x-request-id'], id);
    }
  }
});

test('an unacceptable incoming X-Request-ID is replaced by a new UUID', async (t) => {
  const app = await buildTestApp(t);
  for (const id of ['', 'has space', 'x'.repeat(129), 'tab\there', 'é']) {
    const response = await app.inject({ url: '/api/v1/books', headers: { 'x-request-id': id } });
    assert.match(String(response.headers['x-request-id']), UUID, JSON.stringify(id));
  }
});
