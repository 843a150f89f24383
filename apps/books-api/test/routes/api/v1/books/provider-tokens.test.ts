// The books routes under AUTH_REQUIRED with tokens from a real OpenID Provider (oidc-provider)
// beside the API's own login, over a socket, in the store of this run (memory or PostgreSQL).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../../../../../src/app.js';
import { defaultConfig } from '../../../../../src/config.js';
import { hs256Config, loginForm, newSecret, WRITER } from '../../../../auth/fixtures.js';
import { RESOURCE, TestProvider, signingKey } from '../../../../auth/oidc/test-provider.js';
import { freshPostgresStore, silentLogger, TEST_STORE } from '../../../../postgres.js';

test('with AUTH_REQUIRED a provider token and an own token each read, create, change and delete books', async (t) => {
  const provider = await TestProvider.start(
    [
      { clientId: 'app-writer', claims: { roles: ['Books.Read', 'Books.Write'] } },
      { clientId: 'user-reader', claims: { scp: 'Books.Read' } },
    ],
    [await signingKey('ES256', 'es-1')],
  );
  t.after(() => provider.close());
  const own = await hs256Config(newSecret(), { authRequired: true });
  const config = defaultConfig({
    ...own,
    auth: {
      ...own.auth!,
      identityProvider: { issuer: provider.issuer, audience: RESOURCE, rolesClaim: undefined, docs: undefined },
    },
  });
  const store = TEST_STORE === 'postgres' ? await freshPostgresStore(t) : undefined;
  const app = await buildApp({ config, store, logger: silentLogger });
  t.after(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  await app.auth.providerKeys?.firstRound();
  const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  const send = async (method: string, path: string, token: string, body?: object) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: await response.json() };
  };
  const login = await fetch(`${origin}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: loginForm({ username: WRITER.username, password: WRITER.password }),
  });
  const ownToken = ((await login.json()) as { access_token: string }).access_token;
  const providerWriter = await provider.token('app-writer');
  const providerReader = await provider.token('user-reader');

  for (const [who, token] of [
    ['provider', providerWriter],
    ['own', ownToken],
  ] as const) {
    const created = await send('POST', '/api/v1/books', token, { title: `By ${who}`, author: 'A', year: 2001 });
    assert.equal(created.status, 201, `${who}: ${JSON.stringify(created.body)}`);
    const path = `/api/v1/books/${created.body.id}`;
    assert.equal((await send('GET', path, providerReader)).body.title, `By ${who}`);
    assert.equal((await send('PATCH', path, token, { year: 2002 })).body.year, 2002);
    const refused = await send('DELETE', path, providerReader);
    assert.deepEqual(refused, { status: 403, body: { detail: 'Insufficient scope' } });
    assert.equal((await send('DELETE', path, token)).status, 200);
    assert.equal((await send('GET', path, providerReader)).status, 404);
  }
  const list = await send('GET', '/api/v1/books?limit=100', providerReader);
  assert.equal(list.body.user, 'user-reader');
  assert.equal(list.body.books.length, 3, 'the seeded books remain');
});
