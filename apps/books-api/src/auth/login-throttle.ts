import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';

export interface LoginThrottleSettings {
  /** Failed logins allowed per user name within the window. */
  readonly maxFailuresPerUsername: number;
  /** Failed logins allowed per client address within the window. */
  readonly maxFailuresPerClient: number;
  readonly windowSeconds: number;
}

export interface LoginThrottle {
  /** Throws 429 when the user name or the client has used up its failed attempts. */
  assertNotBlocked(request: FastifyRequest, username: string): Promise<void>;
  recordFailure(request: FastifyRequest, username: string): Promise<void>;
}

// Enough distinct keys that flooding random user names cannot cheaply evict a real
// user's counter (the per-client limit still applies to such a flood).
const TRACKED_KEYS = 50_000;

/**
 * Counts failed logins only, with @fastify/rate-limit's limiters (registered in the token
 * route's scope): a successful login costs nothing, so other users keep logging in while
 * one user name or one client is being blocked. The limiters are peeked before the
 * password check (`increment: false`) and incremented after a failure.
 */
export function createLoginThrottle(scope: FastifyInstance, settings: LoginThrottleSettings): LoginThrottle {
  const usernames = new WeakMap<FastifyRequest, string>();
  // `cache` sizes each limiter's own LRU store (typed on RateLimitOptions, honoured by createRateLimit too).
  const common: RateLimitOptions = { timeWindow: settings.windowSeconds * 1000, cache: TRACKED_KEYS };
  const limiters = [
    scope.createRateLimit({
      ...common,
      max: settings.maxFailuresPerUsername,
      keyGenerator: (req) => usernames.get(req) ?? '',
    }),
    scope.createRateLimit({ ...common, max: settings.maxFailuresPerClient }),
  ];

  return {
    async assertNotBlocked(request, username) {
      usernames.set(request, username);
      for (const limiter of limiters) {
        const state = await limiter(request, { increment: false });
        if (!state.isAllowed && state.remaining === 0) {
          const retryAfter = Math.max(1, state.ttlInSeconds);
          throw new HttpError(429, `Too many failed login attempts; try again in ${retryAfter} seconds`, {
            'Retry-After': String(retryAfter),
          });
        }
      }
    },
    async recordFailure(request, username) {
      usernames.set(request, username);
      for (const limiter of limiters) await limiter(request);
    },
  };
}
