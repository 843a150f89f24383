/**
 * Click to cloud: with tracing on, a portal action's Kubernetes call carries the request's
 * traceparent and is a CLIENT span under it, the Account keeps the traceparent in its annotation,
 * and the ledger (through the history route) the trace id. The spans go to an OTLP receiver of
 * the test's own; the request's SERVER span, which Next.js makes in the running portal, is made
 * here around the route handler.
 */
import { context, SpanKind, trace } from '@opentelemetry/api';
import { startOtlpReceiver, type OtlpReceiver } from '@books/test-otlp-receiver';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestCluster, type TestCluster } from './kubernetes-harness';
import { PROXY_PROOF, TEST_PROXY_SECRET } from './proxy-sign-in';
import { storageRequest } from './storage-fixtures';

const ORIGIN = 'http://portal.test';
const ADMIN = { 'x-forwarded-user': 'platform-admin', 'x-forwarded-groups': 'portal-admins', ...PROXY_PROOF };
let cluster: TestCluster;
let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  cluster = await startTestCluster();
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
  vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', '50');
  // Before anything loads the Kubernetes client, as instrumentation-node.ts does in the portal.
  const { startTracing } = await import('../src/server/telemetry/start-tracing');
  startTracing({ enabled: true, protocol: 'http/protobuf', tracesUrl: receiver.tracesUrl }, { warn() {}, info() {} });
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await cluster.dispose();
  await receiver.close();
});

beforeEach(() => {
  vi.stubEnv('PORTAL_MOCK_PLATFORM', 'false');
  vi.stubEnv('KUBECONFIG', cluster.kubeconfigPath);
  vi.stubEnv('PORTAL_AUTH', 'proxy');
  vi.stubEnv('PORTAL_ADMIN_GROUPS', 'portal-admins');
  vi.stubEnv('PORTAL_PROXY_SECRET', TEST_PROXY_SECRET);
});

/** Runs `handle` inside a SERVER span, as Next.js runs a route handler; returns the span's trace id. */
async function asRequest<T>(
  name: string,
  handle: () => Promise<T>,
): Promise<{ result: T; traceId: string; spanId: string }> {
  const span = trace.getTracer('test-next-server').startSpan(name, { kind: SpanKind.SERVER });
  try {
    const result = await context.with(trace.setSpan(context.active(), span), handle);
    return { result, ...span.spanContext() };
  } finally {
    span.end();
  }
}

describe('traces of portal actions', () => {
  it('a create sends traceparent to Kubernetes under the request span, annotates the Account and records the trace id', async () => {
    vi.resetModules();
    const resources = await import('../src/app/api/platform/resources/route');
    const history = await import('../src/app/api/platform/resources/history/route');
    const name = 'sttraced01';
    const {
      result: response,
      traceId,
      spanId,
    } = await asRequest('POST /api/platform/resources', () =>
      resources.POST(
        new Request(`${ORIGIN}/api/platform/resources`, {
          method: 'POST',
          headers: { host: 'portal.test', origin: ORIGIN, 'content-type': 'application/json', ...ADMIN },
          body: JSON.stringify(storageRequest({ name })),
        }),
      ),
    );
    expect(response.status).toBe(201);

    const create = cluster.standIn.requests().find((r) => r.verb === 'create' && !r.query.includes('dryRun'));
    expect(create?.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    const account = cluster.standIn.accounts().find((a) => a.metadata.name === name);
    expect(account?.metadata.annotations?.['platform-portal/traceparent']).toMatch(new RegExp(`^00-${traceId}-`));

    const answer = await history.GET(
      new Request(`${ORIGIN}/api/platform/resources/history?name=${name}`, {
        headers: { host: 'portal.test', ...ADMIN },
      }),
    );
    const { items } = (await answer.json()) as { items: { action: string; traceId: string | null }[] };
    expect(items.find((item) => item.action === 'create')?.traceId).toBe(traceId);

    // The create's own CLIENT span, a child of the request's, is the parent the cluster was told of.
    const isCreateCall = (span: { kind: string; spanId: string; parentSpanId: string }) =>
      span.kind === 'CLIENT' && span.parentSpanId === spanId && create!.traceparent!.includes(`-${span.spanId}-`);
    const spans = await receiver.waitFor((all) => all.some(isCreateCall));
    const call = spans.find(isCreateCall)!;
    expect(call.traceId).toBe(traceId);
    expect(call.resource['service.name']).toBe('platform-portal');
    expect(call.attributes['http.request.method'] ?? call.attributes['http.method']).toBe('POST');
  });
});
