import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { defaultConfig } from '../../src/config.js';
import { TRAFFIC_REQUEST_ID_PREFIX } from '../../src/traffic/generator.js';
import { scrape, sumOf } from '../plugins/metrics-scrape.js';

type LogLine = Record<string, unknown>;

/** An app with its log lines captured; the generator pauses `delayMs` between requests. */
async function startApp(t: TestContext, options: { enabled: boolean; delayMs?: number }) {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const app = await buildApp({
    config: defaultConfig({ trafficGeneratorEnabled: options.enabled }),
    logger: pino({ level: 'info' }, sink),
    trafficDelayMs: () => options.delayMs ?? 5,
  });
  let closed = false;
  t.after(async () => {
    if (!closed) await app.close();
  });
  return {
    app,
    lines,
    /** Request log lines of the generator's requests (it sends its own X-Request-ID). */
    trafficLines: () =>
      lines.filter((line) => (typeof line.reqId === 'string' ? line.reqId : '').startsWith(TRAFFIC_REQUEST_ID_PREFIX)),
    async close() {
      closed = true;
      await app.close();
    },
  };
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return;
    await sleep(10);
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** Requests the app has answered, apart from the test's own scrapes. */
async function answeredRequests(app: Awaited<ReturnType<typeof startApp>>['app']): Promise<number> {
  const samples = await scrape(app);
  return sumOf(samples, 'http_requests_total') - sumOf(samples, 'http_requests_total', { route: '/metrics' });
}

describe('traffic generator switch', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  before(() => process.on('unhandledRejection', onUnhandled));
  after(() => {
    process.off('unhandledRejection', onUnhandled);
    assert.deepEqual(unhandled, [], 'no unhandled rejection');
  });

  test('once the server listens, read-only requests reach it and appear in the request log and metrics', async (t) => {
    const { app, trafficLines } = await startApp(t, { enabled: true });
    await app.listen({ host: '127.0.0.1', port: 0 });
    await waitFor(async () => (await answeredRequests(app)) >= 10, 'ten generated requests in /metrics');
    await waitFor(() => trafficLines().length >= 10, 'ten request log lines');
    for (const line of trafficLines()) {
      assert.ok(['GET', 'HEAD'].includes(String(line.method)), `read-only, got ${String(line.method)}`);
      assert.ok([200, 307].includes(Number(line.status)), `${String(line.path)} answered ${String(line.status)}`);
    }
    // Nothing was written: the store still holds exactly the seeded books.
    assert.equal(sumOf(await scrape(app), 'books_stored'), 3);
  });

  test('close stops it: no request after close and no failure logged', async (t) => {
    const started = await startApp(t, { enabled: true });
    const { app, lines, trafficLines } = started;
    await app.listen({ host: '127.0.0.1', port: 0 });
    await waitFor(() => trafficLines().length >= 3, 'three generated requests');
    await started.close();
    const seen = trafficLines().length;
    // Hundreds of generator intervals pass; a stopped generator stays silent through them.
    await sleep(200);
    assert.equal(trafficLines().length, seen);
    assert.ok(lines.some((line) => line.msg === 'traffic generator stopped'));
    assert.deepEqual(
      lines.filter((line) => Number(line.level) >= 40),
      [],
      'no warning or error while stopping',
    );
  });

  test('a wildcard listen address is reached through loopback', async (t) => {
    const { app, lines, trafficLines } = await startApp(t, { enabled: true });
    await app.listen({ host: '0.0.0.0', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const started = lines.find((line) => line.msg === 'traffic generator started');
    assert.equal(started?.baseUrl, `http://127.0.0.1:${port}`);
    await waitFor(() => trafficLines().length >= 3, 'three generated requests');
  });

  test('an app that never listens sends nothing, even with the switch on', async (t) => {
    const { app, trafficLines } = await startApp(t, { enabled: true, delayMs: 1 });
    await app.inject({ url: '/' });
    await sleep(100);
    assert.equal(trafficLines().length, 0);
  });

  test('with the switch off a listening server gets no generated traffic', async (t) => {
    const { app, lines, trafficLines } = await startApp(t, { enabled: false, delayMs: 1 });
    await app.listen({ host: '127.0.0.1', port: 0 });
    await sleep(100);
    assert.equal(trafficLines().length, 0);
    assert.equal(await answeredRequests(app), 0);
    assert.ok(!lines.some((line) => line.msg === 'traffic generator started'));
  });
});
