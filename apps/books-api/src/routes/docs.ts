import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { addProviderSignIn, allowTokenEndpoint } from '../auth/oidc/provider-docs.js';
import { SERVICE_NAME } from '../service-info.js';
import { readRedocBundle } from './redoc-bundle.js';

/**
 * Only this server may be reached from /redoc: ReDoc's styled components inject <style>
 * elements. Its search would run in a worker built with eval, which this policy refuses, so it
 * searches on the page instead. No page may frame it.
 */
const REDOC_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * /docs and its assets: Swagger UI's page loads its scripts from files (the initializer
 * included), so scripts need no inline allowance; it applies inline styles while it renders,
 * so styles (which cannot run code) are allowed inline. Its "Try it out" and "Authorize" calls
 * go to this server. No page may frame it.
 */
export const SWAGGER_UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * ReDoc 3's bundle is an ES module. Without disable-telemetry it would report each visit to
 * Redocly, a request connect-src refuses.
 */
const redocPage = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${SERVICE_NAME} - ReDoc</title>
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <redoc spec-url="/openapi.json" disable-telemetry="true"></redoc>
    <script type="module" src="/redoc/redoc.standalone.js"></script>
  </body>
</html>
`;

/**
 * /docs' sign-in with the identity provider (AUTH_OIDC_DOCS_CLIENT_ID), or undefined. Its
 * endpoints come from discovery, so the document and the page's policy name them only once the
 * provider has answered; until then /docs offers the password login alone.
 */
function providerSignIn(fastify: FastifyInstance) {
  const docs = fastify.auth.settings.identityProvider?.docs;
  const keys = fastify.auth.providerKeys;
  if (docs === undefined || keys === undefined) return undefined;
  return {
    docs,
    /** Discovers first if need be (one attempt shared, limited like every fetch); undefined while it fails. */
    metadata: () => keys.current().catch(() => undefined),
    known: () => keys.metadata,
  };
}

/**
 * The documentation: /openapi.json, Swagger UI at /docs and ReDoc at /redoc, every
 * asset served from node_modules so the pages work without internet access.
 */
const docs: FastifyPluginAsync = async (fastify) => {
  const signIn = providerSignIn(fastify);
  fastify.get('/openapi.json', { schema: { hide: true } }, async () =>
    signIn === undefined
      ? fastify.swagger()
      : addProviderSignIn(structuredClone(fastify.swagger()), signIn.docs, await signIn.metadata()),
  );

  await fastify.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { url: '/openapi.json', validatorUrl: null, deepLinking: true },
    // Set by the plugin on every answer of its routes: the page, its assets and its spec.
    staticCSP: SWAGGER_UI_CSP,
    ...(signIn === undefined
      ? {}
      : {
          // Swagger UI's authorization-code flow with PKCE, as FastAPI's OAuth2AuthorizationCodeBearer offers.
          initOAuth: {
            clientId: signIn.docs.clientId,
            usePkceWithAuthorizationCodeGrant: true,
            scopes: [...signIn.docs.scopes],
          },
          uiHooks: {
            // Discovery before the page, its policy or its document are answered, so they name the provider.
            preHandler: (_request, _reply, done) => {
              void signIn.metadata().then(() => done());
            },
          },
          transformSpecification: (document: Readonly<Record<string, unknown>>) =>
            addProviderSignIn({ ...document }, signIn.docs, signIn.known()),
          transformStaticCSP: (header: string) => allowTokenEndpoint(header, signIn.known()),
        }),
  });

  fastify.get('/redoc', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('Content-Security-Policy', REDOC_CSP).send(redocPage),
  );

  // Read on first use: most processes never serve it, and it is about a megabyte.
  let bundle: Promise<string> | undefined;
  fastify.get('/redoc/redoc.standalone.js', { schema: { hide: true } }, async (_request, reply) => {
    bundle ??= readRedocBundle();
    return reply
      .type('application/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send(await bundle);
  });
};

export default docs;
