import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import pino from 'pino';
import { LogBatchingStream } from '../src/log-batching-stream.js';
import { jsonRequestLines, loggedRequestLines, type RequestLine } from '../src/request-line.js';

/**
 * The service's JSON logger as logger.ts makes it, writing through a batching stream that hands
 * every line on at once, with a clock that reads the same on every line.
 */
function jsonLogger(base: Record<string, string | number>, level = 'info') {
  const written: string[] = [];
  const stream = new LogBatchingStream({ write: (text) => written.push(text) }, { batchSize: 1 });
  const timestamp = () => ',"time":1795747558062';
  const logger = pino({ level, base, timestamp }, stream);
  return { written, logger, fast: jsonRequestLines({ logger, stream, base, timestamp }) };
}

const typical: RequestLine = {
  reqId: 'b7c4c1d2-6f0e-4c55-9e8d-2b1a0c9d8e7f',
  method: 'GET',
  path: '/api/v1/books?skip=0&limit=20',
  status: 200,
  latencyMs: 0.37,
  size: 5123,
  client: '127.0.0.1',
  errorCode: undefined,
};

/** Text as requests bring it: mostly plain, sometimes quotes, backslashes, control characters or any Unicode. */
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('q"uote', 'back\\slash', 'tab\there', '\u2028', '\ud800', 'é'),
);
const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(Number.NaN, Infinity, -0));

const requestLines = fc.record({
  reqId: text,
  method: fc.oneof(fc.constantFrom('GET', 'POST', 'PATCH'), text),
  path: text,
  status: fc.oneof(fc.integer({ min: 100, max: 599 }), number),
  latencyMs: number,
  size: number,
  client: fc.option(text, { nil: undefined }),
  errorCode: fc.option(fc.oneof(fc.constantFrom('BOOKS_ERR_VALIDATION'), text), { nil: undefined }),
});

test("the JSON request line is byte for byte the line pino's logger.info writes, for any request", () => {
  fc.assert(
    fc.property(
      requestLines,
      fc.record({ pid: fc.integer({ min: 1 }), hostname: fc.oneof(fc.constant('vm'), text) }),
      (line, base) => {
        // fast-check's records have no prototype; pino's base option is a plain object.
        const { written, logger, fast } = jsonLogger({ ...base });
        loggedRequestLines(logger)(line);
        fast(line);
        assert.equal(written.length, 2);
        assert.equal(written[1], written[0]);
      },
    ),
    { numRuns: 2000 },
  );
});

test('a plain request line is written by the template, not through logger.info', (t) => {
  const { written, logger, fast } = jsonLogger({ pid: 7, hostname: 'vm' });
  const info = t.mock.method(logger, 'info');
  fast(typical);
  fast({ ...typical, status: 422, errorCode: 'BOOKS_ERR_VALIDATION', client: undefined });
  assert.equal(info.mock.callCount(), 0, 'the fast path no longer applies to plain request lines');
  const common = { level: 30, time: 1795747558062, pid: 7, hostname: 'vm', reqId: typical.reqId, method: 'GET' };
  const path = '/api/v1/books?skip=0&limit=20';
  assert.deepEqual(
    written.map((line) => JSON.parse(line)),
    [
      {
        ...common,
        path,
        status: 200,
        latencyMs: 0.37,
        size: 5123,
        client: '127.0.0.1',
        msg: `GET ${path} 200 0.37ms 5123B 127.0.0.1 id=${typical.reqId}`,
      },
      {
        ...common,
        path,
        status: 422,
        latencyMs: 0.37,
        size: 5123,
        errorCode: 'BOOKS_ERR_VALIDATION',
        msg: `GET ${path} 422 0.37ms 5123B - id=${typical.reqId}`,
      },
    ],
  );
});

test('a line with text JSON must escape goes through logger.info', (t) => {
  const { written, logger, fast } = jsonLogger({ pid: 7, hostname: 'vm' });
  const info = t.mock.method(logger, 'info');
  fast({ ...typical, reqId: 'q"uote' });
  assert.equal(info.mock.callCount(), 1);
  assert.equal(JSON.parse(written[0]!).reqId, 'q"uote');
});

test('above info level the JSON request line is not written', () => {
  const { written, fast } = jsonLogger({ pid: 7, hostname: 'vm' }, 'warn');
  fast(typical);
  assert.deepEqual(written, []);
});
