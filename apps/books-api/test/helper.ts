import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { defaultConfig, type Config } from '../src/config.js';
import type { BookStore } from '../src/store/book-store.js';
import { freshPostgresStore, TEST_STORE } from './postgres.js';

export interface TestAppOptions {
  config?: Partial<Config>;
  store?: BookStore;
}

/**
 * Builds the app (no port) with the default configuration plus `overrides`, and
 * closes it when the test ends. Requests go through `app.inject`. Without a store the app
 * gets the seeded store of this run: in memory, or with `BOOKS_TEST_STORE=postgres` a
 * freshly migrated PostgreSQL database of its own.
 */
export async function buildTestApp(t: TestContext, options: TestAppOptions = {}): Promise<FastifyInstance> {
  const store = options.store ?? (TEST_STORE === 'postgres' ? await freshPostgresStore(t) : undefined);
  const app = await buildApp({ config: defaultConfig(options.config), store });
  t.after(() => app.close());
  return app;
}

/** JSON body of an injected response. */
export function json<T = any>(response: { body: string }): T {
  return JSON.parse(response.body) as T;
}
