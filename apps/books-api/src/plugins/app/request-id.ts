import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';

/** 1-128 visible ASCII characters (0x21-0x7E): anything else could forge log lines or headers. */
const ACCEPTABLE_ID = /^[\x21-\x7e]{1,128}$/;

/** Fastify's `genReqId`: echo an acceptable incoming X-Request-ID, otherwise a new UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && ACCEPTABLE_ID.test(incoming) ? incoming : randomUUID();
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
