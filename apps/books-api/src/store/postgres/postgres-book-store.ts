import { randomInt, randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import type { BookCreate, BookUpdate } from '../../schemas/book.js';
import type { Book, BookStore, Slice } from '../book-store.js';
import { searchFold } from '../search-fold.js';
import { parseUuid } from '../../validation/uuid.js';
import { BLOCK_BITS, BLOCK_SIZE, compactBlockCounts, countRows, sessionShard } from './block-counts.js';
import { assertStorable, asStored, bookColumns, pageOf, type BookRow } from './book-rows.js';
import { DatabaseCalls } from './database-calls.js';
import { errorCode, UNIQUE_VIOLATION } from './database-errors.js';
import { sentInTime, type WaitDeadline } from './database-wait.js';
import { pageRows } from './page-queries.js';
import { PendingListCleaner } from './pending-list-cleaner.js';
import { ReadCoalescer } from './read-coalescer.js';
import { RecentBooks } from './recent-books.js';
import {
  fewMatches,
  manyMatches,
  SAMPLED_MATCHES_UP_TO,
  sampledMatches,
  searchCondition,
  SORT_MATCHES_UP_TO,
  withoutTrigram,
} from './search-queries.js';
import { SnapshotPageCache } from './snapshot-page-cache.js';

/*
 * The orchestrating store: read coalescing, the caches and the statements of the modules beside
 * it (block-counts.ts, page-queries.ts, search-queries.ts, book-rows.ts, recent-books.ts), sent
 * through database-calls.ts (readiness, the reader pools, the bounded wait).
 */

/**
 * Concurrent gets share statements (read-coalescer.ts): one get statement in flight per reader pool
 * (at least two), and at most GET_BATCH distinct ids in one. Measured at 50 and 200 concurrent
 * callers (docs/performance.md, "Concurrent gets in one statement"): two statements in flight per
 * reader answered no faster and cost more CPU per get (smaller batches); smaller batches cost more
 * CPU per get, and larger ones were no better.
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
 * (pending-list-cleaner.ts): the writes of that while share one move, which costs the database
 * less per book than inserting each book's entries straight into the index (docs/performance.md,
 * "The search index's pending list").
 */
const PENDING_LIST_DELAY_MS = 50;
/**
 * The transaction-level advisory lock under which one process at a time moves the pending entries:
 * a replica that finds it taken leaves the move to the holder and tries again later, instead of
 * queuing a pool connection behind it. A fixed number no other code uses.
 */
const PENDING_LIST_LOCK_KEY = 4_217_790_114;

export interface PostgresBookStoreOptions {
  now?: () => Date;
  newId?: () => string;
  /**
   * Pools for the short reads (get, a page, the count), the least busy first; default: the main pool.
   * See connectPools() in connection.ts for why.
   */
  readers?: readonly Sql[];
  /** How long a call may wait for the database before it answers 503 (DATABASE_WAIT_TIMEOUT_MS); default: as long as it takes. */
  waitTimeoutMs?: number;
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
  private readonly calls: DatabaseCalls;
  private readonly now: () => Date;
  private readonly newId: () => string;
  private readonly recent = new RecentBooks();
  private readonly toBook = (row: BookRow): Book => this.recent.book(row);
  private readonly pages = new SnapshotPageCache();
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
    const readers = options.readers ?? [];
    this.calls = new DatabaseCalls(sql, readers, options.waitTimeoutMs);
    this.gets = new ReadCoalescer((ids) => this.getMany(ids), {
      statements: Math.max(MIN_GET_STATEMENTS, readers.length * GET_STATEMENTS_PER_READER),
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
    this.calls.markReady();
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
    return this.calls.isReady();
  }

  /**
   * Alone, one statement as before; while a statement for the same page is in flight, with the
   * requests for that page that arrive meanwhile, in the next statement for it (read-coalescer.ts,
   * which says why a page is still never older than its request).
   */
  async list(skip: number, limit: number): Promise<Slice> {
    return this.calls.bounded(() => this.pageReads.read({ skip, limit }));
  }

  /**
   * A page read before is answered again, the same Slice, when the database's snapshot is still
   * the one its statement ran with (snapshot-page-cache.ts). The page statement is sent with that
   * snapshot's key and reads no book when its own snapshot has the same key, so a page costs one
   * statement whether it changed or not.
   */
  private readPage({ skip, limit }: PageQuery): Promise<Slice> {
    return this.calls.read(async (sql) => {
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
    return this.calls.run(async (sql) => {
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
    this.calls.assertReady();
    // The routes only pass valid UUIDs. Text that is none names no book (as in the memory store),
    // and must not reach a statement, where it would fail every get batched with it.
    const uuid = parseUuid(id);
    if (!uuid.ok) return undefined;
    return this.calls.bounded(() => this.gets.read(uuid.value));
  }

  /**
   * The books with these distinct ids (canonical text, from parseUuid), in their order. One id is
   * the statement a get always was; more are one statement with the ids as one parameter of type
   * uuid[], the column's type (`id = any(...)`: a bitmap scan of `books_id_key` for the ids in
   * turn). It answers a row per id found, matched back by its id, which PostgreSQL writes in the
   * same canonical form. `unnest(...) with ordinality` joined to books cost as much (measured).
   */
  private getMany(ids: readonly string[]): Promise<(Book | undefined)[]> {
    return this.calls.read(async (sql) => {
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
    return this.calls.run(async (sql, deadline) => {
      try {
        return await this.insert(sql, deadline, this.newId(), input);
      } catch (error) {
        // A random UUID that is already taken: draw another rather than fail the request.
        if (errorCode(error) === UNIQUE_VIOLATION) return this.insert(sql, deadline, this.newId(), input);
        throw error;
      }
    });
  }

  async update(id: string, changes: BookUpdate): Promise<Book | undefined> {
    if (changes.title === undefined && changes.author === undefined && changes.year === undefined) return this.get(id);
    assertStorable(changes);
    return this.calls.run(async (sql, deadline) => {
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
        where id = ${id} and ${sentInTime(sql, deadline)}
        returning ${bookColumns(sql)}`;
      if (row) this.pendingList.noteWrite();
      return row && this.toBook(row);
    });
  }

  async delete(id: string): Promise<boolean> {
    return this.calls.run(async (sql, deadline) => {
      const [row] = await sql<{ deleted: number }[]>`
        with deleted as (
          delete from books where id = ${id} and ${sentInTime(sql, deadline)} returning seq
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
    return this.calls.read(async (sql) => {
      const [row] = await sql<{ total: number }[]>`
        select coalesce(sum(live), 0)::int as total from (${countRows(sql)}) counts`;
      return row?.total ?? 0;
    });
  }

  async randomBook(): Promise<Book | undefined> {
    return this.calls.bounded(async () => {
      // A concurrent delete can empty the drawn position: draw again a few times.
      for (let attempt = 0; attempt < 3; attempt++) {
        const total = await this.count();
        if (total === 0) return undefined;
        // Not through list(): random pages would crowd the cached ones out.
        const [row] = await this.calls.read((sql) => pageRows(sql, randomInt(total), 1));
        const book = row && pageOf([row], this.toBook).items[0];
        if (book) return book;
      }
      return undefined;
    });
  }

  /** Folds the block counts' shards (compactBlockCounts in block-counts.ts). */
  async compactCounts(): Promise<void> {
    await this.calls.run(compactBlockCounts);
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

  private async insert(sql: Sql, deadline: WaitDeadline, id: string, input: BookCreate): Promise<Book> {
    const createdAt = this.now();
    // The book is built from what was sent rather than read back: a Date has whole milliseconds,
    // which timestamptz keeps exactly, and text and integers come back as they went. Reading the row
    // back cost the driver a row of six columns and a timestamp parse per create.
    const [row] = await sql<{ first_of_block: boolean }[]>`
      with inserted as (
        insert into books (id, title, author, year, created_at, title_key, author_key)
        select ${id}, ${input.title}, ${input.author}, ${input.year}, ${createdAt},
               ${searchFold(input.title)}, ${searchFold(input.author)}
        where ${sentInTime(sql, deadline)}
        returning seq
      ), counted as (
        insert into book_block_counts (block, shard, live)
        select seq >> ${BLOCK_BITS}, ${sessionShard(sql)}, 1 from inserted
        on conflict (block, shard) do update set live = book_block_counts.live + 1
      )
      select (seq & ${BLOCK_SIZE - 1}) = 0 as first_of_block from inserted`;
    // No row: sent too late (sentInTime), and its request already answered 503.
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
}
