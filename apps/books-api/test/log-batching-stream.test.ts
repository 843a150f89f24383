import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { LogBatchingStream } from '../src/log-batching-stream.js';

/** A pino logger writing to `stream` as the service's does, with lines that are the same on every run. */
const loggerOn = (stream: LogBatchingStream) => pino({ base: null, timestamp: false }, stream);

const infoLine = (n: number) => `{"level":30,"msg":"request ${n}"}\n`;

function recordingDestination() {
  const writes: string[] = [];
  return { writes, write: (text: string) => writes.push(text) };
}

test('lines are written together once a batch is full, in order and complete', () => {
  const destination = recordingDestination();
  const stream = new LogBatchingStream(destination, { batchSize: 200, maxDelayMs: 60_000 });
  const log = loggerOn(stream);
  const lines = Array.from({ length: 20 }, (_, n) => infoLine(n));
  for (let n = 0; n < lines.length; n++) log.info(`request ${n}`);
  stream.flush();
  assert.ok(destination.writes.length < lines.length / 2, `${destination.writes.length} writes for 20 lines`);
  assert.equal(destination.writes.join(''), lines.join(''));
});

test('an error line is written at once, with every line before it', () => {
  const destination = recordingDestination();
  const stream = new LogBatchingStream(destination, { batchSize: 1 << 20, maxDelayMs: 60_000 });
  const log = loggerOn(stream);
  log.info('request 1');
  log.warn('a warning waits');
  assert.deepEqual(destination.writes, []);
  log.error('boom');
  assert.deepEqual(destination.writes, [
    `${infoLine(1)}{"level":40,"msg":"a warning waits"}\n{"level":50,"msg":"boom"}\n`,
  ]);
});

test('a line on a quiet service waits no longer than the longest delay', async () => {
  const destination = recordingDestination();
  const stream = new LogBatchingStream(destination, { batchSize: 1 << 20, maxDelayMs: 20 });
  loggerOn(stream).info('request 7');
  for (let waited = 0; destination.writes.length === 0 && waited < 5000; waited += 10) await sleep(10);
  assert.deepEqual(destination.writes, [infoLine(7)]);
});

test('flush reports completion to pino-style callers', () => {
  const destination = recordingDestination();
  const stream = new LogBatchingStream(destination);
  const log = loggerOn(stream);
  log.info('request 3');
  let called = false;
  log.flush(() => (called = true));
  assert.ok(called);
  assert.deepEqual(destination.writes, [infoLine(3)]);
});

test('the process logger writes pending lines when the process dies of an uncaught exception', async () => {
  const logger = fileURLToPath(new URL('../src/logger.ts', import.meta.url));
  const script = [
    `const { createLogger } = await import(${JSON.stringify(logger)});`,
    `const { logger: log } = await createLogger('info', false);`,
    `log.info('the last line before the crash');`,
    `setImmediate(() => { throw new Error('crash'); });`,
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.equal(code, 1);
  assert.match(stdout, /the last line before the crash/);
});

test('a line at error level or above is written at once, custom levels included', () => {
  const customLevels = { notice: 49, alarm: 100, chatter: 5 };
  for (const [level, immediate] of [
    ['error', true],
    ['fatal', true],
    ['notice', false],
    ['alarm', true],
    ['chatter', false],
  ] as const) {
    const destination = recordingDestination();
    const stream = new LogBatchingStream(destination, { batchSize: 1 << 20, maxDelayMs: 60_000 });
    const log = pino<keyof typeof customLevels>(
      { base: null, timestamp: false, customLevels, level: 'chatter' },
      stream,
    );
    log[level]('a line');
    assert.equal(destination.writes.length, immediate ? 1 : 0, level);
    stream.flush();
    assert.match(destination.writes.join(''), /"msg":"a line"/, level);
  }
});

test("a line written without pino's level is written at once", () => {
  const destination = recordingDestination();
  const stream = new LogBatchingStream(destination, { batchSize: 1 << 20, maxDelayMs: 60_000 });
  stream.write('not a pino line\n');
  assert.deepEqual(destination.writes, ['not a pino line\n']);
});
