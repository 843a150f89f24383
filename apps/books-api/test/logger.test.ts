import assert from 'node:assert/strict';
import fs from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { once, type EventEmitter } from 'node:events';
import { join } from 'node:path';
import { test } from 'node:test';
import pino from 'pino';
import { createLogger } from '../src/logger.js';

const LINES = 300;

test('JSON lines logged while a write is under way go out together, at most 4 KiB at a time', async (t) => {
  const directory = await mkdtemp(join(tmpdir(), 'books-logger-'));
  t.after(() => rm(directory, { recursive: true, force: true }));
  const file = join(directory, 'requests.jsonl');
  const writes = t.mock.method(fs, 'write');

  const logger = await createLogger('info', false, undefined, file);
  for (let n = 0; n < LINES; n++) logger.info({ n }, 'a request of the test');
  // Ending the destination writes what is pending, then closes the file.
  const destination = (logger as unknown as Record<symbol, EventEmitter & { end(): void }>)[pino.symbols.streamSym]!;
  const closed = once(destination, 'close');
  destination.end();
  await closed;

  const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
  assert.deepEqual(
    lines.map((line) => (JSON.parse(line) as { n: number }).n),
    Array.from({ length: LINES }, (_, n) => n),
    'every line, once, in order',
  );
  const sizes = writes.mock.calls.map((call) => Buffer.byteLength(call.arguments[1]));
  t.diagnostic(`${LINES} lines in ${sizes.length} writes of at most ${Math.max(...sizes)} bytes`);
  assert.ok(sizes.length <= LINES / 10, `${sizes.length} writes for ${LINES} lines: lines are not batched`);
  assert.ok(
    sizes.every((size) => size <= 4096),
    `a write of ${Math.max(...sizes)} bytes: a batch's cost grows with its square (src/logger.ts)`,
  );
});
