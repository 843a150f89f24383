import fp from 'fastify-plugin';
import { requestLineWriter } from '../../request-log-line.js';
import type { RequestCompletion } from '../../request-completion.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false keeps a route's requests out of the request log (browsers' /favicon.ico). */
    requestLog?: boolean;
  }
}

/**
 * One log line per request (Fastify's own two lines per request are disabled in
 * app options). The message reads well in a terminal; the same facts are fields for
 * JSON log processing.
 */
export default fp<{ completion: RequestCompletion }>(
  async (fastify, { completion }) => {
    const writeLine = requestLineWriter(fastify.log);
    completion.onCompleted((request, reply, config) => {
      if (config.requestLog === false) return;
      writeLine({
        reqId: request.id,
        method: request.method,
        path: request.url,
        status: reply.statusCode,
        latencyMs: Math.round(reply.elapsedTime * 100) / 100,
        size: Number(reply.getHeader('content-length') ?? 0),
        client: request.ip,
        // The error catalogue's code (src/errors.ts) when the answer is an error.
        errorCode: request.errorCode ?? undefined,
      });
    });
  },
  { name: 'request-log' },
);
