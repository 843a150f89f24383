import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorResponses } from '../../schemas/errors.js';
import { createAppMetrics, type AppMetrics, type AppMetricsOptions } from '../../metrics/app-metrics.js';
import type { RequestCompletion } from './request-log.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

type MetricsPluginOptions = AppMetricsOptions & {
  /** Where finished requests are reported (the instance's log controller). */
  completion: RequestCompletion;
};

/** `Accept` naming OpenMetrics (as Prometheus sends it) gets it; anything else the text format. */
function wantsOpenMetrics(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('application/openmetrics-text');
}

async function metricsPlugin(app: FastifyInstance, options: MetricsPluginOptions) {
  const metrics = createAppMetrics(options);
  app.decorate('metrics', metrics);

  // Reported once the response is finished, for every request that reached routing, including
  // errors and forced chaos answers. /metrics counts itself as well: a scrape shows the scrapes
  // before it, which makes a dead scraper visible and costs one label set.
  options.completion.onCompleted(metrics.countRequest);

  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'metrics',
        tags: ['monitoring'],
        summary: 'Prometheus metrics',
        description:
          'Request counts and latency by method, route template and status code; the current book ' +
          'count; chaos forced failures by code; Node.js process metrics. Prometheus text format, or ' +
          'OpenMetrics when `Accept` names `application/openmetrics-text` (then the request-duration ' +
          'buckets carry `trace_id` exemplars of traced requests).',
        response: {
          200: {
            description: 'Prometheus text exposition format',
            content: {
              [metrics.contentType]: { schema: { type: 'string' } },
              [metrics.openMetricsContentType]: { schema: { type: 'string' } },
            },
          },
          ...errorResponses.methodNotAllowed,
        },
      },
    },
    async function renderMetrics(request, reply) {
      if (wantsOpenMetrics(request.headers.accept)) {
        reply.type(metrics.openMetricsContentType);
        return metrics.renderOpenMetrics();
      }
      reply.type(metrics.contentType);
      return metrics.render();
    },
  );
}

export default fp(metricsPlugin, { name: 'metrics', fastify: '5.x' });
