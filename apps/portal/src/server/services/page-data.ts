import 'server-only';
import { connection } from 'next/server';
import { logger } from '../runtime/logger';
import { PlatformError } from '../model/errors';

export type Loaded<T> = { ok: true; value: T } | { ok: false; status: number; message: string };

/**
 * Loads platform data for a page at request time. A platform error (cluster unreachable,
 * forbidden...) becomes a message the page shows in place, with a retry, instead of a blank
 * error page whose text production builds hide.
 */
export async function loadPlatformData<T>(load: () => Promise<T>): Promise<Loaded<T>> {
  await connection();
  try {
    return { ok: true, value: await load() };
  } catch (error) {
    if (error instanceof PlatformError && error.expose)
      return { ok: false, status: error.status, message: error.message };
    logger().error({ err: error }, 'page data failed');
    return { ok: false, status: 500, message: 'The platform could not answer. Try again in a moment.' };
  }
}
