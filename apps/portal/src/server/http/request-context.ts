import 'server-only';
import { requestIdFrom } from '@books/shared-rules';
import type { Principal } from '@/lib/auth/permissions';
import type { RequestContext } from '../model/backend';

/** An incoming X-Request-ID when the rule both apps share accepts it (1-128 visible ASCII), otherwise a new UUID. */
export function requestIdOf(request: Request): string {
  return requestIdFrom(request.headers.get('x-request-id'));
}

/**
 * Who is asking and under which id. The requester is always the signed-in identity the guard
 * resolved, never a header a client can set (proxy mode's forwarded headers are read by the guard).
 */
export function requestContext(requestId: string, principal: Principal): RequestContext {
  return { requestId, requestedBy: principal.identity, principal };
}
