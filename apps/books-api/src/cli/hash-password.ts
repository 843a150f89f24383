/**
 * Prints the argon2id PHC hash of a password read from standard input, for the
 * `password_hash` field of a USERS_FILE entry:
 *
 *   printf '%s' 'my password' | npm run --silent hash-password
 *
 * Only the hash goes to stdout, so the output can be captured as is. On a terminal the
 * password is read without echo.
 */
import { hashPassword } from '../auth/password-hashing.js';

async function readPiped(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // `echo pw | ...` adds one line break that is not part of the password.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

function readFromTerminal(): Promise<string> {
  const input = process.stdin;
  process.stderr.write('Password: ');
  input.setRawMode(true);
  input.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let password = '';
    const finish = (outcome: () => void) => {
      input.setRawMode(false);
      input.pause();
      input.removeListener('data', onData);
      process.stderr.write('\n');
      outcome();
    };
    const onData = (keys: string) => {
      for (const key of keys) {
        if (key === '\r' || key === '\n' || key === '\u0004') return finish(() => resolve(password));
        if (key === '\u0003') return finish(() => reject(new Error('cancelled')));
        if (key === '\u007f' || key === '\b') password = [...password].slice(0, -1).join('');
        else password += key;
      }
    };
    input.on('data', onData);
  });
}

async function main(): Promise<void> {
  const password = process.stdin.isTTY ? await readFromTerminal() : await readPiped();
  if (password.length === 0) {
    process.stderr.write('hash-password: refusing to hash an empty password (pass it on standard input)\n');
    process.exitCode = 2;
    return;
  }
  process.stdout.write(`${await hashPassword(password)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`hash-password: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
