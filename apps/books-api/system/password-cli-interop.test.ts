/**
 * Our argon2id hashes against libargon2's own command-line tool (Debian package `argon2`, which
 * .ci/run installs before this suite). `npm test` makes the same comparison with an independent
 * implementation from the npm registry (test/auth/password-interop.test.ts).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { hashPassword } from '../src/auth/password-hashing.js';
import { buildTestApp } from '../test/helper.js';
import { hs256Config, login, writeScratchFile } from '../test/auth/fixtures.js';

/** The reference implementation's CLI, with our cost parameters. */
function referenceHash(password: string, salt: string): string {
  return execFileSync('argon2', [salt, '-id', '-t', '2', '-k', '19456', '-p', '1', '-e'], { input: password })
    .toString()
    .trim();
}

test('the service hashes a password exactly as the argon2 command-line tool does', async () => {
  const salt = 'reference-salt-1';
  assert.equal(await hashPassword('s3cret-pass', Buffer.from(salt)), referenceHash('s3cret-pass', salt));
});

test('POST /token accepts users whose hashes come from the argon2 command-line tool', async (t) => {
  const usersFile = await writeScratchFile(
    'users.json',
    JSON.stringify([{ username: 'cli', password_hash: referenceHash('ref-password', 'reference-salt-2'), roles: [] }]),
  );
  const app = await buildTestApp(t, { config: await hs256Config(undefined, { usersFile }) });
  assert.equal((await login(app, { username: 'cli', password: 'ref-password' })).statusCode, 200);
  assert.equal((await login(app, { username: 'cli', password: 'wrong' })).statusCode, 401);
});
