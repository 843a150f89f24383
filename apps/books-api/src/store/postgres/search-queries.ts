import type { ISql, PendingQuery, Row } from 'postgres';
import { bookColumns, type PageRow } from './book-rows.js';

/**
 * Queries of fewer characters than this have no trigram, so the index cannot narrow them down;
 * they are written so that the planner cannot pick the index (a scan of the whole GIN index is far
 * slower than reading the table).
 */
const MIN_INDEXED_QUERY = 3;

/** Whether a folded needle is too short for the trigram index (counted in code points). */
export function withoutTrigram(needle: string): boolean {
  return [...needle].length < MIN_INDEXED_QUERY;
}

/**
 * A search with at most this many matches is answered from one pass over them, sorted into
 * insertion order (fewMatches()); one with more counts them, then walks insertion order until its
 * page (manyMatches()), which stops soon when matches are everywhere. Walking for a rare word can
 * read tens of thousands of rows; sorting a common word's matches means keeping them all.
 */
export const SORT_MATCHES_UP_TO = 5_000;
/**
 * A search first counts its matches in a random sample of SAMPLE_PERCENT of the table's pages
 * (about a millisecond at a million books). If the sample suggests at most SORT_MATCHES_UP_TO
 * matches in the table, the search is answered as one with few: a single pass over its matches
 * (fewMatches()), which is wasted up to its first SORT_MATCHES_UP_TO + 1 matches when it has more.
 * Otherwise it is answered as one with many (manyMatches()): guessing wrong that way only makes a
 * page walk past a few thousand rows, while the pass for few matches read a third of the rows of
 * `whitfield`'s 15,755 matches, and a third of the table for `xu`, which has no trigram. The
 * sample only chooses the plan: both answer exactly.
 */
const SAMPLE_PERCENT = 0.25;
export const SAMPLED_MATCHES_UP_TO = (SORT_MATCHES_UP_TO * SAMPLE_PERCENT) / 100;

/**
 * The rows whose title key or author key contains `needle` (already folded). A query shorter than
 * a trigram compares under the "C" collation, which is not the index's (the column's), so the
 * planner can never answer it from the trigram index, whose every entry it would read; a longer one
 * is answered from the index. LIKE compares bytes under either collation, so both find the same
 * rows. The short query's scan of every row was strpos() before: LIKE costs less per row
 * (docs/performance.md).
 */
export function searchCondition(sql: ISql, needle: string) {
  const pattern = containsPattern(needle);
  return withoutTrigram(needle)
    ? sql`(title_key collate "C" like ${pattern} or author_key collate "C" like ${pattern})`
    : sql`(title_key like ${pattern} or author_key like ${pattern})`;
}

/** `%needle%` for LIKE, with LIKE's own wildcards and its escape character taken literally. */
function containsPattern(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** How many rows match in a random sample of SAMPLE_PERCENT of the table's pages. */
export function sampledMatches(sql: ISql, matches: PendingQuery<Row[]>) {
  return sql<{ total: number }[]>`
    select count(*)::int4 as total from books tablesample system (${SAMPLE_PERCENT}) where ${matches}`;
}

/**
 * A search's page and total when it has at most SORT_MATCHES_UP_TO matches, from one pass over
 * them: up to one more than that many matching rows are kept (a rare word's few, found through
 * the trigram index), counted, and the page sorted out of them. With more matches the pass stops
 * at the first SORT_MATCHES_UP_TO + 1 found, in whatever order the scan finds them (a common
 * word's are found within a few thousand rows), answers that count and no page, and
 * manyMatches() takes over. Counting the matches and then reading the page again cost a rare
 * word two scans of the index and of its rows.
 */
export function fewMatches(sql: ISql, matches: PendingQuery<Row[]>, skip: number, limit: number) {
  return sql<PageRow[]>`
    with found as materialized (
      select seq, id, title, author, year, created_at from books where ${matches} limit ${SORT_MATCHES_UP_TO + 1}
    )
    select counted.total, page.id, page.title, page.author, page.year, page.created_at
    from (select count(*)::int4 as total from found) counted
    left join lateral (
      select seq, ${bookColumns(sql)} from found
      where counted.total <= ${SORT_MATCHES_UP_TO} order by seq offset ${skip}::int8 limit ${limit}
    ) page on true
    order by page.seq`;
}

/**
 * A search's page and exact total when it has more than SORT_MATCHES_UP_TO matches: the total
 * counts them all, and the page walks insertion order, which stops soon when matches are
 * everywhere, instead of sorting them all. A page past the total is not walked for (it would walk
 * the whole table).
 */
export function manyMatches(sql: ISql, matches: PendingQuery<Row[]>, skip: number, limit: number) {
  return sql<PageRow[]>`
    select counted.total, page.id, page.title, page.author, page.year, page.created_at
    from (select count(*)::int4 as total from books where ${matches}) counted
    left join lateral (
      select seq, ${bookColumns(sql)} from books
      where counted.total > ${skip}::int8 and ${matches} order by seq offset ${skip}::int8 limit ${limit}
    ) page on true
    order by page.seq`;
}
