import 'server-only';
import type { RequestContext } from '../platform/backend';
import { errorResponse } from './error-response';
import { requestContext } from './request-context';
import { logRequest } from './request-log';
import { assertSameOrigin } from './same-origin';

type Handler = (request: Request, context: RequestContext) => Promise<Response>;

/**
 * Wraps every platform route handler: request id and requester, the same-origin rule for
 * mutations, the single error mapping and the request log line. Handlers only parse, delegate
 * and answer.
 */
export function handleRoute(handler: Handler, options: { mutation?: boolean } = {}) {
  return async (request: Request): Promise<Response> => {
    const startedAt = performance.now();
    const context = requestContext(request);
    let response: Response;
    try {
      if (options.mutation) assertSameOrigin(request);
      response = await handler(request, context);
      response.headers.set('X-Request-ID', context.requestId);
      response.headers.set('Cache-Control', 'no-store');
    } catch (error) {
      response = errorResponse(error, context.requestId);
    }
    logRequest(request, context, response.status, startedAt);
    return response;
  };
}

/** A JSON 405 for methods a platform route does not serve, with the Allow header HTTP requires. */
export function methodNotAllowed(allowed: readonly string[]) {
  return async (request: Request): Promise<Response> => {
    const startedAt = performance.now();
    const context = requestContext(request);
    const response = Response.json(
      { error: `Method ${request.method} is not allowed; use ${allowed.join(', ')}` },
      {
        status: 405,
        headers: { Allow: allowed.join(', '), 'X-Request-ID': context.requestId, 'Cache-Control': 'no-store' },
      },
    );
    logRequest(request, context, response.status, startedAt);
    return response;
  };
}
