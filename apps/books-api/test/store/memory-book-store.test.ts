import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FenwickTree } from '../../src/store/fenwick-tree.js';
import { MemoryBookStore } from '../../src/store/memory-book-store.js';

const titles = (slice: { readonly items: readonly { title: string }[] }) => slice.items.map((book) => book.title);

test('FenwickTree finds the k-th live slot as slots are appended and cleared', async () => {
  const tree = new FenwickTree();
  const alive: boolean[] = [];
  for (let i = 0; i < 300; i += 1) {
    tree.push(1);
    alive.push(true);
    if (i % 3 === 0) {
      tree.add(i, -1);
      alive[i] = false;
    }
    const liveSlots = alive.flatMap((isAlive, slot) => (isAlive ? [slot] : []));
    for (const k of [0, Math.floor(liveSlots.length / 2), liveSlots.length - 1]) {
      if (k >= 0 && k < liveSlots.length) assert.equal(tree.findKth(k), liveSlots[k], `i=${i} k=${k}`);
    }
    assert.equal(tree.findKth(liveSlots.length), -1);
    assert.equal(tree.prefixSum(i + 1), liveSlots.length);
  }
});

test('MemoryBookStore lists pages in insertion order across deletions and compactions', async () => {
  const store = new MemoryBookStore();
  const ids: string[] = [];
  for (let i = 0; i < 64; i += 1) ids.push((await store.create({ title: `B${i}`, author: 'A', year: 2000 })).id);
  const expected = new Map(ids.map((id, i) => [id, `B${i}`]));
  // Delete enough to trigger compactions, from both ends and the middle.
  for (const [step, id] of ids.entries()) {
    if (step % 4 !== 1) {
      assert.equal(await store.delete(id), true);
      expected.delete(id);
      const all = [...expected.values()];
      assert.equal(await store.count(), all.length);
      assert.deepEqual(titles(await store.list(0, 100)), all);
      assert.deepEqual(titles(await store.list(3, 5)), all.slice(3, 8));
    }
  }
  assert.equal(await store.delete(ids[0]!), false);
  await store.create({ title: 'Last', author: 'A', year: 2000 });
  assert.deepEqual(titles(await store.list(0, 100)), [...expected.values(), 'Last']);
  // Get and update still find books after compaction moved them.
  const survivor = ids[1]!;
  assert.equal((await store.get(survivor))?.title, 'B1');
  assert.equal((await store.update(survivor, { title: 'B1 renamed' }))?.title, 'B1 renamed');
  assert.equal((await store.list(0, 1)).items[0]?.title, 'B1 renamed');
});

test('MemoryBookStore.update returns a new object and leaves earlier ones untouched', async () => {
  const store = new MemoryBookStore();
  const book = await store.create({ title: 'Old', author: 'A', year: 2000 });
  const updated = await store.update(book.id, { year: 2001 });
  assert.equal(book.year, 2000);
  assert.deepEqual(updated, { ...book, year: 2001 });
  assert.equal(await store.update('missing', {}), undefined);
});

test('MemoryBookStore.search is a case-folded substring match over title and author', async () => {
  const store = new MemoryBookStore();
  await store.create({ title: 'Straße', author: 'Ünal', year: 2000 });
  await store.create({ title: 'Other', author: 'UNAL Jr', year: 2000 });
  assert.deepEqual(titles(await store.search('ünal', 0, 10)), ['Straße']);
  assert.deepEqual(titles(await store.search('unal', 0, 10)), ['Other']);
  assert.deepEqual(titles(await store.search('STRASSE', 0, 10)), ['Straße']);
  assert.equal((await store.search('a', 1, 10)).total, 2);
});

test('MemoryBookStore.randomBook picks among live books only', async () => {
  const store = new MemoryBookStore({ random: () => 0.99 });
  assert.equal(await store.randomBook(), undefined);
  const first = await store.create({ title: 'First', author: 'A', year: 2000 });
  const second = await store.create({ title: 'Second', author: 'A', year: 2000 });
  assert.equal((await store.randomBook())?.id, second.id);
  await store.delete(second.id);
  assert.equal((await store.randomBook())?.id, first.id);
});

test('MemoryBookStore answers an unchanged page with the same object, and any write changes it', async () => {
  const store = new MemoryBookStore();
  const first = await store.create({ title: 'One', author: 'A', year: 2000 });
  const page = await store.list(0, 20);
  assert.equal(await store.list(0, 20), page, 'the same page again is the same Slice');
  assert.notEqual(await store.list(0, 19), page, 'another limit is another page');

  const second = await store.create({ title: 'Two', author: 'A', year: 2001 });
  const afterCreate = await store.list(0, 20);
  assert.deepEqual(titles(afterCreate), ['One', 'Two']);
  assert.equal(afterCreate.total, 2);
  assert.deepEqual(titles(page), ['One'], 'a page handed out earlier is never changed');

  await store.update(first.id, { title: 'One, renamed' });
  assert.deepEqual(titles(await store.list(0, 20)), ['One, renamed', 'Two']);
  // An update of a book that does not exist changes nothing and keeps the page.
  const unchanged = await store.list(0, 20);
  await store.update('missing', { title: 'x' });
  await store.delete('missing');
  assert.equal(await store.list(0, 20), unchanged);

  await store.delete(second.id);
  assert.deepEqual(titles(await store.list(0, 20)), ['One, renamed']);
  assert.equal((await store.list(0, 20)).total, 1);
});

test('MemoryBookStore keeps answering correctly past the number of pages it remembers', async () => {
  const store = new MemoryBookStore();
  for (let i = 0; i < 40; i += 1) await store.create({ title: `B${i}`, author: 'A', year: 2000 });
  const all = titles(await store.list(0, 100));
  for (let round = 0; round < 2; round += 1) {
    for (let skip = 0; skip < 40; skip += 1) {
      for (let limit = 1; limit <= 10; limit += 1) {
        assert.deepEqual(
          titles(await store.list(skip, limit)),
          all.slice(skip, skip + limit),
          `skip=${skip} limit=${limit}`,
        );
      }
    }
  }
});
