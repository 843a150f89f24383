import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import Type from 'typebox';
import { defaultRoleFor } from './auth.js';
import type { BearerAuthRouteConfig } from './principal.js';

/** The OpenAPI security scheme name (plugins/external/openapi.ts defines it; FastAPI uses the same name). */
export const SECURITY_SCHEME = 'OAuth2PasswordBearer';

const authErrors = {
  401: { ...Type.Ref('HTTPError'), description: 'Missing, invalid or expired token (`WWW-Authenticate: Bearer`)' },
  403: { ...Type.Ref('HTTPError'), description: 'The token lacks the role (`Insufficient scope`)' },
};

/**
 * Registered inside the books routes' scope: decides, per route as it is added, how the
 * route is guarded. With AUTH_REQUIRED every route of the scope requires a token (reads
 * Books.Read, writes Books.Write); otherwise only routes that declare `bearerAuth`
 * themselves (the protected list) verify tokens. The decision lands in the route's own
 * config, which the auth plugin's guard reads, and in its OpenAPI security requirement.
 */
async function booksAuthPolicy(app: FastifyInstance) {
  const { authRequired } = app.auth.settings;
  app.addHook('onRoute', (route: RouteOptions) => {
    const declared = route.config?.bearerAuth;
    const methods = [route.method].flat().map((method) => method.toUpperCase());
    const bearerAuth: BearerAuthRouteConfig | undefined = authRequired
      ? { mode: 'required', role: declared?.role ?? strictestRole(methods) }
      : declared;
    if (bearerAuth === undefined) return;
    route.config = { ...route.config, bearerAuth };
    // `{}` lists anonymous access as an alternative: the optional (protected-variant) routes.
    const bearer: Record<string, string[]> = { [SECURITY_SCHEME]: [] };
    const security = bearerAuth.mode === 'required' ? [bearer] : [{}, bearer];
    const schema = route.schema ?? {};
    route.schema = { ...schema, security, response: { ...(schema.response as object | undefined), ...authErrors } };
  });
}

function strictestRole(methods: string[]): string {
  const roles = new Set(methods.map(defaultRoleFor));
  return roles.size === 1 ? [...roles][0]! : defaultRoleFor('POST');
}

export default fp(booksAuthPolicy, { name: 'books-auth-policy', dependencies: ['auth'] });
