import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test, type TestContext } from 'node:test';
import postgres, { type Sql } from 'postgres';
import pino from 'pino';
import type { Book, BookStore } from '../../../src/store/book-store.js';
import { MemoryBookStore } from '../../../src/store/memory-book-store.js';
import { connect, type DatabaseSettings } from '../../../src/store/postgres/connection.js';
import { openPostgresStore } from '../../../src/store/postgres/open-postgres-store.js';
import { PostgresBookStore } from '../../../src/store/postgres/postgres-book-store.js';
import { prepareDatabase } from '../../../src/store/postgres/prepare-database.js';
import { SEARCH_FOLD_VERSION, searchFold } from '../../../src/store/search-fold.js';
import { freshDatabase, freshPostgresStore } from '../../postgres.js';

const run = promisify(execFile);
const appDir = fileURLToPath(new URL('../../../', import.meta.url));

/** Titles and authors whose folding PostgreSQL's lower() gets wrong (ß, İ, final Σ, ligatures, ...), and plain ones. */
const BOOKS = [
  { title: 'STRASSE und Straße', author: 'Groß, Jürgen' },
  { title: 'İstanbul Hatırası', author: 'Orhan PAMUK' },
  { title: 'ΟΔΟΣ ΠΡΟΣ ΤΗΝ ΕΛΕΥΘΕΡΙΑ', author: 'Νίκος Καζαντζάκης' },
  { title: 'ﬁnancial ﬂows', author: 'ﬀ Office' },
  { title: 'The \u212aelvin Scale', author: 'ǅemal Ǉubić' },
  { title: 'ᾈγιος Ῥόδος', author: 'ŉ Author' },
  { title: 'Clean Architecture', author: 'Robert C. Martin' },
  { title: '東京 Story', author: 'Яков Петров' },
  { title: '\u{10400}eseret', author: 'Ⓐ Ⓑ Ⓒ' },
  { title: 'MASSE und Maße', author: 'SS Weiß' },
];

/** Queries that find different books by the stale keys and by the right ones. */
const QUERIES = [
  'strasse',
  'STRASSE',
  'straße',
  'ss',
  'İstanbul',
  'i̇stanbul',
  'οδοσ',
  'σ',
  'fi',
  'financial',
  'ff',
  'kelvin',
  'dž',
  'ἀι',
  'ʼn',
  '\u{10428}',
  'ⓐ',
  'maße',
  'weiss',
  'martin',
  'o',
];

function capturingLogger(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

function rawPool(t: TestContext, database: DatabaseSettings): Sql {
  const sql = postgres(database.url, { max: 2, onnotice: () => undefined });
  t.after(() => sql.end());
  return sql;
}

/**
 * A database holding the seeded books and BOOKS, whose keys were then written by another folding
 * (PostgreSQL's lower()) and recorded as version 0, as an older server would have left them.
 * Returns the books as a memory store holding the same ids, to compare with.
 */
async function staleDatabase(
  t: TestContext,
): Promise<{ database: DatabaseSettings; sql: Sql; memory: MemoryBookStore }> {
  const database = await freshDatabase(t);
  const store = await freshPostgresStore(t, database);
  for (const book of BOOKS) await store.create({ ...book, year: 2000 });
  const memory = new MemoryBookStore();
  for (const book of (await store.list(0, 100)).items) memory.insert(book.id, book);
  const sql = rawPool(t, database);
  await sql`update books set title_key = lower(title), author_key = lower(author)`;
  await sql`update search_fold set version = 0`;
  return { database, sql, memory };
}

/** A store that reads the keys as they are: marked ready without the start-up preparation, which would re-fold them. */
function storeAsIs(sql: Sql): PostgresBookStore {
  const store = new PostgresBookStore(sql);
  store.markReady();
  return store;
}

async function searchIds(store: BookStore, query: string): Promise<{ ids: string[]; total: number }> {
  const slice = await store.search(query, 0, 100);
  return { ids: slice.items.map((book: Book) => book.id), total: slice.total };
}

async function keysMatchSearchFold(sql: Sql): Promise<boolean> {
  const rows = await sql<{ title: string; author: string; title_key: string; author_key: string }[]>`
    select title, author, title_key, author_key from books`;
  return rows.every((row) => row.title_key === searchFold(row.title) && row.author_key === searchFold(row.author));
}

async function rowVersions(sql: Sql): Promise<string[]> {
  return (await sql<{ v: string }[]>`select seq || ':' || xmin as v from books order by seq`).map((row) => row.v);
}

test('keys folded by an older version are re-folded at start, and search then answers like the memory store', async (t) => {
  const { database, sql, memory } = await staleDatabase(t);
  const stale = storeAsIs(sql);
  const disagreeing: string[] = [];
  for (const query of QUERIES) {
    if (JSON.stringify(await searchIds(stale, query)) !== JSON.stringify(await searchIds(memory, query)))
      disagreeing.push(query);
  }
  assert.ok(
    disagreeing.length >= 5,
    `the stale keys should mislead search, they differ only for ${disagreeing.join(', ')}`,
  );

  const { logger, lines } = capturingLogger();
  const opened = openPostgresStore(database, logger);
  t.after(() => opened.close());
  await opened.ready;

  const line = lines.find((entry) => String(entry.msg).startsWith('Re-folded search keys'));
  assert.ok(line, 'a log line says what was re-folded');
  assert.equal(line.level, 30);
  const refold = line.refold as { from: number; to: number; rows: number; rewritten: number; ms: number };
  assert.deepEqual(
    { from: refold.from, to: refold.to, rows: refold.rows },
    { from: 0, to: SEARCH_FOLD_VERSION, rows: BOOKS.length + 3 },
  );
  // Only the rows lower() folded differently are written: never the plain-ASCII seeded books.
  assert.ok(refold.rewritten > 0 && refold.rewritten < BOOKS.length, `rewritten ${refold.rewritten}`);
  assert.equal(typeof refold.ms, 'number');
  assert.match(String(line.msg), new RegExp(`${refold.rows} rows read, ${refold.rewritten} rewritten in \\d+ ms`));

  assert.equal(await keysMatchSearchFold(sql), true);
  const [recorded] = await sql<{ version: number }[]>`select version from search_fold`;
  assert.equal(recorded?.version, SEARCH_FOLD_VERSION);
  for (const query of QUERIES) {
    assert.deepEqual(await searchIds(opened.store, query), await searchIds(memory, query), `search for ${query}`);
  }
});

test('re-folding walks the table in batches and leaves rows that are already right untouched', async (t) => {
  const { database, sql } = await staleDatabase(t);
  const right = await sql<{ seq: string }[]>`
    select seq::text as seq from books where title in ('Clean Code', 'Clean Architecture') order by seq`;
  const before = await rowVersions(sql);

  const pool = connect({ ...database, poolSize: 1, statementTimeoutMs: 4321 });
  t.after(() => pool.end());
  const { refold } = await prepareDatabase(pool, { batchSize: 3 }); // 13 rows: five batches, the last one short
  const [timeout] = await pool<{ statement_timeout: string }[]>`show statement_timeout`;
  assert.equal(timeout?.statement_timeout, '4321ms', 'the statement timeout lifted while re-folding is back');
  assert.equal(refold.status, 'refolded');
  assert.equal(refold.status === 'refolded' && refold.rows, BOOKS.length + 3);
  assert.equal(await keysMatchSearchFold(sql), true);

  const after = await rowVersions(sql);
  assert.equal(after.length, before.length);
  const rewrittenSeqs = before.filter((version, at) => after[at] !== version).map((version) => version.split(':')[0]);
  assert.equal(refold.status === 'refolded' && refold.rewritten, rewrittenSeqs.length);
  for (const { seq } of right) assert.ok(!rewrittenSeqs.includes(seq), `book ${seq} had the right keys already`);
});

test('a rename committed while a re-fold is rewriting that row is never undone', async (t) => {
  const { database, sql } = await staleDatabase(t);
  // A server of this version renames a book and holds its transaction open: the re-fold reads the
  // old title (the rename is not committed), then its UPDATE waits on the row.
  const writer = await sql.reserve();
  t.after(() => writer.release());
  const renamed = 'Neuer Titel ΟΔΟΣ';
  await writer.unsafe('begin');
  await writer`
    update books set title = ${renamed}, title_key = ${searchFold(renamed)} where title = 'STRASSE und Straße'`;
  const pool = connect(database);
  t.after(() => pool.end());
  const refolding = prepareDatabase(pool);
  await waitUntil(async () => {
    const [waiting] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query like '%update books b%'`;
    return (waiting?.n ?? 0) > 0;
  });
  await writer.unsafe('commit');
  const { refold } = await refolding;

  assert.equal(refold.status, 'refolded');
  assert.equal(await keysMatchSearchFold(sql), true, 'the renamed book keeps the key of its new title');
  assert.equal((await storeAsIs(sql).search('titel οδοσ', 0, 10)).total, 1);
});

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the re-fold to wait on the row');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a database whose keys are folded by this version is not rewritten at start', async (t) => {
  const database = await freshDatabase(t);
  const store = await freshPostgresStore(t, database);
  for (const book of BOOKS) await store.create({ ...book, year: 2000 });
  const sql = rawPool(t, database);
  const before = await rowVersions(sql);
  const [{ refolded_at: folded } = { refolded_at: undefined }] = await sql<{ refolded_at: Date }[]>`
    select refolded_at from search_fold`;

  const { logger, lines } = capturingLogger();
  const opened = openPostgresStore(database, logger);
  t.after(() => opened.close());
  await opened.ready;

  assert.deepEqual(await rowVersions(sql), before, 'no row got a new version (xmin)');
  assert.equal(lines.filter((entry) => String(entry.msg).includes('search keys')).length, 0);
  const [recorded] = await sql<{ version: number; refolded_at: Date }[]>`select version, refolded_at from search_fold`;
  assert.deepEqual(recorded, { version: SEARCH_FOLD_VERSION, refolded_at: folded });
  assert.deepEqual((await prepareDatabase(sql)).refold, { status: 'current', version: SEARCH_FOLD_VERSION });
});

test('keys folded by a newer version are left alone by an older server, with a warning', async (t) => {
  const { database, sql } = await staleDatabase(t);
  await sql`update search_fold set version = ${SEARCH_FOLD_VERSION + 1}`;
  const before = await rowVersions(sql);

  const { logger, lines } = capturingLogger();
  const opened = openPostgresStore(database, logger);
  t.after(() => opened.close());
  await opened.ready;

  assert.deepEqual(await rowVersions(sql), before);
  const line = lines.find((entry) => String(entry.msg).includes('newer than this server'));
  assert.equal(line?.level, 40);
  const [recorded] = await sql<{ version: number }[]>`select version from search_fold`;
  assert.equal(recorded?.version, SEARCH_FOLD_VERSION + 1);
});

test('two processes running db:migrate at once on a stale database re-fold it once', async (t) => {
  const { database, sql } = await staleDatabase(t);
  const migrateOnce = () =>
    run(process.execPath, ['--import', 'tsx', 'src/cli/db-migrate.ts'], {
      cwd: appDir,
      env: { ...process.env, DATABASE_URL: database.url },
    });
  const outputs = (await Promise.all([migrateOnce(), migrateOnce()])).map((result) => result.stdout).sort();
  assert.equal(outputs[0], 'The schema is up to date\n');
  assert.match(
    outputs[1] ?? '',
    new RegExp(
      `^The schema is up to date\\nRe-folded search keys from version 0 to ${SEARCH_FOLD_VERSION}: ` +
        `${BOOKS.length + 3} rows read, \\d+ rewritten in \\d+ ms\\n$`,
    ),
  );
  assert.equal(await keysMatchSearchFold(sql), true);
});

test('two servers starting at once on a stale database re-fold it once', async (t) => {
  const { database, sql, memory } = await staleDatabase(t);
  const starts = [capturingLogger(), capturingLogger()].map(({ logger, lines }) => {
    const opened = openPostgresStore(database, logger);
    t.after(() => opened.close());
    return { opened, lines };
  });
  await Promise.all(starts.map(({ opened }) => opened.ready));

  const refolds = starts.flatMap(({ lines }) =>
    lines.filter((entry) => String(entry.msg).startsWith('Re-folded search keys')),
  );
  assert.equal(refolds.length, 1);
  assert.equal(await keysMatchSearchFold(sql), true);
  for (const { opened } of starts) {
    for (const query of QUERIES) assert.deepEqual(await searchIds(opened.store, query), await searchIds(memory, query));
  }
});
