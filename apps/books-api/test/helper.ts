import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { defaultConfig, type Config } from '../src/config.js';
import type { BookStore } from '../src/store/book-store.js';

export interface TestAppOptions {
  config?: Partial<Config>;
  store?: BookStore;
}

/**
 * Builds the app (no port) with the default configuration plus `overrides`, and
 * closes it when the test ends. Requests go through `app.inject`.
 */
export async function buildTestApp(t: TestContext, options: TestAppOptions = {}): Promise<FastifyInstance> {
  const app = await buildApp({ config: defaultConfig(options.config), store: options.store });
  t.after(() => app.close());
  return app;
}

/** JSON body of an injected response. */
export function json<T = any>(response: { body: string }): T {
  return JSON.parse(response.body) as T;
}
