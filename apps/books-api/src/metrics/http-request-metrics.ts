import type { Registry } from 'prom-client';
import type { FastifyRequest } from 'fastify';
import type { RequestCompletedListener } from '../plugins/app/request-log.js';

/** Route label of every request that matched no route (404, 405): one value, not one per path. */
const UNMATCHED_ROUTE = 'unmatched';

/** The label values of one series, in the order prom-client prints them. */
interface SeriesLabels {
  method: string;
  route: string;
  status_code: string;
}

interface Series {
  labels: SeriesLabels;
  /** Observations per bucket, not cumulative: index i counts values <= bounds[i] and > bounds[i-1]. */
  buckets: Float64Array;
  sum: number;
  count: number;
  /** The last traced observation per bucket (+Inf last), for OpenMetrics; none while tracing is off. */
  exemplars: (Exemplar | undefined)[] | undefined;
}

/** prom-client's exemplar shape: written only in the OpenMetrics format. */
interface Exemplar {
  labelSet: { trace_id: string };
  value: number;
  /** Seconds since the epoch. */
  timestamp: number;
}

interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
  sharedLabels?: Record<string, string>;
  exemplar?: Exemplar;
}

/**
 * `http_requests_total` and `http_request_duration_seconds`, counted per series in plain
 * numbers on the request path and handed to prom-client only when scraped.
 *
 * prom-client's Counter and Histogram hash and validate the labels on every observation,
 * even through cached children, which made metrics a visible share of a request's cost.
 * Here an observation is three Map lookups and a few additions. At scrape time the series are
 * given to the registry as custom metrics through its public `registerMetric` and the
 * metric objects' `get()` shape, so the registry formats them exactly as its own Counter
 * and Histogram would (a test compares the two outputs byte for byte).
 */
/** The request's sampled trace id (tracing on), kept as its bucket's exemplar. */
export type TraceIdOf = (request: FastifyRequest) => string | undefined;

export function createHttpRequestMetrics(registry: Registry, bucketBounds: readonly number[], traceIdOf?: TraceIdOf) {
  /** Every series in the order it was first observed, which is the order prom-client prints. */
  const series: Series[] = [];
  // Route template, then method, then status code: the lookups take the strings Fastify already
  // holds (their hashes are cached) and a number, so an observation builds no key string.
  const byRoute = new Map<string, Map<string, Map<number, Series>>>();

  function seriesOf(method: string, route: string, statusCode: number): Series {
    let byMethod = byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      byRoute.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let found = byStatus.get(statusCode);
    if (found === undefined) {
      found = {
        labels: { method, route, status_code: String(statusCode) },
        buckets: new Float64Array(bucketBounds.length),
        sum: 0,
        count: 0,
        exemplars: undefined,
      };
      byStatus.set(statusCode, found);
      series.push(found);
    }
    return found;
  }

  registry.registerMetric({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code',
    type: 'counter',
    aggregator: 'sum',
    get: async () => ({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code',
      type: 'counter',
      aggregator: 'sum',
      values: series.map((s): MetricValue => ({ value: s.count, labels: { ...s.labels } })),
    }),
  } as unknown as Parameters<Registry['registerMetric']>[0]);

  registry.registerMetric({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its response, in seconds',
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to finishing its response, in seconds',
      type: 'histogram',
      aggregator: 'sum',
      values: series.flatMap((s): MetricValue[] => {
        const shared = { ...s.labels };
        let cumulative = 0;
        const buckets = bucketBounds.map((bound, index): MetricValue => {
          cumulative += s.buckets[index] ?? 0;
          return {
            value: cumulative,
            labels: { le: bound },
            metricName: 'http_request_duration_seconds_bucket',
            sharedLabels: shared,
            exemplar: s.exemplars?.[index],
          };
        });
        return [
          ...buckets,
          {
            value: s.count,
            labels: { le: '+Inf' },
            metricName: 'http_request_duration_seconds_bucket',
            sharedLabels: shared,
            exemplar: s.exemplars?.[bucketBounds.length],
          },
          { value: s.sum, labels: {}, metricName: 'http_request_duration_seconds_sum', sharedLabels: shared },
          { value: s.count, labels: {}, metricName: 'http_request_duration_seconds_count', sharedLabels: shared },
        ];
      }),
    }),
  } as unknown as Parameters<Registry['registerMetric']>[0]);

  /**
   * A plain function (no `this`), so it can be handed on as it is. `traceId`: the request's
   * sampled trace, kept as its bucket's exemplar (the OpenMetrics format shows it).
   */
  function observe(method: string, route: string, statusCode: number, seconds: number, traceId?: string): void {
    const s = seriesOf(method, route, statusCode);
    s.count += 1;
    s.sum += seconds;
    let index = 0;
    while (index < bucketBounds.length && seconds > (bucketBounds[index] as number)) index++;
    if (index < bucketBounds.length) s.buckets[index] = (s.buckets[index] ?? 0) + 1;
    if (traceId !== undefined) {
      s.exemplars ??= new Array<Exemplar | undefined>(bucketBounds.length + 1);
      s.exemplars[index] = { labelSet: { trace_id: traceId }, value: seconds, timestamp: Date.now() / 1000 };
    }
  }

  /**
   * The request log's completion listener. The route label is the route template
   * (`/api/v1/books/:book_id`), never the raw path, so label cardinality is bounded by the number
   * of routes; requests that matched no route (unknown paths, and wrong methods, answered by the
   * not-found handler) share a single value.
   */
  const countRequest: RequestCompletedListener = function countRequest(request, reply, config) {
    // Fastify's not-found handler runs with a config without a url (that is what request.is404
    // reads), although its types say every route config has one.
    const url: string | undefined = config.url;
    const traceId = traceIdOf === undefined ? undefined : traceIdOf(request);
    observe(request.method, url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000, traceId);
  };

  return { observe, countRequest };
}
