import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Principal } from '@/lib/auth/permissions';
import type { RequestContext } from '../platform/backend';

const VISIBLE_ASCII = /^[\x21-\x7e]{1,128}$/;

/** An incoming X-Request-ID when it is sane, otherwise a new UUID. */
export function requestIdOf(request: Request): string {
  const incomingId = request.headers.get('x-request-id');
  return incomingId && VISIBLE_ASCII.test(incomingId) ? incomingId : randomUUID();
}

/**
 * Who is asking and under which id. The requester is always the signed-in identity the guard
 * resolved, never a header a client can set (proxy mode's forwarded headers are read by the guard).
 */
export function requestContext(requestId: string, principal: Principal): RequestContext {
  return { requestId, requestedBy: principal.identity, principal };
}
