import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listeningServer as listening, startServer, waitForLine } from './server-process.js';

/** These tests run the real process and talk to it over TCP. */

test('the server exits 1 with a message naming the variable when PORT is not a number', async () => {
  const { exit } = startServer({ PORT: 'abc' });
  const { code, stderr } = await exit;
  assert.equal(code, 1);
  assert.match(stderr, /PORT/);
  assert.match(stderr, /abc/);
});

test('the server exits 1 naming LOG_LEVEL when it is not a level', async () => {
  const { code, stderr } = await startServer({ LOG_LEVEL: 'chatty' }).exit;
  assert.equal(code, 1);
  assert.match(stderr, /LOG_LEVEL/);
});

test('the server answers over HTTP and writes one JSON log line per request', async (t) => {
  const server = await listening();
  t.after(() => server.child.kill('SIGKILL'));
  const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/books`, {
    headers: { 'x-request-id': 'log-check-1' },
  });
  assert.equal(response.status, 200);
  assert.equal((await response.json()).total, 3);
  const line = JSON.parse(await waitForLine(server, /log-check-1/));
  assert.equal(line.method, 'GET');
  assert.equal(line.path, '/api/v1/books');
  assert.equal(line.status, 200);
  assert.equal(line.reqId, 'log-check-1');
  assert.equal(line.client, '127.0.0.1');
  assert.equal(typeof line.latencyMs, 'number');
  assert.equal(line.size, Number(response.headers.get('content-length')));
  assert.equal(typeof line.time, 'number');
  assert.equal(server.lines.filter((candidate) => candidate.includes('log-check-1')).length, 1);
  // A request id JSON must escape: the line is still one valid JSON object with the id as sent.
  const quoted = 'log-check-"2"\\';
  await fetch(`http://127.0.0.1:${server.port}/api/v1/books/nope`, { headers: { 'x-request-id': quoted } });
  const escaped = JSON.parse(await waitForLine(server, /log-check-\\"2/));
  assert.equal(escaped.reqId, quoted);
  assert.equal(escaped.status, 422);
  assert.equal(escaped.errorCode, 'BOOKS_ERR_VALIDATION');
  server.child.kill('SIGTERM');
  assert.equal((await server.exit).code, 0);
});

test('SIGINT also shuts down cleanly with exit code 0', async () => {
  const server = await listening();
  server.child.kill('SIGINT');
  assert.equal((await server.exit).code, 0);
});
