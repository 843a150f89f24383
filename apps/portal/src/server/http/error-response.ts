import 'server-only';
import { logger } from '../runtime/logger';
import { PlatformError } from '../model/errors';

export interface ErrorBody {
  error: string;
  fields?: Record<string, string>;
}

/**
 * The one mapping from a thrown error to the contract's error body. Known platform errors keep
 * their status and message; anything else is logged with the request id and answered with a
 * message that reveals nothing about the inside.
 */
export function errorResponse(error: unknown, requestId: string): Response {
  const known = error instanceof PlatformError ? error : undefined;
  const status = known?.status ?? 500;
  if (status >= 500) logger().error({ err: error, requestId, status }, 'platform request failed');
  const body: ErrorBody = {
    error: known?.expose ? known.message : 'The platform could not complete the request',
  };
  if (known?.fields && Object.keys(known.fields).length > 0) body.fields = known.fields as Record<string, string>;
  const headers: Record<string, string> = { 'X-Request-ID': requestId, 'Cache-Control': 'no-store' };
  if (known?.retryAfterSeconds !== undefined) headers['Retry-After'] = String(known.retryAfterSeconds);
  return Response.json(body, { status, headers });
}
