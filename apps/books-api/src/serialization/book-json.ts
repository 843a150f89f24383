import fastJson from 'fast-json-stringify';
import { BookResponse, type BookPage } from '../schemas/book.js';
import type { Book } from '../store/book-store.js';

/**
 * The books' JSON, kept as UTF-8 bytes per book object, so that a page of books is a copy of
 * bytes rather than a serialisation, a UTF-8 length scan and an encoding on every request
 * (about a fifth of the list route's CPU, see docs/performance.md).
 *
 * The bytes are those of fast-json-stringify, the serializer Fastify compiles for the
 * routes' response schemas, so a reply from here is byte for byte the one Fastify would
 * write (test/serialization/book-json.test.ts compares them on arbitrary text).
 *
 * Keys are object identities: a store hands out the same object until the book changes
 * (the memory store replaces the object on update; the PostgreSQL store reuses a recent
 * object only while its row reads the same), so an entry can never go stale, and entries
 * go with their objects.
 */
const serializeBook = fastJson(BookResponse);

const bytesByBook = new WeakMap<Book, Buffer>();
const COMMA = Buffer.from(',');
const PAGE_START = Buffer.from('{"items":[');

/** The book's JSON, encoded once per book object. */
export function bookJson(book: Book): Buffer {
  let bytes = bytesByBook.get(book);
  if (bytes === undefined) {
    bytes = Buffer.from(serializeBook(book));
    bytesByBook.set(book, bytes);
  }
  return bytes;
}

interface PageBytes {
  total: number;
  skip: number;
  limit: number;
  bytes: Buffer;
}

/**
 * Page JSON by the items array it was made from. A store hands out the same array again only
 * for a page unchanged since (the memory store's PageMemo), so a repeated read of a page is a
 * lookup; total, skip and limit are compared as well, since they are part of the bytes.
 */
const bytesByPage = new WeakMap<readonly Book[], PageBytes>();

/** A `BookPage` as JSON: `{"items":[...],"total":n,"skip":n,"limit":n}`. */
export function bookPageJson(page: BookPage): Buffer {
  const known = bytesByPage.get(page.items);
  if (known !== undefined && known.total === page.total && known.skip === page.skip && known.limit === page.limit) {
    return known.bytes;
  }
  const bytes = encodePage(page);
  bytesByPage.set(page.items, { total: page.total, skip: page.skip, limit: page.limit, bytes });
  return bytes;
}

/**
 * A page made for one answer (search results: a new items array every time), not remembered.
 * Remembering it would add an entry per request to the WeakMap above, where nothing ever looks
 * it up again, and a WeakMap's entries are ephemerons the garbage collector must trace: under
 * search load they brought frequent major collections, and long pauses with them.
 */
export function oneOffBookPageJson(page: BookPage): Buffer {
  return encodePage(page);
}

function encodePage(page: BookPage): Buffer {
  const parts: Buffer[] = [PAGE_START];
  let length = PAGE_START.length;
  page.items.forEach((book, index) => {
    if (index > 0) {
      parts.push(COMMA);
      length += COMMA.length;
    }
    const bytes = bookJson(book);
    parts.push(bytes);
    length += bytes.length;
  });
  const end = Buffer.from(`],"total":${page.total},"skip":${page.skip},"limit":${page.limit}}`);
  parts.push(end);
  return Buffer.concat(parts, length + end.length);
}
