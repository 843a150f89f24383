import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { AuthenticatedBookList, BookResponse } from '../schemas/book.js';
import type { Book, Slice } from '../store/book-store.js';

/** A page as the API answers it (the BookPage schema). */
export interface BookPage extends Slice {
  readonly skip: number;
  readonly limit: number;
}

/**
 * How each response shape of the books routes is written: the books routes' serializer
 * compiler (booksSerializerCompiler) hands Fastify the function for each declared response
 * schema, and handlers only return values.
 *
 * A book's JSON is remembered per book object, so a page of books is a concatenation of
 * remembered text rather than a serialisation of every book on every request. Keys are object
 * identities: a store hands out the same object until the book changes (`Book` is read-only;
 * the memory store replaces the object on update; the PostgreSQL store reuses a recent object
 * only while its row reads the same), so an entry can never go stale, and entries go with
 * their objects. The text is that of fast-json-stringify, the serializer Fastify compiles for
 * the schemas, so an answer from here is the one Fastify would write
 * (test/serialization/book-json.test.ts compares them on arbitrary text).
 */
const serializeBook = fastJson(BookResponse);

const jsonByBook = new WeakMap<Book, string>();

/** The book's JSON, made once per book object. */
export function bookJson(book: Book): string {
  let json = jsonByBook.get(book);
  if (json === undefined) {
    json = serializeBook(book);
    jsonByBook.set(book, json);
  }
  return json;
}

interface PageJson {
  total: number;
  skip: number;
  limit: number;
  json: string;
}

/**
 * The JSON of shared pages (sharedPage in store/book-store.ts), by their items array: a store
 * hands out the same array again only for a page unchanged since, so a repeated read of a page
 * is a lookup; total, skip and limit are compared as well, since they are part of the text.
 * Other pages (search results: a new array every time) are not remembered: nothing would look
 * their entries up again, and a WeakMap's entries are ephemerons the garbage collector must
 * trace, which under search load brought frequent major collections.
 */
const jsonBySharedPage = new WeakMap<readonly Book[], PageJson>();

/** A `BookPage` as JSON: `{"items":[...],"total":n,"skip":n,"limit":n}`. */
export function bookPageJson(page: BookPage): string {
  if (!Object.isFrozen(page.items)) return encodePage(page);
  const known = jsonBySharedPage.get(page.items);
  if (known !== undefined && known.total === page.total && known.skip === page.skip && known.limit === page.limit) {
    return known.json;
  }
  const json = encodePage(page);
  jsonBySharedPage.set(page.items, { total: page.total, skip: page.skip, limit: page.limit, json });
  return json;
}

function encodePage(page: BookPage): string {
  let json = '{"items":[';
  for (let index = 0; index < page.items.length; index += 1) {
    if (index > 0) json += ',';
    json += bookJson(page.items[index]!);
  }
  return `${json}],"total":${page.total},"skip":${page.skip},"limit":${page.limit}}`;
}

type JsonSchema = { $ref?: string; anyOf?: JsonSchema[] };

const refOf = (schema: unknown): string | undefined => (schema as JsonSchema | undefined)?.$ref;

/**
 * The books routes' serializer compiler (Fastify's `setSerializerCompiler`). A book and a page
 * of books are written from the remembered JSON above. The list's answer is a page or, with a
 * bearer token, `{books, user}`; telling them apart by their keys spares the page a check
 * against each branch of the union schema, which fast-json-stringify would run on every answer.
 * Any other schema gets fast-json-stringify, as Fastify's own compiler would give it.
 * `sharedSchemas` are the schemas added with addSchema, which the references name.
 */
export function booksSerializerCompiler(sharedSchemas: Record<string, unknown>): FastifySerializerCompiler<unknown> {
  const authenticatedListJson = fastJson(AuthenticatedBookList, { schema: sharedSchemas as never });
  return ({ schema }) => {
    switch (refOf(schema)) {
      case 'BookResponse':
        return bookJson;
      case 'BookPage':
        return bookPageJson;
      default:
        break;
    }
    const branches = (schema as JsonSchema).anyOf?.map(refOf);
    if (branches?.length === 2 && branches.includes('BookPage') && branches.includes('AuthenticatedBookList')) {
      return (answer: BookPage | { readonly books: readonly Book[]; readonly user: string }) =>
        'books' in answer ? authenticatedListJson(answer) : bookPageJson(answer);
    }
    return fastJson(schema as never, { schema: sharedSchemas as never });
  };
}
