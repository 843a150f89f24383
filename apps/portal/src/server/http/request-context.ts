import 'server-only';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../platform/backend';

const VISIBLE_ASCII = /^[\x21-\x7e]{1,128}$/;
const ANONYMOUS = 'anonymous';

/**
 * Request id: an incoming X-Request-ID when it is sane, otherwise a new UUID.
 * Requester: the identity an authenticating proxy in front of the portal forwards
 * (X-Forwarded-Email, then X-Forwarded-User); the portal itself has no login.
 */
export function requestContext(request: Request): RequestContext {
  const incomingId = request.headers.get('x-request-id');
  const user = request.headers.get('x-forwarded-email') ?? request.headers.get('x-forwarded-user');
  return {
    requestId: incomingId && VISIBLE_ASCII.test(incomingId) ? incomingId : randomUUID(),
    requestedBy: user && /^[\x20-\x7e]{1,256}$/.test(user) ? user.trim() : ANONYMOUS,
  };
}
