import 'server-only';
import { InvalidRequestError, PlatformError } from '../model/errors';

/** 422: the key was used before with a different request; replaying the old answer would mislead. */
export class IdempotencyKeyReusedError extends PlatformError {
  override readonly status = 422;
}

/** The same rule as X-Request-ID: 1-128 visible ASCII characters. */
const ACCEPTABLE_KEY = /^[\x21-\x7e]{1,128}$/;

interface Entry<T> {
  fingerprint: string;
  outcome: Promise<T>;
  expiresAt: number;
}

export interface IdempotencyOptions {
  /** How long a key is honoured after its first use. */
  ttlMs: number;
  /** At most this many keys are remembered; the oldest go first. */
  maxEntries: number;
  now?: () => number;
}

/**
 * Remembers the outcome of an operation per key for a bounded time, so a repeated request (a
 * double click, a retried POST) gets the first answer instead of running again. A request still
 * in flight is joined, not repeated. Failures are forgotten at once so the caller can retry.
 * Keys are scoped by the caller's identity: another person's key never replays to you.
 */
export function createIdempotencyStore<T>({ ttlMs, maxEntries, now = Date.now }: IdempotencyOptions) {
  const entries = new Map<string, Entry<T>>();

  const forgetExpired = (at: number) => {
    for (const [key, entry] of entries) if (entry.expiresAt <= at) entries.delete(key);
  };

  return {
    /** Runs `operation` once per (scope, key); `replayed` says whether this answer is a remembered one. */
    async run(
      scope: string,
      rawKey: string,
      fingerprint: string,
      operation: () => Promise<T>,
    ): Promise<{ value: T; replayed: boolean }> {
      if (!ACCEPTABLE_KEY.test(rawKey)) {
        throw new InvalidRequestError('Idempotency-Key must be 1-128 visible ASCII characters');
      }
      const at = now();
      forgetExpired(at);
      const key = `${scope}\n${rawKey}`;
      const existing = entries.get(key);
      if (existing) {
        if (existing.fingerprint !== fingerprint) {
          throw new IdempotencyKeyReusedError(
            'This Idempotency-Key was already used with a different request; use a new key for a new request',
          );
        }
        return { value: await existing.outcome, replayed: true };
      }
      const outcome = operation();
      entries.set(key, { fingerprint, outcome, expiresAt: at + ttlMs });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      try {
        return { value: await outcome, replayed: false };
      } catch (error) {
        entries.delete(key);
        throw error;
      }
    },
  };
}
