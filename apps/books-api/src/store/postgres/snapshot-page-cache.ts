import type { ISql, PendingQuery, Row } from 'postgres';
import { sharedPage, type Slice } from '../book-store.js';
import { PageMemo } from '../page-memo.js';

/**
 * The database's MVCC snapshot as text, the key a page is cached under; null when no page may be
 * cached. In READ COMMITTED every statement runs with a snapshot of its own, and
 * pg_current_snapshot() returns that statement's (the active snapshot, xid8funcs.c): its lowest
 * running transaction (xmin), one past the newest ended transaction (xmax) and every top-level
 * transaction running between the two. A transaction's outcome never changes once it has ended, so two statements
 * whose snapshots are equal see exactly the same committed rows, and any commit anywhere, through
 * any replica of this service, gives every later statement a different snapshot (the committed
 * transaction leaves the running list or, if it began later, xmax moves past it). Not listed, and
 * not needed: subtransactions (a subtransaction's work is visible only once its top-level
 * transaction has committed, which changes the list) and this session's own transaction (a read
 * outside any transaction has none). A prepared transaction stays in the list until COMMIT
 * PREPARED.
 *
 * Two exceptions, for which the key is null: a hot standby, whose snapshots keep their running
 * transactions where pg_current_snapshot() does not show them (procarray.c, GetSnapshotData: "We
 * just leave the xip array empty"), so that equal text would not mean equal data; and transaction
 * ids used twice, which happens only across a failover to another server or a point-in-time
 * restore (both start a new postmaster, whose start time is part of the key) or after a crash
 * loses commits made with synchronous_commit off (never set by this service).
 */
export const snapshotKeySql = (sql: ISql): PendingQuery<Row[]> => sql`
  case when not pg_is_in_recovery()
    then pg_postmaster_start_time()::text || ' ' || pg_current_snapshot()::text end`;

interface CachedPage {
  readonly snapshot: string;
  readonly page: Slice;
}

/**
 * The page last read for each skip and limit, with the snapshot its statement ran with, so that a
 * page read again while the database's snapshot is the same is the same Slice object (a shared
 * page, whose JSON is remembered with it), as for the memory store's PageMemo. Whether
 * the snapshot is the same is asked of the database for every request (see snapshotKeySql), so a
 * page is never older than the request that gets it, whichever replica wrote last. A Slice
 * handed out is shared: nobody may change it.
 */
export class SnapshotPageCache {
  readonly #pages = new PageMemo<CachedPage>();

  get(skip: number, limit: number): CachedPage | undefined {
    return this.#pages.get(skip, limit);
  }

  /** Keeps `page`, read by a statement whose snapshot key was `snapshot` (null: forgets the page). */
  set(skip: number, limit: number, snapshot: string | null, page: Slice): void {
    // A new entry rather than the old one changed: a reader holding the old one across an await
    // keeps a snapshot and page that belong together.
    if (snapshot === null) this.#pages.delete(skip, limit);
    else this.#pages.set(skip, limit, { snapshot, page: sharedPage(page) });
  }
}
