import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import fastJson from 'fast-json-stringify';
import { BookPage, BookResponse } from '../../src/schemas/book.js';
import { bookJson, bookPageJson, oneOffBookPageJson } from '../../src/serialization/book-json.js';
import type { Book } from '../../src/store/book-store.js';

// What the routes wrote before the cache: Fastify's compiled serializer for the page schema.
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
      assert.deepEqual(bookPageJson(page), expected);
      // And the second time, from the cache, still the same bytes.
      assert.deepEqual(bookPageJson(page), expected);
      // A page made for one answer (search) is encoded the same way, without the cache.
      assert.deepEqual(oneOffBookPageJson({ ...page, items: [...page.items] }), expected);
    }),
    { seed: 20261123, numRuns: 500 },
  );
});

test('a book is the JSON of its fields, in schema order', () => {
  fc.assert(
    fc.property(anyBook, (book) => {
      const text = bookJson(book).toString('utf8');
      assert.deepEqual(Object.keys(JSON.parse(text) as object), ['id', 'title', 'author', 'year', 'created_at']);
      assert.equal(text, fastJson(BookResponse)(book));
    }),
    { seed: 20261123, numRuns: 300 },
  );
});

test('a changed book is a new object, so its bytes are new too', () => {
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
  assert.deepEqual(
    bookPageJson({ items: [], total: 0, skip: 0, limit: 20 }).toString(),
    '{"items":[],"total":0,"skip":0,"limit":20}',
  );
});

test('a page array seen before with another total, skip or limit gets its own bytes', () => {
  const items: Book[] = [
    {
      id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      title: 'Dune',
      author: 'F',
      year: 1965,
      created_at: '2026-11-23T10:00:00.000Z',
    },
  ];
  const base = { items, total: 1, skip: 0, limit: 20 };
  assert.equal(bookPageJson(base), bookPageJson({ ...base }), 'the same items and numbers: the cached bytes');
  for (const changed of [{ total: 2 }, { skip: 1 }, { limit: 21 }]) {
    const page = { ...base, ...changed };
    assert.deepEqual(bookPageJson(page), Buffer.from(serializePageAsFastifyDoes(page)));
  }
  assert.deepEqual(bookPageJson(base), Buffer.from(serializePageAsFastifyDoes(base)));
});
