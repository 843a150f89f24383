import type { ISql, PendingQuery, Row } from 'postgres';
import { UnstorableTextError, type Book, type Slice } from '../book-store.js';

/** The rows the store's statements read, and how they become books. */

export interface BookRow {
  id: string;
  title: string;
  author: string;
  year: number;
  /** See bookColumns(). */
  created_at: string;
}

/**
 * A fragment that never changes, made once per `sql` instance (a pool, or a transaction) and
 * reused: the driver builds a query object for every fragment written inline, a promise it never
 * runs; made once, a get and a page cost node measurably less. The driver only reads a fragment's
 * text and values.
 */
export function madeOnce(make: (sql: ISql) => PendingQuery<Row[]>): (sql: ISql) => PendingQuery<Row[]> {
  const made = new WeakMap<ISql, PendingQuery<Row[]>>();
  return (sql) => {
    let fragment = made.get(sql);
    if (fragment === undefined) {
      fragment = make(sql);
      made.set(sql, fragment);
    }
    return fragment;
  };
}

/**
 * The columns of a BookRow, for every statement that reads books. created_at is PostgreSQL's text
 * of the UTC time (`2026-11-23 17:55:52.883`) rather than the timestamptz, which the driver would
 * parse into a Date for toISOString() to format again, for every row, in node, the process that
 * also serves the HTTP requests. isoTimestamp() makes the API's form of it. A fragment
 * without parameters becomes part of the statement's text, so each statement stays one prepared
 * statement.
 */
export const bookColumns = madeOnce(
  (sql) => sql`id, title, author, year, (created_at at time zone 'UTC')::text as created_at`,
);

/**
 * `2026-11-23T17:55:52.883Z` from PostgreSQL's `2026-11-23 17:55:52.883` (DateStyle ISO, set for
 * every session in connection.ts), which leaves out a zero fraction and trailing zeros. Stored
 * times have whole milliseconds; finer digits (a row written by other means) are cut, as a Date
 * would cut them.
 */
export function isoTimestamp(text: string): string {
  if (text.length < 19 || text.charCodeAt(10) !== 32 /* space */ || text.charCodeAt(4) !== 45 /* - */) {
    // Years outside 1000-9999 or BC: not written by this service, but answered correctly.
    return new Date(`${text}Z`).toISOString();
  }
  const fraction = text.length > 20 ? text.slice(20, 23).padEnd(3, '0') : '000';
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
}

/** PostgreSQL text cannot hold U+0000: refuse it by name instead of failing inside the driver. */
export function assertStorable(fields: { title?: string; author?: string }): void {
  if (fields.title?.includes('\u0000')) throw new UnstorableTextError('title');
  if (fields.author?.includes('\u0000')) throw new UnstorableTextError('author');
}

/**
 * Text as the database keeps it: UTF-8 has no lone surrogates, so the driver's encoding writes each
 * as U+FFFD, as toWellFormed() does. For answers built from what was sent instead of read back.
 */
export function asStored(text: string): string {
  const unicode = text as string & { isWellFormed(): boolean; toWellFormed(): string };
  return unicode.isWellFormed() ? text : unicode.toWellFormed();
}

/** `snapshot`: the list statements' snapshot key (snapshot-page-cache.ts); search's have none. */
export type PageRow = Partial<BookRow> & { total: number; snapshot?: string | null };

export function pageOf(rows: readonly PageRow[], toBook: (row: BookRow) => Book): Slice {
  const items: Book[] = [];
  for (const row of rows) {
    if (row.id === undefined || row.id === null) continue;
    items.push(toBook(row as BookRow));
  }
  return { items, total: rows[0]?.total ?? 0 };
}
