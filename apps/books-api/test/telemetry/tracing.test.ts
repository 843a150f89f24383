import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@books/test-otlp-receiver';
import { freshDatabase } from '../postgres.js';
import { listeningServer, waitForLine, type ServerProcess } from '../server-process.js';

/*
 * The real server process exporting to an OTLP receiver of the test's own: the spans as a
 * collector receives them, in both encodings, the log lines and the OpenMetrics exemplars.
 */

const SEEDED_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const USERS_FILE = fileURLToPath(new URL('../../demo/users.demo.json', import.meta.url));
const PASSWORD = 'demo-reader-password';
/** A user name that fails to log in: no span may carry it. */
const FAILED_USER = 'mallory-was-here';
const WRONG_PASSWORD = 'not-the-password-1234';

/** Sent sooner than the batch processor's 5 s default, so a test waits less. */
const FAST_EXPORT = { OTEL_BSP_SCHEDULE_DELAY: '50' };

function newTraceparent(): { traceparent: string; traceId: string; parentId: string } {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceparent: `00-${traceId}-${parentId}-01`, traceId, parentId };
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exit;
}

async function started(t: TestContext, receiver: OtlpReceiver, env: Record<string, string> = {}) {
  const server = await listeningServer({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    ...FAST_EXPORT,
    ENABLE_CHAOS_HEADERS: 'true',
    ...env,
  });
  t.after(() => stop(server));
  return { server, base: `http://127.0.0.1:${server.port}` };
}

const serverSpanOf = (spans: ReceivedSpan[], traceId: string) =>
  spans.find((span) => span.traceId === traceId && span.kind === 'SERVER');

/** Every attribute value of every span, as text. */
const allAttributeText = (spans: ReceivedSpan[]) =>
  JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events, span.status.message]));

describe('traces of the Books API', () => {
  let receiver: OtlpReceiver;
  before(async () => {
    receiver = await startOtlpReceiver();
  });
  after(() => receiver.close());

  test('a request continues the incoming traceparent in one SERVER span with the HTTP conventions; its log lines carry the ids', async (t) => {
    const { server, base } = await started(t, receiver);
    const { traceparent, traceId, parentId } = newTraceparent();
    const response = await fetch(`${base}/api/v1/books/${SEEDED_ID}`, { headers: { traceparent } });
    assert.equal(response.status, 200);
    const spans = await receiver.waitFor((all) => serverSpanOf(all, traceId) !== undefined);
    const span = serverSpanOf(spans, traceId)!;
    assert.equal(span.name, 'GET /api/v1/books/:book_id');
    assert.equal(span.parentSpanId, parentId);
    assert.equal(span.status.code, 'UNSET');
    assert.equal(span.resource['service.name'], 'books-api');
    assert.deepEqual(
      {
        method: span.attributes['http.request.method'],
        route: span.attributes['http.route'],
        status: span.attributes['http.response.status_code'],
        path: span.attributes['url.path'],
        address: span.attributes['server.address'],
        port: span.attributes['server.port'],
        client: span.attributes['client.address'],
      },
      {
        method: 'GET',
        route: '/api/v1/books/:book_id',
        status: 200,
        path: `/api/v1/books/${SEEDED_ID}`,
        address: '127.0.0.1',
        port: server.port,
        client: '127.0.0.1',
      },
    );
    assert.equal(spans.filter((s) => s.traceId === traceId && s.kind === 'SERVER').length, 1);
    const line = JSON.parse(await waitForLine(server, new RegExp(`"trace_id":"${traceId}"`))) as Record<
      string,
      unknown
    >;
    assert.equal(line['span_id'], span.spanId);
    assert.match(String(line['msg']), /^GET \/api\/v1\/books\/.* 200 /);
    assert.ok(line['reqId'], 'beside the request id');
  });

  test('a 4xx leaves the status unset, a 5xx is an ERROR, and a chaos-forced answer says so', async (t) => {
    const { base } = await started(t, receiver);
    const missing = newTraceparent();
    const forced = newTraceparent();
    const unmatched = newTraceparent();
    await fetch(`${base}/api/v1/books/00000000-0000-4000-8000-000000000000`, {
      headers: { traceparent: missing.traceparent },
    });
    const answer = await fetch(`${base}/api/v1/books`, {
      headers: { traceparent: forced.traceparent, 'x-force-error': '503' },
    });
    assert.equal(answer.status, 503);
    await fetch(`${base}/no/such/path`, { headers: { traceparent: unmatched.traceparent } });
    const spans = await receiver.waitFor((all) =>
      [missing, forced, unmatched].every(({ traceId }) => serverSpanOf(all, traceId) !== undefined),
    );
    const notFound = serverSpanOf(spans, missing.traceId)!;
    assert.equal(notFound.attributes['http.response.status_code'], 404);
    assert.equal(notFound.status.code, 'UNSET');
    const chaos = serverSpanOf(spans, forced.traceId)!;
    assert.equal(chaos.name, 'GET /api/v1/books');
    assert.equal(chaos.status.code, 'ERROR');
    assert.equal(chaos.attributes['chaos.forced_status'], 503);
    assert.equal(chaos.attributes['http.response.status_code'], 503);
    const unrouted = serverSpanOf(spans, unmatched.traceId)!;
    assert.equal(unrouted.name, 'GET');
    assert.equal(unrouted.attributes['http.response.status_code'], 404);
  });

  test('/metrics in OpenMetrics carries trace_id exemplars on the duration buckets; the text format none', async (t) => {
    const { base } = await started(t, receiver);
    const { traceparent, traceId } = newTraceparent();
    await fetch(`${base}/api/v1/books/${SEEDED_ID}`, { headers: { traceparent } });
    const open = await fetch(`${base}/metrics`, { headers: { accept: 'application/openmetrics-text; version=1.0.0' } });
    assert.match(open.headers.get('content-type') ?? '', /^application\/openmetrics-text/);
    const body = await open.text();
    assert.match(
      body,
      new RegExp(
        `^http_request_duration_seconds_bucket\\{le="[^"]+",method="GET",route="/api/v1/books/:book_id",status_code="200"\\} \\d+ # \\{trace_id="${traceId}"\\} [0-9.e-]+ [0-9.]+$`,
        'm',
      ),
    );
    assert.match(body, /^http_requests_total\{method="GET",route="\/api\/v1\/books\/:book_id",status_code="200"\} 1$/m);
    assert.match(body, /\n# EOF\n$/);
    const text = await (await fetch(`${base}/metrics`)).text();
    assert.doesNotMatch(text, /trace_id| # \{/);
    assert.match(text, /^http_requests_total\{/m);
  });

  test('login: INTERNAL password spans, and no span carries a password, a token or a user name that failed', async (t) => {
    const { base } = await started(t, receiver, {
      USERS_FILE,
      JWT_SECRET_KEY: randomBytes(48).toString('base64'),
    });
    const good = newTraceparent();
    const bad = newTraceparent();
    const login = (username: string, password: string, traceparent: string) =>
      fetch(`${base}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', traceparent },
        body: new URLSearchParams({ username, password }).toString(),
      });
    const accepted = await login('demo-reader', PASSWORD, good.traceparent);
    assert.equal(accepted.status, 200);
    const { access_token: token } = (await accepted.json()) as { access_token: string };
    assert.equal((await login(FAILED_USER, WRONG_PASSWORD, bad.traceparent)).status, 401);
    const read = newTraceparent();
    await fetch(`${base}/api/v1/books`, {
      headers: { authorization: `Bearer ${token}`, traceparent: read.traceparent },
    });
    const spans = await receiver.waitFor((all) =>
      [good, bad, read].every(({ traceId }) => serverSpanOf(all, traceId) !== undefined),
    );
    for (const { traceId } of [good, bad]) {
      const server = serverSpanOf(spans, traceId)!;
      const verify = spans.find((span) => span.traceId === traceId && span.name === 'password verify');
      assert.ok(verify, 'a password verification span');
      assert.equal(verify.kind, 'INTERNAL');
      assert.equal(verify.parentSpanId, server.spanId);
    }
    const text = allAttributeText(spans);
    for (const secret of [PASSWORD, WRONG_PASSWORD, FAILED_USER, token, token.split('.')[2]!]) {
      assert.ok(!text.includes(secret), `no span carries ${secret.slice(0, 12)}...`);
    }
  });

  test('http/json is honoured', async (t) => {
    const { base } = await started(t, receiver, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const { traceparent, traceId } = newTraceparent();
    await fetch(`${base}/api/ps`, { headers: { traceparent } });
    await receiver.waitFor((all) => serverSpanOf(all, traceId) !== undefined);
    const carrying = receiver.exports.find((received) => received.spans.some((span) => span.traceId === traceId));
    assert.equal(carrying?.encoding, 'http/json');
    assert.equal(serverSpanOf(receiver.spans(), traceId)!.name, 'GET /api/ps');
  });

  test('PostgreSQL: a CLIENT span per statement under the request, with operation and table, never a value', async (t) => {
    const { url } = await freshDatabase(t);
    const { server, base } = await started(t, receiver, { DATABASE_URL: url });
    await waitForLine(server, /database migrations applied/);
    const { traceparent, traceId } = newTraceparent();
    const title = `Traced ${randomBytes(6).toString('hex')}`;
    const created = await fetch(`${base}/api/v1/books`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent },
      body: JSON.stringify({ title, author: 'Ada Tracer', year: 2024 }),
    });
    assert.equal(created.status, 201);
    const read = newTraceparent();
    const { id } = (await created.json()) as { id: string };
    assert.equal(
      (await fetch(`${base}/api/v1/books/${id}`, { headers: { traceparent: read.traceparent } })).status,
      200,
    );
    const spans = await receiver.waitFor((all) =>
      [traceId, read.traceId].every((trace) =>
        all.some((span) => span.traceId === trace && span.kind === 'CLIENT' && span.attributes['db.system.name']),
      ),
    );
    for (const [trace, operation] of [
      [traceId, 'INSERT'],
      [read.traceId, 'SELECT'],
    ] as const) {
      const server = serverSpanOf(spans, trace)!;
      const statement = spans.find((span) => span.traceId === trace && span.kind === 'CLIENT')!;
      assert.equal(statement.parentSpanId, server.spanId);
      assert.equal(statement.attributes['db.system.name'], 'postgresql');
      assert.equal(statement.attributes['db.operation.name'], operation);
      assert.equal(statement.attributes['db.collection.name'], 'books');
      assert.equal(statement.name, `${operation} books`);
    }
    const text = allAttributeText(spans.filter((span) => span.kind === 'CLIENT'));
    for (const value of [title, 'Ada Tracer', id])
      assert.ok(!text.includes(value), `no statement span carries ${value}`);
  });

  test('a collector that is down costs the requests nothing and is logged once, outside any trace', async (t) => {
    const down = await startOtlpReceiver();
    await down.close(); // its port now refuses connections
    const { server, base } = await started(t, receiver, { OTEL_EXPORTER_OTLP_ENDPOINT: down.url });
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => fetch(`${base}/api/v1/books/${SEEDED_ID}`).then((r) => r.status)),
      );
      assert.deepEqual(new Set(answers), new Set([200]));
      await new Promise((resolve) => setTimeout(resolve, 120)); // a batch export attempt in between
    }
    await waitForLine(server, /traces cannot be exported/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const warnings = server.lines.filter((line) => line.includes('traces cannot be exported'));
    assert.equal(warnings.length, 1);
    // About the collector, not about the request whose span happened to fill the batch.
    assert.doesNotMatch(warnings[0]!, /trace_id|span_id/);
    assert.equal(server.lines.filter((line) => /"level":50/.test(line)).length, 0, 'no error lines');
  });
});

test('without an OTLP endpoint nothing is exported and no line carries a trace id', async (t) => {
  const receiver = await startOtlpReceiver();
  t.after(() => receiver.close());
  const server = await listeningServer({ OTEL_SERVICE_NAME: 'unused', ...FAST_EXPORT });
  t.after(() => stop(server));
  await fetch(`http://127.0.0.1:${server.port}/api/v1/books`, {
    headers: { traceparent: newTraceparent().traceparent },
  });
  await waitForLine(server, /GET \/api\/v1\/books /);
  assert.ok(server.lines.every((line) => !line.includes('trace_id')));
  assert.equal(receiver.spans().length, 0);
});
