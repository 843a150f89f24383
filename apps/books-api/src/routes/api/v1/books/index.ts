import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { BOOKS_READ } from '../../../../auth/roles.js';
import { bookNotFound } from '../../../../errors.js';
import {
  BookCreate,
  BookIdParams,
  BookUpdate,
  ListQuery,
  pagingOf,
  SearchQuery,
  type AuthenticatedBookList,
} from '../../../../schemas/book.js';
import { errorResponses } from '../../../../schemas/errors.js';
import type { Awaitable, Slice } from '../../../../store/book-store.js';
import chaos from '../../../../plugins/app/chaos.js';
import { bookJson, bookPageJson, oneOffBookPageJson } from '../../../../serialization/book-json.js';

/**
 * `answer(value)`, at once when the store answered synchronously (the memory store), after the
 * promise otherwise (PostgreSQL). The handlers are not async functions: an async handler costs
 * every request a promise, Fastify's `then` on it and a microtask before the reply is written,
 * about 5% of a get and 10% of a create or a patch in memory mode (docs/performance.md).
 * `answer` sets the status and type and returns the payload; it never calls `reply.send`, so
 * Fastify alone sends the answer, once, on either path. (An answer that sent the reply itself and
 * resolved the promise to undefined was sent twice whenever an onSend hook held the reply past
 * that point, as response-write-batching.ts does: Fastify sends a settled handler's value unless
 * the reply is already written.) Fastify treats a synchronous throw as an async handler's
 * rejection: both reach the error handler.
 */
function whenSettled<T, R>(value: Awaitable<T>, answer: (settled: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(answer) : answer(value);
}

const { notFound, methodNotAllowed, validation, jsonBody, databaseUnavailable } = errorResponses;
const book = (description: string) => ({ ...Type.Ref('BookResponse'), description });
/** Replies written from serialization/book-json.ts carry bytes, so they name their type themselves. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The books resource (prefix /api/v1/books). Handlers are thin: the validation plugin
 * has already parsed and checked the request, the store does the work.
 */
const books: FastifyPluginAsyncTypebox = async (fastify) => {
  const store = fastify.bookStore;
  // X-Force-Error (chaos mode) acts on exactly the routes of this scope, before their validation and handlers.
  await fastify.register(chaos, { enabled: fastify.config.chaosHeadersEnabled });
  // Which routes need a token (AUTH_REQUIRED, the protected list) is decided per route in this scope.
  fastify.addHook('onRoute', fastify.auth.routePolicy);

  // '' (not '/'): the collection is /api/v1/books, without a trailing slash.
  fastify.get(
    '',
    {
      // The protected variant: a request with an Authorization header is verified by the authentication plugin.
      config: { bearerAuth: { mode: 'optional', role: BOOKS_READ } },
      schema: {
        operationId: 'list_books',
        summary: 'List books (paginated, insertion order)',
        description:
          'With an `Authorization: Bearer <token>` header the token is verified and the answer is `{books, user}`.',
        tags: ['books'],
        querystring: ListQuery,
        response: {
          200: Type.Union([Type.Ref('BookPage'), Type.Ref('AuthenticatedBookList')], {
            description: 'A page of books; with a bearer token, `{books, user}`',
          }),
          ...validation,
          ...methodNotAllowed,
          ...databaseUnavailable,
        },
      },
    },
    (request, reply) => {
      const { skip, limit } = pagingOf(request.query);
      const answer = (page: Slice): AuthenticatedBookList | Buffer => {
        if (request.principal !== null) {
          const list: AuthenticatedBookList = { books: page.items, user: request.principal.sub };
          return list;
        }
        // Not through the route's union schema: its serializer first validates the whole page
        // against a branch (formats included) to choose it, about a tenth of this route's CPU.
        reply.type(JSON_TYPE);
        return bookPageJson({ items: page.items, total: page.total, skip, limit });
      };
      return whenSettled(store.list(skip, limit), answer);
    },
  );

  fastify.get(
    '/search',
    {
      schema: {
        operationId: 'search_books',
        summary: 'Search books by a case-insensitive substring of title or author',
        description:
          'Matches `q` inside the title or the author after full Unicode case folding of both ' +
          "(Python's `str.casefold()`), in insertion order; `total` counts every match.",
        tags: ['books'],
        querystring: SearchQuery,
        response: {
          200: { ...Type.Ref('BookPage'), description: 'The page of matching books' },
          ...validation,
          ...methodNotAllowed,
          ...databaseUnavailable,
        },
      },
    },
    (request, reply) => {
      const { skip, limit } = pagingOf(request.query);
      return whenSettled(store.search(request.query.q, skip, limit), (page) => {
        reply.type(JSON_TYPE);
        return oneOffBookPageJson({ items: page.items, total: page.total, skip, limit });
      });
    },
  );

  fastify.post(
    '',
    {
      schema: {
        operationId: 'create_book',
        summary: 'Create a book',
        description: 'Stores a new book with a new id and the creation time, and answers it.',
        tags: ['books'],
        body: BookCreate,
        response: {
          201: book('The created book'),
          ...validation,
          ...jsonBody,
          ...methodNotAllowed,
          ...databaseUnavailable,
        },
      },
    },
    (request, reply) =>
      whenSettled(store.create(request.body), (book) => {
        reply.code(201);
        return book;
      }),
  );

  fastify.get(
    '/:book_id',
    {
      schema: {
        operationId: 'get_book',
        summary: 'Get a book',
        description: 'The book with this id, or 404.',
        tags: ['books'],
        params: BookIdParams,
        response: { 200: book('The book'), ...notFound, ...validation, ...methodNotAllowed, ...databaseUnavailable },
      },
    },
    (request, reply) =>
      whenSettled(store.get(request.params.book_id), (book) => {
        if (book === undefined) throw bookNotFound();
        reply.type(JSON_TYPE);
        return bookJson(book);
      }),
  );

  fastify.patch(
    '/:book_id',
    {
      schema: {
        operationId: 'update_book',
        summary: 'Change the fields present in the body',
        description: 'An empty object returns the book unchanged; null is not a value.',
        tags: ['books'],
        params: BookIdParams,
        body: BookUpdate,
        response: {
          200: book('The book as changed'),
          ...notFound,
          ...validation,
          ...jsonBody,
          ...methodNotAllowed,
          ...databaseUnavailable,
        },
      },
    },
    (request) =>
      whenSettled(store.update(request.params.book_id, request.body), (book) => {
        if (book === undefined) throw bookNotFound();
        return book;
      }),
  );

  fastify.delete(
    '/:book_id',
    {
      schema: {
        operationId: 'delete_book',
        summary: 'Delete a book',
        description: 'Removes the book; the order of the others does not change.',
        tags: ['books'],
        params: BookIdParams,
        response: {
          200: { ...Type.Ref('DeleteConfirmation'), description: 'The book was deleted' },
          ...notFound,
          ...validation,
          ...methodNotAllowed,
          ...databaseUnavailable,
        },
      },
    },
    (request) => {
      const { book_id: id } = request.params;
      return whenSettled(store.delete(id), (deleted) => {
        if (!deleted) throw bookNotFound();
        return { message: `Book ${id} deleted successfully` };
      });
    },
  );
};

export default books;
