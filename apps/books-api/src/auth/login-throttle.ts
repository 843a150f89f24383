import { createHash } from 'node:crypto';
import { clientAddressKey } from './client-address-key.js';

export interface LoginThrottleSettings {
  /** Failed logins allowed per (user name, client address) within the window. */
  readonly maxFailuresPerUsername: number;
  /** Failed logins allowed per client address within the window. */
  readonly maxFailuresPerClient: number;
  /**
   * Failed logins allowed per user name over all clients within the window: a ceiling for a
   * guessing campaign spread over many addresses, far above what one address may use, so one
   * attacker address cannot lock the user out from another.
   */
  readonly maxFailuresPerUsernameAllClients: number;
  readonly windowSeconds: number;
}

/** Who is trying to log in: the pair, the client and the user name are each counted on their own. */
export interface LoginAttemptKey {
  readonly username: string;
  /** The client address (request.ip: the socket's, or the forwarded one from a trusted proxy, TRUST_PROXY). */
  readonly client: string;
}

/** The counters one attempt touches. */
export type ThrottleCounter = 'pair' | 'client' | 'user';

/** A fixed-size digest of `parts`: JSON-encoded first, so no two different lists (names with spaces or U+0000 included) meet. */
function digest(...parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/**
 * The key of each counter an attempt touches, the same in every implementation. Keys are digests,
 * so a counter costs the same whatever the length of the user name an attacker sends, and the
 * names themselves are never kept. The client is counted by clientAddressKey (an IPv6 client by
 * its /64).
 */
export function throttleKeys({ username, client }: LoginAttemptKey): Record<ThrottleCounter, string> {
  const address = clientAddressKey(client);
  return {
    pair: `pair:${digest(address, username)}`,
    client: `client:${digest(address)}`,
    user: `user:${digest(username)}`,
  };
}

/** The limit of a counter. */
export function throttleLimit(settings: LoginThrottleSettings, counter: ThrottleCounter): number {
  switch (counter) {
    case 'pair':
      return settings.maxFailuresPerUsername;
    case 'client':
      return settings.maxFailuresPerClient;
    case 'user':
      return settings.maxFailuresPerUsernameAllClients;
  }
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
 * (one process for the memory one, every replica for a database one): either all three
 * counts (pair, client, user name) go up by one, or none does.
 */
export interface LoginThrottle {
  reserve(key: LoginAttemptKey): Promise<LoginReservation>;
  /** Gives back a granted reservation: the login succeeded or was never judged (a fault). */
  release(key: LoginAttemptKey): Promise<void>;
}

// Enough distinct keys that flooding random user names cannot cheaply evict a real
// user's counter (the per-client limit still applies to such a flood). Keys are digests of one
// size, so this bounds the counters' memory too.
const TRACKED_KEYS_PER_KIND = 50_000;

interface Window {
  count: number;
  /** Epoch milliseconds when this window's count is forgotten. */
  endsAt: number;
}

/**
 * Fixed windows that start at a key's first attempt, in a bounded map that forgets the oldest key
 * first. Every window is as long as the others and a key is (re)inserted when its window starts,
 * so the map holds the windows in the order they end: the ended ones are always at its front,
 * and each new window sweeps them away.
 */
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
    this.sweepEnded(now);
    this.windows.set(key, { count: 1, endsAt: now + this.windowMs });
    if (this.windows.size > this.capacity) {
      // Maps iterate in insertion order: the first key is the one whose window began longest ago.
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
  }

  /** Forgets the windows that ended; stops at the first live one, since the ones after it end later. */
  private sweepEnded(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.endsAt > now) return;
      this.windows.delete(key);
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
  const counters = (['pair', 'client', 'user'] as const).map(
    (counter) =>
      [counter, new WindowCounters(throttleLimit(settings, counter), windowMs, TRACKED_KEYS_PER_KIND)] as const,
  );

  return {
    async reserve(attempt) {
      const at = now();
      const keys = throttleKeys(attempt);
      const full = counters
        .map(([counter, windows]) => windows.isFull(keys[counter], at))
        .filter((w) => w !== undefined);
      if (full.length > 0) {
        const endsAt = Math.max(...full.map((window) => window.endsAt));
        return { granted: false, retryAfterSeconds: Math.max(1, Math.ceil((endsAt - at) / 1000)) };
      }
      for (const [counter, windows] of counters) windows.increment(keys[counter], at);
      return { granted: true };
    },
    async release(attempt) {
      const at = now();
      const keys = throttleKeys(attempt);
      for (const [counter, windows] of counters) windows.decrement(keys[counter], at);
    },
  };
}
