import type { Fragment, Sql } from 'postgres';

/*
 * A store call's wait for the database, bounded in time: DATABASE_WAIT_TIMEOUT_MS (config.ts).
 *
 * Why a bound of our own: the driver (postgres 3.4.9) keeps a statement waiting while it
 * reconnects to a server that is down or restarting, as long as that takes (connection.ts spaces
 * its attempts at most a second apart), and a statement on a connection whose server vanished without closing it
 * waits for TCP to notice. Past the bound the call answers DatabaseWaitTimeout, which
 * database-errors.ts turns into the 503 `Database unavailable` with Retry-After.
 *
 * The abandoned statement is not cancelled: the driver's `query.cancel()` on a statement that is
 * the first of a connection being opened leaves that connection out of the pool for good once the
 * server answers (measured on 3.4.9), which would shrink the pool at every restart of the
 * database. A write instead carries `sentInTime()`, so that one the driver sends only after its
 * call ran out of time changes nothing.
 */

/** What a call that ran out of time rejects with (the cause of its StoreUnavailableError). */
export class DatabaseWaitTimeout extends Error {
  constructor(readonly waitMs: number) {
    super(`The database did not answer within ${waitMs} ms`);
    this.name = 'DatabaseWaitTimeout';
  }
}

/** The deadline of one call: expired once its wait is over and the call has been answered 503. */
export class WaitDeadline {
  #expired = false;

  get expired(): boolean {
    return this.#expired;
  }

  expire(): void {
    this.#expired = true;
  }

  /** The text of the sentInTime() parameter, read by the driver when it sends the statement. */
  toString(): string {
    return this.#expired ? 'false' : 'true';
  }
}

/** PostgreSQL's `text` type: the driver writes a text parameter as `'' + value`, which is toString(). */
const TEXT_OID = 25;

/**
 * A boolean for a write's condition: true when the statement reaches the database while its call
 * still waits for the answer, false when the driver sends it only after the call was answered 503
 * (it waited for a reconnect to a restarting server, say). The driver writes a statement's
 * parameters when it sends the statement (the Bind message), so the deadline is read then, not
 * when the statement is made. A write sent in time and still running when the wait ends may
 * complete all the same, as a write whose answer is lost on its way back does.
 */
export function sentInTime(sql: Sql, deadline: WaitDeadline): Fragment {
  return sql`${sql.typed(deadline, TEXT_OID)}::boolean`;
}

/**
 * `work`'s answer, or a DatabaseWaitTimeout once `waitMs` have passed, whichever comes first.
 * Undefined: no bound (tools and tests that build a store by hand).
 */
export async function withinWait<T>(
  waitMs: number | undefined,
  work: (deadline: WaitDeadline) => Promise<T>,
): Promise<T> {
  const deadline = new WaitDeadline();
  if (waitMs === undefined) return work(deadline);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      deadline.expire();
      reject(new DatabaseWaitTimeout(waitMs));
    }, waitMs);
  });
  try {
    // Raced, the abandoned call's own answer or error, if it comes later, is handled and ignored.
    return await Promise.race([work(deadline), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
