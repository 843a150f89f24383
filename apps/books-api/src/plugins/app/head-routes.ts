import type { RouteOptions } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Which GET routes also answer HEAD, as FastAPI decides it. FastAPI's API routes (APIRoute)
 * answer only the methods they declare, so HEAD on a documented GET operation is a 405 (with
 * Allow); the routes Starlette serves itself (/docs, /redoc, /openapi.json) answer HEAD like
 * GET. Fastify's automatic HEAD routes are off (app.ts: `exposeHeadRoutes: false`), and this
 * hook gives HEAD back to the GET routes kept out of the OpenAPI document (the documentation
 * pages and assets, /favicon.ico): what the document describes is exactly what is served.
 * A route that documents HEAD declares it itself (HEAD /api/status).
 *
 * Registered before route-registry, whose hook then records the HEAD too, so a 405's Allow
 * lists HEAD exactly where it is served.
 */
export default fp(
  async (fastify) => {
    fastify.addHook('onRoute', function addHeadToHiddenGetRoutes(route: RouteOptions) {
      // Fastify registers the route under the methods its options name once the onRoute hooks ran.
      if (route.method === 'GET' && route.schema?.hide === true) route.method = ['GET', 'HEAD'];
    });
  },
  { name: 'head-routes' },
);
