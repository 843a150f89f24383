import type { IncomingMessage } from 'node:http';
import { requestIdFrom } from '@books/shared-rules';
import type { onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Fastify's `genReqId`: echo an acceptable incoming X-Request-ID (1-128 visible ASCII
 * characters, the rule the portal shares), otherwise a new UUID.
 */
export function requestIdFor(request: IncomingMessage): string {
  return requestIdFrom(request.headers['x-request-id']);
}

/** Every response, errors, 404 and 405 included, carries the request id. */
const sendRequestId: onRequestHookHandler = function sendRequestId(request, reply, done) {
  reply.header('X-Request-ID', request.id);
  done();
};

/** Registered before any other onRequest hook, so the answers to their errors carry the id too. */
export default fp(
  async (fastify) => {
    fastify.addHook('onRequest', sendRequestId);
  },
  { name: 'request-id' },
);
