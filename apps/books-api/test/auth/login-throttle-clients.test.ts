// The login throttle as clients at different addresses see it, over a listening server: the
// client sockets are bound to 127.0.0.2 and 127.0.0.3 (Linux routes all of 127/8 to loopback),
// and behind a trusted proxy the address comes from X-Forwarded-For. Each runs on both
// throttles: in memory, and in PostgreSQL (DATABASE_URL set, so the server uses its own).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { buildApp } from '../../src/app.js';
import { defaultConfig, type Config } from '../../src/config.js';
import type { TrustedProxies } from '../../src/trust-proxy.js';
import { freshDatabase, silentLogger } from '../postgres.js';
import { READER, hs256Config, loginForm } from './fixtures.js';

const ATTACKER = '127.0.0.2';
const VICTIM = '127.0.0.3';

const throttle = {
  maxFailuresPerUsername: 3,
  maxFailuresPerClient: 6,
  maxFailuresPerUsernameAllClients: 10,
  windowSeconds: 120,
};

const STORES = ['memory', 'postgres'] as const;

/** The API listening on 127.0.0.1 with the throttle above, on the given store; closed when the test ends. */
async function listening(
  t: TestContext,
  store: (typeof STORES)[number],
  trustProxy: TrustedProxies = { kind: 'none' },
) {
  const overrides: Partial<Config> = {
    ...(await hs256Config(undefined, { loginThrottle: throttle })),
    trustProxy,
    ...(store === 'postgres' ? { database: await freshDatabase(t) } : {}),
  };
  const app = await buildApp({ config: defaultConfig(overrides), logger: silentLogger });
  t.after(() => app.close());
  await app.postgres?.ready;
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

/** POST /token from a socket bound to `from`; the status of the answer. */
function loginFrom(
  port: number,
  from: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<number> {
  const body = loginForm(fields);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method: 'POST',
        path: '/token',
        agent: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const wrong = (attempt: number) => ({ username: READER.username, password: `guess-${attempt}` });
const right = { username: READER.username, password: READER.password };

for (const store of STORES) {
  test(`${store}: an attacker at one address cannot lock a user out at another`, async (t) => {
    const port = await listening(t, store);
    for (let attempt = 1; attempt <= throttle.maxFailuresPerUsername; attempt += 1) {
      assert.equal(await loginFrom(port, ATTACKER, wrong(attempt)), 401);
    }
    assert.equal(await loginFrom(port, ATTACKER, wrong(99)), 429);
    assert.equal(await loginFrom(port, ATTACKER, right), 429, 'the attacker is stopped, even with the password');
    assert.equal(await loginFrom(port, VICTIM, right), 200, 'the user logs in from another address');
    assert.equal(await loginFrom(port, VICTIM, wrong(100)), 401, 'and has their own failures left');
  });

  test(`${store}: an address that used up its failures over many user names does not stop another address`, async (t) => {
    const port = await listening(t, store);
    for (let attempt = 1; attempt <= throttle.maxFailuresPerClient; attempt += 1) {
      assert.equal(await loginFrom(port, ATTACKER, { username: `user-${attempt}`, password: 'guess' }), 401);
    }
    assert.equal(await loginFrom(port, ATTACKER, right), 429);
    assert.equal(await loginFrom(port, VICTIM, right), 200);
  });

  test(`${store}: without TRUST_PROXY, X-Forwarded-For does not change the address a client is counted under`, async (t) => {
    const port = await listening(t, store);
    for (let attempt = 1; attempt <= throttle.maxFailuresPerUsername; attempt += 1) {
      const forwarded = { 'x-forwarded-for': `203.0.113.${attempt}` };
      assert.equal(await loginFrom(port, ATTACKER, wrong(attempt), forwarded), 401);
    }
    assert.equal(await loginFrom(port, ATTACKER, right, { 'x-forwarded-for': '203.0.113.200' }), 429);
  });

  test(`${store}: behind a trusted proxy (TRUST_PROXY addresses), X-Forwarded-For names the client`, async (t) => {
    // The proxy is 127.0.0.2; 127.0.0.3 reaches the API directly and is not trusted.
    const port = await listening(t, store, { kind: 'addresses', addresses: [ATTACKER, '10.0.0.0/8'] });
    for (let attempt = 1; attempt <= throttle.maxFailuresPerUsername; attempt += 1) {
      assert.equal(await loginFrom(port, ATTACKER, wrong(attempt), { 'x-forwarded-for': '203.0.113.7' }), 401);
    }
    assert.equal(await loginFrom(port, ATTACKER, right, { 'x-forwarded-for': '203.0.113.7' }), 429);
    // Another client behind the same proxy is counted on its own.
    assert.equal(await loginFrom(port, ATTACKER, right, { 'x-forwarded-for': '203.0.113.8' }), 200);
    // A client that claims an address the proxy appended after its own forged entry is counted
    // under the address the proxy saw (the rightmost untrusted one).
    assert.equal(
      await loginFrom(port, ATTACKER, right, { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' }),
      429,
      'a forged leftmost entry does not escape the count',
    );
    // A direct client that is not a trusted proxy cannot choose its address.
    for (let attempt = 1; attempt <= throttle.maxFailuresPerUsername; attempt += 1) {
      const forged = { 'x-forwarded-for': `198.51.100.${attempt}` };
      assert.equal(await loginFrom(port, VICTIM, wrong(attempt), forged), 401);
    }
    assert.equal(await loginFrom(port, VICTIM, right, { 'x-forwarded-for': '198.51.100.50' }), 429);
  });

  test(`${store}: behind a TRUST_PROXY hop count, the address that many hops back is the client`, async (t) => {
    const port = await listening(t, store, { kind: 'hops', hops: 1 });
    for (let attempt = 1; attempt <= throttle.maxFailuresPerUsername; attempt += 1) {
      assert.equal(await loginFrom(port, ATTACKER, wrong(attempt), { 'x-forwarded-for': '203.0.113.9' }), 401);
    }
    assert.equal(await loginFrom(port, VICTIM, right, { 'x-forwarded-for': '203.0.113.9' }), 429);
    assert.equal(await loginFrom(port, ATTACKER, right, { 'x-forwarded-for': '203.0.113.10' }), 200);
  });
}
