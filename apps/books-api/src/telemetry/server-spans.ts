import { context, ROOT_CONTEXT, trace, type Context, type Span } from '@opentelemetry/api';
import type { FastifyOtelInstrumentation } from '@fastify/otel';
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { bindTraceIds } from './log-trace-ids.js';

/**
 * One SERVER span per request, named `<METHOD> <route template>`, with the stable HTTP semantic
 * conventions. @fastify/otel (per-hook and handler spans off) starts it in its onRequest hook,
 * continuing an incoming `traceparent`, and ends it as the answer is sent; this module names it,
 * adds what @fastify/otel leaves out, keeps it current where Fastify loses the async context,
 * and leaves its status to the answer's status code.
 */

const kSpan = Symbol('server span');
const kContext = Symbol('server span context');

interface TracedRequest {
  [kSpan]?: Span;
  [kContext]?: Context;
}

/** The request's SERVER span, once @fastify/otel started one. */
export function serverSpanOf(request: FastifyRequest): Span | undefined {
  return (request as FastifyRequest & TracedRequest)[kSpan];
}

/** `requestHook` of @fastify/otel: called with the span just started, still in onRequest. */
export function describeServerSpan(span: Span, request: FastifyRequest): void {
  const traced = request as FastifyRequest & TracedRequest;
  traced[kSpan] = span;
  traced[kContext] = trace.setSpan(ROOT_CONTEXT, span);
  const route = request.routeOptions.url;
  // Without a route (404, 405) the conventions name the span by its method alone.
  span.updateName(route === undefined ? request.method : `${request.method} ${route}`);
  const url = request.url;
  const queryAt = url.indexOf('?');
  const host = request.host;
  const colon = host.lastIndexOf(':');
  span.setAttributes({
    'url.path': queryAt < 0 ? url : url.slice(0, queryAt),
    'url.scheme': request.protocol,
    'server.address': colon > host.lastIndexOf(']') ? host.slice(0, colon) : host,
    'server.port': request.port ?? (request.protocol === 'https' ? 443 : 80),
    'network.protocol.version': request.raw.httpVersion,
  });
  // The socket's address, or the client a trusted proxy names (TRUST_PROXY); gone with the socket.
  if (request.ip !== undefined) span.setAttribute('client.address', request.ip);
  const userAgent = request.headers['user-agent'];
  if (userAgent !== undefined) span.setAttribute('user_agent.original', userAgent);
  const { traceId, spanId } = span.spanContext();
  // The service's loggers are pino's (logger.ts), which Fastify types by the methods it uses itself.
  bindTraceIds(request.log as Logger, traceId, spanId);
}

/**
 * Fastify reads a body from the socket's events, which run outside the span's async context,
 * so the handler (and the store's statement spans under it) would lose it: the last step before
 * the handler makes the request's span current again.
 */
const resumeServerSpan: preHandlerHookHandler = function resumeServerSpan(request, _reply, done) {
  const spanContext = (request as FastifyRequest & TracedRequest)[kContext];
  if (spanContext === undefined) done();
  else context.with(spanContext, done);
};

/**
 * @fastify/otel marks a span ERROR from its route-level onError hook for every error thrown, a
 * 404 or a 422 included, which the HTTP conventions leave unset for a server; and the SDK never
 * turns an ERROR back to unset. So that hook is taken off each route, and the span's status
 * comes from the answer alone: @fastify/otel's onSend hook marks a 5xx ERROR as it ends the
 * span. (Its exception events go with it: they would carry the error's message and stack.)
 */
const FASTIFY_OTEL_ERROR_HOOK = 'recordErrorInSpanHook';

function withoutErrorStatusHook(hooks: unknown): unknown {
  if (typeof hooks === 'function') return hooks.name === FASTIFY_OTEL_ERROR_HOOK ? undefined : hooks;
  if (!Array.isArray(hooks)) return hooks;
  const kept = hooks.filter((hook: { name?: string }) => hook.name !== FASTIFY_OTEL_ERROR_HOOK);
  return kept.length === 0 ? undefined : kept;
}

export interface ServerSpansOptions {
  instrumentation: FastifyOtelInstrumentation;
}

async function serverSpans(fastify: FastifyInstance, { instrumentation }: ServerSpansOptions): Promise<void> {
  await fastify.register(instrumentation.plugin());
  fastify.addHook('preHandler', resumeServerSpan);
  // Added after @fastify/otel's own rewriter, which has put its onError hook on the route by then.
  fastify.addHook('onRoute', function statusFromAnswer(routeOptions) {
    routeOptions.onError = withoutErrorStatusHook(routeOptions.onError) as typeof routeOptions.onError;
  });
}

export default fp(serverSpans, { name: 'server-spans', fastify: '5.x' });
