import fp from 'fastify-plugin';
import { methodNotAllowed, notFound } from '../../errors.js';

/** Unknown path: 404. Known path, other method: 405 with the path's methods in Allow. */
export default fp(
  async (fastify) => {
    fastify.setNotFoundHandler(async (request) => {
      const allowed = fastify.allowedMethods(request.url);
      throw allowed.length > 0 ? methodNotAllowed(allowed) : notFound();
    });
  },
  { name: 'not-found', dependencies: ['route-registry', 'errors'] },
);
