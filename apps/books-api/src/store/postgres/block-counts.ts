import type { Sql } from 'postgres';
import { madeOnce } from './book-rows.js';

/*
 * The shard of a block's live count (see migrations/0001_books.sql) that a write changes is
 * `1 + pg_backend_pid() % 32749`, one per database session: concurrent writers never wait for each
 * other's row lock, which is held until commit, through the WAL flush. Live sessions of one server
 * have distinct pids, and 32 749 (a prime; 32 750 still fits a smallint) keeps them apart unless
 * two differ by a multiple of it; a collision only makes those two queue, the sum stays exact. A
 * block gets a row per session that wrote to it, and compactCounts() folds them into the block's
 * shard 0 once it is behind the two newest. Writes never use shard 0: its rows are also counted by
 * group (migrations/0004_book_group_counts.sql), through a trigger that a write to another shard
 * does not fire. With a few random shards, concurrent writers spent much of their time waiting for
 * one another (Lock:transactionid in pg_stat_activity).
 */
/** A block is 2^BLOCK_BITS consecutive seq values. */
export const BLOCK_BITS = 10;
export const BLOCK_SIZE = 1 << BLOCK_BITS;

/**
 * A group is 2^GROUP_BITS consecutive blocks. `book_group_counts` holds each group's compacted
 * count (its blocks' shard-0 rows), kept by a trigger that writes `block >> 5`: change both together.
 * The total and a far page's first step read the group rows and the few block rows of other shards
 * (countRows()) instead of every block's.
 */
export const GROUP_BITS = 5;

/** The shard of the block counts that this session writes (see the comment at the top): never 0. */
export const sessionShard = madeOnce((sql) => sql`1 + pg_backend_pid() % 32749`);

/**
 * Rows `(grp, live)` whose `live` sum to the exact total, and by `grp` to each group's count: the
 * group rows (compacted counts) and the block rows of shards other than 0 (not yet compacted: the
 * newest blocks' writers, recent deletes), which a partial index finds. At a million books, 31 rows
 * and the shard rows, where the block rows are about a thousand. `live::int4` keeps the sums in
 * integers (a bigint's sum is a numeric, several times slower); a group holds at most 2^15 books.
 */
export const countRows = madeOnce(
  (sql) => sql`
    select grp, live::int4 as live from book_group_counts
    union all
    select block >> ${GROUP_BITS}, live::int4 from book_block_counts where shard <> 0`,
);

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
 * Folds the shards of every block older than the two newest into one row each, so the running
 * sum reads about one row per block; the trigger of migrations/0004 adds what reaches shard 0 to
 * the group counts, in this statement. Writers to those blocks are rare (deletes), and a writer
 * racing this simply adds a new shard row: the sum stays exact.
 */
export async function compactBlockCounts(sql: Sql): Promise<void> {
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
}
