import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * A check every request gets before anything else: it sets headers on the reply, or throws
 * the error that becomes the request's answer.
 */
export type RequestCheck = (request: FastifyRequest, reply: FastifyReply) => void;

export interface RequestChecksOptions {
  /** Run in this order; the first that throws answers the request and the rest do not run. */
  checks: readonly RequestCheck[];
}

/**
 * Runs the per-request checks of several plugins (request id, Host and Upgrade, the
 * per-connection request limit) in one onRequest hook rather than three steps of Fastify's hook
 * runner (the three together measured about 7% of a list request; merging them gained less than
 * the measurement's noise). The hook is callback-style and synchronous, since no check waits on
 * anything.
 */
export default fp<RequestChecksOptions>(
  async (fastify, options) => {
    const checks = [...options.checks];
    fastify.addHook('onRequest', (request, reply, done) => {
      try {
        for (const check of checks) check(request, reply);
      } catch (error) {
        done(error as Error);
        return;
      }
      done();
    });
  },
  { name: 'request-checks' },
);
