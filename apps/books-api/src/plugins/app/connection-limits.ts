import type { Socket } from 'node:net';
import type { onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { ConnectionSettings } from '../../config.js';
import { tooManyRequestsOnConnection } from '../../errors.js';

/**
 * Bounds what one client can hold: the number of open connections (Node closes any beyond
 * it at once; this plugin sets it), and the requests one keep-alive connection may carry
 * (the countRequestsOnConnection hook). The last allowed request is answered with
 * `Connection: close` (Node's own `maxRequestsPerSocket` stays off: it would answer an empty 503).
 *
 * A request past the limit never gets an answer, so the 503 below is never on the wire and
 * is not in the OpenAPI document. A client that waits for the `Connection: close` answer sends
 * nothing more on that connection (and Node has closed it by then). A client that pipelined
 * more requests behind the last one has them parsed and routed (Node reads ahead), but their
 * answers queue behind that last answer, and Node ends the connection once it is written,
 * dropping them. What the check guards is that such a request does not run: a pipelined POST
 * would otherwise create a book whose answer the client never reads, and it would send it
 * again. The 503 is that request's answer in the contract's shape, should one ever be written.
 */
export default fp<ConnectionSettings>(
  async (fastify, settings) => {
    fastify.server.maxConnections = settings.maxConnections;
    const requestsSeen = new WeakMap<Socket, number>();
    const countRequestsOnConnection: onRequestHookHandler = function countRequestsOnConnection(request, reply, done) {
      const socket = request.raw.socket;
      const count = (requestsSeen.get(socket) ?? 0) + 1;
      requestsSeen.set(socket, count);
      if (count > settings.maxRequestsPerConnection) {
        done(tooManyRequestsOnConnection());
        return;
      }
      if (count === settings.maxRequestsPerConnection) reply.header('Connection', 'close');
      done();
    };
    fastify.addHook('onRequest', countRequestsOnConnection);
  },
  { name: 'connection-limits', dependencies: ['request-log'] },
);
