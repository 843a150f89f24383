// Bearer tokens from an identity provider, against a real OpenID Provider (oidc-provider on a
// loopback port, JWT access tokens for the API's resource indicator) and, where it cannot make
// the case (tokens signed with keys it does not hold, or with chosen times), tokens made with
// jose. The API listens on a loopback port and every request goes over a socket.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { SignJWT, UnsecuredJWT, decodeJwt, generateKeyPair, importJWK } from 'jose';
import { buildApp, type AppOptions } from '../../../src/app.js';
import { defaultConfig } from '../../../src/config.js';
import { silentLogger } from '../../postgres.js';
import { READER, hs256Config, loginForm, newSecret } from '../fixtures.js';
import { RESOURCE, TestProvider, signingKey, type SigningKey, type TestProviderClient } from './test-provider.js';

const CLIENTS: TestProviderClient[] = [
  // Entra ID application roles.
  { clientId: 'entra-writer', claims: { roles: ['Books.Read', 'Books.Write'] } },
  { clientId: 'entra-reader', claims: { roles: ['Books.Read'] } },
  // Entra ID delegated scopes: one space-separated string.
  { clientId: 'entra-delegated', claims: { scp: 'Books.Read Books.Write' } },
  { clientId: 'entra-delegated-reader', claims: { scp: 'Books.Read' } },
  // Keycloak realm roles; `roles` says otherwise, to show which claim is read.
  { clientId: 'keycloak-reader', claims: { realm_access: { roles: ['Books.Read'] }, roles: ['Books.Write'] } },
  // Only the scope the client asks for (oidc-provider's own `scope` claim, RFC 9068).
  { clientId: 'scoped' },
  { clientId: 'no-roles', claims: { roles: ['Other.Role'] } },
];

async function startProvider(t: TestContext, keys?: SigningKey[]): Promise<TestProvider> {
  const provider = await TestProvider.start(CLIENTS, keys ?? [await signingKey('RS256', 'key-1')]);
  t.after(() => provider.close());
  return provider;
}

interface ApiOptions {
  rolesClaim?: string;
  authRequired?: boolean;
  timings?: AppOptions['providerKeyTimings'];
}

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** The API, listening on a loopback port, with its own HS256 login and the provider's tokens. */
class Api {
  constructor(readonly origin: string) {}

  async request(method: string, path: string, token?: string, body?: object): Promise<Answer> {
    const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.origin}${path}`, {
      method,
      headers,
      redirect: 'manual',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
  }

  list(token?: string, query = ''): Promise<Answer> {
    return this.request('GET', `/api/v1/books${query}`, token);
  }

  /** The API's own token for `user`, through POST /token. */
  async login(user: { username: string; password: string }): Promise<string> {
    const response = await fetch(`${this.origin}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: loginForm({ username: user.username, password: user.password }),
    });
    assert.equal(response.status, 200);
    return ((await response.json()) as { access_token: string }).access_token;
  }
}

/** Starts the API for `issuer` and waits for its first key fetch (whatever its outcome). */
async function startApi(t: TestContext, issuer: string, options: ApiOptions = {}): Promise<Api> {
  const own = await hs256Config(newSecret(), { authRequired: options.authRequired ?? false });
  const config = defaultConfig({
    ...own,
    auth: {
      ...own.auth!,
      identityProvider: { issuer, audience: RESOURCE, rolesClaim: options.rolesClaim, docs: undefined },
    },
  });
  const app = await buildApp({ config, logger: silentLogger, providerKeyTimings: options.timings });
  t.after(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  await app.auth.providerKeys?.firstRound();
  return new Api(`http://127.0.0.1:${(app.server.address() as { port: number }).port}`);
}

async function assertRefused(answer: Promise<Answer>, status: number, detail: string): Promise<Answer> {
  const response = await answer;
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.deepEqual(response.body, { detail });
  if (status === 401) assert.equal(response.headers.get('www-authenticate'), 'Bearer');
  return response;
}

const now = () => Math.floor(Date.now() / 1000);

/** A token signed with `key` (the provider's own key unless another is given), with exactly these claims. */
async function signed(key: SigningKey, claims: Record<string, unknown>): Promise<string> {
  const { alg, kid } = key.jwk;
  return new SignJWT(claims).setProtectedHeader({ alg: alg!, kid: kid!, typ: 'at+jwt' }).sign(await importJWK(key.jwk));
}

/** The claims of a genuine reader token of `issuer`, valid for five minutes. */
function readerClaims(issuer: string): Record<string, unknown> {
  return { iss: issuer, aud: RESOURCE, sub: 'entra-reader', roles: ['Books.Read'], iat: now(), exp: now() + 300 };
}

let foreignKey: Promise<CryptoKey> | undefined;
/** A token claiming the provider's issuer and our audience, signed with a key the provider never published. */
async function foreignToken(issuer: string, kid: string): Promise<string> {
  foreignKey ??= generateKeyPair('RS256').then((pair) => pair.privateKey);
  return new SignJWT(readerClaims(issuer)).setProtectedHeader({ alg: 'RS256', kid }).sign(await foreignKey);
}

test('provider tokens: application roles, delegated scp, and the sub as user on the protected list', async (t) => {
  const provider = await startProvider(t);
  const api = await startApi(t, provider.issuer);
  const writer = await provider.token('entra-writer');
  const response = await api.list(writer, '?skip=1&limit=2');
  assert.equal(response.status, 200, JSON.stringify(response.body));
  assert.equal(decodeJwt(writer).sub, 'entra-writer');
  assert.equal(response.body.user, 'entra-writer', 'user is the token sub');
  assert.deepEqual(response.body.books, (await api.list(undefined, '?skip=1&limit=2')).body.items);

  assert.equal((await api.list(await provider.token('entra-delegated-reader'))).status, 200);
  await assertRefused(api.list(await provider.token('no-roles')), 403, 'Insufficient scope');
  // oidc-provider's `scope` claim is not a roles claim unless AUTH_OIDC_ROLES_CLAIM says so.
  const scoped = await provider.token('scoped', { scope: 'Books.Read' });
  assert.equal(decodeJwt(scoped).scope, 'Books.Read');
  await assertRefused(api.list(scoped), 403, 'Insufficient scope');
});

test('provider tokens under AUTH_REQUIRED: reads need Books.Read, writes Books.Write, on every books route', async (t) => {
  const provider = await startProvider(t);
  const api = await startApi(t, provider.issuer, { authRequired: true });
  const reader = await provider.token('entra-reader');
  const writer = await provider.token('entra-writer');
  const delegated = await provider.token('entra-delegated');
  const delegatedReader = await provider.token('entra-delegated-reader');
  const id = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
  const book = { title: 'Refactoring', author: 'Martin Fowler', year: 2018 };

  await assertRefused(api.list(), 401, 'Not authenticated');
  assert.equal((await api.list(reader)).status, 200);
  assert.equal((await api.request('GET', `/api/v1/books/${id}`, reader)).status, 200);
  assert.equal((await api.request('GET', '/api/v1/books/search?q=code', reader)).status, 200);
  assert.equal((await api.request('GET', '/api/redirect', reader)).status, 307);
  await assertRefused(api.request('POST', '/api/v1/books', reader, book), 403, 'Insufficient scope');
  await assertRefused(api.request('POST', '/api/v1/books', delegatedReader, book), 403, 'Insufficient scope');
  await assertRefused(api.request('PATCH', `/api/v1/books/${id}`, reader, { year: 2009 }), 403, 'Insufficient scope');
  await assertRefused(api.request('DELETE', `/api/v1/books/${id}`, reader), 403, 'Insufficient scope');
  const created = await api.request('POST', '/api/v1/books', writer, book);
  assert.equal(created.status, 201);
  assert.equal((await api.request('PATCH', `/api/v1/books/${created.body.id}`, delegated, { year: 2019 })).status, 200);
  assert.equal((await api.request('DELETE', `/api/v1/books/${id}`, delegated)).status, 200);
  // The open routes stay open.
  assert.equal((await api.request('GET', '/api/ps')).status, 200);
});

test('AUTH_OIDC_ROLES_CLAIM reads the roles from that claim only: a nested path, or scope', async (t) => {
  const provider = await startProvider(t);
  const keycloak = await startApi(t, provider.issuer, { rolesClaim: 'realm_access.roles', authRequired: true });
  const token = await provider.token('keycloak-reader');
  assert.equal((await keycloak.list(token)).status, 200);
  const write = keycloak.request('POST', '/api/v1/books', token, { title: 'T', author: 'A', year: 2000 });
  await assertRefused(write, 403, 'Insufficient scope');
  await assertRefused(keycloak.list(await provider.token('entra-writer')), 403, 'Insufficient scope');

  const scopes = await startApi(t, provider.issuer, { rolesClaim: 'scope' });
  assert.equal((await scopes.list(await provider.token('scoped', { scope: 'Books.Read' }))).status, 200);
  await assertRefused(scopes.list(await provider.token('scoped', { scope: 'Books.Write' })), 403, 'Insufficient scope');
});

test('a provider that signs with ES256 or PS256 is verified with its published key', async (t) => {
  for (const alg of ['ES256', 'PS256'] as const) {
    const provider = await startProvider(t, [await signingKey(alg, `${alg}-key`)]);
    const api = await startApi(t, provider.issuer);
    const token = await provider.token('entra-reader');
    assert.equal(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).alg, alg);
    const response = await api.list(token);
    assert.equal(response.status, 200, `${alg}: ${JSON.stringify(response.body)}`);
  }
});

test('the API own /token login keeps working beside the provider; each token goes to its issuer', async (t) => {
  const provider = await startProvider(t);
  const api = await startApi(t, provider.issuer);
  const own = await api.login(READER);
  assert.equal(decodeJwt(own).iss, 'books-service');
  const response = await api.list(own);
  assert.equal(response.status, 200);
  assert.equal(response.body.user, READER.username);
  assert.equal((await api.list(await provider.token('entra-reader'))).status, 200);
  // The provider's key under the API's own issuer: verified as the API's own, so refused.
  const key = provider.keys[0]!;
  await assertRefused(
    api.list(await signed(key, { ...readerClaims('books-service'), aud: 'books-api' })),
    401,
    'Invalid token',
  );
});

test('provider tokens for another audience, from another issuer, or forged are 401 Invalid token', async (t) => {
  const provider = await startProvider(t);
  const other = await startProvider(t);
  const api = await startApi(t, provider.issuer);
  const fetchesBefore = provider.jwksFetches;

  await assertRefused(
    api.list(await provider.token('entra-reader', { resource: 'api://other' })),
    401,
    'Invalid token',
  );
  await assertRefused(api.list(await other.token('entra-reader')), 401, 'Invalid token');
  const key = provider.keys[0]!;
  const { aud: _aud, ...withoutAudience } = readerClaims(provider.issuer);
  await assertRefused(api.list(await signed(key, withoutAudience)), 401, 'Invalid token');
  // The right issuer but with a trailing slash is another issuer.
  await assertRefused(api.list(await signed(key, { ...readerClaims(`${provider.issuer}/`) })), 401, 'Invalid token');

  const claims = { ...readerClaims(provider.issuer), roles: ['Books.Read', 'Books.Write'] };
  await assertRefused(api.list(new UnsecuredJWT(claims).encode()), 401, 'Invalid token');
  const hs256 = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', kid: key.jwk.kid! })
    .sign(new TextEncoder().encode(newSecret()));
  await assertRefused(api.list(hs256), 401, 'Invalid token');
  // The provider's own kid on a token signed with another key.
  await assertRefused(api.list(await foreignToken(provider.issuer, key.jwk.kid!)), 401, 'Invalid token');
  // A genuine token whose payload was changed.
  const [header, , signature] = (await provider.token('entra-reader')).split('.');
  const escalated = Buffer.from(JSON.stringify(claims)).toString('base64url');
  await assertRefused(api.list(`${header}.${escalated}.${signature}`), 401, 'Invalid token');
  assert.equal(provider.jwksFetches, fetchesBefore, 'none of these made the API fetch keys');
});

test('exp is required and nbf honoured, both with 60 s of clock tolerance', async (t) => {
  const provider = await startProvider(t);
  const api = await startApi(t, provider.issuer);
  const key = provider.keys[0]!;
  const claims = readerClaims(provider.issuer);
  assert.equal((await api.list(await signed(key, claims))).status, 200, 'the genuine token');
  assert.equal((await api.list(await signed(key, { ...claims, exp: now() - 20 }))).status, 200, 'within tolerance');
  await assertRefused(api.list(await signed(key, { ...claims, exp: now() - 120 })), 401, 'Token expired');
  const { exp: _exp, ...withoutExpiry } = claims;
  await assertRefused(api.list(await signed(key, withoutExpiry)), 401, 'Invalid token');
  assert.equal((await api.list(await signed(key, { ...claims, nbf: now() + 20 }))).status, 200, 'nbf within tolerance');
  await assertRefused(api.list(await signed(key, { ...claims, nbf: now() + 120 })), 401, 'Invalid token');
});

test('a flood of unknown kids refetches the key set at most once per refetch interval, provider up or down', async (t) => {
  const provider = await startProvider(t);
  const api = await startApi(t, provider.issuer);
  const before = provider.jwksFetches;
  const flood = await Promise.all(
    Array.from({ length: 40 }, (_, index) => foreignToken(provider.issuer, `unknown-${index}`)),
  );
  const answers = await Promise.all(flood.map((token) => api.list(token)));
  assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([401]));
  for (const token of flood.slice(0, 10)) await assertRefused(api.list(token), 401, 'Invalid token');
  assert.ok(provider.jwksFetches - before <= 1, `${provider.jwksFetches - before} fetches`);

  // Down (503s), with keys cached: the cached keys still verify, and the flood still costs nothing more.
  const token = await provider.token('entra-reader');
  provider.down = true;
  assert.equal((await api.list(token)).status, 200);
  for (const unknown of flood) await assertRefused(api.list(unknown), 401, 'Invalid token');
  assert.ok(provider.jwksFetches - before <= 1, `${provider.jwksFetches - before} fetches`);
});

test('key rotation: a new key is fetched once the refetch interval allows, and a withdrawn key stops working', async (t) => {
  const provider = await startProvider(t);
  const refetchIntervalMs = 500;
  const api = await startApi(t, provider.issuer, { timings: { refetchIntervalMs } });
  const old = await provider.token('entra-reader');
  assert.equal((await api.list(old)).status, 200);

  provider.useKeys([await signingKey('RS256', 'key-2')]);
  const rotated = await provider.token('entra-reader');
  await new Promise((resolve) => setTimeout(resolve, refetchIntervalMs + 100));
  const response = await api.list(rotated);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  assert.equal(response.body.user, 'entra-reader');
  await assertRefused(api.list(old), 401, 'Invalid token');
});

test('within the refetch interval of the last fetch, a rotated key is not fetched', async (t) => {
  const provider = await startProvider(t);
  const api = await startApi(t, provider.issuer);
  const before = provider.jwksFetches;
  provider.useKeys([await signingKey('RS256', 'key-2')]);
  await assertRefused(api.list(await provider.token('entra-reader')), 401, 'Invalid token');
  assert.equal(provider.jwksFetches, before);
});

test('with the provider down at start, the API starts; provider tokens answer 503 with Retry-After until keys arrive', async (t) => {
  const provider = await startProvider(t);
  const token = await provider.token('entra-reader');
  provider.down = true;
  const refetchIntervalMs = 500;
  const api = await startApi(t, provider.issuer, { timings: { refetchIntervalMs } });
  const unavailable = await assertRefused(api.list(token), 503, 'Identity provider unavailable');
  const retryAfter = Number(unavailable.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${retryAfter}`);
  // The API's own tokens do not depend on the provider.
  assert.equal((await api.list(await api.login(READER))).status, 200);
  // Tokens that cannot be the provider's are refused at once, never 503.
  await assertRefused(api.list(new UnsecuredJWT(readerClaims(provider.issuer)).encode()), 401, 'Invalid token');

  provider.down = false;
  await new Promise((resolve) => setTimeout(resolve, refetchIntervalMs + 100));
  assert.equal((await api.list(token)).status, 200);
});

test('with the key endpoint down and no keys, a flood of provider tokens costs at most one fetch per refetch interval', async (t) => {
  const provider = await startProvider(t);
  const token = await provider.token('entra-reader');
  provider.jwksDown = true;
  const api = await startApi(t, provider.issuer);
  assert.equal(provider.discoveryFetches, 1);
  assert.equal(provider.jwksFetches, 1, 'the fetch at start');
  const answers = await Promise.all(Array.from({ length: 20 }, () => api.list(token)));
  assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([503]));
  assert.ok(answers.every((answer) => Number(answer.headers.get('retry-after')) >= 1));
  assert.equal(provider.jwksFetches, 1, 'no fetch within the refetch interval of the one at start');
  assert.equal(provider.discoveryFetches, 1);
});

test('with nothing listening at the issuer, the API starts and provider tokens answer 503', async (t) => {
  const provider = await TestProvider.start(CLIENTS, [await signingKey('RS256', 'key-1')]);
  const token = await provider.token('entra-reader');
  await provider.close();
  const api = await startApi(t, provider.issuer);
  const response = await assertRefused(api.list(token), 503, 'Identity provider unavailable');
  assert.ok(Number(response.headers.get('retry-after')) >= 1);
  assert.equal((await api.request('GET', '/api/ps')).status, 200);
});
