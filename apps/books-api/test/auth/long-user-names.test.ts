import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp, json } from '../helper.js';
import { listeningServer, waitForLine } from '../server-process.js';
import { FORM, hs256Config, loginForm, newSecret, writeUsersFile } from './fixtures.js';

/** 256 characters (code points) that are 512 UTF-16 units: the limit counts characters. */
const LONGEST_NAME = '\u{1d49c}'.repeat(256);

test('a user name of 256 characters logs in; with one more character it is 401 Incorrect credentials', async (t) => {
  const user = { username: LONGEST_NAME, password: 'long-name-password', roles: ['Books.Read'] };
  const app = await buildTestApp(t, {
    config: await hs256Config(undefined, { usersFile: await writeUsersFile([user]) }),
  });
  const send = (username: string, password: string) =>
    app.inject({ method: 'POST', url: '/token', headers: FORM, payload: loginForm({ username, password }) });
  assert.equal((await send(user.username, user.password)).statusCode, 200);
  const tooLong = await send(`${user.username}x`, user.password);
  assert.equal(tooLong.statusCode, 401, tooLong.body);
  assert.deepEqual(json(tooLong), { detail: 'Incorrect credentials' });
  assert.equal(tooLong.headers['www-authenticate'], 'Bearer');
});

test('no log line shows more than the first 64 characters of a user name that failed to log in', async (t) => {
  const server = await listeningServer({
    LOG_LEVEL: 'debug',
    JWT_SECRET_KEY: newSecret(),
    USERS_FILE: await writeUsersFile([{ username: 'reader', password: 'reader-password', roles: [] }]),
  });
  t.after(() => server.child.kill('SIGKILL'));
  const shown = 'n'.repeat(64);
  for (const username of [`${shown}${'TAIL'.repeat(4000)}`, `${shown}TAIL`]) {
    const response = await fetch(`http://127.0.0.1:${server.port}/token`, {
      method: 'POST',
      headers: { ...FORM, 'x-request-id': `long-name-${username.length}` },
      body: loginForm({ username, password: 'wrong' }),
    });
    assert.equal(response.status, 401);
    await waitForLine(server, new RegExp(`"reqId":"long-name-${username.length}".*"status":401`));
  }
  const failed = server.lines.filter((line) => line.includes('failed login'));
  assert.equal(failed.length, 2);
  for (const line of failed) assert.equal(JSON.parse(line).username, shown);
  assert.deepEqual(
    server.lines.filter((line) => line.includes('TAIL')),
    [],
  );
});
