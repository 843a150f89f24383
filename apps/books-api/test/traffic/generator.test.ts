import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createTrafficGenerator,
  MAX_DELAY_MS,
  MIN_DELAY_MS,
  randomDelayMs,
  TRAFFIC_REQUEST_ID_PREFIX,
  TRAFFIC_USER_AGENT,
} from '../../src/traffic/generator.js';
import type { TrafficLogger } from '../../src/traffic/generator.js';

interface Captured {
  readonly method: string;
  readonly url: string;
  readonly userAgent: string | undefined;
  readonly requestId: string | undefined;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A plain HTTP server that records what reaches it and answers with a swappable handler. */
async function startCaptureServer() {
  const captured: Captured[] = [];
  let handler: Handler = (_req, res) => res.end('ok');
  const server = createServer((req, res) => {
    captured.push({
      method: req.method ?? '',
      url: req.url ?? '',
      userAgent: req.headers['user-agent'],
      requestId: req.headers['x-request-id'] as string | undefined,
    });
    handler(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    captured,
    baseUrl: `http://127.0.0.1:${port}`,
    setHandler(next: Handler) {
      handler = next;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function recordingLogger() {
  const warnings: { obj: object; msg: string }[] = [];
  const logger: TrafficLogger = {
    debug() {},
    warn(obj, msg) {
      warnings.push({ obj, msg });
    },
  };
  return { logger, warnings };
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (condition()) return;
    await sleep(10);
  }
  assert.fail(`timed out waiting for ${what}`);
}

const FAST = () => 5;

describe('traffic generator', () => {
  let capture: Awaited<ReturnType<typeof startCaptureServer>>;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  before(() => {
    process.on('unhandledRejection', onUnhandled);
  });
  after(() => {
    process.off('unhandledRejection', onUnhandled);
  });
  // A server per test: a request the previous test's stop() aborted can still reach its
  // server after the test ended, and must not be counted by the next test.
  beforeEach(async () => {
    capture = await startCaptureServer();
  });
  afterEach(async () => {
    await capture.close();
    assert.deepEqual(unhandled, [], 'no unhandled rejection');
  });

  test('sends repeated read-only requests from the mix, marked with its user agent and request ids', async () => {
    const { logger } = recordingLogger();
    const generator = createTrafficGenerator({ baseUrl: capture.baseUrl, logger, nextDelayMs: FAST });
    generator.start();
    await waitFor(() => capture.captured.length >= 20, '20 requests');
    await generator.stop();

    assert.equal(
      new Set(capture.captured.map((request) => request.requestId)).size,
      capture.captured.length,
      'a fresh id per request',
    );
    for (const request of capture.captured) {
      assert.ok(['GET', 'HEAD'].includes(request.method), `read-only method, got ${request.method}`);
      assert.equal(request.userAgent, TRAFFIC_USER_AGENT);
      assert.ok(request.requestId?.startsWith(TRAFFIC_REQUEST_ID_PREFIX), `request id ${request.requestId}`);
      assert.match(request.url, /^\/(\?|$)|^\/api\/(ps|status|redirect)$|^\/api\/v1\/books(\/search)?\?/);
    }
  });

  test('does not follow redirects, so each tick is one request', async () => {
    capture.setHandler((req, res) => {
      if (req.url === '/target') return res.end('ok');
      res.writeHead(307, { location: '/target' }).end();
    });
    const { logger } = recordingLogger();
    const generator = createTrafficGenerator({
      baseUrl: capture.baseUrl,
      logger,
      nextDelayMs: FAST,
      pickRequest: () => ({ method: 'GET', path: '/api/redirect' }),
    });
    generator.start();
    await waitFor(() => capture.captured.length >= 3, 'three requests');
    await generator.stop();
    assert.ok(capture.captured.every((request) => request.url === '/api/redirect'));
  });

  test('keeps going after failed requests and logs a warning for each', async () => {
    let calls = 0;
    capture.setHandler((req, res) => {
      calls += 1;
      // Alternate a dropped connection and a server error before answering normally.
      if (calls === 1) return req.socket.destroy();
      if (calls === 2) return res.writeHead(500).end();
      res.end('ok');
    });
    const { logger, warnings } = recordingLogger();
    const generator = createTrafficGenerator({ baseUrl: capture.baseUrl, logger, nextDelayMs: FAST });
    generator.start();
    await waitFor(() => calls >= 5, 'requests after the failures');
    await generator.stop();

    assert.ok(warnings.some((w) => w.msg === 'traffic generator request failed'));
    assert.ok(warnings.some((w) => w.msg === 'traffic generator request got a server error'));
  });

  test('keeps going when the target refuses connections', async () => {
    const { logger, warnings } = recordingLogger();
    // Port 1 on loopback is reserved and closed: every attempt fails to connect.
    const generator = createTrafficGenerator({ baseUrl: 'http://127.0.0.1:1', logger, nextDelayMs: FAST });
    generator.start();
    await waitFor(() => warnings.length >= 3, 'three failed attempts');
    await generator.stop();
    assert.ok(warnings.every((w) => w.msg === 'traffic generator request failed'));
  });

  test('stop aborts an in-flight request and sends nothing afterwards', async () => {
    // The server never answers, so the first request is still in flight when stop() is called.
    capture.setHandler(() => {});
    const { logger, warnings } = recordingLogger();
    const generator = createTrafficGenerator({ baseUrl: capture.baseUrl, logger, nextDelayMs: FAST });
    generator.start();
    await waitFor(() => capture.captured.length === 1, 'the first request to arrive');
    await generator.stop();

    capture.setHandler((_req, res) => res.end('ok'));
    const seen = capture.captured.length;
    // Many generator intervals pass; a stopped generator must stay silent through them.
    await sleep(100);
    assert.equal(capture.captured.length, seen);
    assert.deepEqual(warnings, [], 'an abort caused by stop() is not a failure');
  });

  test('stop before the first tick sends nothing, and stopping twice is harmless', async () => {
    const { logger } = recordingLogger();
    const generator = createTrafficGenerator({ baseUrl: capture.baseUrl, logger, nextDelayMs: () => 20 });
    generator.start();
    await generator.stop();
    await generator.stop();
    await sleep(100);
    assert.equal(capture.captured.length, 0);
  });

  test('the default pause is a random jitter between 0.5 and 1.5 seconds', () => {
    assert.equal(
      randomDelayMs(() => 0),
      MIN_DELAY_MS,
    );
    assert.equal(randomDelayMs(() => 0.999999) <= MAX_DELAY_MS, true);
    assert.equal(
      randomDelayMs(() => 0.5),
      (MIN_DELAY_MS + MAX_DELAY_MS) / 2,
    );
    assert.deepEqual([MIN_DELAY_MS, MAX_DELAY_MS], [500, 1500]);
  });
});
