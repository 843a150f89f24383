import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HTTP_DURATION_BUCKETS_SECONDS } from '../../src/metrics/app-metrics.js';
import { buildTestApp, json } from '../helper.js';
import { metricTypes, parseSamples, scrape, sumOf } from './metrics-scrape.js';

const CLEAN_CODE = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const PRAGMATIC = '1a5d9e27-8b16-4d8d-96a0-84b9a91db314';

describe('GET /metrics', () => {
  test('answers in the Prometheus text format with its content type', async (t) => {
    const app = await buildTestApp(t);
    const response = await app.inject({ url: '/metrics' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    assert.ok(response.headers['x-request-id']);
    // Every non-comment line parses as a sample.
    assert.ok(parseSamples(response.body).length > 0);
  });

  test('declares the request, store, chaos and process metrics with their types', async (t) => {
    const app = await buildTestApp(t);
    await app.inject({ url: '/api/v1/books' });
    const types = metricTypes((await app.inject({ url: '/metrics' })).body);
    assert.equal(types.get('http_requests_total'), 'counter');
    assert.equal(types.get('http_request_duration_seconds'), 'histogram');
    assert.equal(types.get('books_stored'), 'gauge');
    assert.equal(types.get('books_store_up'), 'gauge');
    assert.equal(types.get('chaos_forced_failures_total'), 'counter');
    assert.equal(types.get('process_cpu_seconds_total'), 'counter');
    assert.equal(types.get('process_resident_memory_bytes'), 'gauge');
    assert.equal(types.get('nodejs_eventloop_lag_seconds'), 'gauge');
    assert.equal(types.get('nodejs_active_handles'), 'gauge');
    // Gauges named like a counter (_total) or a histogram's count (_count): promtool rejects them.
    for (const [name, type] of types) {
      if (name.endsWith('_total')) assert.equal(type, 'counter', name);
      if (name.endsWith('_count')) assert.fail(`${name} is named like a histogram's _count`);
    }
  });

  test('labels requests by method, route template and status code, never by raw path', async (t) => {
    const app = await buildTestApp(t);
    await app.inject({ url: `/api/v1/books/${CLEAN_CODE}` });
    await app.inject({ url: `/api/v1/books/${PRAGMATIC}` });
    await app.inject({ url: '/api/v1/books/00000000-0000-4000-8000-000000000000' });
    await app.inject({ url: '/api/v1/books/search?q=code' });
    await app.inject({ method: 'DELETE', url: `/api/v1/books/${PRAGMATIC}` });
    const samples = await scrape(app);

    const byId = { method: 'GET', route: '/api/v1/books/:book_id' };
    assert.equal(sumOf(samples, 'http_requests_total', { ...byId, status_code: '200' }), 2);
    assert.equal(sumOf(samples, 'http_requests_total', { ...byId, status_code: '404' }), 1);
    assert.equal(
      sumOf(samples, 'http_requests_total', { method: 'GET', route: '/api/v1/books/search', status_code: '200' }),
      1,
    );
    assert.equal(
      sumOf(samples, 'http_requests_total', { method: 'DELETE', route: '/api/v1/books/:book_id', status_code: '200' }),
      1,
    );
    for (const sample of samples.filter((s) => s.name.startsWith('http_request'))) {
      assert.deepEqual(
        Object.keys(sample.labels)
          .filter((key) => key !== 'le')
          .sort(),
        ['method', 'route', 'status_code'],
      );
      assert.doesNotMatch(sample.labels.route ?? '', /[0-9a-f]{8}-|\?/, 'no ids or queries in route labels');
    }
  });

  test('unknown paths and wrong methods share one route label value', async (t) => {
    const app = await buildTestApp(t);
    for (let i = 0; i < 5; i++) await app.inject({ url: `/no/such/path/${i}` });
    await app.inject({ method: 'PUT', url: '/api/v1/books' });
    await app.inject({ method: 'POST', url: '/api/ps' });
    const samples = await scrape(app);

    const routes = new Set(samples.filter((s) => s.name === 'http_requests_total').map((s) => s.labels.route));
    assert.ok(![...routes].some((route) => route?.startsWith('/no/')), `routes: ${[...routes].join(', ')}`);
    assert.equal(sumOf(samples, 'http_requests_total', { route: 'unmatched', status_code: '404' }), 5);
    assert.equal(sumOf(samples, 'http_requests_total', { method: 'PUT', route: 'unmatched', status_code: '405' }), 1);
    assert.equal(sumOf(samples, 'http_requests_total', { method: 'POST', route: 'unmatched', status_code: '405' }), 1);
    const unmatchedSeries = samples.filter((s) => s.name === 'http_requests_total' && s.labels.route === 'unmatched');
    assert.equal(unmatchedSeries.length, 3, 'one series per method and status, not per path');
  });

  test('the latency histogram has a bucket per bound and counts every request', async (t) => {
    const app = await buildTestApp(t);
    for (let i = 0; i < 3; i++) await app.inject({ url: '/api/ps' });
    const samples = await scrape(app);
    const labels = { method: 'GET', route: '/api/ps', status_code: '200' };
    const buckets = samples.filter(
      (s) => s.name === 'http_request_duration_seconds_bucket' && s.labels.route === '/api/ps',
    );
    assert.deepEqual(
      buckets.map((s) => s.labels.le),
      [...HTTP_DURATION_BUCKETS_SECONDS.map(String), '+Inf'],
    );
    assert.equal(buckets.at(-1)?.value, 3);
    assert.equal(sumOf(samples, 'http_request_duration_seconds_count', labels), 3);
    assert.equal(sumOf(samples, 'http_requests_total', labels), 3);
    assert.ok(sumOf(samples, 'http_request_duration_seconds_sum', labels) > 0);
  });

  test('books_stored follows the store at scrape time', async (t) => {
    const app = await buildTestApp(t);
    const first = await scrape(app);
    assert.equal(sumOf(first, 'books_stored'), 3);
    assert.equal(sumOf(first, 'books_store_up'), 1);
    const created = json(
      await app.inject({ method: 'POST', url: '/api/v1/books', payload: { title: 'T', author: 'A', year: 2000 } }),
    );
    assert.equal(sumOf(await scrape(app), 'books_stored'), 4);
    await app.inject({ method: 'DELETE', url: `/api/v1/books/${created.id}` });
    await app.inject({ method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE}` });
    assert.equal(sumOf(await scrape(app), 'books_stored'), 2);
  });

  test('a scrape is counted after it is answered, so the next scrape shows it', async (t) => {
    const app = await buildTestApp(t);
    const labels = { method: 'GET', route: '/metrics', status_code: '200' };
    assert.equal(sumOf(await scrape(app), 'http_requests_total', labels), 0);
    assert.equal(sumOf(await scrape(app), 'http_requests_total', labels), 1);
  });

  test('each app instance has its own request metrics', async (t) => {
    const first = await buildTestApp(t);
    const second = await buildTestApp(t);
    for (let i = 0; i < 4; i++) await first.inject({ url: '/' });
    assert.equal(sumOf(await scrape(first), 'http_requests_total', { route: '/' }), 4);
    assert.equal(sumOf(await scrape(second), 'http_requests_total', { route: '/' }), 0);
  });

  test('is documented in OpenAPI as a monitoring operation with a text response', async (t) => {
    const app = await buildTestApp(t);
    const operation = json(await app.inject({ url: '/openapi.json' })).paths['/metrics'].get;
    assert.deepEqual(operation.tags, ['monitoring']);
    assert.ok(operation.responses['200'].content['text/plain; version=0.0.4; charset=utf-8']);
  });

  test('a wrong method on /metrics is a 405', async (t) => {
    const app = await buildTestApp(t);
    const response = await app.inject({ method: 'POST', url: '/metrics' });
    assert.equal(response.statusCode, 405);
    assert.deepEqual(json(response), { detail: 'Method Not Allowed' });
  });
});
