import type { Sql } from 'postgres';
import { StoreNotReadyError, StoreUnavailableError } from '../store/book-store.js';
import { unlessUnavailable } from '../store/postgres/database-errors.js';
import { sentInTime, type WaitDeadline } from '../store/postgres/database-wait.js';
import {
  throttleKeys,
  throttleLimit,
  type LoginAttemptKey,
  type LoginReservation,
  type LoginThrottle,
  type LoginThrottleSettings,
  type ThrottleCounter,
} from './login-throttle.js';

/** About one reservation in this many also deletes windows that ended, so the table stays small. */
const CLEANUP_ONE_IN = 100;

interface PostgresLoginThrottleOptions {
  /** False until the migrations are applied: the throttle then answers StoreUnavailableError. */
  isReady: () => boolean;
  /** How long a call may wait for the database before it answers 503 (DATABASE_WAIT_TIMEOUT_MS); default: as long as it takes. */
  waitTimeoutMs?: number;
  random?: () => number;
}

/**
 * The login throttle every replica shares: the memory throttle's fixed windows (starting at a key's
 * first counted attempt), kept in `login_failures` and timed by the database clock. A reservation is
 * one transaction that locks the rows of the user name and of the client (in a fixed order, so two
 * reservations never deadlock), checks both limits and counts both or neither: exact however many
 * replicas reserve at once.
 */
export function createPostgresLoginThrottle(
  sql: Sql,
  settings: LoginThrottleSettings,
  options: PostgresLoginThrottleOptions,
): LoginThrottle {
  const random = options.random ?? Math.random;
  const keysOf = (attempt: LoginAttemptKey) => sql.array(Object.values(throttleKeys(attempt)));
  const limitOf = (key: string) => throttleLimit(settings, key.slice(0, key.indexOf(':')) as ThrottleCounter);
  const run = <T>(work: (deadline: WaitDeadline) => Promise<T>): Promise<T> => {
    if (!options.isReady()) throw new StoreNotReadyError();
    return unlessUnavailable(options.waitTimeoutMs, work);
  };

  return {
    async reserve(key) {
      const keys = keysOf(key);
      return run((deadline) =>
        sql.begin(async (tx): Promise<LoginReservation> => {
          // Its login was answered 503 while this waited for a connection: roll back, count nothing.
          if (deadline.expired) throw new StoreUnavailableError();
          // Creates missing rows and restarts ended windows, locking the attempt's rows
          // until commit, in key order, so reservations never deadlock.
          const rows = await tx<{ key: string; failures: number; seconds_left: number }[]>`
            insert into login_failures (key, failures, window_ends_at)
            select k, 0, now() + make_interval(secs => ${settings.windowSeconds}) from unnest(${keys}::text[]) as k order by k
            on conflict (key) do update set
              failures = case when login_failures.window_ends_at <= now() then 0 else login_failures.failures end,
              window_ends_at = case when login_failures.window_ends_at <= now()
                then excluded.window_ends_at else login_failures.window_ends_at end
            returning key, failures, extract(epoch from window_ends_at - now())::float8 as seconds_left`;
          const full = rows.filter((row) => row.failures >= limitOf(row.key));
          if (full.length > 0) {
            // now() is this transaction's start: after waiting on another replica's lock, a window that
            // replica opened can look longer than the window itself. Retry-After never exceeds it.
            const secondsLeft = Math.min(settings.windowSeconds, Math.max(...full.map((row) => row.seconds_left)));
            return { granted: false, retryAfterSeconds: Math.max(1, Math.ceil(secondsLeft)) };
          }
          await tx`update login_failures set failures = failures + 1 where key = any(${keys}::text[])`;
          if (random() * CLEANUP_ONE_IN < 1) await tx`delete from login_failures where window_ends_at < now()`;
          return { granted: true };
        }),
      );
    },
    async release(key) {
      const keys = keysOf(key);
      await run(
        (deadline) => sql`
          update login_failures set failures = failures - 1
          where key = any(${keys}::text[]) and failures > 0 and window_ends_at > now()
            and ${sentInTime(sql, deadline)}`,
      );
    },
  };
}
