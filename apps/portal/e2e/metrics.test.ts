/**
 * The production server's Prometheus metrics: on PORTAL_METRICS_PORT, a listener of its own,
 * counting the API routes' answers; the portal's own port has no /metrics.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort, startPortalServer, type PortalServer } from '../kube-stand-in/portal-server';

describe('the production portal with PORTAL_METRICS_PORT', () => {
  let portal: PortalServer;
  let metricsUrl: string;
  before(async () => {
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    portal = await startPortalServer({
      env: { PORTAL_MOCK_PLATFORM: 'true', PORTAL_AUTH: 'none', PORTAL_METRICS_PORT: String(metricsPort) },
    });
  });
  after(() => portal.stop());

  it('counts the API answers by route and status on the metrics port', async () => {
    for (let i = 0; i < 3; i++) await (await fetch(`${portal.url}/api/platform/resources`)).arrayBuffer();
    await (await fetch(`${portal.url}/api/platform/resources`, { method: 'PUT' })).arrayBuffer();
    const response = await fetch(metricsUrl);
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.match(
      text,
      /^portal_http_requests_total\{method="GET",route="\/api\/platform\/resources",status_code="200"\} 3$/m,
    );
    assert.match(
      text,
      /^portal_http_requests_total\{method="PUT",route="\/api\/platform\/resources",status_code="405"\} 1$/m,
    );
    assert.match(
      text,
      /^portal_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/platform\/resources",status_code="200"\} 3$/m,
    );
    assert.match(text, /^process_resident_memory_bytes \d+/m);
    assert.match(portal.output(), /Metrics: GET \/metrics on port \d+/);
  });

  it('publishes no metrics on the portal port', async () => {
    const response = await fetch(`${portal.url}/metrics`);
    assert.equal(response.status, 404);
    assert.doesNotMatch(await response.text(), /portal_http_requests_total/);
  });
});
