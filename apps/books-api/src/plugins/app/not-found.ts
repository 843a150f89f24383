import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { methodNotAllowed, notFound } from '../../errors.js';
import { ignoreBody } from './json-body.js';

const SLASH = 0x2f;

/**
 * `path` without its trailing slashes, as Python's rstrip('/'). A scan from the end: the regular
 * expression /\/+$/ retries from every slash of a run that does not end the path, which is
 * quadratic in a path of many slashes.
 */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === SLASH) end -= 1;
  return path.slice(0, end);
}

/**
 * Whether a path parameter matched an empty segment (`/api/v1/books/` against `/:book_id`).
 * Starlette's router never matches a parameter to nothing, so such a path is not that route;
 * the catch-all `*` of static file routes may be empty.
 */
export function hasEmptyParameter(params: Readonly<Record<string, string | undefined>>): boolean {
  // A loop rather than Object.entries: this runs for every request and allocates nothing.
  for (const name in params) if (name !== '*' && params[name] === '') return true;
  return false;
}

/**
 * Requests no route serves, answered as FastAPI (Starlette's router with redirect_slashes)
 * answers them: a path that some route serves once its trailing slash is removed (or one
 * added) is a 307 to that path, the query kept, whatever the method; a known path with
 * another method is a 405 with the path's methods in Allow; anything else is a 404.
 * A route whose path parameter would match an empty segment (`/api/v1/books/` against
 * `/api/v1/books/:book_id`) does not serve the request: Starlette's parameters never
 * match nothing.
 */
export default fp(
  async (fastify) => {
    const answerUnrouted = async (request: FastifyRequest, reply: FastifyReply) => {
      const queryAt = request.url.indexOf('?');
      const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
      const query = queryAt === -1 ? '' : request.url.slice(queryAt);
      if (path !== '/') {
        const other = path.endsWith('/') ? withoutTrailingSlashes(path) : `${path}/`;
        // Location is the path, not an absolute URL built from the client's Host header.
        if (other !== '' && fastify.allowedMethods(other).length > 0) return reply.redirect(other + query, 307);
      }
      const allowed = fastify.allowedMethods(path);
      throw allowed.length > 0 ? methodNotAllowed(allowed) : notFound();
    };

    fastify.setNotFoundHandler(answerUnrouted);
    // Runs first among the route hooks (this plugin is registered before auth and chaos), so
    // neither sees a request its route does not really serve.
    fastify.addHook('onRequest', async function answerEmptyParameterAsUnrouted(request, reply) {
      // No route reads the body of a request it does not serve (see json-body.ts).
      if (request.is404) ignoreBody(request);
      if (!hasEmptyParameter(request.params as Record<string, string | undefined>)) return;
      // The answer is sent (a redirect: the reply is returned) or thrown (404, 405).
      return answerUnrouted(request, reply);
    });
  },
  { name: 'not-found', dependencies: ['route-registry', 'errors'] },
);
