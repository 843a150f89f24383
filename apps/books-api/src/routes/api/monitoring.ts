import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { noBooks } from '../../errors.js';
import { errorResponses } from '../../schemas/errors.js';

/** The method list OPTIONS /api/options announces (header and body come from this one list). */
const SUPPORTED_METHODS = ['OPTIONS', 'GET', 'POST', 'PATCH', 'DELETE', 'HEAD'] as const;

/** Supporting endpoints under /api: health, status, method list, random redirect. */
const monitoring: FastifyPluginAsyncTypebox = async (fastify) => {
  const { config, bookStore } = fastify;

  fastify.get(
    '/ps',
    {
      schema: {
        operationId: 'health',
        summary: 'Health payload with the current book count',
        description: 'Readiness: answers while the service can serve books, with the current count.',
        tags: ['monitoring'],
        response: {
          200: { ...Type.Ref('Health'), description: 'The service is up' },
          ...errorResponses.methodNotAllowed,
          ...errorResponses.databaseUnavailable,
        },
      },
    },
    async () => ({
      status: 'ok' as const,
      books: await bookStore.count(),
      traffic_generator_enabled: config.trafficGeneratorEnabled,
      chaos_headers_enabled: config.chaosHeadersEnabled,
      uptime_seconds: Math.round(process.uptime() * 1000) / 1000,
    }),
  );

  fastify.route({
    method: 'HEAD',
    url: '/status',
    config: { swagger: { exposeHeadRoute: true } }, // @fastify/swagger leaves HEAD routes out otherwise
    schema: {
      operationId: 'status',
      summary: 'Header-only monitoring check (X-System-Status: OK)',
      description: 'Liveness: a 200 without a body and `X-System-Status: OK` while the process serves.',
      tags: ['monitoring'],
      response: {
        200: {
          description: 'The service is up',
          headers: {
            'X-System-Status': { type: 'string', const: 'OK', description: 'Always OK while the process serves' },
          },
        },
        ...errorResponses.methodNotAllowed,
      },
    },
    handler: async (_request, reply) => {
      // Fastify leaves a HEAD answer's length to the route, and Node's HTTP client does not reuse
      // a connection after a HEAD answer without one. The answer has no body: its length is 0.
      return reply.header('X-System-Status', 'OK').header('Content-Length', '0').code(200).send();
    },
  });

  fastify.route({
    method: 'OPTIONS',
    url: '/options',
    schema: {
      operationId: 'options',
      summary: 'Supported method list (also in the Allow header)',
      description: 'The methods the books API supports, in the `Allow` header and in the body.',
      tags: ['monitoring'],
      response: {
        200: {
          ...Type.Ref('MethodList'),
          description: 'The supported methods',
          headers: { Allow: { type: 'string', description: 'The same methods, comma-separated' } },
        },
        ...errorResponses.methodNotAllowed,
      },
    },
    handler: async (_request, reply) => {
      reply.header('Allow', SUPPORTED_METHODS.join(', '));
      return { methods: [...SUPPORTED_METHODS] };
    },
  });

  // The redirect reveals a book's id, so AUTH_REQUIRED guards it as it guards the books routes
  // (Books.Read); the routes above stay open for probes and monitoring.
  await fastify.register(async (guarded) => {
    guarded.addHook('onRoute', guarded.auth.routePolicy);
    guarded.get(
      '/redirect',
      {
        schema: {
          operationId: 'redirect_to_random_book',
          summary: 'Temporary redirect to a random current book',
          description: 'A 307 to `/api/v1/books/{id}` of a book picked at random; 404 when there are no books.',
          tags: ['monitoring'],
          response: {
            307: { description: 'Redirect to a random current book (Location: /api/v1/books/{id})', type: 'null' },
            ...errorResponses.notFound,
            ...errorResponses.methodNotAllowed,
            ...errorResponses.databaseUnavailable,
          },
        },
      },
      async (_request, reply) => {
        const book = await bookStore.randomBook();
        if (book === undefined) throw noBooks();
        return reply.redirect(`/api/v1/books/${book.id}`, 307);
      },
    );
  });
};

export default monitoring;
