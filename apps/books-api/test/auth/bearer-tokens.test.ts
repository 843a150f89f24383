import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignJWT, UnsecuredJWT, base64url, decodeJwt } from 'jose';
import { buildTestApp, json } from '../helper.js';
import { NOBODY, READER, WRITER, hs256Config, listBooks, newSecret, tokenFor, withAuth } from './fixtures.js';

const SECRET = newSecret();
const key = (secret = SECRET) => new TextEncoder().encode(secret);
const now = () => Math.floor(Date.now() / 1000);

/** The API's own issuer and audience (JWT_ISSUER, JWT_AUDIENCE defaults). */
const OWN = { iss: 'books-service', aud: 'books-api' };

/** A token as an attacker or a buggy issuer would make it, signed with `secret`; `OWN` claims unless overridden. */
function forge(claims: Record<string, unknown>, secret = SECRET) {
  const withOwn = Object.fromEntries(Object.entries({ ...OWN, ...claims }).filter(([, value]) => value !== undefined));
  return new SignJWT(withOwn).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key(secret));
}

async function assertInvalid(
  response: { statusCode: number; body: string; headers: Record<string, unknown> },
  detail = 'Invalid token',
) {
  assert.equal(response.statusCode, 401, response.body);
  assert.deepEqual(json(response), { detail });
  assert.equal(response.headers['www-authenticate'], 'Bearer');
}

test('GET /api/v1/books with a valid token answers {books, user} for the page skip/limit select', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(SECRET) });
  const token = await tokenFor(app, READER);
  const response = await listBooks(app, `Bearer ${token}`, '?skip=1&limit=1');
  assert.equal(response.statusCode, 200);
  const body = json(response);
  assert.deepEqual(Object.keys(body).sort(), ['books', 'user']);
  assert.equal(body.user, READER.username);
  const publicPage = json(await listBooks(app, undefined, '?skip=1&limit=1'));
  assert.deepEqual(body.books, publicPage.items);
  assert.equal(body.books[0].title, 'The Pragmatic Programmer');
});

test('GET /api/v1/books without an Authorization header stays the public page', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(SECRET) });
  const response = await listBooks(app);
  assert.equal(response.statusCode, 200);
  assert.deepEqual(Object.keys(json(response)).sort(), ['items', 'limit', 'skip', 'total']);
});

test('GET /api/v1/books answers 403 Insufficient scope to a valid token without Books.Read', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(SECRET) });
  const response = await listBooks(app, `Bearer ${await tokenFor(app, NOBODY)}`);
  assert.equal(response.statusCode, 403);
  assert.deepEqual(json(response), { detail: 'Insufficient scope' });
});

test('GET /api/v1/books answers 401 Token expired to an expired token', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(SECRET) });
  const expired = await forge({ sub: READER.username, roles: ['Books.Read'], iat: now() - 1000, exp: now() - 100 });
  await assertInvalid(await listBooks(app, `Bearer ${expired}`), 'Token expired');
});

test('GET /api/v1/books answers 401 Invalid token to forged and malformed tokens', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(SECRET) });
  const genuine = await tokenFor(app, NOBODY);
  const [header, , signature] = genuine.split('.');
  const claims = decodeJwt(genuine);
  const escalated = base64url.encode(JSON.stringify({ ...claims, roles: ['Books.Read', 'Books.Write'] }));
  const valid = { roles: ['Books.Read'], iat: now(), exp: now() + 900 };

  const forged: Record<string, string> = {
    'tampered payload': `${header}.${escalated}.${signature}`,
    'wrong secret': await forge({ sub: READER.username, ...valid }, newSecret()),
    'alg none': new UnsecuredJWT({ sub: READER.username, ...valid }).encode(),
    'missing sub': await forge(valid),
    'empty sub': await forge({ sub: '', ...valid }),
    'roles not a list': await forge({ sub: READER.username, ...valid, roles: 'Books.Read' }),
    'roles not strings': await forge({ sub: READER.username, ...valid, roles: [1, 2] }),
    'no exp': await forge({ sub: READER.username, roles: ['Books.Read'], iat: now() }),
    'iat not a number': await forge({ sub: READER.username, ...valid, iat: 'now' }),
    'iat an hour in the future': await forge({ sub: READER.username, ...valid, iat: now() + 3600, exp: now() + 4500 }),
    'no iss': await forge({ sub: READER.username, ...valid, iss: undefined }),
    'another iss': await forge({ sub: READER.username, ...valid, iss: 'another-service' }),
    'no aud': await forge({ sub: READER.username, ...valid, aud: undefined }),
    'another aud': await forge({ sub: READER.username, ...valid, aud: 'another-api' }),
    'aud list without ours': await forge({ sub: READER.username, ...valid, aud: ['another-api', 'third-api'] }),
    'not a JWT': 'not-a-token',
    truncated: genuine.slice(0, -5),
  };
  for (const [name, token] of Object.entries(forged)) {
    await t.test(name, async () => assertInvalid(await listBooks(app, `Bearer ${token}`)));
  }
  await t.test('iat just past the tolerance in the future', async () => {
    // Forged when sent, 2 s past the 60 s tolerance: forged with the others, the seconds their
    // subtests took brought it inside the tolerance on a busy machine.
    const token = await forge({ sub: READER.username, ...valid, iat: now() + 62 });
    await assertInvalid(await listBooks(app, `Bearer ${token}`));
  });
  await t.test('expired and badly signed counts as invalid, not expired', async () => {
    const token = await forge({ sub: READER.username, roles: ['Books.Read'], exp: now() - 100 }, newSecret());
    await assertInvalid(await listBooks(app, `Bearer ${token}`));
  });
});

test('GET /api/v1/books accepts a token whose iat is up to 60 s in the future (clocks of replicas differ)', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(SECRET) });
  const token = await forge({ sub: READER.username, roles: ['Books.Read'], iat: now() + 50, exp: now() + 950 });
  const response = await listBooks(app, `Bearer ${token}`);
  assert.equal(response.statusCode, 200, response.body);
});

test('tokens carry iss and aud from JWT_ISSUER and JWT_AUDIENCE, and a token forged with our secret and them is accepted', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(SECRET) });
  const claims = decodeJwt(await tokenFor(app, READER));
  assert.equal(claims.iss, OWN.iss);
  assert.equal(claims.aud, OWN.aud);
  const valid = await forge({ sub: READER.username, roles: ['Books.Read'], exp: now() + 60 });
  assert.equal((await listBooks(app, `Bearer ${valid}`)).statusCode, 200);
  const inList = await forge({ sub: READER.username, roles: ['Books.Read'], exp: now() + 60, aud: ['x', OWN.aud] });
  assert.equal((await listBooks(app, `Bearer ${inList}`)).statusCode, 200, 'aud may be a list holding ours');
});

test('a token of another deployment sharing the secret but with another JWT_ISSUER or JWT_AUDIENCE is 401 Invalid token', async (t) => {
  const staging = await buildTestApp(t, {
    config: await hs256Config(SECRET, { tokenClaims: { issuer: 'books-staging', audience: 'books-api' } }),
  });
  const otherAudience = await buildTestApp(t, {
    config: await hs256Config(SECRET, { tokenClaims: { issuer: 'books-service', audience: 'reports-api' } }),
  });
  const production = await buildTestApp(t, { config: await hs256Config(SECRET) });
  for (const other of [staging, otherAudience]) {
    const token = await tokenFor(other, READER);
    assert.equal((await listBooks(other, `Bearer ${token}`)).statusCode, 200, 'accepted where it was issued');
    await assertInvalid(await listBooks(production, `Bearer ${token}`));
  }
  const claims = decodeJwt(await tokenFor(staging, READER));
  assert.deepEqual([claims.iss, claims.aud], ['books-staging', 'books-api']);
});

test('GET /api/v1/books answers 401 Invalid token when the Authorization header is not a Bearer token', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(SECRET) });
  const token = await tokenFor(app, READER);
  for (const header of [token, `Basic ${token}`, 'Bearer', 'Bearer ', '']) {
    await assertInvalid(await listBooks(app, header));
  }
  assert.equal((await listBooks(app, `bearer ${token}`)).statusCode, 200, 'the scheme is case-insensitive');
});

test('a bearer token is 401 Invalid token when JWT_SECRET_KEY is unset', async (t) => {
  const app = await buildTestApp(t, { config: withAuth({ tokenSigning: { algorithm: 'HS256', secret: undefined } }) });
  const token = await forge({ sub: READER.username, roles: ['Books.Read'], exp: now() + 900 });
  await assertInvalid(await listBooks(app, `Bearer ${token}`));
});

test('AUTH_REQUIRED=true: every books route needs a token, reads Books.Read, writes Books.Write', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(SECRET, { authRequired: true }) });
  const reader = `Bearer ${await tokenFor(app, READER)}`;
  const writer = `Bearer ${await tokenFor(app, WRITER)}`;
  const nobody = `Bearer ${await tokenFor(app, NOBODY)}`;
  const id = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
  const create = { title: 'Refactoring', author: 'Martin Fowler', year: 2018 };
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, authorization?: string, payload?: object) =>
    app.inject({ method, url, ...(payload ? { payload } : {}), headers: authorization ? { authorization } : {} });

  for (const [method, url, payload] of [
    ['GET', '/api/v1/books'],
    ['GET', '/api/v1/books/search?q=code'],
    ['GET', `/api/v1/books/${id}`],
    ['POST', '/api/v1/books', create],
    ['PATCH', `/api/v1/books/${id}`, {}],
    ['DELETE', `/api/v1/books/${id}`],
  ] as const) {
    const anonymous = await call(method, url, undefined, payload);
    assert.equal(anonymous.statusCode, 401, `${method} ${url} without a token`);
    assert.equal(anonymous.headers['www-authenticate'], 'Bearer');
    assert.equal((await call(method, url, nobody, payload)).statusCode, 403, `${method} ${url} without roles`);
  }
  assert.equal((await call('GET', `/api/v1/books/${id}`, reader)).statusCode, 200);
  assert.equal(json(await call('GET', '/api/v1/books', reader)).user, READER.username);
  const refused = await call('POST', '/api/v1/books', reader, create);
  assert.equal(refused.statusCode, 403);
  assert.deepEqual(json(refused), { detail: 'Insufficient scope' });
  assert.equal(json(await call('GET', '/api/v1/books', writer)).books.length, 3, 'a refused write stores nothing');
  assert.equal((await call('POST', '/api/v1/books', writer, create)).statusCode, 201);
  assert.equal((await call('DELETE', `/api/v1/books/${id}`, writer)).statusCode, 200);
});

test('AUTH_REQUIRED=true: /api/redirect needs Books.Read; /, /api/ps, HEAD /api/status and the docs stay open', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(SECRET, { authRequired: true }) });
  const reader = await tokenFor(app, READER);
  const nobody = await tokenFor(app, NOBODY);
  const redirect = (token?: string) =>
    app.inject({ url: '/api/redirect', headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

  const anonymous = await redirect();
  assert.equal(anonymous.statusCode, 401);
  assert.equal(anonymous.headers.location, undefined, 'no book id is revealed');
  assert.equal(anonymous.headers['www-authenticate'], 'Bearer');
  const refused = await redirect(nobody);
  assert.equal(refused.statusCode, 403);
  assert.deepEqual(json(refused), { detail: 'Insufficient scope' });
  const allowed = await redirect(reader);
  assert.equal(allowed.statusCode, 307);
  assert.match(String(allowed.headers.location), /^\/api\/v1\/books\/[0-9a-f-]{36}$/);

  for (const [method, url, status] of [
    ['GET', '/', 200],
    ['GET', '/api/ps', 200],
    ['HEAD', '/api/status', 200],
    ['OPTIONS', '/api/options', 200],
    ['GET', '/docs', 200],
    ['GET', '/redoc', 200],
    ['GET', '/openapi.json', 200],
  ] as const) {
    assert.equal((await app.inject({ method, url })).statusCode, status, `${method} ${url} without a token`);
  }
  const security = json(await app.inject({ url: '/openapi.json' })).paths['/api/redirect'].get.security;
  assert.deepEqual(security, [{ OAuth2PasswordBearer: [] }], 'the document says the redirect needs a token');
});

test('AUTH_REQUIRED off: /api/redirect stays public', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(SECRET) });
  assert.equal((await app.inject({ url: '/api/redirect' })).statusCode, 307);
});

test('AUTH_REQUIRED off: the other books routes stay public and ignore Authorization headers', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(SECRET) });
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/books',
    payload: { title: 'Refactoring', author: 'Martin Fowler', year: 2018 },
    headers: { authorization: 'Bearer garbage' },
  });
  assert.equal(response.statusCode, 201);
});
