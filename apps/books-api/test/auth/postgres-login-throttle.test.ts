import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { createPostgresLoginThrottle } from '../../src/auth/postgres-login-throttle.js';
import { connect } from '../../src/store/postgres/connection.js';
import { buildApp } from '../../src/app.js';
import { defaultConfig } from '../../src/config.js';
import { atEnd, freshDatabase, freshPostgresStore, silentLogger } from '../postgres.js';
import { hs256Config, login } from './fixtures.js';

const settings = {
  maxFailuresPerUsername: 3,
  maxFailuresPerClient: 8,
  maxFailuresPerUsernameAllClients: 5,
  windowSeconds: 120,
};

test('two replicas reserving failed logins at once share exact limits per user name, per client and per pair', async (t) => {
  const database = await freshDatabase(t);
  await freshPostgresStore(t, database); // applies the migrations
  const replicas = [connect({ ...database, poolSize: 5 }), connect({ ...database, poolSize: 5 })];
  atEnd(t, () => Promise.all(replicas.map((sql) => sql.end())));
  const [a, b] = replicas.map((sql) => createPostgresLoginThrottle(sql, settings, { isReady: () => true }));

  const sameUser = await Promise.all(
    Array.from({ length: 40 }, (_, i) => (i % 2 ? a! : b!).reserve({ username: 'alice', client: `10.0.0.${i}` })),
  );
  assert.equal(sameUser.filter((r) => r.granted).length, settings.maxFailuresPerUsernameAllClients);
  const refused = sameUser.find((r) => !r.granted);
  assert.ok(refused && !refused.granted && refused.retryAfterSeconds > 0 && refused.retryAfterSeconds <= 120);

  const sameClient = await Promise.all(
    Array.from({ length: 40 }, (_, i) => (i % 2 ? a! : b!).reserve({ username: `user-${i}`, client: '192.0.2.1' })),
  );
  assert.equal(sameClient.filter((r) => r.granted).length, settings.maxFailuresPerClient);

  const samePair = await Promise.all(
    Array.from({ length: 20 }, (_, i) => (i % 2 ? a! : b!).reserve({ username: 'bob', client: '198.51.100.1' })),
  );
  assert.equal(samePair.filter((r) => r.granted).length, settings.maxFailuresPerUsername);
  assert.equal((await a!.reserve({ username: 'bob', client: '198.51.100.2' })).granted, true, 'bob from elsewhere');

  // A released reservation (a successful login) gives its slot back, on any replica.
  await a!.release({ username: 'alice', client: '10.0.0.1' });
  assert.equal((await b!.reserve({ username: 'alice', client: '10.0.0.99' })).granted, true);
  assert.equal((await b!.reserve({ username: 'alice', client: '10.0.0.98' })).granted, false);
});

test('user names with spaces or U+0000 are counted on their own keys, never on those of another name', async (t) => {
  const database = await freshDatabase(t);
  await freshPostgresStore(t, database);
  const sql = connect({ ...database, poolSize: 2 });
  atEnd(t, () => sql.end());
  const throttle = createPostgresLoginThrottle(sql, settings, { isReady: () => true });
  const client = '203.0.113.1';
  for (let i = 0; i < settings.maxFailuresPerUsername; i += 1) {
    assert.equal((await throttle.reserve({ username: 'a\u0000 b', client })).granted, true);
  }
  assert.equal((await throttle.reserve({ username: 'a\u0000 b', client })).granted, false);
  for (const other of ['a', 'a b', 'a\u0000', '"a\\u0000 b"']) {
    assert.equal((await throttle.reserve({ username: other, client })).granted, true, JSON.stringify(other));
  }
});

test('POST /token on PostgreSQL answers 401 for a user name of any length, and stores none of it', async (t) => {
  const database = await freshDatabase(t);
  const config = defaultConfig({ ...(await hs256Config()), database });
  const app = await buildApp({ config, logger: silentLogger });
  t.after(() => app.close());
  await app.postgres?.ready;
  // Random, so PostgreSQL cannot compress a key that holds the name below its index row limit.
  const randomName = (characters: number) => randomBytes(characters).toString('base64url').slice(0, characters);
  const names = [randomName(3000), randomName(16 * 1024), `${randomName(1)}${'\u0001'.repeat(16 * 1024 - 1)}`];
  for (const username of names) {
    const response = await login(app, { username, password: 'wrong' });
    assert.equal(response.statusCode, 401, `${username.length} characters: ${response.body}`);
    assert.deepEqual(JSON.parse(response.body), { detail: 'Incorrect credentials' });
  }
  const sql = connect({ ...database, poolSize: 1 });
  atEnd(t, () => sql.end());
  const rows = await sql<{ key: string }[]>`select key from login_failures`;
  assert.ok(rows.length > 0);
  for (const { key } of rows) {
    assert.ok(key.length <= 64, key.slice(0, 100));
    for (const name of names) assert.ok(!key.includes(name.slice(0, 16)), key.slice(0, 100));
  }
});
