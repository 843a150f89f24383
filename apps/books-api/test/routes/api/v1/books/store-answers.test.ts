import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { buildApp } from '../../../../../src/app.js';
import { defaultConfig } from '../../../../../src/config.js';
import { createSeededStore } from '../../../../../src/plugins/app/book-store.js';
import type { BookStore } from '../../../../../src/store/book-store.js';

/**
 * The list and get handlers answer at once when the store does (the memory store) and after
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
