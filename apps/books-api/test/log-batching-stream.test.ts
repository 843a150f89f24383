import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LogBatchingStream } from '../src/log-batching-stream.js';

const infoLine = (n: number) => `{"level":30,"time":${n},"msg":"request ${n}"}\n`;

function recordingDestination() {
  const writes: string[] = [];
  return { writes, write: (text: string) => writes.push(text) };
}

test('lines are written together once a batch is full, in order and complete', () => {
  const destination = recordingDestination();
  const stream = new LogBatchingStream(destination, { batchSize: 200, maxDelayMs: 60_000 });
  const lines = Array.from({ length: 20 }, (_, n) => infoLine(n));
  for (const line of lines) stream.write(line);
  stream.flush();
  assert.ok(destination.writes.length < lines.length / 2, `${destination.writes.length} writes for 20 lines`);
  assert.equal(destination.writes.join(''), lines.join(''));
});

test('an error line is written at once, with every line before it', () => {
  const destination = recordingDestination();
  const stream = new LogBatchingStream(destination, { batchSize: 1 << 20, maxDelayMs: 60_000 });
  stream.write(infoLine(1));
  stream.write('{"level":40,"msg":"a warning waits"}\n');
  assert.deepEqual(destination.writes, []);
  stream.write('{"level":50,"msg":"boom"}\n');
  assert.deepEqual(destination.writes, [
    `${infoLine(1)}{"level":40,"msg":"a warning waits"}\n{"level":50,"msg":"boom"}\n`,
  ]);
});

test('a line on a quiet service waits no longer than the longest delay', async () => {
  const destination = recordingDestination();
  const stream = new LogBatchingStream(destination, { batchSize: 1 << 20, maxDelayMs: 20 });
  stream.write(infoLine(7));
  for (let waited = 0; destination.writes.length === 0 && waited < 5000; waited += 10) await sleep(10);
  assert.deepEqual(destination.writes, [infoLine(7)]);
});

test('flush reports completion to pino-style callers', () => {
  const destination = recordingDestination();
  const stream = new LogBatchingStream(destination);
  stream.write(infoLine(3));
  let called = false;
  stream.flush(() => (called = true));
  assert.ok(called);
  assert.deepEqual(destination.writes, [infoLine(3)]);
});

test('the process logger writes pending lines when the process dies of an uncaught exception', async () => {
  const logger = fileURLToPath(new URL('../src/logger.ts', import.meta.url));
  const script = [
    `const { createLogger } = await import(${JSON.stringify(logger)});`,
    `const log = await createLogger('info', false);`,
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

test('a line at error level or above is written at once whatever the width of its level', () => {
  for (const [line, immediate] of [
    ['{"level":50,"msg":"error"}\n', true],
    ['{"level":60,"msg":"fatal"}\n', true],
    ['{"level":49,"msg":"custom, below error"}\n', false],
    ['{"level":100,"msg":"custom, three digits"}\n', true],
    ['{"level":5,"msg":"custom, one digit"}\n', false],
    ['not a pino line\n', true],
  ] as const) {
    const destination = recordingDestination();
    const stream = new LogBatchingStream(destination, { batchSize: 1 << 20, maxDelayMs: 60_000 });
    stream.write(line);
    assert.deepEqual(destination.writes, immediate ? [line] : [], line);
    stream.flush();
  }
});
