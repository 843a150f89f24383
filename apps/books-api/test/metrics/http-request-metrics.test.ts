import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { HTTP_DURATION_BUCKETS_SECONDS } from '../../src/metrics/app-metrics.js';
import { createHttpRequestMetrics } from '../../src/metrics/http-request-metrics.js';
import { createPrng } from '../../bench/lib/book-generator.js';

test('the request metrics print exactly what prom-client Counter and Histogram print for the same observations', async () => {
  const ours = new Registry();
  const metrics = createHttpRequestMetrics(ours, HTTP_DURATION_BUCKETS_SECONDS);

  const reference = new Registry();
  const labelNames = ['method', 'route', 'status_code'] as const;
  const counter = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code',
    labelNames,
    registers: [reference],
  });
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its response, in seconds',
    labelNames,
    buckets: [...HTTP_DURATION_BUCKETS_SECONDS],
    registers: [reference],
  });

  const random = createPrng(7);
  const methods = ['GET', 'POST', 'PATCH', 'DELETE', 'HEAD'];
  const routes = ['/api/v1/books', '/api/v1/books/:book_id', 'unmatched', '/a "quoted\\ route"'];
  const statuses = [200, 201, 404, 405, 422, 503];
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  for (let i = 0; i < 5000; i++) {
    const method = pick(methods);
    const route = pick(routes);
    const status = pick(statuses);
    // Values on, between and beyond the bucket bounds.
    const seconds = random() < 0.2 ? pick(HTTP_DURATION_BUCKETS_SECONDS) : random() ** 4 * 8;
    metrics.observe(method, route, status, seconds);
    const labels = { method, route, status_code: String(status) };
    counter.inc(labels);
    histogram.observe(labels, seconds);
  }

  assert.equal(await ours.metrics(), await reference.metrics());
});
