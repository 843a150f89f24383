import { randomUUID } from 'node:crypto';
import {
  STATUS_CODES,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { ConnectionSettings } from '../../config.js';
import {
  connectNotSupported,
  expectationFailed,
  headersTooLarge,
  missingHost,
  requestTimeout,
  tooManyRequestsOnConnection,
  unparseableRequest,
  type HttpError,
} from '../../errors.js';
import { JSON_CONTENT_TYPE } from '../../serialization/json-content-type.js';
import { requestIdFor } from './request-log.js';
import { NOSNIFF } from './security-headers.js';

/**
 * What the API does with connections, before and beside Fastify's routing.
 *
 * The answers Node writes itself: a request it cannot parse, headers over the size limit, a
 * client too slow to send its request, and an `Expect` it does not support. Each gets the
 * contract's `{"detail": ...}` body and an `X-Request-ID`, like every other response; the
 * connection is then closed, since nothing after an unparseable request can be trusted.
 *
 * What one client can hold: the number of open connections (Node closes any beyond it at once),
 * and the requests one keep-alive connection may carry (countRequestsOnConnection). The last
 * allowed request is answered with `Connection: close` (Node's own `maxRequestsPerSocket` stays
 * off: it would answer an empty 503). A request past the limit never gets an answer, so its 503
 * is never on the wire and is not in the OpenAPI document: a client that waits for the
 * `Connection: close` answer sends nothing more on that connection, and one that pipelined more
 * requests behind the last one has them parsed and routed (Node reads ahead), but their answers
 * queue behind that last answer and Node ends the connection once it is written. What the check
 * guards is that such a request does not run: a pipelined POST would otherwise create a book
 * whose answer the client never reads, and it would send it again.
 */

/** Resolves when `response` is written or abandoned (Node emits 'close' after 'finish' too). */
function finished(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('finish', done);
      response.off('close', done);
      resolve();
    };
    response.on('finish', done);
    response.on('close', done);
  });
}

/**
 * The responses each connection has not finished writing. Node writes the answers on a
 * connection one at a time, in the order their requests arrived, so before an error answer is
 * written to the socket itself, the answers ahead of it must be out. Each server 'request' event
 * records its response as the connection's newest, linked to the one before it only when that
 * one is still unwritten (requests pipelined behind each other): an ordinary request costs one
 * map update and the links never outlive the responses.
 */
class UnwrittenResponses {
  /**
   * The connection's newest response, kept on the socket under a symbol of ours: it goes with
   * the socket, and unlike a WeakMap entry per request it gives the garbage collector no
   * ephemeron to trace.
   */
  readonly #newest = Symbol('newest response');
  readonly #before = new WeakMap<ServerResponse, ServerResponse>();

  readonly record = (request: IncomingMessage, response: ServerResponse): void => {
    const socket = request.socket as Socket & { [key: symbol]: ServerResponse | undefined };
    const previous = socket[this.#newest];
    if (previous !== undefined && !previous.writableFinished) this.#before.set(response, previous);
    socket[this.#newest] = response;
  };

  /**
   * Resolves once the answers to every request received in full on `socket` are written (or
   * abandoned). A request still being received (the one that timed out) gets no answer of its
   * own, and nothing was parsed after it.
   */
  async written(socket: Socket): Promise<void> {
    const waits: Promise<void>[] = [];
    const newest = (socket as Socket & { [key: symbol]: ServerResponse | undefined })[this.#newest];
    for (let response = newest; response !== undefined; response = this.#before.get(response)) {
      if (!response.writableFinished && !response.destroyed && response.req.complete) waits.push(finished(response));
    }
    await Promise.all(waits);
  }
}

/** Sockets belong to one server, so one record serves every app of the process. */
const unwritten = new UnwrittenResponses();

/** How long a connection that sent CONNECT may stay open after its answer. */
const CONNECT_ANSWER_TIMEOUT_MS = 5000;

function answerFor(error: ConnectionError): HttpError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return requestTimeout();
    case 'HPE_HEADER_OVERFLOW':
      return headersTooLarge();
    default:
      return unparseableRequest();
  }
}

function rawResponse({ statusCode: status, detail }: HttpError, requestId: string = randomUUID()): string {
  const body = JSON.stringify({ detail });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    `Content-Type: ${JSON_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-ID: ${requestId}`,
    `${NOSNIFF.name}: ${NOSNIFF.value}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Fastify's `clientErrorHandler`. Responses to requests parsed before the bad one (pipelining)
 * are written first; then the error answer, and the connection is closed.
 */
export function clientErrorHandler(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  // A reset connection, or one already closed: there is nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = answerFor(error);
  // A client's mistake, not a fault of the service: no stack trace, not at error level.
  this.log.info(
    { status: answer.statusCode, errorCode: answer.code, code: error.code, client: socket.remoteAddress },
    `client error: ${answer.detail}`,
  );
  void unwritten.written(socket).then(() => {
    if (socket.writable) socket.end(rawResponse(answer));
    else socket.destroy();
  });
}

/** What makes Node's parser treat a request as an upgrade: an Upgrade header named in Connection. */
function asksForUpgrade(headers: IncomingHttpHeaders): boolean {
  const connection = headers.connection;
  return (
    headers.upgrade !== undefined &&
    connection !== undefined &&
    connection.split(',').some((option) => option.trim().toLowerCase() === 'upgrade')
  );
}

/**
 * An HTTP/1.1 request without `Host` is answered 400 (Node's own check is switched off in the
 * server options so this one answers), and a request asking for a protocol upgrade gets
 * `Connection: close`.
 */
const checkHostAndUpgrade: onRequestAsyncHookHandler = async function checkHostAndUpgrade(request, reply) {
  if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) throw missingHost();
  // No protocol upgrade is served, so the request is answered as plain HTTP/1.1; but Node's
  // parser stops reading the connection after a request that asked for one, so a request
  // pipelined behind it would never be answered. Closing tells the client to send it again.
  if (asksForUpgrade(request.headers)) reply.header('Connection', 'close');
};

/** Counts the requests each keep-alive connection carries (see the top of this file). */
function connectionRequestCounter(settings: ConnectionSettings): onRequestAsyncHookHandler {
  const requestsSeen = new WeakMap<Socket, number>();
  return async function countRequestsOnConnection(request, reply) {
    const socket = request.raw.socket;
    const count = (requestsSeen.get(socket) ?? 0) + 1;
    requestsSeen.set(socket, count);
    if (count > settings.maxRequestsPerConnection) throw tooManyRequestsOnConnection();
    if (count === settings.maxRequestsPerConnection) reply.header('Connection', 'close');
  };
}

/**
 * Sets the connection limits, and registers the pieces Node needs for the answers it would
 * otherwise write itself with an empty body: an `Expect` other than 100-continue (417); and for
 * CONNECT, which Node hands over as a bare socket and, with nobody listening, closes without a
 * word, dropping the answers to requests pipelined ahead of it. Checks every request for `Host`
 * and `Upgrade` (checkHostAndUpgrade), counts it against its connection's limit, and records the
 * responses each connection still has to write, which the answers written to the socket itself
 * wait for.
 */
async function connections(fastify: FastifyInstance, settings: ConnectionSettings): Promise<void> {
  fastify.server.maxConnections = settings.maxConnections;
  fastify.server.on('request', unwritten.record);
  fastify.addHook('onRequest', checkHostAndUpgrade);
  fastify.addHook('onRequest', connectionRequestCounter(settings));
  // A client that half-closes its side after sending a request still wants the answer (RFC 9112:
  // a half-closed connection neither delimits a request nor says the client lost interest).
  // Node's default takes it as an abort and drops any answer not written yet, such as a login's
  // after its password check; with this switch it answers, then closes. The property is not in
  // Node's types, but it is the one Node's own server reads (and spdy sets).
  (fastify.server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  fastify.server.on('connect', (request: IncomingMessage, socket: Socket) => {
    const answer = connectNotSupported();
    fastify.log.info(
      { status: answer.statusCode, errorCode: answer.code, method: 'CONNECT', client: socket.remoteAddress },
      `client error: ${answer.detail}`,
    );
    socket.on('error', () => socket.destroy());
    // The socket is ours now, outside Node's timeouts: drain what the client sends (closing with
    // unread bytes would reset the connection and could lose the answer), and never wait on it long.
    socket.resume();
    socket.setTimeout(CONNECT_ANSWER_TIMEOUT_MS, () => socket.destroy());
    void unwritten.written(socket).then(() => {
      if (socket.writable) socket.end(rawResponse(answer, requestIdFor(request)));
      else socket.destroy();
    });
  });
  fastify.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const answer = expectationFailed();
    fastify.log.info(
      { status: answer.statusCode, errorCode: answer.code, expect: request.headers.expect },
      `client error: ${answer.detail}`,
    );
    const body = JSON.stringify({ detail: answer.detail });
    response.writeHead(answer.statusCode, {
      'Content-Type': JSON_CONTENT_TYPE,
      'Content-Length': Buffer.byteLength(body),
      'X-Request-ID': requestIdFor(request),
      [NOSNIFF.name]: NOSNIFF.value,
      // The body the client meant to send after the expectation is never read.
      Connection: 'close',
    });
    response.end(body);
  });
}

export default fp(connections, { name: 'connections', dependencies: ['request-log'] });
