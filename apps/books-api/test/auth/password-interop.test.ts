/**
 * Our argon2id hashes (the `argon2` package, a binding of the reference C library) against an
 * independent implementation: @noble/hashes' audited JavaScript argon2id. The same comparison
 * with libargon2's command-line tool runs in the system suite (system/password-cli-interop.test.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { argon2id } from '@noble/hashes/argon2.js';
import { ARGON2ID_PARAMETERS, hashPassword } from '../../src/auth/password-hashing.js';
import { buildTestApp } from '../helper.js';
import { hs256Config, login, writeScratchFile } from './fixtures.js';

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64').replace(/=+$/, '');

/** The PHC string of the independent implementation, parameters in the reference order m, t, p. */
function independentHash(password: string, salt: string): string {
  const { memoryCost: m, timeCost: t, parallelism: p } = ARGON2ID_PARAMETERS;
  const hash = argon2id(password, salt, { m, t, p, dkLen: 32 });
  return `$argon2id$v=19$m=${m},t=${t},p=${p}$${base64(Buffer.from(salt))}$${base64(hash)}`;
}

test('the service hashes a password exactly as an independent argon2id implementation does', async () => {
  for (const [password, salt] of [
    ['s3cret-pass', 'reference-salt-1'],
    ['pässwörd ✓ with spaces', 'another-salt-16b'],
  ] as const) {
    assert.equal(await hashPassword(password, Buffer.from(salt)), independentHash(password, salt));
  }
});

test('POST /token accepts users whose hashes come from an independent implementation, in either parameter order', async (t) => {
  const reference = independentHash('ref-password', 'reference-salt-2');
  assert.match(reference, /\$m=19456,t=2,p=1\$/);
  const reordered = reference.replace('m=19456,t=2,p=1', 'm=19456,p=1,t=2');
  const usersFile = await writeScratchFile(
    'users.json',
    JSON.stringify([
      { username: 'canonical', password_hash: reference, roles: [] },
      { username: 'reordered', password_hash: reordered, roles: [] },
    ]),
  );
  const app = await buildTestApp(t, { config: await hs256Config(undefined, { usersFile }) });
  assert.equal((await login(app, { username: 'canonical', password: 'ref-password' })).statusCode, 200);
  assert.equal((await login(app, { username: 'reordered', password: 'ref-password' })).statusCode, 200);
  assert.equal((await login(app, { username: 'canonical', password: 'wrong' })).statusCode, 401);
});
