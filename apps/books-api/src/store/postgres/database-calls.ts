import type { Sql } from 'postgres';
import { StoreNotReadyError } from '../book-store.js';
import { unlessUnavailable } from './database-errors.js';
import type { WaitDeadline } from './database-wait.js';

/**
 * How the PostgreSQL store's calls reach the database: only once the migrations are applied
 * (before, StoreNotReadyError), short reads on the least busy reader pool, everything else on
 * the main pool, and each call bounded by DATABASE_WAIT_TIMEOUT_MS (database-wait.ts), with
 * "cannot answer now" answered as StoreUnavailableError (database-errors.ts).
 */
export class DatabaseCalls {
  private ready = false;
  private readonly readers: readonly Sql[];
  /** Reads sent and not yet answered, per reader pool (see read()). */
  private readonly readsInFlight: number[];

  /**
   * @param readers pools for the short reads (get, a page, the count), the least busy first;
   *   empty: the main pool (see connectPools() in connection.ts)
   * @param waitMs how long a call may wait for the database; undefined: as long as it takes
   */
  constructor(
    readonly main: Sql,
    readers: readonly Sql[],
    private readonly waitMs: number | undefined,
  ) {
    this.readers = readers.length > 0 ? readers : [main];
    this.readsInFlight = this.readers.map(() => 0);
  }

  markReady(): void {
    this.ready = true;
  }

  isReady(): boolean {
    return this.ready;
  }

  /** Throws StoreNotReadyError until markReady(). */
  assertReady(): void {
    if (!this.ready) throw new StoreNotReadyError();
  }

  /**
   * A whole call's wait, bounded: for a coalesced read (read-coalescer.ts) its wait for the
   * statement in flight before its own is part of it.
   */
  bounded<T>(work: (deadline: WaitDeadline) => Promise<T>): Promise<T> {
    this.assertReady();
    return unlessUnavailable(this.waitMs, work);
  }

  /** A call on the main pool, bounded; a write puts sentInTime(sql, deadline) in its condition. */
  run<T>(work: (sql: Sql, deadline: WaitDeadline) => Promise<T>): Promise<T> {
    return this.bounded((deadline) => work(this.main, deadline));
  }

  /**
   * A short read on the reader pool with the fewest reads in flight, the first on a tie, bounded:
   * a coalescer lane whose statement never answers is freed too. Each statement takes its own
   * snapshot, so a read sees every write that returned before it started, whichever pool wrote
   * it. Under concurrent reads both connections stay busy, as when they took turns; reads one at
   * a time all go to one connection, whose backend is then the one that ran the last read, which
   * answers sooner than taking turns (docs/performance.md).
   */
  async read<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    this.assertReady();
    let reader = 0;
    for (let index = 1; index < this.readers.length; index++) {
      if (this.readsInFlight[index]! < this.readsInFlight[reader]!) reader = index;
    }
    const sql = this.readers[reader]!;
    this.readsInFlight[reader]! += 1;
    try {
      return await unlessUnavailable(this.waitMs, () => work(sql));
    } finally {
      this.readsInFlight[reader]! -= 1;
    }
  }
}
