import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// The benchmarks' seeded PRNG: a failing sequence can be replayed from its seed.
import { createPrng as prng } from '../../bench/lib/book-generator.js';
import { SearchIndex } from '../../src/store/search-index.js';
import { searchFold } from '../../src/store/search-fold.js';

const WORDS = [
  'the',
  'garden',
  'of',
  'gardens',
  'river',
  'rivers',
  'ada',
  'adam',
  'lovelace',
  'code',
  'clean',
  'Straße',
  'STRASSE',
  'İstanbul',
  'ß',
  'café',
  'CAFÉ',
  'naïve',
  'Ωmega',
  'ωmega',
  'Дом',
  'дом',
  '東京',
  '東京都',
  '📚',
  '📚📚',
  '👩‍💻',
  'e\u0301',
  'x',
  'xx',
  'xxx',
  'a-b',
  '  ',
  'the the',
];

function pickFrom<T>(random: () => number, list: readonly T[]): T {
  const item = list[Math.floor(random() * list.length)];
  assert.ok(item !== undefined);
  return item;
}

function phrase(random: () => number): string {
  const words: string[] = [];
  const n = 1 + Math.floor(random() * 4);
  for (let i = 0; i < n; i++) words.push(pickFrom(random, WORDS));
  return words.join(random() < 0.8 ? ' ' : '');
}

interface Text {
  title: string;
  author: string;
}

/** A stand-in for the store: insertion-ordered slots, tombstones, occasional renumbering. */
class FakeStore {
  slots: (Text | undefined)[] = [];
  readonly index = new SearchIndex();

  add(title: string, author: string): void {
    this.slots.push({ title, author });
    this.index.add(this.slots.length - 1, title, author);
  }

  update(slot: number, title: string | undefined, author: string | undefined): void {
    const before = this.slots[slot];
    assert.ok(before);
    const after = { title: title ?? before.title, author: author ?? before.author };
    this.slots[slot] = after;
    this.index.update(slot, after.title, after.author);
  }

  delete(slot: number): void {
    assert.ok(this.slots[slot]);
    this.slots[slot] = undefined;
    this.index.remove(slot);
  }

  /** Drops tombstones and renumbers, as the store does; the index is rebuilt. */
  compact(): void {
    this.slots = this.slots.filter((s) => s !== undefined);
    this.index.clear();
    this.slots.forEach((text, slot) => text && this.index.add(slot, text.title, text.author));
  }

  liveSlots(): number[] {
    return this.slots.flatMap((s, i) => (s === undefined ? [] : [i]));
  }

  /** The specification's rule, literally: a case-insensitive substring of the title or the author. */
  naive(query: string, skip: number, limit: number): { slots: number[]; total: number } {
    const needle = searchFold(query);
    const matches = this.liveSlots().filter((i) => {
      const s = this.slots[i];
      return s !== undefined && (searchFold(s.title).includes(needle) || searchFold(s.author).includes(needle));
    });
    return { slots: matches.slice(skip, skip + limit), total: matches.length };
  }
}

function queryFor(random: () => number, store: FakeStore): string {
  const live = store.liveSlots();
  if (live.length > 0 && random() < 0.7) {
    // A substring of a real title or author, often matching several books.
    const text = store.slots[pickFrom(random, live)];
    assert.ok(text);
    const source = random() < 0.5 ? text.title : text.author;
    const start = Math.floor(random() * source.length);
    const length = 1 + Math.floor(random() * 8);
    const sub = source.slice(start, start + length);
    if (sub.length > 0) return random() < 0.3 ? sub.toUpperCase() : sub;
  }
  return phrase(random).slice(0, 1 + Math.floor(random() * 10));
}

function assertSameAsScan(store: FakeStore, query: string, skip: number, limit: number): void {
  const expected = store.naive(query, skip, limit);
  const actual = store.index.search(query, skip, limit);
  assert.deepEqual(actual, expected, `query ${JSON.stringify(query)} skip ${skip} limit ${limit}`);
}

describe('SearchIndex', () => {
  it('finds what the naive scan finds through random creates, updates, deletes and renumbering', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const random = prng(seed);
      const store = new FakeStore();
      for (let step = 0; step < 1500; step++) {
        const live = store.liveSlots();
        const action = random();
        if (action < 0.45 || live.length === 0) {
          store.add(phrase(random), phrase(random));
        } else if (action < 0.65) {
          const change = random();
          store.update(
            pickFrom(random, live),
            change < 0.7 ? phrase(random) : undefined,
            change > 0.4 ? phrase(random) : undefined,
          );
        } else if (action < 0.8) {
          store.delete(pickFrom(random, live));
        } else if (action < 0.805) {
          store.compact();
        } else {
          const skip = random() < 0.5 ? 0 : Math.floor(random() * 30);
          assertSameAsScan(store, queryFor(random, store), skip, 1 + Math.floor(random() * 20));
        }
      }
    }
  });

  it('keeps results in insertion order and counts every match beyond the page', () => {
    const store = new FakeStore();
    for (let i = 0; i < 500; i++) store.add(`Book ${i} of the Garden`, i % 2 === 0 ? 'Ada Lovelace' : 'Grace Hopper');
    const page = store.index.search('lovelace', 10, 5);
    assert.deepEqual(page, { slots: [20, 22, 24, 26, 28], total: 250 });
    assert.deepEqual(store.index.search('the', 495, 20), { slots: [495, 496, 497, 498, 499], total: 500 });
  });

  it('stops reporting a book once an update removes the matching text, and finds it by its new text', () => {
    const store = new FakeStore();
    store.add('Clean Code', 'Robert C. Martin');
    store.add('Clean Architecture', 'Robert C. Martin');
    store.update(0, 'Dirty Code', undefined);
    assert.deepEqual(store.index.search('clean', 0, 10), { slots: [1], total: 1 });
    assert.deepEqual(store.index.search('dirty', 0, 10), { slots: [0], total: 1 });
    store.update(0, 'Clean Code', undefined);
    assert.deepEqual(store.index.search('clean', 0, 10), { slots: [0, 1], total: 2 });
    assert.deepEqual(store.index.search('cle', 0, 10), { slots: [0, 1], total: 2 });
  });

  it('forgets deleted books, also in the exact count of a three-character query', () => {
    const store = new FakeStore();
    for (let i = 0; i < 100; i++) store.add('The Garden', `Author ${i}`);
    for (let i = 0; i < 100; i += 3) store.delete(i);
    const expected = store.naive('gar', 0, 100);
    assert.deepEqual(store.index.search('gar', 0, 100), expected);
    assert.equal(expected.total, 66);
  });

  it('counts a book once for a trigram its title and author repeat, also after a renumbering', () => {
    const store = new FakeStore();
    for (let i = 0; i < 40; i++) store.add(i % 4 === 0 ? 'aaaa aaaa' : 'The Garden', i % 2 === 0 ? 'Aaa Aaaaa' : 'Bob');
    store.update(1, 'aaaaaa', undefined);
    store.delete(4);
    for (const query of ['aaa', 'aaaa', 'a a', 'gar']) assertSameAsScan(store, query, 0, 40);
    assert.equal(store.index.search('aaa', 0, 1).total, 20);
    store.compact();
    for (const query of ['aaa', 'aaaa', 'a a', 'gar']) assertSameAsScan(store, query, 0, 40);
    store.add('aaa', 'aaa');
    assert.equal(store.index.search('aaa', 0, 1).total, 21);
  });

  it('keeps exact counts when many older books gain a trigram while others lost it', () => {
    const store = new FakeStore();
    for (let i = 0; i < 200; i++) store.add(i % 2 === 0 ? 'The Garden' : 'The Other', `Author ${i}`);
    for (let i = 0; i < 20; i += 2) store.delete(i);
    for (let i = 1; i < 140; i += 2) store.update(i, 'A Garden Again', undefined);
    for (const query of ['gar', 'garden', 'the', 'oth', 'again']) {
      for (const skip of [0, 50, 120]) assertSameAsScan(store, query, skip, 20);
    }
    assert.equal(store.index.search('gar', 0, 1)?.total, 160);
  });

  it('matches case-insensitively across scripts, emoji and characters whose lower case is longer', () => {
    const store = new FakeStore();
    store.add('İstanbul Nights', 'Orhan');
    store.add('Die STRASSE', 'Müller');
    store.add('Reading 📚📚 in Tokyo 東京都', 'ΩMEGA Press');
    store.add('Café Society', 'Zoë');
    for (const query of ['i̇stanbul', 'İSTANBUL', 'strasse', 'ÜLLER', '📚📚', '東京都', 'ωmega', 'CAFÉ', 'zoë', 'ZOË']) {
      assertSameAsScan(store, query, 0, 10);
    }
    assert.equal(store.index.search('📚📚', 0, 10)?.total, 1);
    assert.equal(store.index.search('ωmega', 0, 10)?.total, 1);
  });

  it('answers queries shorter than a trigram by scanning, with the same rules', () => {
    const store = new FakeStore();
    store.add('Go', 'Rob Pike');
    store.add('Clean Code', 'Robert C. Martin');
    store.add('Reading 📚', 'O');
    assert.deepEqual(store.index.search('GO', 0, 10), { slots: [0], total: 1 });
    assert.deepEqual(store.index.search('o', 1, 10), { slots: [1, 2], total: 3 });
    assert.deepEqual(store.index.search('📚', 0, 10), { slots: [2], total: 1 });
    // "go" + "rob pike" would read "gorob pike": a match must lie within one of them.
    assert.deepEqual(store.index.search('or', 0, 10), { slots: [], total: 0 });
  });

  it('never matches across the end of the title and the start of the author', () => {
    const store = new FakeStore();
    store.add('Clean Code', 'Robert C. Martin');
    assert.deepEqual(store.index.search('coderobert', 0, 10), { slots: [], total: 0 });
    assert.deepEqual(store.index.search('der', 0, 10), { slots: [], total: 0 });
    assert.deepEqual(store.index.search('ode', 0, 10), { slots: [0], total: 1 });
  });

  it('answers an empty page and a zero total when a trigram of the query appears nowhere', () => {
    const store = new FakeStore();
    store.add('Clean Code', 'Robert C. Martin');
    assert.deepEqual(store.index.search('cleanx', 0, 10), { slots: [], total: 0 });
    assert.deepEqual(store.index.search('zzz', 0, 10), { slots: [], total: 0 });
  });
});
