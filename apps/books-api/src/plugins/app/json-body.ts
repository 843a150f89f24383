import fp from 'fastify-plugin';
import { unsupportedMediaType } from '../../errors.js';
import { decodeJsonBody, JSON_MEDIA_TYPE } from '../../validation/json-body.js';

/**
 * Body parsing: our JSON parser replaces Fastify's (for FastAPI's error shapes), a
 * body without a Content-Type is read as JSON (as FastAPI does), and any other media
 * type nobody registered a parser for is a 415 from the error catalogue. Routes that
 * accept other types (forms) register their parsers; routes declare what they accept
 * with `schema.consumes`, which the validation plugin enforces.
 */
export default fp(
  async (fastify) => {
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
