import type { FastifyRequest, preParsingHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { unsupportedMediaType } from '../../errors.js';
import { decodeJsonBody, JSON_MEDIA_TYPE } from '../../validation/json-body.js';

/**
 * What makes Fastify read a request's body: it parses one whenever these headers announce
 * it, whatever the route.
 */
const BODY_HEADERS = ['content-type', 'content-length', 'transfer-encoding'] as const;
/** The headers as the parsing step sees them on a route that reads no body (the setter is additive). */
const NO_BODY = Object.fromEntries(BODY_HEADERS.map((name) => [name, undefined]));
/** Methods Fastify never reads a body for, so a route with only these needs no hook. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD']);

/** Hides a body the route will not read from the parsing step. */
export function ignoreBody(request: FastifyRequest): void {
  if (BODY_HEADERS.some((name) => request.raw.headers[name] !== undefined)) request.headers = NO_BODY;
}

const ignoreBodyHook: preParsingHookHandler = function ignoreUndeclaredBody(request, _reply, payload, done) {
  ignoreBody(request);
  done(null, payload);
};

/**
 * Body parsing: our JSON parser replaces Fastify's (for FastAPI's error shapes), a
 * body without a Content-Type is read as JSON (as FastAPI does), and any other media
 * type nobody registered a parser for is a 415 from the error catalogue. Routes that
 * accept other types (forms) register their parsers; routes declare what they accept
 * with `schema.consumes`, which the validation plugin enforces.
 *
 * Only a route that declares a body (`schema.body`) reads one, as in FastAPI: a DELETE or
 * OPTIONS with a body, and any request answered 404 or 405, is never refused for its body
 * (no 400, 413, 415 or 422 for bytes the route would not look at). Fastify would parse it,
 * so the body's headers are hidden from the parsing step; Node discards the unread bytes
 * once the answer is sent, and the connection stays usable. The hook is attached only to
 * routes that need it (no body declared, a method that may carry one), so list and get
 * requests pay nothing for it; the not-found plugin does the same for unrouted requests.
 */
export default fp(
  async (fastify) => {
    fastify.addHook('onRoute', function skipBodyOfBodilessRoutes(route) {
      if (route.schema?.body !== undefined) return;
      if ([route.method].flat().every((method) => BODYLESS_METHODS.has(method))) return;
      route.preParsing = [ignoreBodyHook, ...[route.preParsing ?? []].flat()];
    });

    fastify.removeContentTypeParser(['application/json']);
    const parseJson = (_request: unknown, body: Buffer, done: (error: Error | null, value?: unknown) => void) => {
      try {
        done(null, decodeJsonBody(body));
      } catch (error) {
        done(error as Error);
      }
    };
    fastify.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: 'buffer' }, parseJson);
    fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
      const contentType = request.headers['content-type'];
      if (contentType === undefined) return parseJson(request, body as Buffer, done);
      done(unsupportedMediaType(contentType, request.routeOptions.schema?.consumes ?? ['application/json']));
    });
  },
  { name: 'json-body' },
);
