import 'server-only';
import type { Action, Principal } from '@/lib/auth/permissions';
import { authorize, requirePrincipal } from '../auth/guard';
import type { RequestContext } from '../model/backend';
import { errorResponse } from './error-response';
import { requestContext, requestIdOf } from './request-context';
import { logRequest } from './request-log';
import { assertSameOrigin } from './same-origin';

type Handler = (request: Request, context: RequestContext) => Promise<Response>;

export interface RouteOptions {
  /** A request that changes something: same-origin only, and at least the requester role. */
  mutation?: boolean;
  /**
   * The action the route performs, checked against the signed-in user's role before the handler
   * runs (default: `read`, or `change` for a mutation). Rules that depend on whose resource it is
   * are checked again by the data layer with authorize(context.principal, action, resource).
   */
  action?: Action;
}

/**
 * Wraps every route handler: request id, the signed-in user (401 without one), the same-origin
 * rule and role check for mutations (403), the single error mapping and the request log line.
 * Handlers only parse, delegate and answer.
 */
export function handleRoute(handler: Handler, options: RouteOptions = {}) {
  return async (request: Request): Promise<Response> => {
    const startedAt = performance.now();
    const requestId = requestIdOf(request);
    let principal: Principal | undefined;
    let response: Response;
    try {
      principal = await requirePrincipal(request);
      if (options.mutation) assertSameOrigin(request);
      authorize(principal, options.action ?? (options.mutation ? 'change' : 'read'));
      response = await handler(request, requestContext(requestId, principal));
      response.headers.set('X-Request-ID', requestId);
      response.headers.set('Cache-Control', 'no-store');
    } catch (error) {
      response = errorResponse(error, requestId);
    }
    logRequest(request, { requestId, user: principal?.identity }, response.status, startedAt);
    return response;
  };
}

/** A JSON 405 for methods a platform route does not serve, with the Allow header HTTP requires. */
export function methodNotAllowed(allowed: readonly string[]) {
  return async (request: Request): Promise<Response> => {
    const startedAt = performance.now();
    const requestId = requestIdOf(request);
    const response = Response.json(
      { error: `Method ${request.method} is not allowed; use ${allowed.join(', ')}` },
      {
        status: 405,
        headers: { Allow: allowed.join(', '), 'X-Request-ID': requestId, 'Cache-Control': 'no-store' },
      },
    );
    logRequest(request, { requestId }, response.status, startedAt);
    return response;
  };
}
