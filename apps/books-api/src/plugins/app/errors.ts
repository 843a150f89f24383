import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { JSON_CONTENT_TYPE } from '../../serialization/json-content-type.js';
import { StoreNotReadyError, StoreUnavailableError, UnstorableTextError } from '../../store/book-store.js';
import {
  clientError,
  type ErrorCode,
  contentLengthMismatch,
  databaseUnavailable,
  HttpError,
  internalServerError,
  invalidUrl,
  invalidUrlEncoding,
  payloadTooLarge,
  RequestValidationError,
  unstorableText,
  unsupportedMediaType,
} from '../../errors.js';

/**
 * The one error path: every thrown error becomes one of the contract's bodies,
 * `{"detail": "..."}` or the 422 list. Fastify's own errors are mapped by code; other
 * 4xx errors from plugins keep their status and message; anything else is a 500
 * whose details only reach the log.
 */
function toHttpError(error: unknown, request: FastifyRequest): HttpError | RequestValidationError {
  if (error instanceof HttpError || error instanceof RequestValidationError) return error;
  if (error instanceof StoreUnavailableError) return databaseUnavailable();
  if (error instanceof UnstorableTextError) return unstorableText(error.field);
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge(request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 0);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType(
        request.headers['content-type'],
        request.routeOptions.schema?.consumes ?? ['application/json'],
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return contentLengthMismatch();
    case 'FST_ERR_BAD_URL':
      return invalidUrlEncoding();
    default:
      break;
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return clientError(status, fastifyError.message ?? 'Bad Request');
  }
  return internalServerError();
}

/** Errors Fastify raises before routing (its `frameworkErrors` option), which never reach the error handler. */
export function beforeRoutingError(error: Partial<FastifyError>): HttpError {
  const status = error.statusCode ?? 400;
  if (status >= 500) return internalServerError();
  return invalidUrl();
}

export function sendError(error: HttpError | RequestValidationError, reply: FastifyReply): FastifyReply {
  const body = error instanceof RequestValidationError ? { detail: error.issues } : { detail: error.detail };
  let text: string;
  try {
    // Serialised here, not by a route's response schema, so every error keeps its exact shape.
    text = JSON.stringify(body);
  } catch {
    // An input echoed in a 422 could be unserialisable; the contract's shape still holds.
    return sendError(internalServerError(), reply);
  }
  if (error instanceof HttpError) reply.headers(error.headers);
  // For the request's log line (plugins/app/request-log.ts): the code is not part of the public body.
  reply.request.errorCode = error.code;
  return reply.code(error.statusCode).type(JSON_CONTENT_TYPE).send(text);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The catalogue code of the error this request was answered with; null when it succeeded. */
    errorCode: ErrorCode | null;
  }
}

export default fp(
  async (fastify) => {
    fastify.decorateRequest('errorCode', null);
    fastify.setErrorHandler(async function answerError(error, request, reply) {
      const mapped = toHttpError(error, request);
      if (error instanceof StoreNotReadyError) {
        // Expected while a replica starts (readiness probes ask): no warning, no stack.
        request.log.debug({ reqId: request.id }, 'book store not ready yet');
      } else if (error instanceof StoreUnavailableError) {
        request.log.warn({ err: error.cause ?? error, reqId: request.id }, 'book store unavailable');
      } else if (mapped.statusCode >= 500 && !(error instanceof HttpError)) {
        request.log.error(
          { err: error, code: mapped.code, reqId: request.id, method: request.method, url: request.url },
          'request failed',
        );
      } else {
        request.log.debug({ err: error, status: mapped.statusCode, code: mapped.code }, 'request rejected');
      }
      return sendError(mapped, reply);
    });
  },
  { name: 'errors' },
);
