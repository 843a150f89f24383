import type { IncomingMessage } from 'node:http';
import { requestIdFrom } from '@books/shared-rules';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Fastify's `genReqId`: echo an acceptable incoming X-Request-ID (1-128 visible ASCII
 * characters, the rule the portal shares), otherwise a new UUID.
 */
export function requestIdFor(request: IncomingMessage): string {
  return requestIdFrom(request.headers['x-request-id']);
}

/**
 * A request check (plugins/app/request-checks.ts), the first one: every response, errors,
 * 404 and 405 included, carries the request id.
 */
export function sendRequestId(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Request-ID', request.id);
}
