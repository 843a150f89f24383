import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test, type TestContext } from 'node:test';
import postgres from 'postgres';
import { buildApp } from '../../../src/app.js';
import { defaultConfig } from '../../../src/config.js';
import { SEED_BOOKS } from '../../../src/store/seed.js';
import type { DatabaseSettings } from '../../../src/store/postgres/connection.js';
import { readMigrations } from '../../../src/store/postgres/migrations.js';
import { json } from '../../helper.js';
import { freshDatabase, freshPostgresStore, silentLogger } from '../../postgres.js';

const run = promisify(execFile);
const appDir = fileURLToPath(new URL('../../../', import.meta.url));

async function appOn(t: TestContext, database: DatabaseSettings) {
  const app = await buildApp({ config: defaultConfig({ database }), logger: silentLogger });
  t.after(() => app.close());
  await waitUntil(async () => (await app.inject({ url: '/api/ps' })).statusCode === 200, 'the app to be ready');
  return app;
}

async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('two processes migrating one empty database at once apply each migration once and seed three books', async (t) => {
  const database = await freshDatabase(t);
  const migrateOnce = () =>
    run(process.execPath, ['--import', 'tsx', 'src/cli/db-migrate.ts'], {
      cwd: appDir,
      env: { ...process.env, DATABASE_URL: database.url },
    });
  const results = await Promise.all([migrateOnce(), migrateOnce()]);
  assert.deepEqual(results.map((result) => result.stdout).sort(), [
    'Applied migrations ' + (await readMigrations()).map((migration) => migration.version).join(', ') + '\n',
    'The schema is up to date\n',
  ]);
  const sql = postgres(database.url, { max: 1 });
  t.after(() => sql.end());
  const [books] = await sql<{ n: number }[]>`select count(*)::int as n from books`;
  assert.equal(books!.n, 3);
  const versions = await sql<{ version: number }[]>`select version from schema_migrations order by version`;
  assert.deepEqual(
    versions.map((row) => row.version),
    (await readMigrations()).map((migration) => migration.version),
  );
});

test('a restart never re-seeds: a deleted seeded book stays deleted', async (t) => {
  const database = await freshDatabase(t);
  const first = await freshPostgresStore(t, database);
  assert.equal(await first.delete(SEED_BOOKS[0]!.id), true);
  const second = await freshPostgresStore(t, database);
  assert.equal(await second.count(), 2);
  assert.equal(await second.get(SEED_BOOKS[0]!.id), undefined);
});

test('two app instances on one database see each other’s writes at once', async (t) => {
  const database = await freshDatabase(t);
  const [a, b] = await Promise.all([appOn(t, database), appOn(t, database)]);
  const created = await a.inject({
    method: 'POST',
    url: '/api/v1/books',
    payload: { title: 'Shared', author: 'Replica', year: 2024 },
  });
  assert.equal(created.statusCode, 201);
  const { id } = json(created);
  const readByB = await b.inject({ url: `/api/v1/books/${id}` });
  assert.equal(readByB.statusCode, 200);
  assert.deepEqual(json(readByB), json(created));
  assert.equal(json(await b.inject({ url: '/api/ps' })).books, 4);
  assert.equal(json(await b.inject({ url: '/api/v1/books/search?q=replica' })).total, 1);
  assert.equal((await b.inject({ method: 'DELETE', url: `/api/v1/books/${id}` })).statusCode, 200);
  assert.equal((await a.inject({ url: `/api/v1/books/${id}` })).statusCode, 404);
  assert.equal(json(await a.inject({ url: '/api/v1/books' })).total, 3);
});

test('concurrent creates and deletes keep the total exact', async (t) => {
  const database = await freshDatabase(t);
  const store = await freshPostgresStore(t, { ...database, poolSize: 8 });
  const created = await Promise.all(
    Array.from({ length: 300 }, (_, i) => store.create({ title: `Book ${i}`, author: 'Load', year: 2000 })),
  );
  const victims = created.filter((_, i) => i % 3 === 0);
  const outcomes = await Promise.all([
    ...victims.map((book) => store.delete(book.id)),
    // Deleting the same book twice at once succeeds exactly once.
    ...victims.slice(0, 20).map((book) => store.delete(book.id)),
    ...Array.from({ length: 100 }, (_, i) => store.create({ title: `Late ${i}`, author: 'Load', year: 2001 })),
  ]);
  assert.equal(outcomes.filter((outcome) => outcome === true).length, victims.length);
  const expected = 3 + 300 - victims.length + 100;
  assert.equal(await store.count(), expected);
  const page = await store.list(0, 100);
  assert.equal(page.total, expected);
  let listed = 0;
  for (let skip = 0; skip < expected; skip += 100) listed += (await store.list(skip, 100)).items.length;
  assert.equal(listed, expected);
  const sql = postgres(database.url, { max: 1 });
  t.after(() => sql.end());
  const [rows] = await sql<{ n: number }[]>`select count(*)::int as n from books`;
  assert.equal(rows!.n, expected);
});

test('text PostgreSQL cannot hold (U+0000) is refused with 400, never a 500', async (t) => {
  const app = await appOn(t, await freshDatabase(t));
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/books',
    payload: { title: 'Nul\u0000byte', author: 'A', year: 2000 },
  });
  assert.equal(response.statusCode, 400);
  assert.match(json(response).detail, /title contains a character this store cannot hold/);
  assert.equal(json(await app.inject({ url: '/api/ps' })).books, 3);
});
