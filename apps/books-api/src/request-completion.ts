import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** The route's config: the same object for every request of a route, with its `url` template. */
export type CompletedRouteConfig = FastifyRequest['routeOptions']['config'];

export type RequestCompletedListener = (
  request: FastifyRequest,
  reply: FastifyReply,
  config: CompletedRouteConfig,
) => void;

/**
 * The one place a finished request is looked at: the request log line and the request
 * metrics both listen here.
 *
 * Fastify calls its log controller's `requestCompleted` once per routed request when the
 * response has finished (or failed), exactly where it would run onResponse hooks. Listening
 * here instead of in onResponse hooks spares every request the hook runner and a promise per
 * hook. Fastify's own two log lines per request stay off
 * (`disableRequestLogging`); the request log writes one line of its own.
 *
 * Fastify sets up the response listeners that lead here only when the instance has a logger
 * or onResponse hooks, so app.ts always gives the instance a logger, a disabled one if need be.
 */
export class RequestCompletion extends LogController {
  readonly #listeners: RequestCompletedListener[] = [];

  constructor() {
    super({ disableRequestLogging: true });
  }

  /** Listeners run in the order they were added, once per answered request. */
  onCompleted(listener: RequestCompletedListener): void {
    this.#listeners.push(listener);
  }

  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // One read for all listeners: Fastify's routeOptions getter builds a 12-property object and
    // asks the router about version constraints on every read.
    const config = request.routeOptions.config;
    for (const listener of this.#listeners) listener(request, reply, config);
  }
}
