/**
 * The production portal's traces as a collector receives them: `next start` with an OTLP endpoint
 * of the test's own, on the Kubernetes stand-in and a PostgreSQL ledger, signed in through the
 * proxy. Next.js's own SERVER spans continue an incoming traceparent; the request's Kubernetes
 * call and ledger statement are spans of the same trace under them; no attribute carries a
 * cookie, a token or a query string. A collector that is down costs the requests nothing and is
 * logged once, as a line about the collector, not about a request.
 * Run: npm run portal:build && node --import tsx --test e2e/traces.test.ts
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@books/test-otlp-receiver';
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import { startPortalServer, type PortalServer } from '../kube-stand-in/portal-server';
import { startTestCluster, type TestCluster } from '../test/kubernetes-harness';
import { storageRequest } from '../test/storage-fixtures';
import { until } from './harness';

const PROXY_SECRET = randomBytes(24).toString('hex');
const ADMIN = {
  'x-forwarded-user': 'ada',
  'x-forwarded-email': 'ada@example.com',
  'x-forwarded-groups': 'admins',
  'x-portal-proxy-secret': PROXY_SECRET,
};
/** Sent sooner than the batch processor's default, so a test waits less. */
const FAST_EXPORT = { OTEL_BSP_SCHEDULE_DELAY: '50' };

function newTraceparent(): { traceparent: string; traceId: string; parentId: string } {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceparent: `00-${traceId}-${parentId}-01`, traceId, parentId };
}

/** `span` and its ancestors among `spans`, nearest first: the last one's parent is not the portal's. */
function lineage(spans: ReceivedSpan[], span: ReceivedSpan): ReceivedSpan[] {
  const chain = [span];
  for (;;) {
    const { traceId, parentSpanId } = chain.at(-1)!;
    const parent = spans.find((candidate) => candidate.traceId === traceId && candidate.spanId === parentSpanId);
    if (parent === undefined) return chain;
    chain.push(parent);
  }
}

/** The SERVER span Next.js made for the route `route` in trace `traceId`. */
const routedServerSpan = (spans: ReceivedSpan[], traceId: string, route: string) =>
  spans.find((span) => span.traceId === traceId && span.kind === 'SERVER' && span.attributes['http.route'] === route);

/** Whether the routed SERVER span and every span above it, up to the caller's, have arrived. */
const continuesCaller = (spans: ReceivedSpan[], traceId: string, route: string, parentId: string) => {
  const span = routedServerSpan(spans, traceId, route);
  return span !== undefined && lineage(spans, span).at(-1)!.parentSpanId === parentId;
};

describe('traces of the production portal', () => {
  let receiver: OtlpReceiver;
  let cluster: TestCluster;
  let postgres: TestPostgres;
  let portal: PortalServer;
  /** What a request may carry that no span may: sent with every request of these tests. */
  const secrets = {
    cookie: randomBytes(16).toString('hex'),
    bearer: randomBytes(16).toString('hex'),
    query: randomBytes(16).toString('hex'),
  };
  const send = (path: string, traceparent: string, init: RequestInit = {}) =>
    fetch(`${portal.url}${path}`, {
      ...init,
      redirect: 'manual',
      headers: {
        ...ADMIN,
        traceparent,
        cookie: `portal_session=${secrets.cookie}`,
        authorization: `Bearer ${secrets.bearer}`,
        ...init.headers,
      },
    });

  before(async () => {
    [receiver, cluster, postgres] = await Promise.all([startOtlpReceiver(), startTestCluster(), startPostgres()]);
    portal = await startPortalServer({
      kubeconfigPath: cluster.kubeconfigPath,
      env: {
        PORTAL_AUTH: 'proxy',
        PORTAL_PROXY_SECRET: PROXY_SECRET,
        PORTAL_ADMIN_GROUPS: 'admins',
        PORTAL_DATABASE_URL: await postgres.createDatabase('portal_traces'),
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        ...FAST_EXPORT,
      },
    });
  });
  after(async () => {
    await portal?.stop();
    await Promise.all([cluster?.dispose(), postgres?.stop(), receiver?.close()]);
  });

  it("continues an incoming traceparent in Next.js's own SERVER spans of a page", async () => {
    const { traceparent, traceId, parentId } = newTraceparent();
    const page = await send(`/resources?token=${secrets.query}`, traceparent);
    assert.equal(page.status, 200);
    await page.arrayBuffer();

    const spans = await receiver.waitFor((all) => continuesCaller(all, traceId, '/resources', parentId));
    const span = routedServerSpan(spans, traceId, '/resources')!;
    assert.equal(span.name, 'GET /resources');
    assert.equal(span.scope, 'next.js');
    assert.equal(span.resource['service.name'], 'platform-portal');
    assert.deepEqual(
      {
        type: span.attributes['next.span_type'],
        route: span.attributes['next.route'],
        method: span.attributes['http.method'],
        status: span.attributes['http.status_code'],
        target: span.attributes['http.target'],
      },
      { type: 'BaseServer.handleRequest', route: '/resources', method: 'GET', status: 200, target: '/resources' },
    );
    assert.equal(span.status.code, 'UNSET');
    // Next.js runs the proxy (middleware) in a request pass of its own whose SERVER span is the
    // routed one's parent; whichever is outermost is the child of the caller's span.
    const chain = lineage(spans, span);
    for (const server of chain) {
      assert.equal(server.kind, 'SERVER', server.name);
      assert.equal(server.attributes['next.span_type'], 'BaseServer.handleRequest', server.name);
    }
    assert.equal(chain.at(-1)!.parentSpanId, parentId);
    // The page's render is in the same trace, under its SERVER span.
    const render = spans.find((candidate) => candidate.name === 'render route (app) /resources');
    assert.ok(render !== undefined && lineage(spans, render).includes(span), 'the render span is under it');
  });

  it("puts a create's Kubernetes call and ledger statement under Next.js's SERVER span, in the caller's trace", async () => {
    const { traceparent, traceId, parentId } = newTraceparent();
    const name = 'sttracede2e01';
    const created = await send('/api/platform/resources', traceparent, {
      method: 'POST',
      headers: { origin: portal.url, 'content-type': 'application/json' },
      body: JSON.stringify(storageRequest({ name })),
    });
    assert.equal(created.status, 201, await created.text());

    const create = cluster.standIn.requests().find((r) => r.verb === 'create' && !r.query.includes('dryRun'));
    assert.match(create?.traceparent ?? '', new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    const isCreateCall = (span: ReceivedSpan) =>
      span.kind === 'CLIENT' && create!.traceparent!.includes(`-${span.spanId}-`);
    const isLedgerInsert = (span: ReceivedSpan) =>
      span.traceId === traceId && span.kind === 'CLIENT' && span.attributes['db.operation.name'] === 'INSERT';
    const spans = await receiver.waitFor(
      (all) =>
        continuesCaller(all, traceId, '/api/platform/resources', parentId) &&
        all.some(isCreateCall) &&
        all.some(isLedgerInsert),
    );

    const server = routedServerSpan(spans, traceId, '/api/platform/resources')!;
    assert.equal(server.name, 'POST /api/platform/resources');
    assert.equal(server.attributes['http.status_code'], 201);
    assert.equal(lineage(spans, server).at(-1)!.parentSpanId, parentId);

    const call = spans.find(isCreateCall)!;
    assert.equal(call.traceId, traceId);
    assert.equal(call.attributes['http.request.method'] ?? call.attributes['http.method'], 'POST');
    assert.ok(lineage(spans, call).includes(server), 'the Kubernetes call is under the SERVER span');

    const insert = spans.find(isLedgerInsert)!;
    assert.equal(insert.attributes['db.system.name'], 'postgresql');
    assert.equal(typeof insert.attributes['db.collection.name'], 'string');
    assert.ok(lineage(spans, insert).includes(server), 'the ledger statement is under the SERVER span');
    assert.ok(!JSON.stringify(insert.attributes).includes(name), 'no statement parameter in the span');
  });

  it('writes no cookie, token, proxy secret or query string into any span', async () => {
    const { traceparent, traceId } = newTraceparent();
    // The sign-in callback's query is a credential; this portal signs in through the proxy, but
    // Next.js records the target of whatever request arrives.
    const callback = await send(`/api/auth/callback?code=${secrets.query}&state=${secrets.query}`, traceparent);
    await callback.arrayBuffer();
    const spans = await receiver.waitFor((all) =>
      all.some((span) => span.traceId === traceId && span.kind === 'SERVER' && span.parentSpanId !== ''),
    );
    const everything = JSON.stringify(
      spans.map((span) => [span.name, span.attributes, span.events, span.status.message, span.resource]),
    );
    for (const [what, value] of Object.entries({ ...secrets, proxy: PROXY_SECRET, kubernetes: cluster.standIn.token }))
      assert.ok(!everything.includes(value), `no span carries the ${what} secret`);
    assert.ok(
      spans.some((span) => span.attributes['http.target'] === '/api/auth/callback'),
      'the target is recorded without its query',
    );
  });
});

describe('the production portal with its collector down', () => {
  let portal: PortalServer;
  before(async () => {
    const down = await startOtlpReceiver();
    await down.close(); // its port now refuses connections
    portal = await startPortalServer({
      env: {
        PORTAL_MOCK_PLATFORM: 'true',
        PORTAL_AUTH: 'none',
        OTEL_EXPORTER_OTLP_ENDPOINT: down.url,
        // The exporter retries a refused connection until its timeout; the warning comes after it.
        OTEL_EXPORTER_OTLP_TIMEOUT: '500',
        ...FAST_EXPORT,
      },
    });
  });
  after(() => portal?.stop());

  it('answers every request and logs the failed export once, without a trace id', async () => {
    const { traceparent, traceId } = newTraceparent();
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          fetch(`${portal.url}/api/platform/resources`, { headers: { traceparent } }).then((r) => r.status),
        ),
      );
      assert.deepEqual(new Set(answers), new Set([200]));
      await new Promise((resolve) => setTimeout(resolve, 120)); // a batch export attempt in between
    }
    const lines = () => portal.output().split('\n');
    const warnings = () => lines().filter((line) => line.includes('traces cannot be exported'));
    await until(async () => (warnings().length > 0 ? true : undefined), 'the export-failure warning');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(warnings().length, 1, portal.output());
    // The requests' own lines carry their trace; the line about the collector carries none.
    assert.ok(lines().some((line) => line.includes('/api/platform/resources') && line.includes(traceId)));
    assert.doesNotMatch(warnings()[0]!, /trace_id|span_id/);
  });
});
