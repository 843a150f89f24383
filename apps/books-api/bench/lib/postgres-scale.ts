// The PostgreSQL side of `npm run bench:scale -- --store postgres`: the server, a database per
// size filled by bulk load, the sizes on disk, and concurrent creates against plain inserts.

import { randomUUID } from 'node:crypto';
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import postgres, { type Sql } from 'postgres';
import { connect } from '../../src/store/postgres/connection.js';
import { migrate } from '../../src/store/postgres/migrations.js';
import { PostgresBookStore } from '../../src/store/postgres/postgres-book-store.js';
import { searchFold } from '../../src/store/search-fold.js';
import { syntheticBooks } from './book-generator.js';
import { bulkLoadBooks } from './postgres-bulk-load.js';

/**
 * A throwaway cluster for the benchmark runs with PostgreSQL's durable defaults (the test clusters
 * turn fsync off) and a buffer cache that holds a million books, as a small production server would.
 */
export const BENCH_CLUSTER_SETTINGS: Readonly<Record<string, string>> = {
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
  shared_buffers: "'512MB'",
  max_connections: '200',
};

/** BENCH_DATABASE_URL's server (the benchmark creates and drops a database per size in it), else a throwaway cluster. */
export function startBenchPostgres(): Promise<TestPostgres> {
  const url = process.env.BENCH_DATABASE_URL;
  return url ? startPostgres({ serverUrl: url }) : startPostgres({ ownServer: true, settings: BENCH_CLUSTER_SETTINGS });
}

/** A fresh, migrated database holding the three seeded books and then `size` synthetic books, in that order. */
export async function filledDatabase(server: TestPostgres, size: number): Promise<{ url: string; fillMs: number }> {
  const url = await server.createDatabase('bench');
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await migrate(sql);
    const started = performance.now();
    await bulkLoadBooks(sql, syntheticBooks(), size);
    return { url, fillMs: performance.now() - started };
  } finally {
    await sql.end();
  }
}

export interface DiskSizes {
  booksTotal: number;
  booksHeap: number;
  booksIndexes: Record<string, number>;
  /** book_block_counts and book_group_counts together. */
  blockCounts: number;
  database: number;
}

export async function diskSizes(url: string): Promise<DiskSizes> {
  const sql = postgres(url, { max: 1 });
  try {
    const [sizes] = await sql<{ total: string; heap: string; counts: string; database: string }[]>`
      select pg_total_relation_size('books') as total,
             pg_relation_size('books') + pg_relation_size(reltoastrelid) as heap,
             pg_total_relation_size('book_block_counts') + pg_total_relation_size('book_group_counts') as counts,
             pg_database_size(current_database()) as database
      from pg_class where oid = 'books'::regclass`;
    const indexes = await sql<{ name: string; size: string }[]>`
      select c.relname as name, pg_relation_size(i.indexrelid) as size
      from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = 'books'::regclass order by c.relname`;
    return {
      booksTotal: Number(sizes?.total),
      booksHeap: Number(sizes?.heap),
      booksIndexes: Object.fromEntries(indexes.map((index) => [index.name, Number(index.size)])),
      blockCounts: Number(sizes?.counts),
      database: Number(sizes?.database),
    };
  } finally {
    await sql.end();
  }
}

export interface ConcurrentWrites {
  connections: number;
  seconds: number;
  /** The store's create() (the book and its block count in one statement). */
  createsPerSecond: number;
  /** A plain INSERT of the same row into a copy of the table (same indexes, no count). */
  plainInsertsPerSecond: number;
  /** sum of the block counts after the creates, and count(*) of the table: equal when exact. */
  storeTotal: number;
  countedRows: number;
}

async function forSeconds(connections: number, seconds: number, work: () => Promise<unknown>): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        await work();
        done += 1;
      }
    }),
  );
  return (done * 1000) / (performance.now() - started);
}

/** Halves in which each of the two writers is measured, alternately, so a change in the machine's load hits both. */
const WRITE_ROUNDS = 2;

/**
 * Creates through the store from `connections` concurrent callers on a pool of as many connections,
 * and the same rows as plain inserts into a copy of the books table (indexes included, no block
 * count): the price of keeping the total exact. Both run for a second first, so that neither is
 * measured opening the pool's connections, preparing its statement or making the first writes
 * after the bulk load (measured first and cold, creates read 56% of plain inserts, and 90% in a
 * second run on the same database just after); then they alternate, `seconds / WRITE_ROUNDS` at a
 * time, so that a change in the shared machine's load hits both. Then checks that the total is
 * still exact.
 */
export async function concurrentWrites(url: string, connections: number, seconds: number): Promise<ConcurrentWrites> {
  const sql = connect({ url, poolSize: connections, statementTimeoutMs: 30_000, waitTimeoutMs: 31_000 });
  try {
    const store = new PostgresBookStore(sql);
    store.markReady();
    const books = syntheticBooks(7);
    const nextBook = () => books.next().value as { title: string; author: string; year: number };
    const create = () => store.create(nextBook());
    const plainInsert = () => {
      const book = nextBook();
      return sql`
        insert into bench_plain_books (id, title, author, year, created_at, title_key, author_key)
        values (${randomUUID()}, ${book.title}, ${book.author}, ${book.year}, ${new Date()},
                ${searchFold(book.title)}, ${searchFold(book.author)})`;
    };

    await sql`create table bench_plain_books (like books including all)`;
    try {
      await forSeconds(connections, 1, create);
      await forSeconds(connections, 1, plainInsert);
      let creates = 0;
      let plainInserts = 0;
      for (let round = 0; round < WRITE_ROUNDS; round++) {
        creates += await forSeconds(connections, seconds / WRITE_ROUNDS, create);
        plainInserts += await forSeconds(connections, seconds / WRITE_ROUNDS, plainInsert);
      }
      const storeTotal = await store.count();
      const [counted] = await sql<{ n: number }[]>`select count(*)::int as n from books`;
      return {
        connections,
        seconds,
        createsPerSecond: creates / WRITE_ROUNDS,
        plainInsertsPerSecond: plainInserts / WRITE_ROUNDS,
        storeTotal,
        countedRows: counted?.n ?? -1,
      };
    } finally {
      await sql`drop table bench_plain_books`;
    }
  } finally {
    await sql.end();
  }
}

/** The server's own view of its load: what else it is doing while we measure. */
export async function serverVersion(url: string): Promise<string> {
  const sql: Sql = postgres(url, { max: 1 });
  try {
    const [row] = await sql<{ version: string }[]>`select current_setting('server_version') as version`;
    return row?.version ?? 'unknown';
  } finally {
    await sql.end();
  }
}
