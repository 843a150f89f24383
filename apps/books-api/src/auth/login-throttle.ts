export interface LoginThrottleSettings {
  /** Failed logins allowed per user name within the window. */
  readonly maxFailuresPerUsername: number;
  /** Failed logins allowed per client address within the window. */
  readonly maxFailuresPerClient: number;
  readonly windowSeconds: number;
}

/** Who is trying to log in: each is counted on its own. */
export interface LoginAttemptKey {
  readonly username: string;
  /** The client address (request.ip). */
  readonly client: string;
}

export type LoginReservation =
  | { readonly granted: true }
  /** The user name or the client has used up its attempts; nothing was counted. */
  | { readonly granted: false; readonly retryAfterSeconds: number };

/**
 * Brute-force protection for POST /token. An attempt is reserved before the password is
 * checked, so a burst of parallel logins cannot get more password checks than the limit
 * however it interleaves; a successful login gives its slot back, so only failures (and
 * attempts still being checked) count.
 *
 * Implementations must make `reserve` atomic across everything that shares the counters
 * (one process for the memory one, every replica for a database one): either both the user
 * name's and the client's count go up by one, or neither does.
 */
export interface LoginThrottle {
  reserve(key: LoginAttemptKey): Promise<LoginReservation>;
  /** Gives back a granted reservation: the login succeeded or was never judged (a fault). */
  release(key: LoginAttemptKey): Promise<void>;
}

// Enough distinct keys that flooding random user names cannot cheaply evict a real
// user's counter (the per-client limit still applies to such a flood).
const TRACKED_KEYS_PER_KIND = 50_000;

interface Window {
  count: number;
  /** Epoch milliseconds when this window's count is forgotten. */
  endsAt: number;
}

/** Fixed windows that start at a key's first attempt, in a bounded map that forgets the oldest key first. */
class WindowCounters {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly capacity: number,
  ) {}

  /** The live window of `key`, or undefined when it has none (or it ended). */
  current(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    if (window === undefined) return undefined;
    if (window.endsAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  isFull(key: string, now: number): Window | undefined {
    const window = this.current(key, now);
    return window !== undefined && window.count >= this.limit ? window : undefined;
  }

  increment(key: string, now: number): void {
    const window = this.current(key, now);
    if (window !== undefined) {
      window.count += 1;
      return;
    }
    this.windows.set(key, { count: 1, endsAt: now + this.windowMs });
    if (this.windows.size > this.capacity) {
      // Maps iterate in insertion order: the first key is the one whose window began longest ago.
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
  }

  decrement(key: string, now: number): void {
    const window = this.current(key, now);
    if (window !== undefined && window.count > 0) window.count -= 1;
  }
}

/**
 * The single-process throttle: the counters live in this process's memory, and reserve runs
 * without awaiting anything in between the checks and the increments, so it is atomic.
 */
export function createMemoryLoginThrottle(
  settings: LoginThrottleSettings,
  now: () => number = Date.now,
): LoginThrottle {
  const windowMs = settings.windowSeconds * 1000;
  const usernames = new WindowCounters(settings.maxFailuresPerUsername, windowMs, TRACKED_KEYS_PER_KIND);
  const clients = new WindowCounters(settings.maxFailuresPerClient, windowMs, TRACKED_KEYS_PER_KIND);

  return {
    async reserve({ username, client }) {
      const at = now();
      const full = [usernames.isFull(username, at), clients.isFull(client, at)].filter((w) => w !== undefined);
      if (full.length > 0) {
        const endsAt = Math.max(...full.map((window) => window.endsAt));
        return { granted: false, retryAfterSeconds: Math.max(1, Math.ceil((endsAt - at) / 1000)) };
      }
      usernames.increment(username, at);
      clients.increment(client, at);
      return { granted: true };
    },
    async release({ username, client }) {
      const at = now();
      usernames.decrement(username, at);
      clients.decrement(client, at);
    },
  };
}
