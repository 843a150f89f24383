import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientAddressKey } from '../../src/auth/client-address-key.js';
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

test('an IPv6 client is counted by its /64 network', () => {
  const network = clientAddressKey('2001:db8:1:2::1');
  for (const address of ['2001:db8:1:2::2', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:DB8:1:2:0:0:0:9']) {
    assert.equal(clientAddressKey(address), network, address);
  }
  assert.notEqual(clientAddressKey('2001:db8:1:3::1'), network, 'the next /64 is another client');
  const key = (client: string) => throttleKeys({ username: 'alice', client });
  assert.deepEqual(key('2001:db8:1:2::1'), key('2001:db8:1:2:aaaa:bbbb:cccc:dddd'));
});

test('an IPv4-mapped IPv6 address is its IPv4 client, counted per address', () => {
  assert.equal(clientAddressKey('::ffff:192.0.2.1'), clientAddressKey('192.0.2.1'));
  assert.equal(clientAddressKey('::ffff:c000:201'), clientAddressKey('192.0.2.1'));
  assert.notEqual(clientAddressKey('::ffff:192.0.2.2'), clientAddressKey('::ffff:192.0.2.1'));
  assert.notEqual(clientAddressKey('192.0.2.2'), clientAddressKey('192.0.2.1'));
});

test('text that is not an address (from a trusted proxy) is counted as it is', () => {
  assert.equal(clientAddressKey('unknown'), 'unknown');
  assert.notEqual(clientAddressKey('unknown'), clientAddressKey('unknown2'));
});
