import type { Server } from 'node:http';
import type { FastifyBaseLogger, FastifyHttpOptions } from 'fastify';
import pino from 'pino';
import type { Config } from './config.js';
import { fastifyTrustProxy } from './trust-proxy.js';
import { beforeRoutingError, sendError } from './plugins/app/errors.js';
import { requestIdFor, type RequestCompletion } from './plugins/app/request-log.js';
import { NOSNIFF } from './plugins/app/security-headers.js';
import { clientErrorHandler } from './plugins/app/connections.js';

/** Longer than any request line Node accepts (its 16 KiB header limit), so the router never refuses a parameter. */
const MAX_PATH_PARAMETER_LENGTH = 64 * 1024;

/** Bodies over this size are refused with 413 before anything is parsed or stored. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** Options of the Fastify instance itself. */
export function serverOptions(
  config: Config,
  logger: FastifyBaseLogger | undefined,
  completion: RequestCompletion,
): FastifyHttpOptions<Server> {
  const { connections, trustProxy } = config;
  return {
    // request.ip: the socket's address, or the client a trusted proxy names (TRUST_PROXY).
    trustProxy: fastifyTrustProxy(trustProxy) as FastifyHttpOptions<Server>['trustProxy'],
    // Always a logger, if need be a disabled one: without one Fastify would not report
    // finished requests to the log controller (see plugins/app/request-log.ts).
    loggerInstance: logger ?? pino({ enabled: false }),
    // plugins/app/request-log.ts writes one line per request instead of Fastify's two.
    logController: completion,
    genReqId: requestIdFor,
    requestIdHeader: false,
    // FastAPI's API routes answer no HEAD they do not declare; plugins/app/head-routes.ts says which routes do.
    exposeHeadRoutes: false,
    // Any path parameter reaches validation, as in FastAPI: a 300-character book id is a 422
    // uuid_parsing, not the router's own 414. Node's header size limit (a 431) bounds the URL
    // well below this, and no route has a regular-expression parameter for the limit to protect.
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    bodyLimit: BODY_LIMIT_BYTES,
    // While the server drains, requests on connections still open are answered (Fastify adds
    // Connection: close, so each connection ends after its answer) instead of a bare 503.
    return503OnClosing: false,
    requestTimeout: connections.requestTimeoutMs,
    keepAliveTimeout: connections.keepAliveTimeoutMs,
    http: {
      headersTimeout: connections.headersTimeoutMs,
      // How often Node looks for requests past their timeouts (its default is 30 s, which let a
      // slow client hold a connection far past the headers timeout).
      connectionsCheckingInterval: 1000,
      // plugins/app/connections.ts answers a missing Host with the contract's body instead.
      requireHostHeader: false,
    },
    // Answers to unparseable requests and timeouts in the contract's shape (Fastify's own has another).
    clientErrorHandler,
    // Errors raised before routing (e.g. a path with broken percent-encoding) never reach the error handler.
    frameworkErrors: function answerBeforeRouting(error, request, reply) {
      reply.header('X-Request-ID', request.id).header(NOSNIFF.name, NOSNIFF.value);
      sendError(beforeRoutingError(error), reply);
    },
  };
}
