import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { BOOKS_READ } from '../../../../auth/roles.js';
import { bookNotFound } from '../../../../errors.js';
import { BookCreate, BookIdParams, BookUpdate, ListQuery, pagingOf, SearchQuery } from '../../../../schemas/book.js';
import { errorResponses } from '../../../../schemas/errors.js';
import chaos from '../../../../plugins/app/chaos.js';
import { booksSerializerCompiler, pageAnswer, writeAtEndOfTurn } from '../../../../serialization/book-json.js';

const { notFound, methodNotAllowed, validation, jsonBody, databaseUnavailable } = errorResponses;
const book = (description: string) => ({ ...Type.Ref('BookResponse'), description });

/**
 * The books resource (prefix /api/v1/books). Handlers are thin async functions: the validation
 * plugin has already parsed and checked the request, the store does the work, and the handler
 * returns the answer, which Fastify writes with this scope's serializers, or, for a page of
 * books, its bytes from pageAnswer (serialization/book-json.ts decides how each response shape
 * is written).
 */
const books: FastifyPluginAsyncTypebox = async (fastify) => {
  const store = fastify.bookStore;
  fastify.setSerializerCompiler(booksSerializerCompiler(fastify.getSchemas()));
  if (fastify.config.responseWriteBatching) fastify.addHook('onSend', writeAtEndOfTurn);
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
    async function listBooks(request, reply) {
      const { skip, limit } = pagingOf(request.query);
      const page = await store.list(skip, limit);
      if (request.principal !== null) return { books: page.items, user: request.principal.sub };
      return pageAnswer(reply, { items: page.items, total: page.total, skip, limit });
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
    async function searchBooks(request, reply) {
      const { skip, limit } = pagingOf(request.query);
      const page = await store.search(request.query.q, skip, limit);
      return pageAnswer(reply, { items: page.items, total: page.total, skip, limit });
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
    async function createBook(request, reply) {
      const created = await store.create(request.body);
      reply.code(201);
      return created;
    },
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
    async function getBook(request) {
      const found = await store.get(request.params.book_id);
      if (found === undefined) throw bookNotFound();
      return found;
    },
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
    async function updateBook(request) {
      const updated = await store.update(request.params.book_id, request.body);
      if (updated === undefined) throw bookNotFound();
      return updated;
    },
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
    async function deleteBook(request) {
      const { book_id: id } = request.params;
      if (!(await store.delete(id))) throw bookNotFound();
      return { message: `Book ${id} deleted successfully` };
    },
  );
};

export default books;
