import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import fc from 'fast-check';
import pino from 'pino';
import { LogBatchingStream } from '../src/log-batching-stream.js';
import { requestLineWriter, type RequestLogFields } from '../src/request-log-line.js';

/** A pino logger writing into an array, with a frozen clock so two lines can be compared byte for byte. */
function capturingLogger(options: pino.LoggerOptions = {}) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level: 'info', timestamp: () => ',"time":1700000000000', ...options }, sink);
  return { logger, lines };
}

const tricky: RequestLogFields[] = [
  {
    reqId: 'abc',
    method: 'GET',
    path: '/api/v1/books?skip=0&limit=20',
    status: 200,
    latencyMs: 0.42,
    size: 1234,
    client: '127.0.0.1',
  },
  {
    reqId: 'q"uote\\back',
    method: 'POST',
    path: '/api/v1/books/search?q=%22x%22&t=\u00e9\u00df\u0007',
    status: 422,
    latencyMs: 12,
    size: 0,
    client: '::ffff:10.0.0.1',
    errorCode: 'BOOKS_ERR_VALIDATION',
  },
  {
    reqId: 'x'.repeat(128),
    method: 'DELETE',
    path: '/' + 'a'.repeat(300),
    status: 404,
    latencyMs: 1.5,
    size: NaN,
    client: '',
    errorCode: 'BOOKS_ERR_NOT_FOUND',
  },
  {
    reqId: 'ok',
    method: 'GET',
    path: '/api/status',
    status: 200,
    latencyMs: 0.1,
    size: 2,
    client: '127.0.0.1',
    errorCode: undefined,
  },
  {
    // The client's socket can be gone by the time a request completes.
    reqId: 'gone',
    method: 'GET',
    path: '/api/v1/books',
    status: 200,
    latencyMs: 0.3,
    size: 120,
    client: undefined,
  },
];

/** The fast line and pino's own for the same fields. */
function bothLines(fields: RequestLogFields): [string | undefined, string | undefined] {
  const fast = capturingLogger();
  const reference = capturingLogger();
  // The fast path must not fall back to the ordinary call, or this comparison proves nothing.
  fast.logger.info = () => assert.fail('requestLineWriter fell back to logger.info for a plain pino logger');
  requestLineWriter(fast.logger)(fields);
  const { method, path, status, latencyMs, size, client, reqId } = fields;
  reference.logger.info(fields, `${method} ${path} ${status} ${latencyMs}ms ${size}B ${client ?? '-'} id=${reqId}`);
  assert.equal(fast.lines.length, 1);
  return [fast.lines[0], reference.lines[0]];
}

test('the request line writer writes exactly the bytes pino.info would write', () => {
  for (const fields of tricky) {
    const [fast, reference] = bothLines(fields);
    assert.equal(fast, reference);
  }
});

test('through the batching stream the lines are formatted later, the same bytes in the same order', () => {
  const written: string[] = [];
  const batching = new LogBatchingStream({ write: (text: string) => written.push(text) }, { batchLines: 1000 });
  let formattedLater = false;
  const writeLater = batching.writeLater.bind(batching);
  batching.writeLater = (format, entry) => {
    formattedLater = true;
    writeLater(format, entry);
  };
  const logger = pino({ level: 'info', timestamp: () => ',"time":1700000000000' }, batching);
  logger.info = () => assert.fail('requestLineWriter fell back to logger.info for a plain pino logger');
  const writeLine = requestLineWriter(logger);
  for (const fields of tricky) writeLine(fields);
  assert.deepEqual(written, [], 'nothing is written before the batch is');
  batching.flush();
  assert.ok(formattedLater);
  assert.equal(written.join(''), tricky.map((fields) => bothLines(fields)[1]).join(''));
});

test('the request line is the one pino writes, on any text, plain ASCII or not', () => {
  // Mostly printable ASCII (the plain-text shortcut), with the characters JSON must escape mixed in.
  // No lone surrogates: no field can hold one (ids and paths are ASCII or Latin-1 from Node's
  // parser), and pino's own escaping writes them differently from JSON.stringify.
  const anyText = fc.string({
    unit: fc.oneof(
      { weight: 8, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.constantFrom('"', '\\', '\u007f', '\u0000', '\n', 'é', '\u2028', '🙂') },
    ),
    maxLength: 60,
  });
  fc.assert(
    fc.property(
      fc.record({
        reqId: anyText,
        method: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'M"X'),
        path: anyText,
        status: fc.integer({ min: 100, max: 599 }),
        latencyMs: fc.double({ noNaN: false }),
        size: fc.nat(),
        client: fc.option(anyText, { nil: undefined }),
        errorCode: fc.option(anyText, { nil: undefined }),
      }),
      (fields) => {
        const [fast, reference] = bothLines(fields);
        assert.equal(fast, reference);
      },
    ),
    { seed: 20261123, numRuns: 2000 },
  );
});

test('the request line writer respects the logger level', () => {
  const { logger, lines } = capturingLogger({ level: 'warn' });
  requestLineWriter(logger)(tricky[0]!);
  assert.deepEqual(lines, []);
});

test('a logger with a mixin gets the ordinary call, so the mixin still applies', () => {
  const { logger, lines } = capturingLogger({ mixin: () => ({ service: 'books' }) });
  requestLineWriter(logger)(tricky[0]!);
  assert.equal(lines.length, 1);
  assert.equal((JSON.parse(lines[0]!) as { service?: string }).service, 'books');
});
