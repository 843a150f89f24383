import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { CompletedRouteConfig, RequestCompletion } from '../../request-completion.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false keeps a route's requests out of the request log (browsers' /favicon.ico). */
    requestLog?: boolean;
  }
}

/**
 * One log line per request, written with the app's logger like any other line (Fastify's own
 * two lines per request are off, see request-completion.ts). The message reads well in a
 * terminal; the same facts are fields for JSON log processing.
 */
export default fp<{ completion: RequestCompletion }>(
  async (fastify, { completion }) => {
    const log = fastify.log;
    completion.onCompleted(function logRequestLine(
      request: FastifyRequest,
      reply: FastifyReply,
      config: CompletedRouteConfig,
    ) {
      if (config.requestLog === false) return;
      const { id: reqId, method, url: path, ip: client } = request;
      const status = reply.statusCode;
      const latencyMs = Math.round(reply.elapsedTime * 100) / 100;
      const size = Number(reply.getHeader('content-length') ?? 0);
      log.info(
        // The client's socket can be gone as the request completes: then `client` is undefined,
        // and pino leaves it out. errorCode is the error catalogue's (src/errors.ts), on errors only.
        { reqId, method, path, status, latencyMs, size, client, errorCode: request.errorCode ?? undefined },
        `${method} ${path} ${status} ${latencyMs}ms ${size}B ${client ?? '-'} id=${reqId}`,
      );
    });
  },
  { name: 'request-log' },
);
