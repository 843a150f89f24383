import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { CompletedRouteConfig, RequestCompletion } from '../../request-completion.js';
import { loggedRequestLines, type RequestLineWriter } from '../../request-line.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false keeps a route's requests out of the request log (browsers' /favicon.ico). */
    requestLog?: boolean;
  }
}

export interface RequestLogOptions {
  completion: RequestCompletion;
  /** How the line is written: the service logger's own writer (logger.ts); by default `fastify.log.info`. */
  requestLines?: RequestLineWriter | undefined;
}

/**
 * One log line per request, written with the app's logger like any other line (Fastify's own
 * two lines per request are off, see request-completion.ts). The message reads well in a
 * terminal; the same facts are fields for JSON log processing (request-line.ts).
 */
export default fp<RequestLogOptions>(
  async (fastify, { completion, requestLines = loggedRequestLines(fastify.log) }) => {
    completion.onCompleted(function logRequestLine(
      request: FastifyRequest,
      reply: FastifyReply,
      config: CompletedRouteConfig,
    ) {
      if (config.requestLog === false) return;
      requestLines({
        reqId: request.id,
        method: request.method,
        path: request.url,
        status: reply.statusCode,
        latencyMs: Math.round(reply.elapsedTime * 100) / 100,
        size: Number(reply.getHeader('content-length') ?? 0),
        // The client's socket can be gone as the request completes: then `client` is undefined,
        // and the line leaves it out.
        client: request.ip,
        errorCode: request.errorCode ?? undefined,
      });
    });
  },
  { name: 'request-log' },
);
