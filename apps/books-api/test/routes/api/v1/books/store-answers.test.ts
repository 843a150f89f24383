import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { buildApp } from '../../../../../src/app.js';
import { defaultConfig } from '../../../../../src/config.js';
import { createSeededStore } from '../../../../../src/plugins/app/book-store.js';
import { StoreUnavailableError, type BookStore } from '../../../../../src/store/book-store.js';

/**
 * The books handlers answer at once when the store does (the memory store) and after
 * the promise when it answers with one (PostgreSQL): the answers must be the same either way.
 * The second store is the same seeded memory store, each answer handed out a tick later.
 */
function answeringLater(store: BookStore): BookStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await new Promise((resolve) => setImmediate(resolve));
        return value.apply(target, args) as unknown;
      };
    },
  });
}

async function appWith(t: TestContext, store: BookStore) {
  const app = await buildApp({ config: defaultConfig(), store });
  t.after(() => app.close());
  return app;
}

const CLEAN_CODE = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

test('list and get answer the same whether the store answers at once or with a promise', async (t) => {
  const now = await appWith(t, createSeededStore());
  const later = await appWith(t, answeringLater(createSeededStore()));
  for (const url of [
    `/api/v1/books/${CLEAN_CODE}`,
    `/api/v1/books/${UNKNOWN}`,
    '/api/v1/books',
    '/api/v1/books?skip=1&limit=1',
    '/api/v1/books?limit=0',
  ]) {
    const [a, b] = await Promise.all([now.inject({ url }), later.inject({ url })]);
    assert.equal(a.statusCode, b.statusCode, url);
    assert.equal(a.headers['content-type'], b.headers['content-type'], url);
    assert.equal(a.headers['content-length'], b.headers['content-length'], url);
    // The seeded books' created_at differs by the stores' start times; the shape is compared.
    const strip = (body: string) => body.replace(/"created_at":"[^"]*"/g, '"created_at":""');
    assert.equal(strip(a.body), strip(b.body), url);
  }
  assert.equal((await now.inject({ url: `/api/v1/books/${UNKNOWN}` })).body, '{"detail":"Book not found"}');
});

test('search, create, patch and delete answer the same whether the store answers at once or with a promise', async (t) => {
  const now = await appWith(t, createSeededStore());
  const later = await appWith(t, answeringLater(createSeededStore()));
  const body = { title: 'Refactoring', author: 'Martin Fowler', year: 2018 };
  const requests = [
    { method: 'GET', url: '/api/v1/books/search?q=martin&limit=1' },
    { method: 'GET', url: '/api/v1/books/search?q=zzz' },
    { method: 'POST', url: '/api/v1/books', payload: body },
    { method: 'PATCH', url: `/api/v1/books/${CLEAN_CODE}`, payload: { year: 2009 } },
    { method: 'PATCH', url: `/api/v1/books/${UNKNOWN}`, payload: { year: 2009 } },
    { method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE}` },
    { method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE}` },
    { method: 'GET', url: '/api/v1/books/search?q=FOWLER' },
  ] as const;
  // A created book's id and both stores' times differ; the rest must be the same bytes.
  const strip = (text: string) =>
    text.replace(/"created_at":"[^"]*"/g, '"created_at":""').replace(/"id":"[^"]*"/g, '"id":""');
  for (const request of requests) {
    const [a, b] = [await now.inject(request), await later.inject(request)];
    const what = `${request.method} ${request.url}`;
    assert.equal(a.statusCode, b.statusCode, what);
    assert.equal(a.headers['content-type'], b.headers['content-type'], what);
    assert.equal(a.headers['content-length'], b.headers['content-length'], what);
    assert.equal(strip(a.body), strip(b.body), what);
  }
  const deleted = await now.inject({ method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE}` });
  assert.deepEqual([deleted.statusCode, deleted.body], [404, '{"detail":"Book not found"}']);
});

test('a store failing at once or with a rejected promise gives the same 503 on every books route', async (t) => {
  const failing = (later: boolean): BookStore =>
    new Proxy(createSeededStore(), {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return () => {
          const error = new StoreUnavailableError(new Error('down'));
          if (later) return Promise.reject(error);
          throw error;
        };
      },
    });
  const now = await appWith(t, failing(false));
  const later = await appWith(t, failing(true));
  for (const request of [
    { method: 'GET', url: '/api/v1/books' },
    { method: 'GET', url: `/api/v1/books/${CLEAN_CODE}` },
    { method: 'GET', url: '/api/v1/books/search?q=martin' },
    { method: 'POST', url: '/api/v1/books', payload: { title: 'T', author: 'A', year: 2000 } },
    { method: 'PATCH', url: `/api/v1/books/${CLEAN_CODE}`, payload: { year: 2009 } },
    { method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE}` },
  ] as const) {
    const [a, b] = [await now.inject(request), await later.inject(request)];
    const what = `${request.method} ${request.url}`;
    assert.equal(a.statusCode, 503, what);
    assert.equal(b.statusCode, 503, what);
    assert.equal(a.body, b.body, what);
  }
});
