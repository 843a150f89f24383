import { StoreUnavailableError } from '../book-store.js';
import { DatabaseWaitTimeout, withinWait, type WaitDeadline } from './database-wait.js';

/**
 * Errors that mean "the database cannot answer now" rather than "this request is wrong": the
 * server is unreachable or restarting, the connection broke, the statement ran out of time, or
 * the server is out of connections. They become a StoreUnavailableError (a 503 that recovers on
 * its own); anything else is a bug and stays what it is.
 */
const UNAVAILABLE_SQLSTATE_CLASSES = ['08', '40', '53', '57', '58'];
const UNAVAILABLE_CLIENT_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOENT', // a unix socket that is not there (yet)
]);

export const UNIQUE_VIOLATION = '23505';

export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError || error instanceof DatabaseWaitTimeout) return true;
  const code = errorCode(error);
  if (code === undefined) return false;
  if (UNAVAILABLE_CLIENT_CODES.has(code)) return true;
  return /^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_SQLSTATE_CLASSES.includes(code.slice(0, 2));
}

/**
 * Runs a database call for at most `waitMs` (database-wait.ts), turning "cannot answer now", and
 * running out of time, into StoreUnavailableError.
 */
export async function unlessUnavailable<T>(
  waitMs: number | undefined,
  work: (deadline: WaitDeadline) => Promise<T>,
): Promise<T> {
  try {
    return await withinWait(waitMs, work);
  } catch (error) {
    if (isUnavailable(error)) throw new StoreUnavailableError(error);
    throw error;
  }
}
