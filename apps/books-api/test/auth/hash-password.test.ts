import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import argon2 from 'argon2';

const REPO_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

/** Runs the documented command at the repository root with `input` on standard input. */
function hashPasswordCommand(input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'hash-password'], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

test('npm run --silent hash-password prints only the argon2id hash of the password on stdin', async () => {
  const { code, stdout } = await hashPasswordCommand('correct horse battery staple\n');
  assert.equal(code, 0);
  assert.match(stdout, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+\n$/);
  const hash = stdout.trim();
  assert.equal(
    await argon2.verify(hash, 'correct horse battery staple'),
    true,
    'the trailing line break is not part of the password',
  );
  assert.equal(await argon2.verify(hash, 'correct horse battery staple\n'), false);
});

test('npm run --silent hash-password refuses an empty password', async () => {
  const { code, stdout, stderr } = await hashPasswordCommand('');
  assert.notEqual(code, 0);
  assert.equal(stdout, '');
  assert.match(stderr, /refusing to hash an empty password/);
});
