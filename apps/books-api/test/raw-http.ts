/**
 * HTTP over a plain TCP socket, for the requests HTTP clients refuse to send (malformed
 * request lines, huge declared bodies sent in part, pipelining) and for reading exactly
 * what the server wrote back.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestAppOptions } from './helper.js';

export interface RawResponse {
  readonly status: number;
  /** Lower-case names; a repeated header keeps its last value. */
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The app listening on a free loopback port; closed when the test ends. */
export async function listeningApp(
  t: TestContext,
  options: TestAppOptions = {},
): Promise<{ app: FastifyInstance; port: number }> {
  const app = await buildTestApp(t, options);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { app, port: address.port };
}

export async function openSocket(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  return socket;
}

/** Everything the server sends on `socket` until it closes the connection. */
export function readUntilClosed(socket: Socket): Promise<Buffer> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => {
    // A reset after the server's answer still counts as closed: the answer was read already.
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

/** Splits a byte stream of HTTP/1.1 responses (Content-Length or chunked bodies) into responses. */
export function parseResponses(bytes: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = bytes.toString('latin1');
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`incomplete response head: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (status === null) throw new Error(`not a status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    rest = rest.slice(end + 4);
    let body = '';
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const lineEnd = rest.indexOf('\r\n');
        const size = parseInt(rest.slice(0, lineEnd), 16);
        rest = rest.slice(lineEnd + 2);
        if (size === 0) {
          rest = rest.slice(rest.indexOf('\r\n') + 2);
          break;
        }
        body += rest.slice(0, size);
        rest = rest.slice(size + 2);
      }
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = rest.slice(0, length);
      rest = rest.slice(length);
    }
    responses.push({ status: Number(status[1]), headers, body: Buffer.from(body, 'latin1').toString('utf8') });
  }
  return responses;
}

/** Sends `request` on a fresh connection, half-closes it, and parses every response until the server closes. */
export async function exchange(port: number, request: string | Buffer): Promise<RawResponse[]> {
  const socket = await openSocket(port);
  const received = readUntilClosed(socket);
  socket.end(request);
  return parseResponses(await received);
}
