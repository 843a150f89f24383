/**
 * Gets by id that arrive while other gets are in flight, sent together as one statement.
 *
 * Why: at 50 concurrent gets the cost of a get in PostgreSQL mode is the statement, not the
 * lookup. The index lookup executes in 0.02-0.03 ms; around it each statement costs PostgreSQL
 * an executor start-up and its protocol messages, and the driver a query object, Bind/Execute/Sync
 * and a result, and the service, the database and the load generator share two cores. One
 * statement for the ids of many waiting gets pays that once for all of them.
 *
 * Adaptive, so that a lone get waits for nothing: a get is sent at once while fewer than
 * `statements` get statements are in flight (no timer, no added wait: one connection's latency is
 * unchanged). Otherwise it waits in a queue, and each time a get statement returns, the next
 * `batch` waiting gets (their distinct ids) go as one statement. Under load the batches grow by
 * themselves to the number of gets that arrived during one statement's round trip.
 *
 * Freshness: a statement is sent after every get in it arrived, and PostgreSQL takes a READ
 * COMMITTED statement's snapshot when it starts to run, so each get still sees every write that
 * returned before the get was asked for, from this process or any other replica.
 *
 * Errors: a statement that fails rejects every get in it with its error (the caller's `fetch`
 * already maps "cannot answer now" to StoreUnavailableError), and the next waiting gets are sent
 * all the same: no get waits for a statement that is not in flight.
 */
export interface GetBatcherOptions {
  /** Get statements in flight at once, at most; gets arriving past that wait for one to return. */
  statements: number;
  /** Distinct ids in one statement, at most. */
  batch: number;
}

interface Waiting<T> {
  id: string;
  resolve(answer: T | undefined): void;
  reject(error: unknown): void;
}

export class GetBatcher<T> {
  private inFlight = 0;
  private waiting: Waiting<T>[] = [];

  /**
   * @param fetch answers for the given distinct ids, in their order (undefined: none with that id).
   *   Called with one id when a get is sent alone.
   */
  constructor(
    private readonly fetch: (ids: readonly string[]) => Promise<readonly (T | undefined)[]>,
    private readonly options: GetBatcherOptions,
  ) {
    if (options.statements < 1 || options.batch < 1) throw new RangeError('statements and batch must be at least 1');
  }

  async get(id: string): Promise<T | undefined> {
    // The queue is only ever non-empty while every statement slot is taken (sendWaiting() fills a
    // slot as soon as one frees), so a free slot means nothing is waiting ahead of this get.
    if (this.inFlight >= this.options.statements) {
      return new Promise<T | undefined>((resolve, reject) => this.waiting.push({ id, resolve, reject }));
    }
    this.inFlight += 1;
    try {
      const [answer] = await this.fetch([id]);
      return answer;
    } finally {
      this.returned();
    }
  }

  private returned(): void {
    this.inFlight -= 1;
    if (this.waiting.length > 0) this.sendWaiting();
  }

  private sendWaiting(): void {
    const gets = this.waiting.length <= this.options.batch ? this.waiting : this.waiting.slice(0, this.options.batch);
    this.waiting = gets === this.waiting ? [] : this.waiting.slice(gets.length);
    // Each distinct id once (a popular book asked for by many at once is looked up once).
    const ids: string[] = [];
    const position = new Map<string, number>();
    const at = gets.map(({ id }) => {
      let index = position.get(id);
      if (index === undefined) {
        index = ids.push(id) - 1;
        position.set(id, index);
      }
      return index;
    });
    this.inFlight += 1;
    void this.answer(ids, gets, at);
  }

  /** Sends one statement for the waiting gets and settles each; never rejects. */
  private async answer(ids: readonly string[], gets: readonly Waiting<T>[], at: readonly number[]): Promise<void> {
    try {
      const answers = await this.fetch(ids);
      gets.forEach((get, index) => get.resolve(answers[at[index]!]));
    } catch (error) {
      for (const get of gets) get.reject(error);
    } finally {
      this.returned();
    }
  }
}
