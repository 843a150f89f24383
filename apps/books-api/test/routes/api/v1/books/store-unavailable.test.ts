import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { buildApp } from '../../../../../src/app.js';
import { defaultConfig } from '../../../../../src/config.js';
import { createSeededStore } from '../../../../../src/plugins/app/book-store.js';
import { StoreUnavailableError, type BookStore } from '../../../../../src/store/book-store.js';

async function appWith(t: TestContext, store: BookStore) {
  const app = await buildApp({ config: defaultConfig(), store });
  t.after(() => app.close());
  return app;
}

const CLEAN_CODE = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

test('a store that cannot answer now gives the 503 on every books route', async (t) => {
  const failing: BookStore = new Proxy(createSeededStore(), {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return () => Promise.reject(new StoreUnavailableError(new Error('down')));
    },
  });
  const app = await appWith(t, failing);
  for (const request of [
    { method: 'GET', url: '/api/v1/books' },
    { method: 'GET', url: `/api/v1/books/${CLEAN_CODE}` },
    { method: 'GET', url: '/api/v1/books/search?q=martin' },
    { method: 'POST', url: '/api/v1/books', payload: { title: 'T', author: 'A', year: 2000 } },
    { method: 'PATCH', url: `/api/v1/books/${CLEAN_CODE}`, payload: { year: 2009 } },
    { method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE}` },
  ] as const) {
    const response = await app.inject(request);
    const what = `${request.method} ${request.url}`;
    assert.equal(response.statusCode, 503, what);
    assert.match(response.body, /^\{"detail":"[^"]+"\}$/, what);
  }
});
