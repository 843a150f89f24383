import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { buildTestApp, json } from '../helper.js';
import { FORM, NOBODY, READER, WRITER, hs256Config, login, withAuth } from './fixtures.js';

test('POST /token issues an HS256 bearer token with sub, roles, iat and exp = iat + 900', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config() });
  const response = await login(app, { username: WRITER.username, password: WRITER.password });
  assert.equal(response.statusCode, 200);
  const body = json(response);
  assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'token_type']);
  assert.equal(body.token_type, 'bearer');
  assert.equal(body.expires_in, 900);
  assert.equal(decodeProtectedHeader(body.access_token).alg, 'HS256');
  const claims = decodeJwt(body.access_token);
  assert.equal(claims.sub, WRITER.username);
  assert.deepEqual(claims.roles, WRITER.roles);
  assert.equal(typeof claims.iat, 'number');
  assert.equal(claims.exp, claims.iat! + 900);
  assert.ok(Math.abs(claims.iat! - Date.now() / 1000) < 60);
});

test('POST /token gives a user without roles an empty roles claim', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config() });
  const response = await login(app, { username: NOBODY.username, password: NOBODY.password });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(decodeJwt(json(response).access_token).roles, []);
});

test('POST /token answers a wrong password and an unknown user with the same 401 and WWW-Authenticate: Bearer', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config() });
  const wrongPassword = await login(app, { username: READER.username, password: 'not-the-password' });
  const unknownUser = await login(app, { username: 'nobody-by-that-name', password: READER.password });
  for (const response of [wrongPassword, unknownUser]) {
    assert.equal(response.statusCode, 401);
    assert.deepEqual(json(response), { detail: 'Incorrect credentials' });
    assert.equal(response.headers['www-authenticate'], 'Bearer');
  }
});

test('POST /token accepts grant_type=password and a scope, and refuses any other grant_type with a 422', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config() });
  const ok = await login(app, {
    grant_type: 'password',
    username: READER.username,
    password: READER.password,
    scope: 'anything',
  });
  assert.equal(ok.statusCode, 200);
  const wrongGrant = await login(app, {
    grant_type: 'client_credentials',
    username: READER.username,
    password: READER.password,
  });
  assert.equal(wrongGrant.statusCode, 422);
  assert.deepEqual(json(wrongGrant).detail, [
    {
      type: 'string_pattern_mismatch',
      loc: ['body', 'grant_type'],
      msg: "String should match pattern '^password$'",
      input: 'client_credentials',
      ctx: { pattern: '^password$' },
    },
  ]);
});

test('POST /token reports missing and empty username and password as Pydantic-shaped 422 entries', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config() });
  const missingUsername = await login(app, { password: 'x' });
  assert.equal(missingUsername.statusCode, 422);
  assert.deepEqual(json(missingUsername).detail, [
    { type: 'missing', loc: ['body', 'username'], msg: 'Field required', input: null },
  ]);

  const nothing = await app.inject({ method: 'POST', url: '/token', headers: FORM, payload: '' });
  assert.equal(nothing.statusCode, 422);
  assert.deepEqual(
    json(nothing).detail.map((issue: { loc: unknown[] }) => issue.loc),
    [
      ['body', 'username'],
      ['body', 'password'],
    ],
  );

  const emptyPassword = await login(app, { username: READER.username, password: '' });
  assert.equal(emptyPassword.statusCode, 422);
  assert.deepEqual(json(emptyPassword).detail[0].loc, ['body', 'password']);
});

test('POST /token reads multipart/form-data fields as well', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config() });
  const form = new FormData();
  form.set('username', READER.username);
  form.set('password', READER.password);
  const request = new Request('http://localhost/token', { method: 'POST', body: form });
  const response = await app.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(decodeJwt(json(response).access_token).sub, READER.username);
});

test('POST /token refuses a file in a multipart form, without a 500', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config() });
  const form = new FormData();
  form.set('username', READER.username);
  form.set('password', new Blob(['secret']), 'password.txt');
  const request = new Request('http://localhost/token', { method: 'POST', body: form });
  const withFile = await app.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  assert.equal(withFile.statusCode, 413, withFile.body);
  assert.equal(typeof json(withFile).detail, 'string');
});

test('POST /token with a JSON or text body answers 422 with username and password missing, as FastAPI does', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config() });
  const bodies = [
    { 'content-type': 'application/json', payload: JSON.stringify({ username: READER.username, password: 'x' }) },
    { 'content-type': 'application/json', payload: '{not json' },
    { 'content-type': 'text/plain', payload: 'username=reader&password=x' },
  ];
  for (const { payload, ...headers } of bodies) {
    const response = await app.inject({ method: 'POST', url: '/token', headers, payload });
    assert.equal(response.statusCode, 422, `${headers['content-type']} ${payload}`);
    assert.deepEqual(json(response), {
      detail: [
        { type: 'missing', loc: ['body', 'username'], msg: 'Field required', input: null },
        { type: 'missing', loc: ['body', 'password'], msg: 'Field required', input: null },
      ],
    });
  }
});

test('POST /token answers 503 "Token login is not configured" when JWT_SECRET_KEY is unset', async (t) => {
  const app = await buildTestApp(t, { config: withAuth({ tokenSigning: { algorithm: 'HS256', secret: undefined } }) });
  const response = await login(app, { username: READER.username, password: READER.password });
  assert.equal(response.statusCode, 503);
  assert.deepEqual(json(response), { detail: 'Token login is not configured' });
});

test('without USERS_FILE there are no users: every login is 401', async (t) => {
  const app = await buildTestApp(t, {
    config: withAuth({ usersFile: undefined, tokenSigning: { algorithm: 'HS256', secret: 'a'.repeat(32) } }),
  });
  const response = await login(app, { username: READER.username, password: READER.password });
  assert.equal(response.statusCode, 401);
  assert.deepEqual(json(response), { detail: 'Incorrect credentials' });
});

test('the demo users file logs in its documented demo users', async (t) => {
  const demoFile = new URL('../../demo/users.demo.json', import.meta.url).pathname;
  const app = await buildTestApp(t, {
    config: withAuth({ usersFile: demoFile, tokenSigning: { algorithm: 'HS256', secret: 'd'.repeat(32) } }),
  });
  for (const [username, roles] of [
    ['demo-reader', ['Books.Read']],
    ['demo-writer', ['Books.Read', 'Books.Write']],
    ['demo-nobody', []],
  ] as const) {
    const response = await login(app, { username, password: `${username}-password` });
    assert.equal(response.statusCode, 200, username);
    assert.deepEqual(decodeJwt(json(response).access_token).roles, roles);
  }
});

test('GET /openapi.json declares the OAuth2 password flow against /token and the optional security of the list', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config() });
  const document = json(await app.inject({ url: '/openapi.json' }));
  assert.deepEqual(document.components.securitySchemes.OAuth2PasswordBearer, {
    type: 'oauth2',
    flows: { password: { tokenUrl: '/token', scopes: {} } },
  });
  const listPath = document.paths['/api/v1/books/'] ?? document.paths['/api/v1/books'];
  assert.deepEqual(listPath.get.security, [{}, { OAuth2PasswordBearer: [] }]);
  assert.deepEqual(Object.keys(document.paths['/token'].post.requestBody.content).sort(), [
    'application/x-www-form-urlencoded',
    'multipart/form-data',
  ]);
  assert.ok(document.paths['/token'].post.responses['200']);
});
