/**
 * Moves the search index's pending entries (migrations/0005) into the index proper, in the
 * background, a while after the writes that added them: one move for every write in that while,
 * so that each posting list is re-encoded once for all of them rather than once for each write.
 *
 * At most one move is in flight per process, and one is scheduled only while writes keep coming:
 * an idle service sends nothing. A move that fails (the database is down) is simply dropped; the
 * next write schedules another, and until then the index stays exact (a search reads the pending
 * list too) and the list stays bounded (the write that finds it past its limit moves it itself).
 */
export class PendingListCleaner {
  #timer: NodeJS.Timeout | undefined;
  #moving: Promise<void> | undefined;
  /** A write was noted after the scheduled or running move began. */
  #written = false;
  #stopped = false;

  /**
   * @param move moves the pending entries; resolves false when it did not (another process was
   *   moving them), so that this process tries again for its own writes.
   * @param delayMs how long after a write its move starts.
   */
  constructor(
    private readonly move: () => Promise<boolean>,
    private readonly delayMs: number,
  ) {}

  /** A write that may have added pending entries has returned. */
  noteWrite(): void {
    if (this.#stopped) return;
    this.#written = true;
    if (this.#timer === undefined && this.#moving === undefined) this.#schedule();
  }

  /** Resolves once no move is in flight and none will be scheduled again. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#moving;
  }

  /** Resolves once every noted write's move has run (for tests and benchmarks). */
  async settled(): Promise<void> {
    while (this.#timer !== undefined || this.#moving !== undefined) {
      await (this.#moving ?? new Promise((resolve) => setTimeout(resolve, this.delayMs)));
    }
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#moving = this.#run();
    }, this.delayMs);
    // A pending move never keeps a process alive that has nothing else to do.
    this.#timer.unref();
  }

  async #run(): Promise<void> {
    this.#written = false;
    let moved = true;
    try {
      moved = await this.move();
    } catch {
      // Nothing to do: see the class comment.
    }
    this.#moving = undefined;
    if (!moved) this.#written = true;
    if (this.#written && !this.#stopped) this.#schedule();
  }
}
