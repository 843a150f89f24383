import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { ShardedMap } from '../../src/store/sharded-map.js';

describe('ShardedMap', () => {
  it('answers like a Map for UUIDs, upper-case hex, short and empty keys and other text', () => {
    const sharded = new ShardedMap<number>();
    const plain = new Map<string, number>();
    const keys = [
      ...Array.from({ length: 3000 }, () => randomUUID()),
      ...Array.from({ length: 50 }, () => randomUUID().toUpperCase()),
      '',
      'a',
      'zz',
      '東京',
      '📚',
      '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    ];
    keys.forEach((key, index) => {
      sharded.set(key, index);
      plain.set(key, index);
    });
    // Overwrites do not count twice; deletes of absent keys change nothing.
    for (const key of keys.slice(0, 100)) {
      sharded.set(key, -1);
      plain.set(key, -1);
    }
    for (const key of keys.filter((_key, index) => index % 3 === 0)) {
      assert.equal(sharded.delete(key), plain.delete(key));
    }
    assert.equal(sharded.delete('not a key'), false);
    assert.equal(sharded.size, plain.size);
    for (const key of [...keys, 'not a key']) {
      assert.equal(sharded.get(key), plain.get(key), key);
      assert.equal(sharded.has(key), plain.has(key), key);
    }
  });
});
