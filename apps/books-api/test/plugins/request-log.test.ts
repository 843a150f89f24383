import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { defaultConfig } from '../../src/config.js';

/** The app with a JSON logger whose lines land in an array, parsed. */
async function appWithLogLines(t: test.TestContext, level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  const app = await buildApp({ config: defaultConfig(), logger: pino({ level }, sink) });
  t.after(() => app.close());
  return { app, lines };
}

test('each request gets one info line with its facts as fields and as a readable message', async (t) => {
  const { app, lines } = await appWithLogLines(t);
  const response = await app.inject({ url: '/api/v1/books?limit=2', headers: { 'x-request-id': 'log-1' } });
  const mine = lines.filter((line) => line.reqId === 'log-1');
  assert.equal(mine.length, 1);
  const [line] = mine;
  const size = Number(response.headers['content-length']);
  assert.ok(size > 0);
  assert.deepEqual(
    { ...line, time: typeof line?.time, latencyMs: typeof line?.latencyMs, pid: typeof line?.pid },
    {
      level: 30,
      time: 'number',
      pid: 'number',
      hostname: line?.hostname,
      reqId: 'log-1',
      method: 'GET',
      path: '/api/v1/books?limit=2',
      status: 200,
      latencyMs: 'number',
      size,
      client: '127.0.0.1',
      msg: `GET /api/v1/books?limit=2 200 ${String(line?.latencyMs)}ms ${size}B 127.0.0.1 id=log-1`,
    },
  );
});

test('an error answer has its catalogue code in the request line', async (t) => {
  const { app, lines } = await appWithLogLines(t);
  await app.inject({ url: '/api/v1/books/not-a-uuid', headers: { 'x-request-id': 'log-2' } });
  const line = lines.find((candidate) => candidate.reqId === 'log-2');
  assert.equal(line?.status, 422);
  assert.equal(line?.errorCode, 'BOOKS_ERR_VALIDATION');
  assert.match(String(line?.msg), /^GET \/api\/v1\/books\/not-a-uuid 422 [\d.]+ms \d+B 127\.0\.0\.1 id=log-2$/);
});

test('text that JSON must escape is written as valid JSON and read back unchanged', async (t) => {
  const { app, lines } = await appWithLogLines(t);
  const id = 'q"uote\\back';
  await app.inject({ url: '/api/v1/books?limit=1&x=%22%C3%A9', headers: { 'x-request-id': id } });
  const line = lines.find((candidate) => candidate.reqId === id);
  assert.equal(line?.path, '/api/v1/books?limit=1&x=%22%C3%A9');
  assert.match(String(line?.msg), /id=q"uote\\back$/);
});

test('above info level no request line is written', async (t) => {
  const { app, lines } = await appWithLogLines(t, 'warn');
  await app.inject({ url: '/api/ps' });
  assert.deepEqual(lines, []);
});
