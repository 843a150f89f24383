import type { IncomingMessage } from 'node:http';
import { requestIdFrom } from '@books/shared-rules';
import { LogController, type FastifyReply, type FastifyRequest, type onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false keeps a route's requests out of the request log (browsers' /favicon.ico). */
    requestLog?: boolean;
  }
}

/**
 * Fastify's `genReqId`: echo an acceptable incoming X-Request-ID (the rule the portal shares,
 * packages/shared-rules), otherwise a new UUID.
 */
export function requestIdFor(request: IncomingMessage): string {
  return requestIdFrom(request.headers['x-request-id']);
}

/** The route's config: the same object for every request of a route, with its `url` template. */
type CompletedRouteConfig = FastifyRequest['routeOptions']['config'];

export type RequestCompletedListener = (
  request: FastifyRequest,
  reply: FastifyReply,
  config: CompletedRouteConfig,
) => void;

/**
 * The instance's log controller: where a finished request is written to the log, and where
 * anything else that watches finished requests (the request metrics) hears of it.
 *
 * Fastify calls `requestCompleted` once per routed request when the response has finished (or
 * failed), exactly where it would run onResponse hooks. Its own two lines per request stay off
 * (`disableRequestLogging`): the service writes one line with every fact in it. Fastify sets up
 * the response listeners that lead here only when the instance has a logger, so app.ts always
 * gives it one, a disabled one if need be.
 */
export class RequestCompletion extends LogController {
  readonly #listeners: RequestCompletedListener[] = [];

  constructor() {
    super({ disableRequestLogging: true });
  }

  /** Listeners run after the log line, in the order they were added, once per answered request. */
  onCompleted(listener: RequestCompletedListener): void {
    this.#listeners.push(listener);
  }

  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // One read for the line and every listener: Fastify's routeOptions getter builds a new
    // object on every read.
    const config = request.routeOptions.config;
    if (config.requestLog !== false) logRequestLine(request, reply);
    for (const listener of this.#listeners) listener(request, reply, config);
  }
}

/**
 * The request's one line, through `request.log` (so it carries `reqId`). The message reads well
 * in a terminal, where pino-pretty shows only the message; the same facts are fields for JSON
 * log processing.
 */
function logRequestLine(request: FastifyRequest, reply: FastifyReply): void {
  const { id, method, url: path } = request;
  const status = reply.statusCode;
  const latencyMs = Math.round(reply.elapsedTime * 100) / 100;
  const size = Number(reply.getHeader('content-length') ?? 0);
  // The client's socket can be gone as the request completes: then `client` is undefined, and
  // pino leaves it out of the line.
  const client = request.ip;
  const errorCode = request.errorCode ?? undefined;
  request.log.info(
    { method, path, status, latencyMs, size, client, errorCode },
    `${method} ${path} ${status} ${latencyMs}ms ${size}B ${client ?? '-'} id=${id}`,
  );
}

/** Every response, errors, 404 and 405 included, carries the request id. */
const sendRequestId: onRequestAsyncHookHandler = async function sendRequestId(request, reply) {
  reply.header('X-Request-ID', request.id);
};

/**
 * The request id on every answer. Registered before any other onRequest hook, so the answers to
 * their errors carry it too. (The id itself and the log line come from the instance's options:
 * `genReqId: requestIdFor` and `logController: new RequestCompletion()`, see app.ts.)
 */
export default fp(
  async (fastify) => {
    fastify.addHook('onRequest', sendRequestId);
  },
  { name: 'request-log' },
);
