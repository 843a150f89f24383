import { Counter, Gauge, Registry } from 'prom-client';
import { openMetricsRegistry } from './open-metrics.js';
import { createHttpRequestMetrics, type TraceIdOf } from './http-request-metrics.js';
import { getProcessRegistry } from './process-registry.js';

// An in-memory store answers in well under a millisecond, so the buckets start lower than
// prom-client's defaults to keep the fast path visible.
export const HTTP_DURATION_BUCKETS_SECONDS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

export interface AppMetricsOptions {
  /** Read at scrape time, so the gauge is never stale. */
  readonly countBooks: () => number | Promise<number>;
  /** The request's sampled trace id while tracing is on: the duration histogram's exemplar. */
  readonly traceIdOf?: TraceIdOf | undefined;
}

export function createAppMetrics({ countBooks, traceIdOf }: AppMetricsOptions) {
  const registry = new Registry();

  const httpRequests = createHttpRequestMetrics(registry, HTTP_DURATION_BUCKETS_SECONDS, traceIdOf);

  const chaosForcedFailures = new Counter<'code'>({
    name: 'chaos_forced_failures_total',
    help: 'Responses forced by the X-Force-Error header in chaos mode, by status code',
    labelNames: ['code'],
    registers: [registry],
  });

  // Both are set by render() before each scrape, from one read of the store.
  const booksCount = new Gauge({
    name: 'books_stored',
    help: 'Books currently in the store (the last value read while books_store_up was 1)',
    registers: [registry],
  });
  const storeUp = new Gauge({
    name: 'books_store_up',
    help: 'Whether this scrape could read the book store: 1 yes, 0 no (its database is unreachable)',
    registers: [registry],
  });

  /**
   * Reads the store once per scrape. A store that cannot answer (PostgreSQL down) must not take
   * the metrics down with it: the scrape still succeeds, says so in books_store_up, and keeps the
   * last known count rather than inventing a zero.
   */
  async function readStore(): Promise<void> {
    try {
      booksCount.set(await countBooks());
      storeUp.set(1);
    } catch {
      storeUp.set(0);
    }
  }

  // Made on the first OpenMetrics scrape: most deployments never ask for it.
  let openMetrics: ReturnType<typeof openMetricsRegistry> | undefined;

  return {
    contentType: registry.contentType,
    openMetricsContentType: Registry.OPENMETRICS_CONTENT_TYPE,

    /** Counts a finished request (listens to the request log's completion). */
    countRequest: httpRequests.countRequest,

    recordForcedFailure(code: number): void {
      chaosForcedFailures.inc({ code: String(code) });
    },

    /** The Prometheus text exposition of this app's metrics followed by the process metrics. */
    async render(): Promise<string> {
      await readStore();
      const [own, processWide] = await Promise.all([registry.metrics(), getProcessRegistry().metrics()]);
      return `${own}\n${processWide}`;
    },

    /** The same metrics in the OpenMetrics format, the request-duration buckets with their exemplars. */
    async renderOpenMetrics(): Promise<string> {
      await readStore();
      openMetrics ??= openMetricsRegistry([registry, getProcessRegistry()]);
      return openMetrics.metrics();
    },
  };
}

export type AppMetrics = ReturnType<typeof createAppMetrics>;
