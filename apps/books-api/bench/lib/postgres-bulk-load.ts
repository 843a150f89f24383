// Filling a migrated Books database with many books at once, for the scale benchmark: a million
// creates over HTTP (or through the store, one statement each) would take longer than the
// benchmark. The rows are what the store's own create() writes: the folded search keys come from
// the store's searchFold, insertion order is the COPY order, and the per-block live counts are
// rebuilt afterwards with the store's own rebuildBlockCounts. A test (test/bench/) checks that
// the result answers totals, pages and searches exactly as a store filled through create() does.

import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Sql } from 'postgres';
import { searchFold } from '../../src/store/search-fold.js';
import { rebuildBlockCounts } from '../../src/store/postgres/block-counts.js';

export interface BulkBook {
  title: string;
  author: string;
  year: number;
}

export interface BulkLoadOptions {
  /** created_at of the first book; each next one is a millisecond later. Default: now. */
  startAt?: Date;
  /** Books per COPY chunk written to the connection. */
  chunk?: number;
}

/** One value in COPY's text format: backslash, tab, newline and carriage return escaped. */
function copyText(value: string): string {
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

function* copyLines(books: Iterator<BulkBook>, count: number, startAt: Date, chunk: number): Generator<string> {
  let lines = '';
  for (let i = 0; i < count; i++) {
    const next = books.next();
    if (next.done) throw new Error(`the book source ran out after ${i} of ${count} books`);
    const { title, author, year } = next.value;
    if (title.includes('\u0000') || author.includes('\u0000')) throw new Error('PostgreSQL text cannot hold U+0000');
    const createdAt = new Date(startAt.getTime() + i).toISOString();
    lines +=
      `${randomUUID()}\t${copyText(title)}\t${copyText(author)}\t${year}\t${createdAt}\t` +
      `${copyText(searchFold(title))}\t${copyText(searchFold(author))}\n`;
    if ((i + 1) % chunk === 0) {
      yield lines;
      lines = '';
    }
  }
  if (lines !== '') yield lines;
}

/**
 * Appends `count` books from `books` to the `books` table of a migrated database, after the books
 * already there. The search index is dropped during the copy and built again from its own
 * definition (far faster than a million single inserts into a GIN index), the block counts are
 * rebuilt from the table, and the table is vacuumed and analysed, as autovacuum would do in time.
 * Nothing else may write to the database meanwhile.
 */
export async function bulkLoadBooks(
  sql: Sql,
  books: Iterable<BulkBook>,
  count: number,
  options: BulkLoadOptions = {},
): Promise<void> {
  const startAt = options.startAt ?? new Date();
  const chunk = options.chunk ?? 2_000;
  const indexes = await sql<{ name: string; definition: string }[]>`
    select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = 'books'::regclass
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`;
  for (const index of indexes) await sql.unsafe(`drop index "${index.name.replace(/"/g, '""')}"`);
  try {
    const copy = await sql`
      copy books (id, title, author, year, created_at, title_key, author_key) from stdin`.writable();
    await pipeline(Readable.from(copyLines(books[Symbol.iterator](), count, startAt, chunk)), copy);
  } finally {
    const reserved = await sql.reserve();
    try {
      await reserved`set maintenance_work_mem = '256MB'`;
      for (const index of indexes) await reserved.unsafe(index.definition);
    } finally {
      reserved.release();
    }
  }
  await rebuildBlockCounts(sql);
  await sql`vacuum (analyze) books`;
  await sql`vacuum (analyze) book_block_counts`;
  await sql`vacuum (analyze) book_group_counts`;
}
