import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
// The benchmarks' seeded PRNG: a failing sequence can be replayed from its seed.
import { createPrng } from '../../bench/lib/book-generator.js';
import { createSeededStore } from '../../src/plugins/app/book-store.js';
import type { Book, BookStore } from '../../src/store/book-store.js';
import { SEED_BOOKS } from '../../src/store/seed.js';
import { freshPostgresStore } from '../postgres.js';

/** Every BookStore must pass the same contract; each factory gives a store holding only the seeded books. */
const STORES: { name: string; open: (t: TestContext) => Promise<BookStore> }[] = [
  { name: 'MemoryBookStore', open: async () => createSeededStore() },
  { name: 'PostgresBookStore', open: (t) => freshPostgresStore(t) },
];

const titles = (slice: { readonly items: readonly Book[] }) => slice.items.map((book) => book.title);

/** Words that fold differently in JavaScript, in PostgreSQL's lower() and in full case folding. */
const WORDS = [
  'Clean',
  'the',
  'Straße',
  'STRASSE',
  'café',
  'İz',
  'ΣΊΣΥΦΟΣ',
  'σίσυφος',
  '📚',
  'ﬁne',
  'Ab',
  '100%',
  'a_b',
];

function randomText(random: () => number): string {
  const n = 1 + Math.floor(random() * 3);
  return Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)] ?? 'x').join(' ');
}

for (const { name, open } of STORES) {
  describe(name, () => {
    test('starts with the three seeded books in their order', async (t) => {
      const store = await open(t);
      const page = await store.list(0, 20);
      assert.deepEqual(
        page.items.map((book) => book.id),
        SEED_BOOKS.map((book) => book.id),
      );
      assert.equal(page.total, 3);
      assert.equal(await store.count(), 3);
    });

    test('lists pages in insertion order with an exact total across deletions', async (t) => {
      const store = await open(t);
      const expected = new Map<string, string>(SEED_BOOKS.map((book) => [book.id, book.title]));
      const created: string[] = [];
      for (let i = 0; i < 40; i++) {
        const book = await store.create({ title: `B${i}`, author: 'A', year: 2000 });
        created.push(book.id);
        expected.set(book.id, book.title);
      }
      for (const [step, id] of created.entries()) {
        if (step % 3 === 0) {
          assert.equal(await store.delete(id), true);
          expected.delete(id);
        }
      }
      assert.equal(await store.delete(created[0]!), false);
      const all = [...expected.values()];
      assert.equal(await store.count(), all.length);
      assert.deepEqual(titles(await store.list(0, 100)), all);
      for (const skip of [0, 1, 7, all.length - 2, all.length, all.length + 5]) {
        const page = await store.list(skip, 5);
        assert.deepEqual(titles(page), all.slice(skip, skip + 5), `skip=${skip}`);
        assert.equal(page.total, all.length);
      }
    });

    test('get, update and delete by id; PATCH changes only the fields sent', async (t) => {
      const store = await open(t);
      const book = await store.create({ title: 'Old', author: 'Someone', year: 2000 });
      assert.deepEqual(await store.get(book.id), book);
      assert.match(book.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.deepEqual(await store.update(book.id, { year: 2001 }), { ...book, year: 2001 });
      assert.deepEqual(await store.update(book.id, {}), { ...book, year: 2001 });
      const renamed = await store.update(book.id, { title: 'New', author: 'Other' });
      assert.deepEqual(renamed, { ...book, title: 'New', author: 'Other', year: 2001 });
      assert.deepEqual(titles(await store.search('new', 0, 10)), ['New']);
      assert.equal((await store.search('old', 0, 10)).total, 0);
      assert.equal(await store.update('00000000-0000-4000-8000-000000000000', { year: 2002 }), undefined);
      assert.equal(await store.get('00000000-0000-4000-8000-000000000000'), undefined);
      assert.equal(await store.delete(book.id), true);
      assert.equal(await store.get(book.id), undefined);
    });

    test('search matches a case-insensitive substring of the title or of the author, never across them', async (t) => {
      const store = await open(t);
      await store.create({ title: 'Straße der Ölsardinen', author: 'John Steinbeck', year: 1945 });
      await store.create({ title: 'Cuentos', author: 'Ab', year: 1950 });
      await store.create({ title: 'Percent 100% sure', author: 'x_y', year: 1960 });
      assert.deepEqual(titles(await store.search('STRASSE', 0, 10)), ['Straße der Ölsardinen']);
      assert.deepEqual(titles(await store.search('steinBECK', 0, 10)), ['Straße der Ölsardinen']);
      assert.equal((await store.search('cuentosab', 0, 10)).total, 0, 'title and author are never joined');
      assert.equal((await store.search('ntosAb', 0, 10)).total, 0);
      assert.deepEqual(titles(await store.search('0%', 0, 10)), ['Percent 100% sure'], '% is literal');
      assert.deepEqual(titles(await store.search('x_y', 0, 10)), ['Percent 100% sure'], '_ is literal');
      assert.equal((await store.search('x%y', 0, 10)).total, 0);
      const martin = await store.search('martin', 1, 1);
      assert.equal(martin.total, 2);
      assert.deepEqual(titles(martin), ['Designing Data-Intensive Applications']);
    });

    test('answers exactly like the memory store on random Unicode data', async (t) => {
      const store = await open(t);
      const reference = createSeededStore();
      const random = createPrng(20_261_123);
      const ids: string[] = [];
      for (let i = 0; i < 120; i++) {
        const input = { title: randomText(random), author: randomText(random), year: 1900 + i };
        const book = await store.create(input);
        reference.insert(book.id, input);
        ids.push(book.id);
        if (i % 7 === 3) {
          const victim = ids.splice(Math.floor(random() * ids.length), 1)[0]!;
          assert.equal(await store.delete(victim), await reference.delete(victim));
        }
        if (i % 11 === 5) {
          const target = ids[Math.floor(random() * ids.length)]!;
          const changes = { title: randomText(random) };
          assert.equal((await store.update(target, changes))?.title, (await reference.update(target, changes))?.title);
        }
      }
      const queries = [...WORDS, 'a', 'ss', 'i̇', 'σ', 'ς', 'fi', 'e s', 'ﬁ', 'xyz', '%', '_', 'Σ'];
      for (const query of queries) {
        for (const [skip, limit] of [
          [0, 100],
          [3, 4],
        ] as const) {
          const expected = await reference.search(query, skip, limit);
          const actual = await store.search(query, skip, limit);
          assert.equal(actual.total, expected.total, `total of "${query}"`);
          assert.deepEqual(
            actual.items.map((book) => book.id),
            expected.items.map((book) => book.id),
            `page of "${query}" at ${skip}`,
          );
        }
      }
      assert.deepEqual(
        (await store.list(0, 200)).items.map((book) => book.id),
        (await reference.list(0, 200)).items.map((book) => book.id),
      );
    });

    test('randomBook returns a current book, and nothing from an empty store', async (t) => {
      const store = await open(t);
      const seen = new Set<string>();
      for (let i = 0; i < 20; i++) seen.add((await store.randomBook())!.id);
      for (const id of seen) assert.ok(SEED_BOOKS.some((book) => book.id === id));
      for (const book of SEED_BOOKS) await store.delete(book.id);
      assert.equal(await store.randomBook(), undefined);
      assert.deepEqual(await store.list(0, 10), { items: [], total: 0 });
    });
  });
}
