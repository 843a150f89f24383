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

export interface ParseOptions {
  /** The requests were HEAD: their answers carry headers only, whatever Content-Length says. */
  readonly headRequests?: boolean;
}

/** Interim (1xx) answers precede the real one; 101 switches protocols and ends HTTP on the connection. */
const isInterim = (status: number) => status >= 100 && status < 200 && status !== 101;

/**
 * Splits a byte stream of HTTP/1.1 responses into responses, framed as RFC 9112 section 6.3
 * says: no body for HEAD, 1xx, 204 and 304; a chunked body; a Content-Length body; otherwise
 * the body runs until the connection closed. Interim 1xx answers (100 Continue) are skipped.
 * Throws on anything incomplete or malformed, so a test never passes on a half-read answer.
 */
export function parseResponses(bytes: Buffer, options: ParseOptions = {}): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = bytes.toString('latin1');
  const fail = (what: string): never => {
    throw new Error(`${what}: ${JSON.stringify(rest.slice(0, 200))}`);
  };
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) fail('incomplete response head');
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const statusMatch = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(statusLine);
    if (statusMatch === null) fail('not a status line');
    const status = Number(statusMatch![1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon <= 0) fail(`not a header line ${JSON.stringify(line)}`);
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    rest = rest.slice(end + 4);
    if (isInterim(status)) continue;
    let body = '';
    if (options.headRequests === true || status === 204 || status === 304) {
      // No body, whatever the headers say.
    } else if (headers['transfer-encoding'] !== undefined) {
      if (headers['transfer-encoding'].toLowerCase() !== 'chunked') fail('unexpected transfer coding');
      for (;;) {
        const lineEnd = rest.indexOf('\r\n');
        const sizeText = lineEnd < 0 ? '' : rest.slice(0, lineEnd).split(';', 1)[0]!.trim();
        if (!/^[0-9a-fA-F]+$/.test(sizeText)) fail('bad chunk size');
        const size = parseInt(sizeText, 16);
        rest = rest.slice(lineEnd + 2);
        if (size === 0) {
          // Trailer fields (none expected), then the empty line.
          const trailerEnd = rest.indexOf('\r\n');
          if (trailerEnd !== 0) fail('unexpected trailer');
          rest = rest.slice(2);
          break;
        }
        if (rest.length < size + 2 || rest.slice(size, size + 2) !== '\r\n') fail('truncated chunk');
        body += rest.slice(0, size);
        rest = rest.slice(size + 2);
      }
    } else if (headers['content-length'] !== undefined) {
      if (!/^\d+$/.test(headers['content-length'])) fail('bad Content-Length');
      const length = Number(headers['content-length']);
      if (rest.length < length) fail(`body shorter than Content-Length ${length}`);
      body = rest.slice(0, length);
      rest = rest.slice(length);
    } else {
      body = rest;
      rest = '';
    }
    responses.push({ status, headers, body: Buffer.from(body, 'latin1').toString('utf8') });
    if (status === 101) break;
  }
  return responses;
}

/** Sends `request` on a fresh connection, half-closes it, and parses every response until the server closes. */
export async function exchange(
  port: number,
  request: string | Buffer,
  options: ParseOptions = {},
): Promise<RawResponse[]> {
  const socket = await openSocket(port);
  const received = readUntilClosed(socket);
  socket.end(request);
  return parseResponses(await received, options);
}
