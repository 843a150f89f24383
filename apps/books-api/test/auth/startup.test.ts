import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { hashPassword } from '../../src/auth/password-hashing.js';
import { newSecret, usersFile, writeRsaKeyFiles, writeScratchFile } from './fixtures.js';

const APP_DIR = fileURLToPath(new URL('../..', import.meta.url));

interface Outcome {
  code: number | null;
  output: string;
}

/** Starts src/server.ts with `env`; resolves when it exits, or kills it once it listens. */
function startServer(env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: APP_DIR,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Server listening/.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function assertRefusesToStart(env: Record<string, string>, ...expected: RegExp[]) {
  const { code, output } = await startServer(env);
  assert.equal(code, 1, output);
  assert.doesNotMatch(output, /Server listening/);
  for (const pattern of expected) assert.match(output, pattern);
}

const hs256 = { JWT_SECRET_KEY: newSecret() };
const entry = async (overrides: Record<string, unknown> = {}) => ({
  username: 'someone',
  password_hash: await hashPassword('pw'),
  roles: ['Books.Read'],
  ...overrides,
});

test('the server starts with a valid users file and secret (control for the refusals below)', async () => {
  const { output } = await startServer({ ...hs256, USERS_FILE: await usersFile() });
  assert.match(output, /Server listening/);
  assert.match(output, /token login ready/);
});

test('without JWT_SECRET_KEY the start-up log says token login is not configured, never that it is ready', async () => {
  const { output } = await startServer({ USERS_FILE: await usersFile() });
  assert.match(output, /Server listening/);
  assert.match(output, /token login not configured/);
  assert.doesNotMatch(output, /token login ready/);
});

test('the server refuses a JWT_SECRET_KEY shorter than 32 bytes and says why', async () => {
  await assertRefusesToStart({ JWT_SECRET_KEY: 'x'.repeat(31) }, /JWT_SECRET_KEY/, /at least 32 bytes/);
  const { output } = await startServer({ JWT_SECRET_KEY: 'short-secret-value' });
  assert.doesNotMatch(output, /short-secret-value/, 'the secret itself is never printed');
});

test('the server refuses bad AUTH_REQUIRED, JWT_ALGORITHM and rate-limit values, naming the variable', async () => {
  await assertRefusesToStart({ AUTH_REQUIRED: 'ture' }, /AUTH_REQUIRED/);
  await assertRefusesToStart({ JWT_ALGORITHM: 'none' }, /JWT_ALGORITHM/);
  await assertRefusesToStart({ LOGIN_MAX_FAILURES_PER_USERNAME: '0' }, /LOGIN_MAX_FAILURES_PER_USERNAME/);
});

test('the server starts with LOGIN_MAX_FAILURES_PER_USERNAME raised alone; it refuses a contradiction set explicitly, naming both', async () => {
  const { output } = await startServer({ ...hs256, LOGIN_MAX_FAILURES_PER_USERNAME: '200' });
  assert.match(output, /Server listening/);
  await assertRefusesToStart(
    { LOGIN_MAX_FAILURES_PER_USERNAME: '200', LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS: '100' },
    /LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS/,
    /LOGIN_MAX_FAILURES_PER_USERNAME \(200\)/,
  );
});

test('the server refuses a users file it cannot use, naming the file, the entry and the field', async (t) => {
  const cases: [string, string, RegExp[]][] = [
    ['missing file', '/nonexistent/users.json', [/USERS_FILE \/nonexistent\/users\.json/, /cannot be read \(ENOENT\)/]],
    ['invalid JSON', await writeScratchFile('users.json', '[{"username": '), [/is not valid JSON/]],
    ['not an array', await writeScratchFile('users.json', '{"username":"a"}'), [/must hold a JSON array/]],
    [
      'missing username',
      await writeScratchFile('users.json', JSON.stringify([await entry(), await entry({ username: undefined })])),
      [/entry \[1\] field "username" must be a non-empty string/],
    ],
    [
      'argon2i hash',
      await writeScratchFile(
        'users.json',
        JSON.stringify([
          await entry({ password_hash: '$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNo' }),
        ]),
      ),
      [/entry \[0\] \("someone"\) field "password_hash"/, /only argon2id/],
    ],
    [
      'plain-text password',
      await writeScratchFile('users.json', JSON.stringify([await entry({ password_hash: 'hunter2' })])),
      [/entry \[0\] \("someone"\) field "password_hash" is not an argon2id PHC hash/],
    ],
    [
      'roles not a list',
      await writeScratchFile('users.json', JSON.stringify([await entry({ roles: 'Books.Read' })])),
      [/entry \[0\] \("someone"\) field "roles" must be an array/],
    ],
    [
      'duplicate username',
      await writeScratchFile('users.json', JSON.stringify([await entry(), await entry({ roles: [] })])),
      [/entry \[1\] field "username": "someone" is already defined by entry \[0\]/],
    ],
    [
      'user name over 256 characters',
      await writeScratchFile('users.json', JSON.stringify([await entry({ username: '\u{1d49c}'.repeat(257) })])),
      [/entry \[0\] field "username" is longer than 256 characters/],
    ],
    [
      'unknown field',
      await writeScratchFile('users.json', JSON.stringify([await entry({ password: 'pw' })])),
      [/entry \[0\] has the unknown field "password"/],
    ],
  ];
  for (const [name, path, expected] of cases) {
    await t.test(name, () => assertRefusesToStart({ ...hs256, USERS_FILE: path }, ...expected));
  }
  await t.test('a folder instead of a file', () =>
    assertRefusesToStart({ ...hs256, USERS_FILE: APP_DIR }, /cannot be read \(EISDIR\)/),
  );
});

test('the server refuses RS256 without key files, with unreadable or mismatched keys', async () => {
  await assertRefusesToStart({ JWT_ALGORITHM: 'RS256' }, /JWT_PRIVATE_KEY_FILE/, /required when JWT_ALGORITHM=RS256/);
  const one = await writeRsaKeyFiles();
  const other = await writeRsaKeyFiles();
  await assertRefusesToStart(
    { JWT_ALGORITHM: 'RS256', JWT_PRIVATE_KEY_FILE: one.privateKeyFile, JWT_PUBLIC_KEY_FILE: other.publicKeyFile },
    /is not the public key of JWT_PRIVATE_KEY_FILE/,
  );
  await assertRefusesToStart(
    { JWT_ALGORITHM: 'RS256', JWT_PRIVATE_KEY_FILE: one.publicKeyFile, JWT_PUBLIC_KEY_FILE: one.publicKeyFile },
    /JWT_PRIVATE_KEY_FILE .* is not a PKCS#8 PEM RSA private key/,
  );
  await assertRefusesToStart(
    {
      JWT_ALGORITHM: 'RS256',
      JWT_PRIVATE_KEY_FILE: one.privateKeyFile,
      JWT_PUBLIC_KEY_FILE: '/nonexistent/public.pem',
    },
    /JWT_PUBLIC_KEY_FILE \/nonexistent\/public\.pem: cannot be read/,
  );
});
