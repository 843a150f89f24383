import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { hashPassword } from '../../src/auth/password-hashing.js';
import { buildTestApp } from '../helper.js';
import { hs256Config, login, writeScratchFile } from './fixtures.js';

/** The reference implementation (libargon2's command-line tool, Debian package `argon2`). */
function referenceHash(password: string, salt: string): string {
  return execFileSync('argon2', [salt, '-id', '-t', '2', '-k', '19456', '-p', '1', '-e'], { input: password })
    .toString()
    .trim();
}

test('the service hashes a password exactly as the reference argon2 implementation does', async () => {
  const salt = 'reference-salt-1';
  assert.equal(await hashPassword('s3cret-pass', Buffer.from(salt)), referenceHash('s3cret-pass', salt));
});

test('POST /token accepts users whose hashes come from the reference implementation, in either parameter order', async (t) => {
  const reference = referenceHash('ref-password', 'reference-salt-2');
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
