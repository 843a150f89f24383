import type { onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Every answer tells browsers not to guess a content type other than the one it declares
 * (a JSON error echoing a client's input must never be sniffed as HTML or script).
 */
export const NOSNIFF = { name: 'X-Content-Type-Options', value: 'nosniff' } as const;

/** The headers every routed answer carries, errors, 404 and 405 included. */
const sendSecurityHeaders: onRequestAsyncHookHandler = async function sendSecurityHeaders(_request, reply) {
  reply.header(NOSNIFF.name, NOSNIFF.value);
};

/**
 * Registered right after request-id, before any hook that may answer with an error. The answers
 * written before routing (connections.ts, the frameworkErrors option in app.ts) add NOSNIFF
 * themselves.
 */
export default fp(
  async (fastify) => {
    fastify.addHook('onRequest', sendSecurityHeaders);
  },
  { name: 'security-headers' },
);
