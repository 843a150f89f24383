/**
 * Concurrent reads that one statement can answer together: gets by id (the ids of many gets in one
 * statement) and page reads (every request for the same page answered by one statement).
 *
 * Why: at 50 concurrent requests the cost of a short read in PostgreSQL mode is the statement, not
 * the work it does. A get's index lookup is short, and a page whose snapshot is the kept one
 * reads no book (snapshot-page-cache.ts); around that each statement costs PostgreSQL an
 * executor start-up and its protocol messages, and the driver a query object, Bind/Execute/Sync and
 * a result, and the service, the database and the load generator share two cores. One statement for
 * many waiting reads pays that once for all of them.
 *
 * Each read has a key, what it asks for (reads with equal keys get the same answer), and a lane,
 * whose statement slots it takes. Adaptive, so that a lone read waits for nothing: a read is sent
 * at once while fewer than `statements` statements of its lane are in flight (no timer, no added
 * wait: one connection's latency is unchanged). Otherwise it waits in its lane, and each time one
 * of the lane's statements returns, the reads waiting for the lane's first `batch` distinct keys
 * (in the order they arrived) go as one statement, each key once, and each read is answered with
 * its key's answer. Under load the statements grow by themselves to the reads that arrived during
 * one statement's round trip. Gets share one lane (a statement holds many ids); each page has a lane
 * of its own (a statement reads one page), so different pages never wait for each other.
 *
 * Freshness: a statement is sent after every read in it arrived, and PostgreSQL takes a READ
 * COMMITTED statement's snapshot when it starts to run, so each read still sees every write that
 * returned before the read was asked for, from this process or any other replica. A read that
 * arrives while a statement for its key is in flight waits for the next one: the one in flight may
 * have taken its snapshot before the read arrived.
 *
 * Errors: a statement that fails rejects every read in it with its error (the caller's `fetch`
 * already maps "cannot answer now" to StoreUnavailableError), and the next waiting reads are sent
 * all the same: no read waits for a statement that is not in flight.
 */
interface ReadCoalescerOptions<Q> {
  /** Statements of one lane in flight at once, at most; reads arriving past that wait for one to return. */
  statements: number;
  /** Distinct keys in one statement, at most. */
  batch: number;
  /** What a read asks for: reads with equal keys are answered by one answer. */
  key(query: Q): string;
  /** The lane whose slots a read takes; default: one lane for every read. */
  lane?(query: Q): string;
}

interface Waiting<Q, T> {
  query: Q;
  key: string;
  resolve(answer: T): void;
  reject(error: unknown): void;
}

interface Lane<Q, T> {
  name: string;
  inFlight: number;
  waiting: Waiting<Q, T>[];
}

export class ReadCoalescer<Q, T> {
  /** The lanes with a statement in flight; a lane goes when its last statement returns. */
  private readonly lanes = new Map<string, Lane<Q, T>>();

  /**
   * @param fetch answers for the given queries, one per distinct key, in their order. Called with
   *   one query when a read is sent alone.
   */
  constructor(
    private readonly fetch: (queries: readonly Q[]) => Promise<readonly T[]>,
    private readonly options: ReadCoalescerOptions<Q>,
  ) {
    if (options.statements < 1 || options.batch < 1) throw new RangeError('statements and batch must be at least 1');
  }

  async read(query: Q): Promise<T> {
    const name = this.options.lane?.(query) ?? '';
    let lane = this.lanes.get(name);
    if (lane === undefined) {
      lane = { name, inFlight: 0, waiting: [] };
      this.lanes.set(name, lane);
    }
    // A lane's queue is only ever non-empty while all its slots are taken (sendWaiting() fills a
    // slot as soon as one frees), so a free slot means nothing is waiting ahead of this read.
    if (lane.inFlight >= this.options.statements) {
      const waiting = lane.waiting;
      const key = this.options.key(query);
      return new Promise<T>((resolve, reject) => waiting.push({ query, key, resolve, reject }));
    }
    lane.inFlight += 1;
    try {
      const [answer] = await this.fetch([query]);
      return answer as T;
    } finally {
      this.returned(lane);
    }
  }

  private returned(lane: Lane<Q, T>): void {
    lane.inFlight -= 1;
    if (lane.waiting.length > 0) this.sendWaiting(lane);
    // Lanes keyed by page would otherwise pile up, one per skip and limit ever asked for.
    else if (lane.inFlight === 0) this.lanes.delete(lane.name);
  }

  private sendWaiting(lane: Lane<Q, T>): void {
    const queries: Q[] = [];
    const position = new Map<string, number>();
    const reads: Waiting<Q, T>[] = [];
    const at: number[] = [];
    const kept: Waiting<Q, T>[] = [];
    for (const read of lane.waiting) {
      let index = position.get(read.key);
      if (index === undefined && queries.length < this.options.batch) {
        index = queries.push(read.query) - 1;
        position.set(read.key, index);
      }
      if (index === undefined) {
        kept.push(read);
      } else {
        reads.push(read);
        at.push(index);
      }
    }
    lane.waiting = kept;
    lane.inFlight += 1;
    void this.answer(lane, queries, reads, at);
  }

  /** Sends one statement for the waiting reads and settles each; never rejects. */
  private async answer(
    lane: Lane<Q, T>,
    queries: readonly Q[],
    reads: readonly Waiting<Q, T>[],
    at: readonly number[],
  ): Promise<void> {
    try {
      const answers = await this.fetch(queries);
      reads.forEach((read, index) => read.resolve(answers[at[index]!] as T));
    } catch (error) {
      for (const read of reads) read.reject(error);
    } finally {
      this.returned(lane);
    }
  }
}
