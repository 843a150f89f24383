import type { Sql } from 'postgres';
import { BLOCK_BITS, countRows, GROUP_BITS } from './block-counts.js';
import { bookColumns, madeOnce, type PageRow } from './book-rows.js';
import { snapshotKeySql } from './snapshot-page-cache.js';

/**
 * A page starting before this position is read by walking the primary key from the first book;
 * further ones find their block from the counts first. Walking up to a block of index entries (as
 * a far page does inside its block) measured cheaper than finding the block (docs/performance.md).
 */
const WALK_SKIP_BELOW = 1 << BLOCK_BITS;

/** The key a page is cached under: see snapshot-page-cache.ts. */
const snapshotKey = madeOnce(snapshotKeySql);

/**
 * A page, its total and its statement's snapshot key, from the statement that suits its position;
 * the total and the key alone when the key is `known` (the page read under it is kept).
 */
export function pageRows(sql: Sql, skip: number, limit: number, known = '') {
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
 * (a window function over every block of a million books was most of the request): first over the groups (countRows(), whose sum is also the total), then over
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
