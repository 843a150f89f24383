import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// The benchmarks' seeded PRNG: a failing sequence can be replayed from its seed.
import { createPrng as prng } from '../../bench/lib/book-generator.js';
import { MemoryBookStore } from '../../src/store/memory-book-store.js';
import type { Book } from '../../src/store/book-store.js';
import { searchFold } from '../../src/store/search-fold.js';

const WORDS = [
  'Clean',
  'Code',
  'the',
  'Garden',
  'gardener',
  'Ada',
  'Lovelace',
  'Straße',
  'café',
  'İz',
  '📚',
  'ωμέγα',
  'Ab',
];

function text(random: () => number): string {
  const n = 1 + Math.floor(random() * 3);
  return Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)] ?? 'x').join(' ');
}

/** What search must answer: a scan of the list, in its order. */
async function scan(
  store: MemoryBookStore,
  query: string,
  skip: number,
  limit: number,
): Promise<{ items: Book[]; total: number }> {
  const needle = searchFold(query);
  const all = (await store.list(0, Number.MAX_SAFE_INTEGER)).items.filter(
    (b) => searchFold(b.title).includes(needle) || searchFold(b.author).includes(needle),
  );
  return { items: all.slice(skip, skip + limit), total: all.length };
}

describe('MemoryBookStore search', () => {
  it('answers like a scan of the list through creates, updates, deletes and compactions', async () => {
    for (const seed of [11, 12, 13]) {
      const random = prng(seed);
      const store = new MemoryBookStore();
      const ids: string[] = [];
      for (let step = 0; step < 2000; step++) {
        const action = random();
        if (action < 0.4 || ids.length === 0) {
          ids.push((await store.create({ title: text(random), author: text(random), year: 2000 })).id);
        } else if (action < 0.55) {
          const id = ids[Math.floor(random() * ids.length)] ?? '';
          await store.update(id, random() < 0.5 ? { title: text(random) } : { author: text(random), year: 1999 });
        } else if (action < 0.8) {
          // Deletes outnumber creates in bursts, so the store compacts its slots now and then.
          const at = Math.floor(random() * ids.length);
          assert.equal(await store.delete(ids[at] ?? ''), true);
          ids.splice(at, 1);
        } else {
          const words = text(random).toLowerCase();
          const start = Math.floor(random() * words.length);
          const query = words.slice(start, start + 1 + Math.floor(random() * 7)) || 'a';
          const skip = Math.floor(random() * 5);
          assert.deepEqual(
            await store.search(query, skip, 10),
            await scan(store, query, skip, 10),
            `query ${JSON.stringify(query)}`,
          );
        }
      }
    }
  });
});
