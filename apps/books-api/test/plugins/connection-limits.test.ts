import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import { defaultConfig } from '../../src/config.js';
import { exchange, listeningApp, openSocket, parseResponses, readUntilClosed } from '../raw-http.js';

test('a keep-alive connection carries at most MAX_REQUESTS_PER_CONNECTION requests, the last saying Connection: close', async (t) => {
  const connections = { ...defaultConfig().connections, maxRequestsPerConnection: 2 };
  const { port } = await listeningApp(t, { config: { connections } });
  const get = 'GET /api/ps HTTP/1.1\r\nHost: localhost\r\n\r\n';
  // Three requests pipelined: the server closes after the second answer.
  const responses = await exchange(port, get.repeat(3));
  assert.deepEqual(
    responses.map(({ status, headers }) => [status, headers.connection]),
    [
      [200, 'keep-alive'],
      [200, 'close'],
    ],
  );
});

test('requests past MAX_REQUESTS_PER_CONNECTION are never answered, and a pipelined write among them never runs', async (t) => {
  const connections = { ...defaultConfig().connections, maxRequestsPerConnection: 2 };
  const { app, port } = await listeningApp(t, { config: { connections } });
  // Node's own per-socket limit, which would answer a bare 503 of its own, is off.
  assert.equal(app.server.maxRequestsPerSocket, 0);
  const reached: string[] = [];
  app.server.on('request', (request: IncomingMessage) => reached.push(`${request.method} ${request.url}`));

  const get = 'GET /api/ps HTTP/1.1\r\nHost: localhost\r\n\r\n';
  const book = JSON.stringify({ title: 'Pipelined', author: 'A. Client', year: 2020 });
  const post =
    'POST /api/v1/books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(book)}\r\n\r\n${book}`;
  const responses = await exchange(port, get + get + post + get);
  // Only the allowed requests are answered: no 503 is ever written.
  assert.deepEqual(
    responses.map(({ status, headers }) => [status, headers.connection]),
    [
      [200, 'keep-alive'],
      [200, 'close'],
    ],
  );
  // Node parsed and routed the pipelined POST (so the limit's hook is what keeps it from running) ...
  assert.ok(reached.includes('POST /api/v1/books'), `requests Node handed over: ${reached.join(', ')}`);
  // ... and it did not run: the store still holds the seeded books only.
  assert.equal(await app.bookStore.count(), 3);

  // Without the client closing its side, the server closes the connection after the last allowed
  // answer: a request sent later has no connection to go on.
  const socket = await openSocket(port);
  const received = readUntilClosed(socket);
  socket.write(get + get);
  const closed = await received;
  assert.deepEqual(
    parseResponses(closed).map(({ status }) => status),
    [200, 200],
  );
});
