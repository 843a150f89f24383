import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { test } from 'node:test';
import { openSocket, parseResponses, type RawResponse } from './raw-http.js';
import { listeningServer, waitForLine, type ServerProcess } from './server-process.js';

/** Reads a keep-alive connection: its answers as they complete, and its close. */
function watch(socket: Socket) {
  const chunks: Buffer[] = [];
  let closed = false;
  const closing = new Promise<void>((resolve) => {
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      resolve();
    });
  });
  const complete = (): RawResponse[] | undefined => {
    try {
      return parseResponses(Buffer.concat(chunks));
    } catch {
      return undefined; // an answer is still arriving
    }
  };
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return {
    closing,
    isClosed: () => closed,
    /** Resolves once `count` whole answers arrived; rejects if the connection closes first. */
    async answers(count: number): Promise<RawResponse[]> {
      for (;;) {
        const responses = complete();
        if (responses !== undefined && responses.length >= count) return responses;
        if (closed) throw new Error(`connection closed after ${responses?.length ?? 0} of ${count} answers`);
        await Promise.race([once(socket, 'data'), closing]);
      }
    },
  };
}

const get = (path: string, requestId: string) =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-Request-ID: ${requestId}\r\n\r\n`;

function logLine(server: ServerProcess, requestId: string): Record<string, unknown> | undefined {
  const line = server.lines.find((candidate) => candidate.includes(`"reqId":"${requestId}"`));
  return line === undefined ? undefined : (JSON.parse(line) as Record<string, unknown>);
}

test(
  'after SIGTERM idle keep-alive connections close at once, requests on busy ones and in flight are answered, and the process exits 0',
  { timeout: 120_000 },
  async (t) => {
    const server = await listeningServer();
    t.after(() => server.child.kill('SIGKILL'));

    // A keep-alive connection that has been used and is idle when SIGTERM arrives.
    const idleSocket = await openSocket(server.port);
    const idle = watch(idleSocket);
    idleSocket.write(get('/api/ps', 'idle-first'));
    assert.equal((await idle.answers(1))[0]!.headers.connection, 'keep-alive');

    // A keep-alive connection whose next request has begun to arrive when SIGTERM does.
    const busySocket = await openSocket(server.port);
    const busy = watch(busySocket);
    busySocket.write(get('/api/ps', 'busy-first'));
    await busy.answers(1);
    const duringDrain = get('/api/v1/books', 'during-drain');
    busySocket.write(duringDrain.slice(0, 20));

    // A request in flight: its headers are in, its body is not.
    const inFlightSocket = await openSocket(server.port);
    const inFlight = watch(inFlightSocket);
    const body = JSON.stringify({ title: 'Stored during shutdown', author: 'A', year: 2000 });
    inFlightSocket.write(
      `POST /api/v1/books HTTP/1.1\r\nHost: localhost\r\nX-Request-ID: in-flight\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );

    // The last request before SIGTERM; its round trip also means the server has read the bytes above.
    const last = await fetch(`http://127.0.0.1:${server.port}/api/ps`, {
      headers: { 'x-request-id': 'last-before-sigterm' },
    });
    assert.equal(last.status, 200);

    server.child.kill('SIGTERM');
    await waitForLine(server, /SIGTERM received/);

    // The idle connection is closed by the server without another byte, while the others are still open.
    await idle.closing;
    assert.equal((await idle.answers(1)).length, 1);

    // The request that was arriving is answered, and its connection then closed.
    busySocket.write(duringDrain.slice(20));
    const [, answer] = await busy.answers(2);
    assert.equal(answer!.status, 200, answer!.body);
    assert.equal(answer!.headers.connection, 'close');
    assert.equal(answer!.headers['x-request-id'], 'during-drain');
    await busy.closing;

    // The request in flight finishes and is stored.
    inFlightSocket.write(body.slice(10));
    const [stored] = await inFlight.answers(1);
    assert.equal(stored!.status, 201, stored!.body);
    assert.equal(JSON.parse(stored!.body).title, 'Stored during shutdown');
    await inFlight.closing;

    const { code } = await server.exit;
    assert.equal(code, 0);
    // Every request made it into the log, the last one before SIGTERM included.
    for (const requestId of ['idle-first', 'busy-first', 'last-before-sigterm', 'during-drain', 'in-flight']) {
      assert.ok(logLine(server, requestId), `no log line for ${requestId}`);
    }
    assert.equal(logLine(server, 'in-flight')!.status, 201);
  },
);

test(
  'a request still unfinished after SHUTDOWN_TIMEOUT_SECONDS is cut, and the process still exits 0',
  { timeout: 120_000 },
  async (t) => {
    const server = await listeningServer({ SHUTDOWN_TIMEOUT_SECONDS: '1' });
    t.after(() => server.child.kill('SIGKILL'));
    const stuckSocket = await openSocket(server.port);
    const stuck = watch(stuckSocket);
    // Headers promise a body that never comes: the request stays in flight.
    stuckSocket.write(
      'POST /api/v1/books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    assert.equal((await fetch(`http://127.0.0.1:${server.port}/api/ps`)).status, 200);

    server.child.kill('SIGTERM');
    await waitForLine(server, /SIGTERM received/);
    await waitForLine(server, /shutdown timeout/);
    await stuck.closing;
    const { code } = await server.exit;
    assert.equal(code, 0);
    const warning = JSON.parse(await waitForLine(server, /shutdown timeout/)) as { level: number; connections: number };
    assert.equal(warning.level, 40);
    assert.equal(warning.connections, 1);
  },
);
