import type { FastifyPluginAsync } from 'fastify';

/** A year: browsers then ask once, not on every page of /docs and /redoc. */
const FAVICON_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * GET /favicon.ico: 204, cacheable for a long time and kept out of the request log, as the
 * FastAPI original answers it, so a browser opening the docs logs no error and the log no noise.
 */
const favicon: FastifyPluginAsync = async (fastify) => {
  fastify.get('/favicon.ico', { schema: { hide: true }, config: { requestLog: false } }, async (_request, reply) =>
    reply.code(204).header('Cache-Control', `public, max-age=${FAVICON_MAX_AGE_SECONDS}, immutable`).send(),
  );
};

export default favicon;
