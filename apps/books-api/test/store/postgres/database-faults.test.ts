import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import postgres from 'postgres';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.js';
import { defaultConfig } from '../../../src/config.js';
import { SEED_BOOKS } from '../../../src/store/seed.js';
import { openPostgresStore } from '../../../src/store/postgres/open-postgres-store.js';
import { json } from '../../helper.js';
import { parseSamples, sumOf } from '../../plugins/metrics-scrape.js';
import { freshDatabase, freshPostgresStore, silentLogger } from '../../postgres.js';

// Only a server the tests own can be stopped, whatever TEST_DATABASE_URL says.
let server: TestPostgres;
before(async () => {
  server = await startPostgres({ ownServer: true });
});
after(() => server.stop());

async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const status = async (app: FastifyInstance, url: string, method: 'GET' | 'HEAD' = 'GET') =>
  (await app.inject({ method, url })).statusCode;

function assertDatabaseUnavailable(response: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  assert.equal(response.statusCode, 503);
  assert.deepEqual(json(response), { detail: 'Database unavailable' });
  assert.match(String(response.headers['retry-after']), /^\d+$/);
}

test('a database that stops while serving answers 503 with Retry-After, and the app recovers when it returns', async (t) => {
  const database = await freshDatabase(t, server);
  const app = await buildApp({ config: defaultConfig({ database }), logger: silentLogger });
  t.after(() => app.close());
  await waitUntil(async () => (await status(app, '/api/ps')) === 200, 'the app to be ready');
  const id = SEED_BOOKS[0]!.id;
  assert.equal(await status(app, `/api/v1/books/${id}`), 200);

  await server.stopServer();
  try {
    assertDatabaseUnavailable(await app.inject({ url: `/api/v1/books/${id}` }));
    assertDatabaseUnavailable(await app.inject({ url: '/api/v1/books' }));
    assertDatabaseUnavailable(
      await app.inject({ method: 'POST', url: '/api/v1/books', payload: { title: 'T', author: 'A', year: 2000 } }),
    );
    assertDatabaseUnavailable(await app.inject({ url: '/api/ps' }));
    assert.equal(await status(app, '/api/status', 'HEAD'), 200, 'liveness does not depend on the database');
  } finally {
    await server.startServer();
  }
  await waitUntil(async () => (await status(app, `/api/v1/books/${id}`)) === 200, 'reads to recover');
  assert.equal(await status(app, '/api/ps'), 200);
  assert.equal(json(await app.inject({ url: '/api/v1/books' })).total, 3);
});

test('/metrics keeps answering over a real socket while the database is down, and says the store is unreachable', async (t) => {
  const database = await freshDatabase(t, server);
  const app = await buildApp({ config: defaultConfig({ database }), logger: silentLogger });
  t.after(() => app.close());
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const scrape = async () => {
    const response = await fetch(`${base}/metrics`);
    assert.equal(response.status, 200);
    return parseSamples(await response.text());
  };
  await waitUntil(async () => (await fetch(`${base}/api/ps`)).status === 200, 'the app to be ready');
  const up = await scrape();
  assert.equal(sumOf(up, 'books_store_up'), 1);
  assert.equal(sumOf(up, 'books_stored'), 3);

  await server.stopServer();
  try {
    const down = await scrape();
    assert.equal(sumOf(down, 'books_store_up'), 0);
    assert.equal(sumOf(down, 'books_stored'), 3, 'the last count read, not an invented zero');
    const ps = await fetch(`${base}/api/ps`);
    assert.equal(ps.status, 503);
    assert.deepEqual(await ps.json(), { detail: 'Database unavailable' });
    assert.match(ps.headers.get('retry-after') ?? '', /^\d+$/);
    const live = await fetch(`${base}/api/status`, { method: 'HEAD' });
    assert.equal(live.status, 200);
    assert.equal(live.headers.get('x-system-status'), 'OK');
  } finally {
    await server.startServer();
  }
  await waitUntil(async () => (await fetch(`${base}/api/ps`)).status === 200, 'readiness to recover');
  assert.equal(sumOf(await scrape(), 'books_store_up'), 1);
});

test('an app started while the database is down serves 503 until it comes up, then migrates and serves', async (t) => {
  const database = await freshDatabase(t, server);
  await server.stopServer();
  let app: FastifyInstance;
  try {
    app = await buildApp({ config: defaultConfig({ database }), logger: silentLogger });
    t.after(() => app.close());
    assertDatabaseUnavailable(await app.inject({ url: '/api/v1/books' }));
    assertDatabaseUnavailable(await app.inject({ url: '/api/ps' }));
    assert.equal(await status(app, '/api/status', 'HEAD'), 200);
  } finally {
    await server.startServer();
  }
  await waitUntil(async () => (await status(app, '/api/ps')) === 200, 'the app to become ready');
  assert.equal(json(await app.inject({ url: '/api/v1/books' })).total, 3);
});

test('a statement that runs out of time is a 503, not a 500', async (t) => {
  const database = { ...(await freshDatabase(t, server)), statementTimeoutMs: 200 };
  const store = await freshPostgresStore(t, database);
  const app = await buildApp({ config: defaultConfig(), store, logger: silentLogger });
  t.after(() => app.close());
  // Another session holds the table: the app's statement waits for the lock until its timeout.
  const blocker = postgres(database.url, { max: 1 });
  t.after(() => blocker.end());
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const holding = blocker.begin(async (tx) => {
    await tx`lock table books in access exclusive mode`;
    await released;
  });
  try {
    const probe = postgres(database.url, { max: 1 });
    t.after(() => probe.end());
    await waitUntil(async () => {
      const [row] = await probe<{ n: number }[]>`
        select count(*)::int as n from pg_locks where mode = 'AccessExclusiveLock' and granted`;
      return (row?.n ?? 0) > 0;
    }, 'the lock to be taken');
    assertDatabaseUnavailable(await app.inject({ url: `/api/v1/books/${SEED_BOOKS[0]!.id}` }));
  } finally {
    release();
    await holding;
  }
  assert.equal(await status(app, `/api/v1/books/${SEED_BOOKS[0]!.id}`), 200);
});

test('a create whose random id is already taken draws another id instead of failing', async (t) => {
  const database = await freshDatabase(t, server);
  const ids = [SEED_BOOKS[0]!.id, '0f0e0d0c-0b0a-4908-8706-050403020100'];
  const opened = openPostgresStore(database, silentLogger, { newId: () => ids.shift()! });
  t.after(() => opened.close());
  await opened.ready;
  const book = await opened.store.create({ title: 'Collision', author: 'A', year: 2000 });
  assert.equal(book.id, '0f0e0d0c-0b0a-4908-8706-050403020100');
  assert.equal(await opened.store.count(), 4);
});
