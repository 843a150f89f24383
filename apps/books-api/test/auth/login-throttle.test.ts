import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp, json } from '../helper.js';
import { READER, WRITER, hs256Config, login } from './fixtures.js';

const throttle = {
  maxFailuresPerUsername: 3,
  maxFailuresPerClient: 6,
  maxFailuresPerUsernameAllClients: 8,
  windowSeconds: 120,
};

function assertThrottled(response: { statusCode: number; body: string; headers: Record<string, unknown> }) {
  assert.equal(response.statusCode, 429, response.body);
  const retryAfter = Number(response.headers['retry-after']);
  assert.ok(
    Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= throttle.windowSeconds,
    `Retry-After ${retryAfter}`,
  );
  assert.match(json(response).detail, /^Too many failed login attempts; try again in \d+ seconds$/);
}

test('POST /token answers 429 with Retry-After once a user name has used up its failed logins from one client; that user still logs in from another', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(undefined, { loginThrottle: throttle }) });
  const attacker = '192.0.2.66';
  for (let attempt = 1; attempt <= throttle.maxFailuresPerUsername; attempt += 1) {
    const response = await login(app, { username: READER.username, password: `guess-${attempt}` }, attacker);
    assert.equal(response.statusCode, 401);
  }
  assertThrottled(await login(app, { username: READER.username, password: 'guess-4' }, attacker));
  // Even the right password waits: otherwise guessing could go on and only the hit would get through.
  assertThrottled(await login(app, { username: READER.username, password: READER.password }, attacker));
  const elsewhere = await login(app, { username: READER.username, password: READER.password }, '198.51.100.9');
  assert.equal(elsewhere.statusCode, 200, 'the same user logs in from another client');
  const other = await login(app, { username: WRITER.username, password: WRITER.password }, attacker);
  assert.equal(other.statusCode, 200, 'another user logs in from the attacking client');
});

test('POST /token answers 429 once a user name has used up its failed logins over all clients, from any client', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(undefined, { loginThrottle: throttle }) });
  for (let attempt = 1; attempt <= throttle.maxFailuresPerUsernameAllClients; attempt += 1) {
    // Each from its own client, so only the all-clients limit can be reached.
    const response = await login(app, { username: READER.username, password: `guess-${attempt}` }, `10.0.0.${attempt}`);
    assert.equal(response.statusCode, 401);
  }
  assertThrottled(await login(app, { username: READER.username, password: READER.password }, '10.0.0.200'));
  const other = await login(app, { username: WRITER.username, password: WRITER.password }, '10.0.0.200');
  assert.equal(other.statusCode, 200, 'another user logs in');
});

test('POST /token answers 429 once one client has used up its failed logins; other clients still log in', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(undefined, { loginThrottle: throttle }) });
  const attacker = '192.0.2.7';
  for (let attempt = 1; attempt <= throttle.maxFailuresPerClient; attempt += 1) {
    // A different user name each time, so only the per-client limit can be reached.
    assert.equal((await login(app, { username: `user-${attempt}`, password: 'guess' }, attacker)).statusCode, 401);
  }
  assertThrottled(await login(app, { username: 'user-next', password: 'guess' }, attacker));
  const elsewhere = await login(app, { username: READER.username, password: READER.password }, '198.51.100.1');
  assert.equal(elsewhere.statusCode, 200);
});

test('POST /token does not count successful logins against the limits', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(undefined, { loginThrottle: throttle }) });
  for (let attempt = 0; attempt < throttle.maxFailuresPerClient + 2; attempt += 1) {
    assert.equal((await login(app, { username: READER.username, password: READER.password })).statusCode, 200);
  }
});

/** Statuses of `count` logins sent at once; `fields(i)` and `client(i)` vary them. */
async function burst(
  app: Awaited<ReturnType<typeof buildTestApp>>,
  count: number,
  fields: (index: number) => Record<string, string>,
  client: (index: number) => string,
) {
  return Promise.all(Array.from({ length: count }, (_, index) => login(app, fields(index), client(index))));
}

const statusCounts = (responses: { statusCode: number }[]) =>
  responses.reduce<Record<number, number>>(
    (counts, { statusCode }) => ({ ...counts, [statusCode]: (counts[statusCode] ?? 0) + 1 }),
    {},
  );

test('POST /token gives a parallel burst from one client no more password checks than the client limit', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(undefined, { loginThrottle: throttle }) });
  const responses = await burst(
    app,
    100,
    (index) => ({ username: `user-${index}`, password: 'guess' }),
    () => '192.0.2.50',
  );
  assert.deepEqual(statusCounts(responses), {
    401: throttle.maxFailuresPerClient,
    429: 100 - throttle.maxFailuresPerClient,
  });
  for (const response of responses.filter(({ statusCode }) => statusCode === 429)) assertThrottled(response);
});

test('POST /token gives a parallel burst against one user name from many clients no more password checks than the all-clients limit', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(undefined, { loginThrottle: throttle }) });
  const responses = await burst(
    app,
    50,
    (index) => ({ username: READER.username, password: `guess-${index}` }),
    (index) => `10.1.${index}.1`,
  );
  assert.deepEqual(statusCounts(responses), {
    401: throttle.maxFailuresPerUsernameAllClients,
    429: 50 - throttle.maxFailuresPerUsernameAllClients,
  });
});

test('POST /token gives a parallel burst against one user name from one client no more password checks than the per-user-name limit', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(undefined, { loginThrottle: throttle }) });
  const responses = await burst(
    app,
    30,
    (index) => ({ username: READER.username, password: `guess-${index}` }),
    () => '192.0.2.77',
  );
  assert.deepEqual(statusCounts(responses), {
    401: throttle.maxFailuresPerUsername,
    429: 30 - throttle.maxFailuresPerUsername,
  });
});

test('POST /token answers 503 with Retry-After when more logins wait for a password check than the queue holds', async (t) => {
  const app = await buildTestApp(t, {
    config: await hs256Config(undefined, {
      loginThrottle: {
        maxFailuresPerUsername: 1_000,
        maxFailuresPerClient: 1_000,
        maxFailuresPerUsernameAllClients: 2_000,
        windowSeconds: 60,
      },
      passwordVerifications: { maxConcurrent: 1, maxQueued: 1 },
    }),
  });
  const responses = await burst(
    app,
    12,
    () => ({ username: READER.username, password: READER.password }),
    (index) => `10.2.${index}.1`,
  );
  const counts = statusCounts(responses);
  assert.deepEqual(Object.keys(counts).sort(), ['200', '503'], JSON.stringify(counts));
  for (const response of responses.filter(({ statusCode }) => statusCode === 503)) {
    assert.equal(response.headers['retry-after'], '1');
    assert.match(json(response).detail, /^Too many logins are being checked/);
  }
  // A refused login was never judged, so it did not use up an attempt; the slots are free again.
  assert.equal((await login(app, { username: READER.username, password: READER.password })).statusCode, 200);
});

test('POST /token counts an IPv6 client by its /64: moving through its addresses does not reset the limit', async (t) => {
  const app = await buildTestApp(t, { config: await hs256Config(undefined, { loginThrottle: throttle }) });
  for (let attempt = 1; attempt <= throttle.maxFailuresPerClient; attempt += 1) {
    const from = `2001:db8:7:7::${attempt.toString(16)}`;
    assert.equal((await login(app, { username: `user-${attempt}`, password: 'guess' }, from)).statusCode, 401);
  }
  assertThrottled(await login(app, { username: 'user-next', password: 'guess' }, '2001:db8:7:7:ffff::1'));
  const neighbour = await login(app, { username: READER.username, password: READER.password }, '2001:db8:7:8::1');
  assert.equal(neighbour.statusCode, 200, 'the next /64 is another client');
});
