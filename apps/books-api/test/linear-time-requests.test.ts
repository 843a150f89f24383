import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { OutgoingHttpHeaders } from 'node:http';
import { KeepAliveClient } from './keep-alive-client.js';
import { listeningServer, type ServerProcess } from './server-process.js';
import { newSecret } from './auth/fixtures.js';

/**
 * The contract's "Linear-time request handling": no part of a request's handling costs more than
 * linear time in its size. Each request below is as large as Node lets a request head be (its 16 KiB
 * header limit), shaped to hit the worst case of some code that reads that part of the request. Each
 * is timed against an ordinary 404 in the same run, on the real server process over one kept-alive
 * connection, alternating with the 404 so both see the same load on the machine. Linear work on
 * 16 KB is far below the cost of a request's round trip; a quadratic step is not.
 */

/** The contract's bound: a large request is answered within this many times an ordinary 404. */
const MAX_RATIO = 5;
const ROUNDS = 15;
/** Characters of the attacker's part, leaving room in the 16 KiB head for the rest of the request. */
const SIZE = 16_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(client: KeepAliveClient, path: string, headers: OutgoingHttpHeaders = {}) {
  const started = process.hrtime.bigint();
  const response = await client.send({ method: 'GET', path, headers });
  return { status: response.status, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

interface LargeRequest {
  readonly name: string;
  readonly path: string;
  readonly headers?: OutgoingHttpHeaders;
}

describe('request handling is linear in the size of the request', () => {
  let server: ServerProcess;
  let client: KeepAliveClient;

  before(async () => {
    server = await listeningServer({
      // Every header reader on: chaos's X-Force-Error, X-Forwarded-For from loopback, bearer tokens.
      ENABLE_CHAOS_HEADERS: 'true',
      TRUST_PROXY: 'loopback',
      JWT_SECRET_KEY: newSecret(),
    });
    client = new KeepAliveClient(server.port, 1);
  });
  after(async () => {
    client.close();
    server.child.kill('SIGTERM');
    await server.exit;
  });

  /** Fails naming the request when its median time is over MAX_RATIO times the plain 404's. */
  async function assertLinear(t: TestContext, request: LargeRequest) {
    const plain: number[] = [];
    const large: number[] = [];
    // Warm both paths up (compilation, first allocation) before timing them.
    await timed(client, '/no-such-path');
    await timed(client, request.path, request.headers);
    for (let round = 0; round < ROUNDS; round += 1) {
      plain.push((await timed(client, '/no-such-path')).ms);
      const answer = await timed(client, request.path, request.headers);
      assert.ok(answer.status < 500, `${request.name}: answered ${answer.status}`);
      large.push(answer.ms);
    }
    const ratio = median(large) / median(plain);
    t.diagnostic(`${ratio.toFixed(2)}x (${median(large).toFixed(2)} ms against ${median(plain).toFixed(2)} ms)`);
    assert.ok(
      ratio <= MAX_RATIO,
      `${request.name}: median ${median(large).toFixed(2)} ms against ${median(plain).toFixed(2)} ms for a plain 404 (${ratio.toFixed(1)}x)`,
    );
  }

  describe('in the path', () => {
    const paths: LargeRequest[] = [
      { name: '16,000 slashes', path: '/'.repeat(SIZE) },
      { name: 'slashes, a segment, then a trailing slash', path: `${'/'.repeat(SIZE)}a/` },
      { name: 'slashes inside a books path with a trailing slash', path: `/api/v1/books/${'/'.repeat(SIZE)}x/` },
      { name: 'a long book id', path: `/api/v1/books/${'a-'.repeat(SIZE / 2)}` },
      { name: 'a long book id with a trailing slash', path: `/api/v1/books/${'0'.repeat(SIZE)}/` },
      { name: 'many short segments', path: '/a'.repeat(SIZE / 2) },
      { name: 'percent-encoded slashes', path: `/api/v1/books/${'%2F'.repeat(SIZE / 3)}x/` },
    ];
    for (const request of paths) test(request.name, (t) => assertLinear(t, request));
  });

  describe('in the query', () => {
    const queries: LargeRequest[] = [
      { name: 'a long unknown parameter', path: `/api/v1/books?${'a'.repeat(SIZE)}` },
      { name: 'many empty parameters', path: `/api/v1/books?${'&'.repeat(SIZE)}` },
      { name: 'one parameter repeated', path: `/api/v1/books?${'skip=1&'.repeat(SIZE / 7)}` },
      { name: 'a long integer with underscores', path: `/api/v1/books?skip=${'1_'.repeat(SIZE / 2)}1x` },
      {
        name: 'a long integer in spaces',
        path: `/api/v1/books?limit=${'%20'.repeat(SIZE / 6)}1${'%20'.repeat(SIZE / 6)}x`,
      },
      { name: 'a long search text', path: `/api/v1/books/search?q=${'ab'.repeat(SIZE / 2)}` },
      { name: 'a long query on a trailing-slash redirect', path: `/api/v1/books/?${'a/'.repeat(SIZE / 2)}` },
    ];
    for (const request of queries) test(request.name, (t) => assertLinear(t, request));
  });

  describe('in the headers', () => {
    const onBooks = (name: string, headers: OutgoingHttpHeaders): LargeRequest => ({
      name,
      path: '/api/v1/books',
      headers,
    });
    const headers: LargeRequest[] = [
      onBooks('a long bearer token', { authorization: `Bearer ${'a'.repeat(SIZE)}!` }),
      onBooks('a long bearer token of dots', { authorization: `Bearer ${'a.'.repeat(SIZE / 2)}` }),
      onBooks('a bearer scheme then spaces', { authorization: `Bearer${' '.repeat(SIZE)}x!` }),
      onBooks('a long X-Request-ID', { 'x-request-id': 'a'.repeat(SIZE) }),
      onBooks('a long X-Force-Error of spaces', { 'x-force-error': `${' '.repeat(SIZE)}x` }),
      onBooks('a long X-Force-Error of digits', { 'x-force-error': `${'5_'.repeat(SIZE / 2)}x` }),
      // Node reads header bytes as Latin-1: a no-break space is the only non-ASCII white space that can arrive.
      onBooks('a long X-Force-Error of no-break spaces', { 'x-force-error': `${'\u00a0'.repeat(SIZE)}1x` }),
      onBooks('a long X-Forwarded-For', { 'x-forwarded-for': '10.0.0.1, '.repeat(SIZE / 10) }),
      onBooks('a long Content-Type', { 'content-type': `application/${'a'.repeat(SIZE)}` }),
      onBooks('a long Connection', { connection: `${'keep-alive,'.repeat(SIZE / 11)}` }),
      onBooks('a long Accept', { accept: `${'text/plain;q=0.1,'.repeat(SIZE / 17)}` }),
      { name: 'a long Accept on /metrics', path: '/metrics', headers: { accept: `${'a/b;q=1,'.repeat(SIZE / 8)}` } },
    ];
    for (const request of headers) test(request.name, (t) => assertLinear(t, request));
  });
});
