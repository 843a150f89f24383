import fp from 'fastify-plugin';

/**
 * The seam between routes and authentication. Routes never verify tokens: an auth
 * plugin (registered by app.ts) reads a route's `config.bearerAuth`, verifies the
 * request's token and sets `request.principal`; the route only looks at it.
 */
export interface Principal {
  /** The token's subject (user name). */
  sub: string;
  roles: readonly string[];
}

export interface BearerAuthRouteConfig {
  /**
   * 'optional': a request with an Authorization header must carry a valid token with
   * `role` (the protected variant); a request without one is public.
   * 'required': every request must.
   */
  mode: 'optional' | 'required';
  role?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth plugin when the request carried a valid bearer token; null otherwise. */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    bearerAuth?: BearerAuthRouteConfig;
  }
}

export default fp(
  async (fastify) => {
    fastify.decorateRequest('principal', null);
  },
  { name: 'principal' },
);
