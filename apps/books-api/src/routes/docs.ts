import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';
import { SERVICE_NAME } from '../service-info.js';

const require = createRequire(import.meta.url);
const REDOC_BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');

const redocPage = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${SERVICE_NAME} - ReDoc</title>
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <redoc spec-url="/openapi.json"></redoc>
    <script src="/redoc/redoc.standalone.js"></script>
  </body>
</html>
`;

/**
 * The documentation: /openapi.json, Swagger UI at /docs and ReDoc at /redoc, every
 * asset served from node_modules so the pages work without internet access.
 */
const docs: FastifyPluginAsync = async (fastify) => {
  fastify.get('/openapi.json', { schema: { hide: true } }, async () => fastify.swagger());

  await fastify.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { url: '/openapi.json', validatorUrl: null, deepLinking: true },
    staticCSP: false,
  });

  fastify.get('/redoc', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(redocPage),
  );

  // Read on first use: most processes never serve it, and it is about a megabyte.
  let bundle: Promise<Buffer> | undefined;
  fastify.get('/redoc/redoc.standalone.js', { schema: { hide: true } }, async (_request, reply) => {
    bundle ??= readFile(REDOC_BUNDLE);
    return reply
      .type('application/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send(await bundle);
  });
};

export default docs;
