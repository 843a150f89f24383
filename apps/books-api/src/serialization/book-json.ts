import fastJson from 'fast-json-stringify';
import type { FastifyReply, FastifySerializerCompiler, onSendHookHandler } from 'fastify';
import { AuthenticatedBookList, BookResponse } from '../schemas/book.js';
import type { Book, Slice } from '../store/book-store.js';
import { JSON_CONTENT_TYPE } from './json-content-type.js';

/** A page as the API answers it (the BookPage schema). */
interface BookPage extends Slice {
  readonly skip: number;
  readonly limit: number;
}

/**
 * How each response shape of the books routes is written. Pages of books are sent as UTF-8
 * bytes (pageAnswer, below); every other answer is returned by its handler and written by the
 * books routes' serializer compiler (booksSerializerCompiler), which hands Fastify the function
 * for each declared response schema.
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

interface PageBytes {
  total: number;
  skip: number;
  limit: number;
  bytes: Buffer;
}

/**
 * The bytes of shared pages (sharedPage in store/book-store.ts), by their items array: a store
 * hands out the same array again only for a page unchanged since, so a repeated read of a page
 * is a lookup; total, skip and limit are compared as well, since they are part of the bytes.
 * Other pages (search results: a new array every time) are not remembered: nothing would look
 * their entries up again, and a WeakMap's entries are ephemerons the garbage collector must
 * trace, which under search load brought frequent major collections.
 */
const bytesBySharedPage = new WeakMap<readonly Book[], PageBytes>();

/**
 * A `BookPage` as UTF-8 JSON: `{"items":[...],"total":n,"skip":n,"limit":n}`. Bytes, not text:
 * a remembered page is then written as it is, where text would be measured and encoded to UTF-8
 * again on every answer, which for books with non-ASCII names was a large part of a list's cost.
 */
export function bookPageBytes(page: BookPage): Buffer {
  if (!Object.isFrozen(page.items)) return Buffer.from(pageJson(page));
  const known = bytesBySharedPage.get(page.items);
  if (known !== undefined && known.total === page.total && known.skip === page.skip && known.limit === page.limit) {
    return known.bytes;
  }
  const bytes = Buffer.from(pageJson(page));
  bytesBySharedPage.set(page.items, { total: page.total, skip: page.skip, limit: page.limit, bytes });
  return bytes;
}

function pageJson(page: BookPage): string {
  let json = '{"items":[';
  for (let index = 0; index < page.items.length; index += 1) {
    if (index > 0) json += ',';
    json += bookJson(page.items[index]!);
  }
  return `${json}],"total":${page.total},"skip":${page.skip},"limit":${page.limit}}`;
}

/**
 * How a handler answers a page: `return pageAnswer(reply, page)`. Fastify sends a Buffer as it
 * is, without the route's serializer (its Reply reference, "Buffers"), so the page's bytes go out
 * unchanged and the content type, which Fastify would otherwise set to octet-stream, is set here.
 * test/routes/api/v1/books/page-bytes.test.ts fails when pages stop being sent this way.
 */
export function pageAnswer(reply: FastifyReply, page: BookPage): Buffer {
  reply.type(JSON_CONTENT_TYPE);
  return bookPageBytes(page);
}

type JsonSchema = { $ref?: string; anyOf?: JsonSchema[] };

const refOf = (schema: unknown): string | undefined => (schema as JsonSchema | undefined)?.$ref;

/**
 * The books routes' serializer compiler (Fastify's `setSerializerCompiler`). A book is written
 * from its remembered JSON. The list's schema is a union of a page and `{books, user}` (with a
 * bearer token); pages never reach a serializer (pageAnswer sends their bytes), so the union is
 * written as `{books, user}` without fast-json-stringify's check of the answer against each
 * branch. Any other schema gets fast-json-stringify, as Fastify's own compiler would give it.
 * `sharedSchemas` are the schemas added with addSchema, which the references name.
 */
export function booksSerializerCompiler(sharedSchemas: Record<string, unknown>): FastifySerializerCompiler<unknown> {
  const compile = (schema: unknown) => fastJson(schema as never, { schema: sharedSchemas as never });
  return ({ schema }) => {
    if (refOf(schema) === 'BookResponse') return bookJson;
    const branches = (schema as JsonSchema).anyOf?.map(refOf);
    if (branches?.length === 2 && branches.includes('BookPage') && branches.includes('AuthenticatedBookList')) {
      return compile(AuthenticatedBookList);
    }
    return compile(schema);
  };
}

type SendContinuation = (error: Error | null, payload: unknown) => void;

/*
 * The books routes' answers of one event-loop turn are written together when the turn's I/O
 * callbacks have run (a `setImmediate`: the check phase, right after poll).
 *
 * Under load one turn reads many requests from many connections. Written one by one, each answer
 * wakes its client as it goes out, and on a host whose idle CPUs halt at once the sender pays for
 * every wake-up inside its `writev`. Written together, a client with several connections is woken
 * once for all of them. An answer waits at most for the rest of its turn; alone, it waits only for
 * the hop from the poll phase to the check phase.
 */

/** The answers held in this turn, as flat triples (continuation, payload, reply): holding one allocates nothing. */
let held: unknown[] = [];

function writeHeldAnswers(): void {
  // Swapped first: an answer held while these are written starts a batch of its own.
  const answers = held;
  held = [];
  for (let index = 0; index < answers.length; index += 3) {
    const reply = answers[index + 2] as FastifyReply;
    try {
      (answers[index] as SendContinuation)(null, answers[index + 1]);
    } catch (error) {
      // Written synchronously, the error would have reached the caller of reply.send; here
      // nobody is left to answer it, and the other answers of the batch must still go out.
      reply.log.error({ err: error }, 'writing a response failed');
      reply.raw.destroy();
    }
  }
}

/**
 * The books scope's onSend hook (RESPONSE_WRITE_BATCHING, on by default), callback style: every
 * answer of the scope, errors included, continues at the end of its event-loop turn with the
 * others of that turn.
 */
export const writeAtEndOfTurn: onSendHookHandler = function writeAtEndOfTurn(_request, reply, payload, done) {
  if (held.length === 0) setImmediate(writeHeldAnswers);
  held.push(done, payload, reply);
};
