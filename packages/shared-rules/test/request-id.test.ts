import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAcceptableRequestId, requestIdFrom } from '../src/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('an incoming id of 1 to 128 visible ASCII characters is kept as it is', () => {
  for (const id of ['a', 'req-0001', '!~', 'x'.repeat(128), 'traffic-3f1c', '{"json":1}']) {
    assert.equal(isAcceptableRequestId(id), true, id);
    assert.equal(requestIdFrom(id), id);
  }
});

test('an empty, too long, spaced, non-ASCII or control-character id is replaced by a new UUID', () => {
  for (const id of ['', 'x'.repeat(129), 'two words', 'caf\u00e9', 'line\nbreak', 'tab\there', '\u0000', '\u007f']) {
    assert.equal(isAcceptableRequestId(id), false, JSON.stringify(id));
    assert.match(requestIdFrom(id), UUID);
  }
});

test('a missing id, and a header sent twice, get a new UUID each time', () => {
  const made = [requestIdFrom(undefined), requestIdFrom(null), requestIdFrom(['a', 'b'])];
  for (const id of made) assert.match(id, UUID);
  assert.equal(new Set(made).size, made.length, 'each is new');
});
