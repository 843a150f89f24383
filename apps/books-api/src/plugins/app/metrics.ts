import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorResponses } from '../../schemas/errors.js';
import {
  createAppMetrics,
  UNMATCHED_ROUTE,
  type AppMetrics,
  type AppMetricsOptions,
} from '../../metrics/app-metrics.js';
import type { CompletedRouteConfig, RequestCompletion } from './request-log.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

export type MetricsPluginOptions = AppMetricsOptions & {
  /** Where finished requests are reported (the instance's log controller). */
  completion: RequestCompletion;
};

/**
 * The route template (`/api/v1/books/:book_id`), never the raw path, so label cardinality is
 * bounded by the number of routes. Requests that matched no route (unknown paths, and wrong
 * methods, which are answered by the not-found handler) share a single value.
 */
function routeLabel(config: CompletedRouteConfig): string {
  // Fastify's not-found handler runs with a config without a url (that is what request.is404
  // reads), although its types say every route config has one.
  const url: string | undefined = config.url;
  return url ?? UNMATCHED_ROUTE;
}

async function metricsPlugin(app: FastifyInstance, options: MetricsPluginOptions) {
  const metrics = createAppMetrics(options);
  app.decorate('metrics', metrics);

  // Reported once the response is finished, for every request that reached routing, including
  // errors and forced chaos answers. /metrics counts itself as well: a scrape shows the scrapes
  // before it, which makes a dead scraper visible and costs one label set.
  options.completion.onCompleted(function countRequest(request, reply, config) {
    metrics.observeRequest(request.method, routeLabel(config), reply.statusCode, reply.elapsedTime / 1000);
  });

  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'metrics',
        tags: ['monitoring'],
        summary: 'Prometheus metrics',
        description:
          'Request counts and latency by method, route template and status code; the current book ' +
          'count; chaos forced failures by code; Node.js process metrics. Prometheus text format.',
        response: {
          200: {
            description: 'Prometheus text exposition format',
            content: { [metrics.contentType]: { schema: { type: 'string' } } },
          },
          ...errorResponses.methodNotAllowed,
        },
      },
    },
    async function renderMetrics(_request, reply) {
      reply.type(metrics.contentType);
      return metrics.render();
    },
  );
}

export default fp(metricsPlugin, { name: 'metrics', fastify: '5.x' });
