import Type, { type Static } from 'typebox';

/** Bounds shared by create and update (the contract: PATCH bounds are the same as create). */
const title = Type.String({ minLength: 1, maxLength: 200, description: 'Title, 1-200 characters' });
const author = Type.String({ minLength: 1, maxLength: 100, description: 'Author, 1-100 characters' });
const year = Type.Integer({ minimum: 1900, maximum: 2100, description: 'Publication year' });

export const BookCreate = Type.Object(
  { title, author, year },
  { $id: 'BookCreate', title: 'BookCreate', additionalProperties: false },
);
export type BookCreate = Static<typeof BookCreate>;

export const BookUpdate = Type.Object(
  { title: Type.Optional(title), author: Type.Optional(author), year: Type.Optional(year) },
  { $id: 'BookUpdate', title: 'BookUpdate', additionalProperties: false },
);
export type BookUpdate = Static<typeof BookUpdate>;

export const BookResponse = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    author: Type.String(),
    year: Type.Integer(),
    created_at: Type.String({ format: 'date-time', description: 'UTC, ISO 8601 with a Z suffix' }),
  },
  { $id: 'BookResponse', title: 'BookResponse' },
);
export type BookResponse = Static<typeof BookResponse>;

/** The shared models a `Type.Ref` may name, so `Static` resolves a reference to its model's type. */
type SharedModels = { BookResponse: typeof BookResponse };

export const BookPage = Type.Object(
  {
    items: Type.Array(Type.Ref('BookResponse')),
    total: Type.Integer({ description: 'Number of books (or matches) in all pages' }),
    skip: Type.Integer({ description: 'The offset used' }),
    limit: Type.Integer({ description: 'The page size used' }),
  },
  { $id: 'BookPage', title: 'BookPage' },
);
export type BookPage = Static<typeof BookPage, SharedModels>;

/** The token-protected variant of the list (a request that carries an Authorization header). */
export const AuthenticatedBookList = Type.Object(
  {
    books: Type.Array(Type.Ref('BookResponse')),
    user: Type.String({ description: 'The sub claim of the token' }),
  },
  { $id: 'AuthenticatedBookList', title: 'AuthenticatedBookList' },
);
export type AuthenticatedBookList = Static<typeof AuthenticatedBookList, SharedModels>;

const DeleteConfirmation = Type.Object(
  { message: Type.String() },
  { $id: 'DeleteConfirmation', title: 'DeleteConfirmation' },
);

export const BookIdParams = Type.Object({
  book_id: Type.String({
    format: 'uuid',
    description:
      'Book id, a UUID. Like Pydantic, the server also accepts upper case, 32 hex digits without ' +
      'hyphens, `{braced}` and `urn:uuid:`-prefixed forms, and answers with the lower-case hyphenated id.',
  }),
});
export type BookIdParams = Static<typeof BookIdParams>;

/** What a query that leaves out skip or limit gets (the schemas document them as defaults). */
const PAGING_DEFAULTS = { skip: 0, limit: 20 } as const;

/** The paging part of every list query: both optional, bounded, with defaults. */
const PagingQuery = Type.Object({
  skip: Type.Optional(Type.Integer({ minimum: 0, default: PAGING_DEFAULTS.skip })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: PAGING_DEFAULTS.limit })),
});
/** The paging a request asks for, once the defaults are applied. */
type Paging = Required<Static<typeof PagingQuery>>;

/** The paging of a validated query: validation has applied the defaults already; this also tells the types. */
export function pagingOf(query: Static<typeof PagingQuery>): Paging {
  return { skip: query.skip ?? PAGING_DEFAULTS.skip, limit: query.limit ?? PAGING_DEFAULTS.limit };
}

export const ListQuery = PagingQuery;
export type ListQuery = Static<typeof ListQuery>;

export const SearchQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 100, description: 'Case-insensitive substring of title or author' }),
  ...PagingQuery.properties,
});
export type SearchQuery = Static<typeof SearchQuery>;

/** Every shared model, registered once with addSchema and referenced by $id. */
export const bookSchemas = [BookCreate, BookUpdate, BookResponse, BookPage, AuthenticatedBookList, DeleteConfirmation];
