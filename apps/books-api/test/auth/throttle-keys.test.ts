import assert from 'node:assert/strict';
import { test } from 'node:test';
import { throttleKeys } from '../../src/auth/login-throttle.js';

test('throttle keys are the same size whatever the length of the user name, and hold none of it', () => {
  const short = throttleKeys({ username: 'a', client: '192.0.2.1' });
  const name = `${'N'.repeat(1000)}\u0001`.repeat(16);
  const long = throttleKeys({ username: name, client: '192.0.2.1' });
  for (const counter of ['pair', 'client', 'user'] as const) {
    assert.equal(long[counter].length, short[counter].length, counter);
    assert.ok(long[counter].length <= 64, `${counter} key ${long[counter]}`);
    assert.doesNotMatch(long[counter], /NNNN/);
  }
  assert.equal(long.client, short.client, 'the client key does not depend on the user name');
});

test('different user names and clients never share a key, however they are spelled', () => {
  const attempts = [
    { username: 'a b', client: '192.0.2.1' },
    { username: 'a', client: '192.0.2.1 b' },
    { username: 'a\u0000 b', client: '192.0.2.1' },
    { username: '"a"', client: '192.0.2.1' },
    { username: 'a', client: '192.0.2.2' },
  ];
  for (const counter of ['pair', 'user'] as const) {
    const keys = new Set(attempts.map((attempt) => throttleKeys(attempt)[counter]));
    assert.equal(keys.size, counter === 'user' ? 4 : attempts.length, counter);
  }
});
