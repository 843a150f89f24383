import 'server-only';
import { createServer, type Server } from 'node:http';
import { COUNTER_NAMED_PROCESS_GAUGES } from '@books/shared-rules';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { processWide } from '../runtime/process-wide';

/**
 * The portal's Prometheus metrics: its API routes' rate, errors and duration, and the process's
 * own (memory, event loop). They are served on a port of their own (PORTAL_METRICS_PORT), never
 * on the portal's, so the Ingress that publishes the portal cannot publish them.
 */

/** Route labels kept apart; the rest are counted under OTHER_ROUTE, so no path can grow the series. */
const MAX_ROUTES = 32;
const OTHER_ROUTE = 'other';

/** The API answers in milliseconds; a Kubernetes or Azure call behind it takes up to seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface PortalMetrics {
  readonly registry: Registry;
  readonly requests: Counter<'method' | 'route' | 'status_code'>;
  readonly duration: Histogram<'method' | 'route' | 'status_code'>;
  readonly routes: Set<string>;
}

function createMetrics(): PortalMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of COUNTER_NAMED_PROCESS_GAUGES) registry.removeSingleMetric(name);
  const labelNames = ['method', 'route', 'status_code'] as const;
  return {
    registry,
    requests: new Counter({
      name: 'portal_http_requests_total',
      help: "Requests the portal's API routes answered, by method, route and status code",
      labelNames,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: "Time the portal's API routes took to answer, by method, route and status code",
      labelNames,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    routes: new Set(),
  };
}

// Pages and route handlers are bundled apart by Next.js: one registry for the whole process.
const metrics = () => processWide('metrics', createMetrics);

/** Counts one answer of an API route; `path` is the route's path (the routes have no path parameters). */
export function recordRequest(method: string, path: string, status: number, seconds: number): void {
  const { requests, duration, routes } = metrics();
  let route = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  if (!routes.has(route)) {
    if (routes.size < MAX_ROUTES) routes.add(route);
    else route = OTHER_ROUTE;
  }
  const labels = { method, route, status_code: String(status) };
  requests.inc(labels);
  duration.observe(labels, seconds);
}

/** The exposition in Prometheus's text format. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/**
 * Serves GET /metrics on `port` (all interfaces: Prometheus scrapes the pod's address); every
 * other path is 404 and every other method 405. Resolves once listening.
 */
export async function startMetricsServer(port: number, host = '0.0.0.0'): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
      return;
    }
    metricsText().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Scrapes must not keep a stopping server alive.
  server.unref();
  return server;
}
