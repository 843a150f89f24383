import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import fastJson from 'fast-json-stringify';
import { BookPage, BookResponse } from '../../src/schemas/book.js';
import { bookJson, bookPageBytes } from '../../src/serialization/book-json.js';
import { sharedPage, type Book } from '../../src/store/book-store.js';
import { MemoryBookStore } from '../../src/store/memory-book-store.js';

// What Fastify's own serializer compiler would write for the page schema.
const serializePageAsFastifyDoes = fastJson(BookPage, { schema: { BookResponse } });

// Any UTF-16 text, lone surrogates, quotes, backslashes and control characters included.
const anyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u2028', 'ß', 'İ', '🙂'),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
    fc.string({ unit: 'binary', maxLength: 1 }),
  ),
  maxLength: 40,
});
const anyBook: fc.Arbitrary<Book> = fc.record({
  id: fc.uuid(),
  title: anyText,
  author: anyText,
  year: fc.integer({ min: 1900, max: 2100 }),
  created_at: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
});
const anyPage = fc.record({
  items: fc.array(anyBook, { maxLength: 25 }),
  total: fc.nat(),
  skip: fc.nat(),
  limit: fc.integer({ min: 1, max: 100 }),
});

test('a page is byte for byte what the page schema serializer writes, on any text', () => {
  fc.assert(
    fc.property(anyPage, (page) => {
      const expected = Buffer.from(serializePageAsFastifyDoes(page));
      // A page made for one answer (search), encoded each time.
      assert.deepEqual(bookPageBytes(page), expected);
      // A shared page, the first time and then from what was remembered.
      const shared = {
        ...sharedPage({ items: [...page.items], total: page.total }),
        skip: page.skip,
        limit: page.limit,
      };
      assert.deepEqual(bookPageBytes(shared), expected);
      assert.deepEqual(bookPageBytes(shared), expected);
    }),
    { seed: 20261123, numRuns: 500 },
  );
});

test('a book is the JSON of its fields, in schema order', () => {
  fc.assert(
    fc.property(anyBook, (book) => {
      const text = bookJson(book);
      assert.deepEqual(Object.keys(JSON.parse(text) as object), ['id', 'title', 'author', 'year', 'created_at']);
      assert.equal(text, fastJson(BookResponse)(book));
    }),
    { seed: 20261123, numRuns: 300 },
  );
});

test('a changed book is a new object, so its JSON is new too', () => {
  const book: Book = {
    id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    title: 'Dune',
    author: 'Frank Herbert',
    year: 1965,
    created_at: '2026-11-23T10:00:00.000Z',
  };
  const before = bookJson(book).toString();
  const changed = { ...book, title: 'Dune Messiah' };
  assert.match(bookJson(changed).toString(), /"title":"Dune Messiah"/);
  assert.equal(bookJson(book).toString(), before);
  assert.equal(
    bookPageBytes({ items: [], total: 0, skip: 0, limit: 20 }).toString(),
    '{"items":[],"total":0,"skip":0,"limit":20}',
  );
});

test('a shared page seen before with another total, skip or limit gets its own JSON', () => {
  const items: readonly Book[] = Object.freeze([
    {
      id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      title: 'Dune',
      author: 'F',
      year: 1965,
      created_at: '2026-11-23T10:00:00.000Z',
    },
  ]);
  const base = { items, total: 1, skip: 0, limit: 20 };
  assert.equal(bookPageBytes(base), bookPageBytes({ ...base }), 'the same page is not the same bytes');
  for (const changed of [{ total: 2 }, { skip: 1 }, { limit: 21 }]) {
    const page = { ...base, ...changed };
    assert.equal(bookPageBytes(page).toString(), serializePageAsFastifyDoes(page));
  }
  assert.equal(bookPageBytes(base).toString(), serializePageAsFastifyDoes(base));
});

/** A book that counts how often its fields are read. */
function watchedBook(reads: { count: number }): Book {
  const fields = {
    id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    title: 'Dune',
    author: 'Frank Herbert',
    year: 1965,
    created_at: '2026-11-23T10:00:00.000Z',
  };
  return new Proxy(fields, {
    get(target, name, receiver) {
      reads.count += 1;
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
}

test("a shared page's bytes are remembered: read again, none of its books is looked at", () => {
  const reads = { count: 0 };
  const page = { ...sharedPage({ items: [watchedBook(reads)], total: 1 }), skip: 0, limit: 20 };
  const first = bookPageBytes(page);
  assert.ok(reads.count > 0);
  reads.count = 0;
  assert.equal(bookPageBytes({ ...page }), first);
  assert.equal(reads.count, 0, 'the remembered JSON was not used');
});

test("a book's JSON is remembered: written again, the book is not read", () => {
  const reads = { count: 0 };
  const book = watchedBook(reads);
  const first = bookJson(book);
  reads.count = 0;
  assert.equal(bookJson(book), first);
  assert.equal(reads.count, 0);
});

test('the memory store hands out an unchanged page again as the same shared page', async () => {
  const store = new MemoryBookStore();
  await store.create({ title: 'Dune', author: 'Frank Herbert', year: 1965 });
  const page = await store.list(0, 20);
  assert.ok(Object.isFrozen(page.items), 'a listed page is not marked shared, so its JSON is never remembered');
  assert.equal(await store.list(0, 20), page);
  assert.equal(Object.isFrozen((await store.search('dune', 0, 20)).items), false);
});
