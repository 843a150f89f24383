import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { ConnectionSettings } from '../../config.js';
import { tooManyRequestsOnConnection } from '../../errors.js';

/**
 * Bounds what one client can hold: the number of open connections (Node closes any beyond
 * it at once), and the requests one keep-alive connection may carry. The last allowed
 * request is answered with `Connection: close`; a request pipelined after it is answered
 * 503 without running, in the contract's shape (Node's own limit would answer an empty 503).
 */
export default fp<ConnectionSettings>(
  async (fastify, settings) => {
    fastify.server.maxConnections = settings.maxConnections;
    const requestsSeen = new WeakMap<Socket, number>();
    fastify.addHook('onRequest', async (request, reply) => {
      const socket = request.raw.socket;
      const count = (requestsSeen.get(socket) ?? 0) + 1;
      requestsSeen.set(socket, count);
      if (count > settings.maxRequestsPerConnection) {
        throw tooManyRequestsOnConnection();
      }
      if (count === settings.maxRequestsPerConnection) reply.header('Connection', 'close');
    });
  },
  { name: 'connection-limits' },
);
