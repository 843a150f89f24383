import type { IncomingMessage } from 'node:http';
import { requestIdFrom } from '@books/shared-rules';
import fp from 'fastify-plugin';

/**
 * Fastify's `genReqId`: echo an acceptable incoming X-Request-ID (1-128 visible ASCII
 * characters, the rule the portal shares), otherwise a new UUID.
 */
export function requestIdFor(request: IncomingMessage): string {
  return requestIdFrom(request.headers['x-request-id']);
}

/** Every response (errors, 404 and 405 included) carries the request id. */
export default fp(
  async (fastify) => {
    fastify.addHook('onRequest', async (request, reply) => {
      reply.header('X-Request-ID', request.id);
    });
  },
  { name: 'request-id' },
);
