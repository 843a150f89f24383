import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { defaultConfig } from '../../src/config.js';
import { hs256Config } from '../auth/fixtures.js';
import { exchange, listeningApp, type RawResponse } from '../raw-http.js';
import { describeRequest, type MalformedRequest } from './malformed-request.js';
import { malformedRequest } from './malformed-requests.js';

/**
 * Property-based fuzzing over raw sockets: thousands of malformed requests against a listening
 * server (chaos mode off, token login on so /token reads its forms for real). Seeded, so a run
 * is repeatable; BOOKS_FUZZ_SEED and BOOKS_FUZZ_REQUESTS change the seed and the size for a
 * longer hunt. A failure prints the seed and the shrunk batch of requests.
 */
const SEED = Number(process.env.BOOKS_FUZZ_SEED ?? 20261123);
const REQUESTS = Number(process.env.BOOKS_FUZZ_REQUESTS ?? 3000);
/** Requests sent at once, each on its own connection; the store is compared after every batch. */
const BATCH = 8;

const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** What every answer the process writes must look like: not a fault, the contract's error body, a request id. */
function assertContractAnswer(response: RawResponse, request: MalformedRequest): void {
  const where = `${describeRequest(request)}\n→ ${response.status} ${JSON.stringify(response.headers)} ${response.body.slice(0, 300)}`;
  assert.ok(response.status < 500, `a 5xx answer to ${where}`);
  assert.match(response.headers['x-request-id'] ?? '', REQUEST_ID, `no X-Request-ID on ${where}`);
  if (response.status >= 400) {
    assert.match(response.headers['content-type'] ?? '', /^application\/json/, `not JSON: ${where}`);
    let detail: unknown;
    assert.doesNotThrow(() => (detail = (JSON.parse(response.body) as { detail?: unknown }).detail), where);
    assert.ok(typeof detail === 'string' || Array.isArray(detail), `no detail in ${where}`);
  }
}

/** Empty lines before a request are ignored (RFC 9112 section 2.2): bytes with nothing else ask nothing. */
const asksNothing = (request: MalformedRequest) => /^[\r\n]*$/.test(request.bytes.toString('latin1'));

async function storeSnapshot(app: FastifyInstance): Promise<unknown> {
  const total = await app.bookStore.count();
  return (await app.bookStore.list(0, total + 1)).items;
}

function prototypeSnapshot(): string[] {
  return [Object.prototype, Array.prototype, Function.prototype].flatMap((prototype) =>
    Reflect.ownKeys(prototype).map(String),
  );
}

/** Sends the request, half-closes, and reads every answer until the server closes the connection. */
async function send(port: number, request: MalformedRequest): Promise<RawResponse[]> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    // The server's own request timeout is 30 s; a connection still open well past it is a hang.
    timer = setTimeout(() => reject(new Error(`no close within 45 s after ${describeRequest(request)}`)), 45_000);
  });
  try {
    return await Promise.race([exchange(port, request.bytes), bound]);
  } catch (error) {
    throw new Error(`${(error as Error).message}\nfor ${describeRequest(request)}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

test(
  'thousands of malformed requests over raw sockets get no 5xx, the contract error body and a request id, and change nothing',
  { timeout: 300_000 },
  async (t) => {
    // Shorter request timeouts than the defaults: a request the server waits on (a body that never
    // comes) then costs seconds, not half a minute.
    const config = await hs256Config();
    const connections = { ...defaultConfig().connections, headersTimeoutMs: 2000, requestTimeoutMs: 3000 };
    const { app, port } = await listeningApp(t, { config: { ...config, connections } });
    const before = await storeSnapshot(app);
    const bookIds = (before as { id: string }[]).map((book) => book.id);
    const prototypesBefore = prototypeSnapshot();
    const tally = new Map<number, number>();
    let sent = 0;
    const started = Date.now();

    const property = fc.asyncProperty(
      fc.array(malformedRequest(bookIds), { minLength: BATCH, maxLength: BATCH }),
      async (batch) => {
        const answers = await Promise.all(batch.map((request) => send(port, request)));
        sent += batch.length;
        answers.forEach((responses, index) => {
          const request = batch[index]!;
          if (responses.length === 0 && asksNothing(request)) return;
          assert.ok(responses.length > 0, `no answer at all to ${describeRequest(request)}`);
          if (request.kind.startsWith('pipelined')) assert.equal(responses[0]!.status, 200, describeRequest(request));
          for (const response of responses) {
            assertContractAnswer(response, request);
            tally.set(response.status, (tally.get(response.status) ?? 0) + 1);
          }
        });
        assert.deepEqual(await storeSnapshot(app), before, 'the store changed');
        assert.deepEqual(prototypeSnapshot(), prototypesBefore, 'a built-in prototype changed');
        assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
      },
    );
    const result = await fc.check(property, { seed: SEED, numRuns: Math.ceil(REQUESTS / BATCH) });
    // The report names the seed, the shrunk batch and the assertion that failed on it.
    if (result.failed) assert.fail(`${fc.defaultReportMessage(result)}\n${String(result.errorInstance)}`);

    const statuses = [...tally].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
    t.diagnostic(`${sent} malformed requests in ${Date.now() - started} ms (seed ${SEED}): ${statuses.join(' ')}`);
    assert.ok(sent >= REQUESTS);
  },
);
