import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pickTrafficRequest, SEARCH_TERMS } from '../../src/traffic/request-mix.js';
import { selfBaseUrl } from '../../src/traffic/self-url.js';

/** A deterministic generator of numbers in [0, 1), so the test covers the mix without flakiness. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function kindOf(path: string): string {
  return new URL(path, 'http://x').pathname;
}

describe('traffic request mix', () => {
  test('covers every read-only route of the contract and nothing else', () => {
    const random = seeded(42);
    const seen = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const request = pickTrafficRequest(random);
      seen.add(`${request.method} ${kindOf(request.path)}`);
    }
    assert.deepEqual([...seen].sort(), [
      'GET /',
      'GET /api/ps',
      'GET /api/redirect',
      'GET /api/v1/books',
      'GET /api/v1/books/search',
      'HEAD /api/status',
    ]);
  });

  test('list and search use valid pagination and a search term from the fixed list', () => {
    const random = seeded(7);
    for (let i = 0; i < 600; i++) {
      const { path } = pickTrafficRequest(random);
      const url = new URL(path, 'http://x');
      if (!url.pathname.startsWith('/api/v1/books')) continue;
      const limit = Number(url.searchParams.get('limit'));
      assert.ok(Number.isInteger(limit) && limit >= 1 && limit <= 100, `limit ${limit}`);
      const skip = url.searchParams.get('skip');
      if (skip !== null) assert.ok(Number(skip) >= 0, `skip ${skip}`);
      if (url.pathname.endsWith('/search')) assert.ok(SEARCH_TERMS.includes(url.searchParams.get('q') ?? ''));
    }
  });

  test('the extreme random values still give a request', () => {
    assert.equal(pickTrafficRequest(() => 0).path, '/');
    assert.equal(pickTrafficRequest(() => 0.9999999).path, '/api/redirect');
  });
});

describe('self address of the traffic generator', () => {
  test('a wildcard IPv4 listen address targets IPv4 loopback', () => {
    assert.equal(selfBaseUrl({ address: '0.0.0.0', family: 'IPv4', port: 8000 }), 'http://127.0.0.1:8000');
  });

  test('a wildcard IPv6 listen address targets IPv6 loopback in brackets', () => {
    assert.equal(selfBaseUrl({ address: '::', family: 'IPv6', port: 8000 }), 'http://[::1]:8000');
  });

  test('a specific address is used as it is', () => {
    assert.equal(selfBaseUrl({ address: '10.1.2.3', family: 'IPv4', port: 80 }), 'http://10.1.2.3:80');
    assert.equal(selfBaseUrl({ address: 'fe80::1', family: 'IPv6', port: 80 }), 'http://[fe80::1]:80');
  });

  test('a pipe or a closed server has no HTTP origin', () => {
    assert.equal(selfBaseUrl('/tmp/books.sock'), undefined);
    assert.equal(selfBaseUrl(null), undefined);
  });
});
