import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { defaultConfig } from '../../src/config.js';
import { buildTestApp, json } from '../helper.js';

const CLEAN_CODE = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

describe('a path with a trailing slash redirects like FastAPI (redirect_slashes)', () => {
  test('every route, with every method, answers 307 to the path without the slash and keeps the query', async (t) => {
    const app = await buildTestApp(t, { config: { chaosHeadersEnabled: true } });
    const cases: [InjectOptions['method'], string, string][] = [
      ['GET', '/api/v1/books/', '/api/v1/books'],
      ['GET', '/api/v1/books/?skip=1&limit=2', '/api/v1/books?skip=1&limit=2'],
      ['POST', '/api/v1/books/', '/api/v1/books'],
      ['GET', '/api/v1/books/search/?q=a', '/api/v1/books/search?q=a'],
      ['GET', `/api/v1/books/${CLEAN_CODE}/`, `/api/v1/books/${CLEAN_CODE}`],
      ['PATCH', `/api/v1/books/${CLEAN_CODE}/?x=1`, `/api/v1/books/${CLEAN_CODE}?x=1`],
      ['DELETE', `/api/v1/books/${CLEAN_CODE}/`, `/api/v1/books/${CLEAN_CODE}`],
      ['GET', '/api/ps/', '/api/ps'],
      ['HEAD', '/api/status/', '/api/status'],
      ['OPTIONS', '/api/options/', '/api/options'],
      ['GET', '/api/redirect/', '/api/redirect'],
      ['POST', '/token/', '/token'],
      ['GET', '/openapi.json/', '/openapi.json'],
      ['GET', '/redoc/', '/redoc'],
      ['GET', '/metrics/', '/metrics'],
      // Any method: the redirect does not depend on the method the target path serves.
      ['PUT', '/api/ps/', '/api/ps'],
      // Every trailing slash goes, as Starlette's rstrip('/') does.
      ['GET', '/api/v1/books//', '/api/v1/books'],
    ];
    for (const [method, url, location] of cases) {
      // Chaos mode must not act on the redirect: the books route does not serve this path.
      const response = await app.inject({ method, url, headers: { 'x-force-error': '503' } });
      const where = `${method} ${url}`;
      assert.equal(response.statusCode, 307, where);
      assert.equal(response.headers.location, location, where);
      assert.ok(response.headers['x-request-id'], where);
    }
  });

  test('GET /api/v1/books/ is a redirect to the list, never a 422 for an empty book id', async (t) => {
    const app = await buildTestApp(t);
    const response = await app.inject({ url: '/api/v1/books/' });
    assert.equal(response.statusCode, 307);
    assert.equal(response.body, '');
    const followed = await app.inject({ url: response.headers.location! });
    assert.equal(followed.statusCode, 200);
    assert.equal(json(followed).total, 3);
  });

  test('a redirect comes before the bearer guard of AUTH_REQUIRED', async (t) => {
    const app = await buildTestApp(t, { config: { auth: { ...defaultConfig().auth, authRequired: true } } });
    const response = await app.inject({ url: '/api/v1/books/' });
    assert.equal(response.statusCode, 307);
    assert.equal((await app.inject({ url: '/api/v1/books' })).statusCode, 401);
  });

  test('a path that no route serves with or without the slash is a 404; / is never redirected', async (t) => {
    const app = await buildTestApp(t);
    for (const url of ['/nothing/', '//', '/api/v1/books/x/y/', '/api/v1/books//x']) {
      const response = await app.inject({ url });
      assert.equal(response.statusCode, 404, url);
      assert.deepEqual(json(response), { detail: 'Not Found' }, url);
    }
    assert.equal((await app.inject({ url: '/' })).statusCode, 200);
  });

  test('a known path without the slash keeps answering 405 for another method', async (t) => {
    const app = await buildTestApp(t);
    const response = await app.inject({ method: 'PUT', url: '/api/v1/books' });
    assert.equal(response.statusCode, 405);
    assert.equal(response.headers.allow, 'GET, POST');
  });
});
