import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { SignJWT, calculateJwkThumbprint, createRemoteJWKSet, decodeProtectedHeader, exportJWK, jwtVerify } from 'jose';
import { buildTestApp, json } from '../helper.js';
import { READER, hs256Config, listBooks, tokenFor, usersFile, withAuth, writeRsaKeyFiles } from './fixtures.js';

async function rs256Config() {
  const keys = await writeRsaKeyFiles();
  const config = withAuth({
    usersFile: await usersFile(),
    tokenSigning: { algorithm: 'RS256', privateKeyFile: keys.privateKeyFile, publicKeyFile: keys.publicKeyFile },
  });
  return { keys, config };
}

test('RS256: a verifier that only fetches /.well-known/jwks.json accepts the issued token', async (t) => {
  const { keys, config } = await rs256Config();
  const app = await buildTestApp(t, { config });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const token = await tokenFor(app, READER);

  const header = decodeProtectedHeader(token);
  assert.equal(header.alg, 'RS256');
  assert.equal(header.kid, await calculateJwkThumbprint(await exportJWK(keys.publicKey)));

  const remoteKeys = createRemoteJWKSet(new URL('/.well-known/jwks.json', address));
  const { payload } = await jwtVerify(token, remoteKeys, { algorithms: ['RS256'] });
  assert.equal(payload.sub, READER.username);
  assert.equal(payload.exp, payload.iat! + 900);

  const response = await listBooks(app, `Bearer ${token}`);
  assert.equal(response.statusCode, 200);
  assert.equal(json(response).user, READER.username);
});

test('GET /.well-known/jwks.json publishes only the public key, with kid, alg and use', async (t) => {
  const { keys, config } = await rs256Config();
  const app = await buildTestApp(t, { config });
  const response = await app.inject({ url: '/.well-known/jwks.json' });
  assert.equal(response.statusCode, 200);
  const { keys: published } = json(response);
  assert.equal(published.length, 1);
  const [jwk] = published;
  const expected = await exportJWK(keys.publicKey);
  assert.equal(jwk.n, expected.n);
  assert.equal(jwk.e, expected.e);
  assert.equal(jwk.kid, await calculateJwkThumbprint(expected));
  assert.equal(jwk.alg, 'RS256');
  assert.equal(jwk.use, 'sig');
  for (const privatePart of ['d', 'p', 'q', 'dp', 'dq', 'qi']) assert.equal(jwk[privatePart], undefined);
});

test('RS256 server answers 401 Invalid token to an HS256 token and to an HS256 token keyed with its public key', async (t) => {
  const { keys, config } = await rs256Config();
  const app = await buildTestApp(t, { config });
  const claims = { sub: READER.username, roles: ['Books.Read'], exp: Math.floor(Date.now() / 1000) + 900 };
  const hs256 = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode('s'.repeat(48)));
  const publicPem = await readFile(keys.publicKeyFile);
  const confused = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(publicPem));
  for (const token of [hs256, confused]) {
    const response = await listBooks(app, `Bearer ${token}`);
    assert.equal(response.statusCode, 401);
    assert.deepEqual(json(response), { detail: 'Invalid token' });
  }
});

test('HS256 server answers 401 to an RS256 token and 404 on /.well-known/jwks.json', async (t) => {
  const { keys } = await rs256Config();
  const app = await buildTestApp(t, { config: await hs256Config() });
  const rs256 = await new SignJWT({
    sub: READER.username,
    roles: ['Books.Read'],
    exp: Math.floor(Date.now() / 1000) + 900,
  })
    .setProtectedHeader({ alg: 'RS256' })
    .sign(keys.privateKey);
  assert.equal((await listBooks(app, `Bearer ${rs256}`)).statusCode, 401);
  const jwks = await app.inject({ url: '/.well-known/jwks.json' });
  assert.equal(jwks.statusCode, 404);
  assert.deepEqual(json(jwks), { detail: 'Not Found' });
});
