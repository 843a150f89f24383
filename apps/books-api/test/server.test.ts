import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * These tests run the real process (src/server.ts through tsx, so they test the
 * current sources without a build) and talk to it over TCP.
 */
const SERVER = fileURLToPath(new URL('../src/server.ts', import.meta.url));

interface Started {
  child: ChildProcess;
  port: number;
  lines: string[];
  exit: Promise<{ code: number | null; stderr: string }>;
}

function startServer(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = once(child, 'exit').then(([code]) => ({ code: code as number | null, stderr }));
  return { child, port: 0, lines, exit };
}

async function waitForLine(started: Started, pattern: RegExp): Promise<string> {
  for (;;) {
    const line = started.lines.find((candidate) => pattern.test(candidate));
    if (line !== undefined) return line;
    const result = await Promise.race([once(started.child.stdout!, 'data').then(() => undefined), started.exit]);
    if (result !== undefined)
      throw new Error(`server exited (${result.code}) before logging ${pattern}: ${result.stderr}`);
  }
}

async function listening(env: Record<string, string> = {}): Promise<Started> {
  const started = startServer(env);
  const line = await waitForLine(started, /Server listening at http:\/\/127\.0\.0\.1:\d+/);
  started.port = Number(/127\.0\.0\.1:(\d+)/.exec(line)![1]);
  return started;
}

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
  server.child.kill('SIGTERM');
  assert.equal((await server.exit).code, 0);
});

test('SIGTERM lets a request in flight finish, then the process exits 0', async () => {
  const server = await listening();
  const body = JSON.stringify({ title: 'Finished during shutdown', author: 'A', year: 2000 });
  const socket = connect(server.port, '127.0.0.1');
  await once(socket, 'connect');
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  // Headers and half of the body: the request is in flight until the rest arrives.
  socket.write(
    `POST /api/v1/books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
  );
  socket.write(body.slice(0, 10));
  // A full round trip on another connection: the server has read the first request's headers by now.
  assert.equal((await fetch(`http://127.0.0.1:${server.port}/api/ps`)).status, 200);

  server.child.kill('SIGTERM');
  await waitForLine(server, /SIGTERM received/);
  socket.end(body.slice(10));
  await once(socket, 'close');
  assert.match(answer, /^HTTP\/1\.1 201 /);
  assert.match(answer, /Finished during shutdown/);
  const { code } = await server.exit;
  assert.equal(code, 0);
});

test('SIGINT also shuts down cleanly with exit code 0', async () => {
  const server = await listening();
  server.child.kill('SIGINT');
  assert.equal((await server.exit).code, 0);
});
