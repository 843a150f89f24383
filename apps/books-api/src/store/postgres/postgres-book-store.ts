import { randomInt, randomUUID } from 'node:crypto';
import type { ISql, PendingQuery, Row, Sql } from 'postgres';
import type { BookCreate, BookUpdate } from '../../schemas/book.js';
import { StoreUnavailableError, UnstorableTextError, type Book, type BookStore, type Slice } from '../book-store.js';
import { searchFold } from '../search-fold.js';
import { parseUuid } from '../../validation/uuid.js';
import { errorCode, UNIQUE_VIOLATION, unlessUnavailable } from './database-errors.js';
import { PendingListCleaner } from './pending-list-cleaner.js';
import { ReadCoalescer } from './read-coalescer.js';
import { SnapshotPageCache, snapshotKeySql } from './snapshot-page-cache.js';

/*
 * The shard of a block's live count (see migrations/0001_books.sql) that a write changes is
 * `1 + pg_backend_pid() % 32749`, one per database session: concurrent writers never wait for each
 * other's row lock, which is held until commit, through the WAL flush. Live sessions of one server
 * have distinct pids, and 32 749 (a prime; 32 750 still fits a smallint) keeps them apart unless
 * two differ by a multiple of it; a collision only makes those two queue, the sum stays exact. A
 * block gets a row per session that wrote to it, and compactCounts() folds them into the block's
 * shard 0 once it is behind the two newest. Writes never use shard 0: its rows are also counted by
 * group (migrations/0004_book_group_counts.sql), through a trigger that a write to another shard
 * does not fire. With 16 random shards, 50 writers spent a quarter of their time waiting for one
 * another (Lock:transactionid in pg_stat_activity).
 */
/** A block is 2^BLOCK_BITS consecutive seq values. */
export const BLOCK_BITS = 10;
const BLOCK_SIZE = 1 << BLOCK_BITS;
/**
 * Queries of fewer characters than this have no trigram, so the index cannot narrow them down;
 * they are written so that the planner cannot pick the index (a scan of the whole GIN index is far
 * slower than reading the table).
 */
const MIN_INDEXED_QUERY = 3;

/** Whether a folded needle is too short for the trigram index (counted in code points). */
function withoutTrigram(needle: string): boolean {
  return [...needle].length < MIN_INDEXED_QUERY;
}

/**
 * A search with at most this many matches is answered from one pass over them, sorted into
 * insertion order (fewMatches()); one with more counts them, then walks insertion order until its
 * page (manyMatches()), which stops soon when matches are everywhere. Walking for a rare word can
 * read tens of thousands of rows; sorting a common word's matches means keeping them all.
 */
const SORT_MATCHES_UP_TO = 5_000;
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
const SAMPLED_MATCHES_UP_TO = (SORT_MATCHES_UP_TO * SAMPLE_PERCENT) / 100;
/**
 * A page starting before this position is read by walking the primary key from the first book;
 * further ones find their block from the counts first. Walking up to a block of index entries (as
 * a far page does inside its block) measured cheaper than finding the block: 0.13 against 0.27 ms
 * at a million books.
 */
const WALK_SKIP_BELOW = 1 << BLOCK_BITS;
/**
 * A group is 2^GROUP_BITS consecutive blocks. `book_group_counts` holds each group's compacted
 * count (its blocks' shard-0 rows), kept by a trigger that writes `block >> 5`: change both together.
 * The total and a far page's first step read the group rows and the few block rows of other shards
 * (countRows()) instead of every block's.
 */
export const GROUP_BITS = 5;

interface BookRow {
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
 * runs. Made once, a get took 25 µs less of node's CPU (81-96 against 55-71 µs a call, store level
 * at a million books) and a page 22 µs less. The driver only reads a fragment's text and values.
 */
function madeOnce(make: (sql: ISql) => PendingQuery<Row[]>): (sql: ISql) => PendingQuery<Row[]> {
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
 * parse into a Date for toISOString() to format again: about a microsecond a row in node, the
 * process that also serves the HTTP requests. isoTimestamp() makes the API's form of it. A fragment
 * without parameters becomes part of the statement's text, so each statement stays one prepared
 * statement.
 */
const bookColumns = madeOnce(
  (sql) => sql`id, title, author, year, (created_at at time zone 'UTC')::text as created_at`,
);

/**
 * Concurrent gets share statements (read-coalescer.ts): one get statement in flight per reader pool
 * (at least two), and at most GET_BATCH distinct ids in one. Measured at 50 and 200 concurrent
 * callers (docs/performance.md, "Concurrent gets in one statement"): two statements in flight per
 * reader answered no faster and cost more CPU per get (smaller batches); batches of 16 cost
 * half again as much CPU per get as 64 at 200 callers, and 128 was no better than 64.
 */
const GET_STATEMENTS_PER_READER = 1;
const MIN_GET_STATEMENTS = 2;
const GET_BATCH = 64;
/**
 * Concurrent reads of one page (skip and limit) share statements (read-coalescer.ts): one page
 * statement in flight per page, and every request for it that arrives meanwhile is answered by the
 * next one. Different pages each have their own, sent at once, as before. Measured in
 * docs/performance.md, "Concurrent reads of a page in one statement".
 */
const PAGE_STATEMENTS = 1;

interface PageQuery {
  skip: number;
  limit: number;
}

const pageKey = ({ skip, limit }: PageQuery): string => `${skip} ${limit}`;

/**
 * How long after a write the search index's pending entries are moved into the index proper
 * (pending-list-cleaner.ts): the writes of that while share one move. At a million books, a book's
 * entries inserted straight into the index took 0.26 ms of the database's time; moved about forty
 * at a time, about 0.17 ms a book (docs/performance.md, "The search index's pending list").
 */
const PENDING_LIST_DELAY_MS = 50;
/**
 * The transaction-level advisory lock under which one process at a time moves the pending entries:
 * a replica that finds it taken leaves the move to the holder and tries again later, instead of
 * queuing a pool connection behind it. A fixed number no other code uses.
 */
const PENDING_LIST_LOCK_KEY = 4_217_790_114;

/** The key a page is cached under: see snapshot-page-cache.ts. */
const snapshotKey = madeOnce(snapshotKeySql);

/** The shard of the block counts that this session writes (see the comment at the top): never 0. */
const sessionShard = madeOnce((sql) => sql`1 + pg_backend_pid() % 32749`);

/**
 * Rows `(grp, live)` whose `live` sum to the exact total, and by `grp` to each group's count: the
 * group rows (compacted counts) and the block rows of shards other than 0 (not yet compacted: the
 * newest blocks' writers, recent deletes), which a partial index finds. At a million books, 31 rows
 * and the shard rows, where the block rows are about a thousand. `live::int4` keeps the sums in
 * integers (a bigint's sum is a numeric, several times slower); a group holds at most 2^15 books.
 */
const countRows = madeOnce(
  (sql) => sql`
    select grp, live::int4 as live from book_group_counts
    union all
    select block >> ${GROUP_BITS}, live::int4 from book_block_counts where shard <> 0`,
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
function assertStorable(fields: { title?: string; author?: string }): void {
  if (fields.title?.includes('\u0000')) throw new UnstorableTextError('title');
  if (fields.author?.includes('\u0000')) throw new UnstorableTextError('author');
}

/**
 * Text as the database keeps it: UTF-8 has no lone surrogates, so the driver's encoding writes each
 * as U+FFFD, as toWellFormed() does. For answers built from what was sent instead of read back.
 */
function asStored(text: string): string {
  const unicode = text as string & { isWellFormed(): boolean; toWellFormed(): string };
  return unicode.isWellFormed() ? text : unicode.toWellFormed();
}

/** How many books RecentBooks keeps: a few pages' worth for each of many clients, about 2 MB. */
const RECENT_BOOKS = 4_096;

/**
 * The Book objects last answered, by id, so that a book read again unchanged is answered with the
 * same object. The response's JSON is cached per Book object (serialization/book-json.ts): without
 * this, every read of a page built 20 new objects and serialised and encoded each, about a tenth of
 * the list route's CPU. An object is reused only when every field of the row just read equals
 * it, so an answer is never older than its row; the oldest entries go first.
 */
class RecentBooks {
  private readonly byId = new Map<string, { createdAt: string; book: Book }>();

  book(row: BookRow): Book {
    const known = this.byId.get(row.id);
    if (
      known !== undefined &&
      known.createdAt === row.created_at &&
      known.book.title === row.title &&
      known.book.author === row.author &&
      known.book.year === row.year
    ) {
      return known.book;
    }
    const book = {
      id: row.id,
      title: row.title,
      author: row.author,
      year: row.year,
      created_at: isoTimestamp(row.created_at),
    };
    if (known !== undefined) this.byId.delete(row.id);
    else if (this.byId.size >= RECENT_BOOKS) this.byId.delete(this.byId.keys().next().value as string);
    this.byId.set(row.id, { createdAt: row.created_at, book });
    return book;
  }
}

/**
 * The rows whose title key or author key contains `needle` (already folded). A query shorter than
 * a trigram compares under the "C" collation, which is not the index's (the column's), so the
 * planner can never answer it from the trigram index, whose every entry it would read; a longer one
 * is answered from the index. LIKE compares bytes under either collation, so both find the same
 * rows. The short query's scan of every row was strpos() before: LIKE costs less per row (`xu` at
 * a million books, one process, 9 runs each: 16% less backend CPU, 22% less time).
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

export interface PostgresBookStoreOptions {
  now?: () => Date;
  newId?: () => string;
  /**
   * Pools for the short reads (get, a page, the count), the least busy first; default: the main pool.
   * See connectPools() in connection.ts for why.
   */
  readers?: readonly Sql[];
}

/**
 * The BookStore on PostgreSQL, answering exactly as the memory store does: insertion order (the
 * `seq` identity), exact totals, search over the application-folded title and author keys.
 *
 * Totals and offsets come from `book_block_counts`, which every write changes in the same
 * statement, and `book_group_counts`, its compacted rows summed by group of blocks: the sum of
 * countRows() is the exact total without counting rows, and running sums by group, then by block,
 * find the block holding any offset, so a page at offset 999,980 reads about a block of index
 * entries instead of a million rows. Each statement is one snapshot, so a page and its total agree.
 *
 * Until `markReady()` (the migrations are applied) every call answers StoreUnavailableError.
 *
 * The search keys are searchFold's output at the time of the write. A database whose keys an older
 * SEARCH_FOLD_VERSION computed is re-folded at start, before markReady() (refold-search-keys.ts,
 * which also says what a replica of the previous version does meanwhile in a rolling update).
 */
export class PostgresBookStore implements BookStore {
  private ready = false;
  private readonly now: () => Date;
  private readonly newId: () => string;
  private readonly recent = new RecentBooks();
  private readonly toBook = (row: BookRow): Book => this.recent.book(row);
  private readonly pages = new SnapshotPageCache();
  private readonly readers: readonly Sql[];
  /** Reads sent and not yet answered, per reader pool (see read()). */
  private readonly readsInFlight: number[];
  /** Concurrent gets, sent together (see get()). */
  private readonly gets: ReadCoalescer<string, Book | undefined>;
  /** Concurrent reads of the same page, answered by one statement (see list()). */
  private readonly pageReads: ReadCoalescer<PageQuery, Slice>;
  /** Moves what creates and updates add to the search index's pending list (see movePendingEntries()). */
  private readonly pendingList: PendingListCleaner;

  constructor(
    private readonly sql: Sql,
    options: PostgresBookStoreOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? randomUUID;
    this.readers = options.readers?.length ? options.readers : [sql];
    this.readsInFlight = this.readers.map(() => 0);
    this.gets = new ReadCoalescer((ids) => this.getMany(ids), {
      statements: Math.max(MIN_GET_STATEMENTS, this.readers.length * GET_STATEMENTS_PER_READER),
      batch: GET_BATCH,
      key: (id) => id,
    });
    this.pageReads = new ReadCoalescer(async ([page]) => [await this.readPage(page!)], {
      statements: PAGE_STATEMENTS,
      batch: 1,
      key: pageKey,
      lane: pageKey,
    });
    this.pendingList = new PendingListCleaner(() => this.movePendingEntries(), PENDING_LIST_DELAY_MS);
  }

  markReady(): void {
    this.ready = true;
  }

  /** Stops the background work (the moves of the search index's pending entries) before the pools close. */
  stopBackgroundWork(): Promise<void> {
    return this.pendingList.stop();
  }

  /** Resolves once the pending entries of every write so far have been moved (tests and benchmarks). */
  pendingEntriesMoved(): Promise<void> {
    return this.pendingList.settled();
  }

  /** True once the migrations are applied (other services on the same database wait for it too). */
  isReady(): boolean {
    return this.ready;
  }

  /**
   * Alone, one statement as before; while a statement for the same page is in flight, with the
   * requests for that page that arrive meanwhile, in the next statement for it (read-coalescer.ts,
   * which says why a page is still never older than its request).
   */
  async list(skip: number, limit: number): Promise<Slice> {
    if (!this.ready) throw new StoreUnavailableError();
    return this.pageReads.read({ skip, limit });
  }

  /**
   * A page read before is answered again, the same Slice, when the database's snapshot is still
   * the one its statement ran with (snapshot-page-cache.ts). The page statement is sent with that
   * snapshot's key and reads no book when its own snapshot has the same key, so a page costs one
   * statement whether it changed or not.
   */
  private readPage({ skip, limit }: PageQuery): Promise<Slice> {
    return this.read(async (sql) => {
      const cached = this.pages.get(skip, limit);
      // '' when none is kept: no key equals it, and a null key (no caching) is distinct from it.
      const rows = await pageRows(sql, skip, limit, cached?.snapshot ?? '');
      // `cached` is this request's entry, whatever another request kept meanwhile.
      if (cached !== undefined && rows[0]?.snapshot === cached.snapshot) return cached.page;
      const page = pageOf(rows, this.toBook);
      this.pages.set(skip, limit, rows[0]?.snapshot ?? null, page);
      return page;
    });
  }

  async search(query: string, skip: number, limit: number): Promise<Slice> {
    const needle = searchFold(query);
    return this.run(async (sql) => {
      const short = withoutTrigram(needle);
      const matches = searchCondition(sql, needle);
      return sql.begin('isolation level repeatable read read only', async (tx) => {
        // Planned for each execution: a generic plan of `LIKE $1` cannot know that `%xu%` has no
        // trigram and scans the whole trigram index (seconds at a million books). Sent together
        // with the sample, so it costs no round trip.
        const [, [sampled]] = await Promise.all([
          tx`set local plan_cache_mode = force_custom_plan`,
          sampledMatches(tx, matches),
        ]);
        if ((sampled?.total ?? 0) <= SAMPLED_MATCHES_UP_TO) {
          const [, few] = await Promise.all([
            // A short query reads every row, which the planner does in parallel only if it expects
            // few to match: LIKE's estimate for a pattern without a trigram can be far off.
            short && tx`set local parallel_setup_cost = 0; set local parallel_tuple_cost = 0`.simple(),
            fewMatches(tx, matches, skip, limit),
            short && tx`set local parallel_setup_cost to default; set local parallel_tuple_cost to default`.simple(),
          ]);
          if ((few[0]?.total ?? 0) <= SORT_MATCHES_UP_TO) return pageOf(few, this.toBook);
        }
        return pageOf(await manyMatches(tx, matches, skip, limit), this.toBook);
      });
    });
  }

  /**
   * Alone, one statement as before; while other gets are in flight, with those that arrive
   * meanwhile in one statement (read-coalescer.ts, which says why a get is still never older
   * than its request).
   */
  async get(id: string): Promise<Book | undefined> {
    if (!this.ready) throw new StoreUnavailableError();
    // The routes only pass valid UUIDs. Text that is none names no book (as in the memory store),
    // and must not reach a statement, where it would fail every get batched with it.
    const uuid = parseUuid(id);
    if (!uuid.ok) return undefined;
    return this.gets.read(uuid.value);
  }

  /**
   * The books with these distinct ids (canonical text, from parseUuid), in their order. One id is
   * the statement a get always was; more are one statement with the ids as one parameter of type
   * uuid[], the column's type (`id = any(...)`: a bitmap scan of `books_id_key` for the ids in
   * turn). It answers a row per id found, matched back by its id, which PostgreSQL writes in the
   * same canonical form. `unnest(...) with ordinality` joined to books cost as much (measured).
   */
  private getMany(ids: readonly string[]): Promise<(Book | undefined)[]> {
    return this.read(async (sql) => {
      if (ids.length === 1) {
        const [row] = await sql<BookRow[]>`select ${bookColumns(sql)} from books where id = ${ids[0]!}`;
        return [row && this.toBook(row)];
      }
      const rows = await sql<
        BookRow[]
      >`select ${bookColumns(sql)} from books where id = any(${ids as string[]}::uuid[])`;
      const found = new Map<string, BookRow>();
      for (const row of rows) found.set(row.id, row);
      return ids.map((id) => {
        const row = found.get(id);
        return row && this.toBook(row);
      });
    });
  }

  async create(input: BookCreate): Promise<Book> {
    assertStorable(input);
    return this.run(async () => {
      try {
        return await this.insert(this.newId(), input);
      } catch (error) {
        // A random UUID that is already taken: draw another rather than fail the request.
        if (errorCode(error) === UNIQUE_VIOLATION) return this.insert(this.newId(), input);
        throw error;
      }
    });
  }

  async update(id: string, changes: BookUpdate): Promise<Book | undefined> {
    if (changes.title === undefined && changes.author === undefined && changes.year === undefined) return this.get(id);
    assertStorable(changes);
    return this.run(async (sql) => {
      // Only the fields sent change, each from its current value in the row, so two PATCHes of
      // different fields never undo each other.
      const title = changes.title ?? null;
      const author = changes.author ?? null;
      const [row] = await sql<BookRow[]>`
        update books set
          title = coalesce(${title}::text, title),
          title_key = coalesce(${title === null ? null : searchFold(title)}::text, title_key),
          author = coalesce(${author}::text, author),
          author_key = coalesce(${author === null ? null : searchFold(author)}::text, author_key),
          year = coalesce(${changes.year ?? null}::int, year)
        where id = ${id}
        returning ${bookColumns(sql)}`;
      if (row) this.pendingList.noteWrite();
      return row && this.toBook(row);
    });
  }

  async delete(id: string): Promise<boolean> {
    return this.run(async (sql) => {
      const [row] = await sql<{ deleted: number }[]>`
        with deleted as (
          delete from books where id = ${id} returning seq
        ), counted as (
          insert into book_block_counts (block, shard, live)
          select seq >> ${BLOCK_BITS}, ${sessionShard(sql)}, -1 from deleted
          on conflict (block, shard) do update set live = book_block_counts.live - 1
        )
        select count(*)::int as deleted from deleted`;
      return (row?.deleted ?? 0) > 0;
    });
  }

  async count(): Promise<number> {
    return this.read(async (sql) => {
      const [row] = await sql<{ total: number }[]>`
        select coalesce(sum(live), 0)::int as total from (${countRows(sql)}) counts`;
      return row?.total ?? 0;
    });
  }

  async randomBook(): Promise<Book | undefined> {
    // A concurrent delete can empty the drawn position: draw again a few times.
    for (let attempt = 0; attempt < 3; attempt++) {
      const total = await this.count();
      if (total === 0) return undefined;
      // Not through list(): random pages would crowd the cached ones out.
      const [row] = await this.read((sql) => pageRows(sql, randomInt(total), 1));
      const book = row && pageOf([row], this.toBook).items[0];
      if (book) return book;
    }
    return undefined;
  }

  /**
   * Folds the shards of every block older than the two newest into one row each, so the running
   * sum reads about one row per block; the trigger of migrations/0004 adds what reaches shard 0 to
   * the group counts, in this statement. Writers to those blocks are rare (deletes), and a writer
   * racing this simply adds a new shard row: the sum stays exact.
   */
  async compactCounts(): Promise<void> {
    await this.run(async (sql) => {
      await sql`
        with newest as (
          select coalesce(max(block), 0) - 1 as block from book_block_counts
        ), folded as (
          delete from book_block_counts c using newest
          where c.block < newest.block and c.shard <> 0 returning c.block, c.live
        )
        insert into book_block_counts (block, shard, live)
        select block, 0, sum(live) from folded group by block
        on conflict (block, shard) do update set live = book_block_counts.live + excluded.live`;
    });
  }

  /**
   * Moves the search index's pending entries into the index proper (see PendingListCleaner), unless
   * another process holds the lock for it; false when it did not. The lock is the statement's
   * transaction's, so it goes with the statement whatever happens to the connection.
   */
  private async movePendingEntries(): Promise<boolean> {
    const [row] = await this.sql<{ moved: boolean }[]>`
      select case when pg_try_advisory_xact_lock(${PENDING_LIST_LOCK_KEY})
        then gin_clean_pending_list('books_search_keys'::regclass) >= 0 else false end as moved`;
    return row?.moved ?? false;
  }

  private async insert(id: string, input: BookCreate): Promise<Book> {
    const createdAt = this.now();
    // The book is built from what was sent rather than read back: a Date has whole milliseconds,
    // which timestamptz keeps exactly, and text and integers come back as they went. Reading the row
    // back cost the driver a row of six columns and a timestamp parse per create.
    const [row] = await this.sql<{ first_of_block: boolean }[]>`
      with inserted as (
        insert into books (id, title, author, year, created_at, title_key, author_key)
        values (${id}, ${input.title}, ${input.author}, ${input.year}, ${createdAt},
                ${searchFold(input.title)}, ${searchFold(input.author)})
        returning seq
      ), counted as (
        insert into book_block_counts (block, shard, live)
        select seq >> ${BLOCK_BITS}, ${sessionShard(this.sql)}, 1 from inserted
        on conflict (block, shard) do update set live = book_block_counts.live + 1
      )
      select (seq & ${BLOCK_SIZE - 1}) = 0 as first_of_block from inserted`;
    if (!row) throw new Error('insert returned no row');
    this.pendingList.noteWrite();
    // The first book of a new block is the moment to fold the shards of the blocks behind it.
    if (row.first_of_block) this.compactCounts().catch(() => undefined);
    return {
      id,
      title: asStored(input.title),
      author: asStored(input.author),
      year: input.year,
      created_at: createdAt.toISOString(),
    };
  }

  private async run<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    if (!this.ready) throw new StoreUnavailableError();
    return unlessUnavailable(() => work(this.sql));
  }

  /**
   * A short read on the reader pool with the fewest reads in flight, the first on a tie. Each
   * statement takes its own snapshot, so a read sees every write that returned before it started,
   * whichever pool wrote it. Under concurrent reads both connections stay busy, as when they took
   * turns; reads one at a time all go to one connection, whose backend is then the one that ran
   * the last read: taking turns cost a get 9 µs at p50 and 20 µs at p90 (0.132 against 0.123 ms
   * p50 at a million books, 10 x 1 000 gets interleaved).
   */
  private async read<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    if (!this.ready) throw new StoreUnavailableError();
    let reader = 0;
    for (let index = 1; index < this.readers.length; index++) {
      if (this.readsInFlight[index]! < this.readsInFlight[reader]!) reader = index;
    }
    const sql = this.readers[reader] ?? this.sql;
    this.readsInFlight[reader]! += 1;
    try {
      return await unlessUnavailable(() => work(sql));
    } finally {
      this.readsInFlight[reader]! -= 1;
    }
  }
}

/**
 * Recomputes every block's live count from the books themselves, one row per block (shard 0, so the
 * trigger of migrations/0004 counts them by group too), in one transaction that locks out writers
 * meanwhile. For tools that write the books table directly (the benchmark's bulk loader): the
 * store's own writes keep the counts exact without it.
 */
export async function rebuildBlockCounts(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`lock table books, book_block_counts, book_group_counts in share row exclusive mode`;
    await tx`delete from book_block_counts`;
    await tx`delete from book_group_counts`;
    await tx`
      insert into book_block_counts (block, shard, live)
      select seq >> ${BLOCK_BITS}, 0, count(*) from books group by 1`;
  });
}

/**
 * A page, its total and its statement's snapshot key, from the statement that suits its position;
 * the total and the key alone when the key is `known` (the page read under it is kept).
 */
function pageRows(sql: Sql, skip: number, limit: number, known = '') {
  return skip < WALK_SKIP_BELOW ? nearPage(sql, skip, limit, known) : farPage(sql, skip, limit, known);
}

/**
 * A page near the start, and the total, in one statement (one snapshot): the total is the sum of
 * countRows(); the page walks the primary key past `skip` books.
 */
function nearPage(sql: Sql, skip: number, limit: number, known: string) {
  return sql<PageRow[]>`
    select total.total, total.snapshot, page.id, page.title, page.author, page.year, page.created_at
    from (
      select coalesce(sum(live), 0)::int4 as total, ${snapshotKey(sql)} as snapshot from (${countRows(sql)}) counts
    ) total
    left join lateral (
      select seq, ${bookColumns(sql)} from books
      where total.snapshot is distinct from ${known}::text
      order by seq offset ${skip}::int8 limit ${limit}
    ) page on true
    order by page.seq`;
}

/**
 * A page at any position, and the total, in one statement (one snapshot). The block holding
 * position `skip` is found in two steps of running sums, so no step reads many rows one by one
 * (a window function costs about a microsecond a row: over every block of a million books it was
 * most of the request): first over the groups (countRows(), whose sum is also the total), then over
 * the blocks of the one group that holds the position. The page is then read from the primary key,
 * at most a block of index entries past the block's first book.
 */
function farPage(sql: Sql, skip: number, limit: number, known: string) {
  return sql<PageRow[]>`
    with groups as (
      select grp, sum(live)::int4 as live from (${countRows(sql)}) counts group by 1
    ), start_group as (
      select grp, ${skip}::int8 - (upto - live) as offset_in_group
      from (select grp, live, sum(live) over (order by grp rows unbounded preceding) as upto from groups) running
      where upto > ${skip}::int8 order by grp limit 1
    ), start_block as (
      select running.block, start_group.offset_in_group - (running.upto - running.live) as offset_in_block
      from start_group, lateral (
        select block, live, sum(live) over (order by block rows unbounded preceding) as upto
        from (
          select block, sum(live::int4)::int4 as live from book_block_counts
          where block >= start_group.grp << ${GROUP_BITS} and block < (start_group.grp + 1) << ${GROUP_BITS}
          group by block
        ) blocks
      ) running
      where running.upto > start_group.offset_in_group order by running.block limit 1
    )
    select total.total, total.snapshot, page.id, page.title, page.author, page.year, page.created_at
    from (select coalesce(sum(live), 0)::int4 as total, ${snapshotKey(sql)} as snapshot from groups) total
    left join lateral (
      select b.seq, b.id, b.title, b.author, b.year, b.created_at
      from start_block, lateral (
        select seq, ${bookColumns(sql)} from books
        where seq >= start_block.block << ${BLOCK_BITS}
        order by seq offset start_block.offset_in_block limit ${limit}
      ) b
      -- OFFSET 0 keeps this a subquery of its own, where the condition is checked once, before the
      -- block is looked for; merged into the outer join it would be checked after.
      where total.snapshot is distinct from ${known}::text offset 0
    ) page on true
    order by page.seq`;
}

/** How many rows match in a random sample of SAMPLE_PERCENT of the table's pages. */
function sampledMatches(sql: ISql, matches: PendingQuery<Row[]>) {
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
function fewMatches(sql: ISql, matches: PendingQuery<Row[]>, skip: number, limit: number) {
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
function manyMatches(sql: ISql, matches: PendingQuery<Row[]>, skip: number, limit: number) {
  return sql<PageRow[]>`
    select counted.total, page.id, page.title, page.author, page.year, page.created_at
    from (select count(*)::int4 as total from books where ${matches}) counted
    left join lateral (
      select seq, ${bookColumns(sql)} from books
      where counted.total > ${skip}::int8 and ${matches} order by seq offset ${skip}::int8 limit ${limit}
    ) page on true
    order by page.seq`;
}

/** `snapshot`: the list statements' snapshot key (snapshot-page-cache.ts); search's have none. */
type PageRow = Partial<BookRow> & { total: number; snapshot?: string | null };

function pageOf(rows: readonly PageRow[], toBook: (row: BookRow) => Book): Slice {
  const items: Book[] = [];
  for (const row of rows) {
    if (row.id === undefined || row.id === null) continue;
    items.push(toBook(row as BookRow));
  }
  return { items, total: rows[0]?.total ?? 0 };
}
