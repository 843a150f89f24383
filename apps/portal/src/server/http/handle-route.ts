import 'server-only';
import type { RequestContext } from '../platform/backend';
import { errorResponse } from './error-response';
import { requestContext } from './request-context';
import { assertSameOrigin } from './same-origin';

type Handler = (request: Request, context: RequestContext) => Promise<Response>;

/**
 * Wraps every platform route handler: request id and requester, the same-origin rule for
 * mutations, and the single error mapping. Handlers only parse, delegate and answer.
 */
export function handleRoute(handler: Handler, options: { mutation?: boolean } = {}) {
  return async (request: Request): Promise<Response> => {
    const context = requestContext(request);
    try {
      if (options.mutation) assertSameOrigin(request);
      const response = await handler(request, context);
      response.headers.set('X-Request-ID', context.requestId);
      response.headers.set('Cache-Control', 'no-store');
      return response;
    } catch (error) {
      return errorResponse(error, context.requestId);
    }
  };
}

/** A JSON 405 for methods a platform route does not serve, with the Allow header HTTP requires. */
export function methodNotAllowed(allowed: readonly string[]) {
  return async (request: Request): Promise<Response> => {
    const { requestId } = requestContext(request);
    return Response.json(
      { error: `Method ${request.method} is not allowed; use ${allowed.join(', ')}` },
      { status: 405, headers: { Allow: allowed.join(', '), 'X-Request-ID': requestId, 'Cache-Control': 'no-store' } },
    );
  };
}
