import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshPostgresStore } from '../../postgres.js';

// create() answers the book from what it sent instead of reading the row back: the answer must be
// what every later read of the same book gives.
test('a create answers exactly what a later get reads: text, year and created_at to the millisecond', async (t) => {
  const store = await freshPostgresStore(t);
  const inputs = [
    { title: 'Plain', author: 'Author', year: 2024 },
    { title: 'Straße café 📚 ﬁne', author: 'ΣΊΣΥΦΟΣ İz', year: -42 },
    { title: 'lone \ud800 high, lone \udc00 low, pair \ud83d\udcda', author: 'ends high \ud83d', year: 0 },
    { title: ' spaces  kept ', author: 'tab\tand\nnewline', year: 2_147_483_647 },
  ];
  for (const input of inputs) {
    const created = await store.create(input);
    assert.deepEqual(await store.get(created.id), created);
    assert.match(created.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  }
  const lone = (await store.list(5, 1)).items[0];
  assert.equal(lone?.title, 'lone \ufffd high, lone \ufffd low, pair \ud83d\udcda');
  assert.equal(lone?.author, 'ends high \ufffd');
});
