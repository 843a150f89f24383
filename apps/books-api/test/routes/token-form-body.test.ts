import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { test } from 'node:test';
import { hs256Config, READER } from '../auth/fixtures.js';
import { buildTestApp, json } from '../helper.js';
import { listeningApp, openSocket, parseResponses, readUntilClosed, type RawResponse } from '../raw-http.js';

/** A server that waits for the whole body never answers: the test fails at this bound instead of hanging. */
const BOUNDED = { timeout: 60_000 };

const BOUNDARY = 'form-boundary-7f3a';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

function multipartBody(fields: [string, string][], extraParts = ''): string {
  const parts = fields.map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return `${parts.join('')}${extraParts}--${BOUNDARY}--\r\n`;
}

const postToken = async (t: Parameters<typeof buildTestApp>[0], contentType: string, payload: string) => {
  const app = await buildTestApp(t, { config: await hs256Config() });
  return app.inject({ method: 'POST', url: '/token', headers: { 'content-type': contentType }, payload });
};

function assertDetail(response: { statusCode: number; body: string }, status: number, detail: RegExp) {
  assert.equal(response.statusCode, status, response.body);
  assert.match(json<{ detail: string }>(response).detail, detail);
}

test('POST /token logs in with a well-formed multipart form', async (t) => {
  const response = await postToken(
    t,
    MULTIPART,
    multipartBody([
      ['username', READER.username],
      ['password', READER.password],
    ]),
  );
  assert.equal(response.statusCode, 200, response.body);
});

test('POST /token answers 400 to a multipart body that is not multipart data', async (t) => {
  assertDetail(await postToken(t, 'multipart/form-data; boundary=zz', 'garbage'), 400, /error parsing the body/);
});

test('POST /token answers 400 to a multipart type without a boundary', async (t) => {
  const body = multipartBody([['username', 'a']]);
  assertDetail(await postToken(t, 'multipart/form-data', body), 400, /^There was an error parsing the body$/);
});

test('POST /token answers 400 to a truncated multipart body', async (t) => {
  const body = multipartBody([
    ['username', READER.username],
    ['password', READER.password],
  ]);
  assertDetail(await postToken(t, MULTIPART, body.slice(0, -20)), 400, /error parsing the body/);
});

test('POST /token answers 413 to a multipart form with a file part', async (t) => {
  const file = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="password"; filename="p.txt"\r\nContent-Type: text/plain\r\n\r\nsecret\r\n`;
  const response = await postToken(t, MULTIPART, multipartBody([['username', READER.username]], file));
  assertDetail(response, 413, /file parts are not accepted/);
});

test('POST /token answers 413 to a multipart form with too many fields', async (t) => {
  const fields = Array.from({ length: 11 }, (_, index): [string, string] => [`field${index}`, 'x']);
  assertDetail(await postToken(t, MULTIPART, multipartBody(fields)), 413, /more than 10 fields/);
});

test('POST /token answers 413 to a field over the field limit, in a multipart and in a urlencoded form', async (t) => {
  const long = 'p'.repeat(16 * 1024 + 1);
  const multipart = await postToken(
    t,
    MULTIPART,
    multipartBody([
      ['username', READER.username],
      ['password', long],
    ]),
  );
  assertDetail(multipart, 413, /the field 'password' is over 16384 bytes/);
  const urlencoded = await postToken(
    t,
    'application/x-www-form-urlencoded',
    new URLSearchParams({ username: READER.username, password: long }).toString(),
  );
  assertDetail(urlencoded, 413, /the field 'password' is over 16384 bytes/);
});

test('POST /token reads a multipart field named __proto__ as a plain field', async (t) => {
  const response = await postToken(
    t,
    MULTIPART,
    multipartBody([
      ['__proto__', 'x'],
      ['username', READER.username],
      ['password', READER.password],
    ]),
  );
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(({} as Record<string, unknown>).x, undefined);
});

/** Waits for the server's answer to a request still being sent; sends `chunk` while it has none. */
async function sendUntilAnswered(
  socket: Socket,
  chunk: Buffer,
  maxBytes: number,
): Promise<{ sent: number; responses: RawResponse[] }> {
  const received = readUntilClosed(socket);
  let answered = false;
  socket.once('data', () => (answered = true));
  let sent = 0;
  while (!answered && !socket.destroyed && sent < maxBytes) {
    // An error (EPIPE, reset) means the server closed the connection: its answer is what counts.
    if (!socket.write(chunk)) await Promise.race([once(socket, 'drain'), once(socket, 'close')]).catch(() => undefined);
    sent += chunk.length;
  }
  return { sent, responses: parseResponses(await received) };
}

for (const [label, contentType] of [
  ['multipart', MULTIPART],
  ['urlencoded', 'application/x-www-form-urlencoded'],
] as const) {
  test(
    `POST /token answers 413 to a declared 100 MiB ${label} body without waiting for it, and closes the connection`,
    BOUNDED,
    async (t) => {
      const { port } = await listeningApp(t, { config: await hs256Config() });
      const socket = await openSocket(port);
      const received = readUntilClosed(socket);
      socket.write(
        `POST /token HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`,
      );
      socket.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="username"\r\n\r\n`);
      // The rest of the 100 MiB is never sent: the answer must not depend on it.
      const [response, ...more] = parseResponses(await received);
      assert.equal(response?.status, 413);
      assert.equal(response.headers.connection, 'close');
      assert.match(JSON.parse(response.body).detail, /^Request body is too large/);
      assert.equal(more.length, 0);
    },
  );

  test(`POST /token answers 413 to a chunked ${label} body as soon as it passes the limit`, BOUNDED, async (t) => {
    const { port } = await listeningApp(t, { config: await hs256Config() });
    const socket = await openSocket(port);
    socket.write(
      `POST /token HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const piece = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"\r\n\r\n${'x'.repeat(1000)}\r\n`;
    const chunk = Buffer.from(`${piece.length.toString(16)}\r\n${piece}\r\n`);
    const { sent, responses } = await sendUntilAnswered(socket, chunk, 64 * 1024 * 1024);
    assert.equal(responses[0]?.status, 413, JSON.stringify(responses));
    assert.ok(sent < 64 * 1024 * 1024, 'answered before the client stopped sending');
  });
}

test('POST /api/v1/books answers 413 to a chunked JSON body as soon as it passes the limit', BOUNDED, async (t) => {
  const { port, app } = await listeningApp(t);
  const socket = await openSocket(port);
  socket.write(
    'POST /api/v1/books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
  );
  const piece = `{"title":"${'x'.repeat(8000)}",`;
  const chunk = Buffer.from(`${piece.length.toString(16)}\r\n${piece}\r\n`);
  const { sent, responses } = await sendUntilAnswered(socket, chunk, 64 * 1024 * 1024);
  assert.equal(responses[0]?.status, 413);
  assert.match(JSON.parse(responses[0].body).detail, /^Request body is too large/);
  assert.ok(sent < 64 * 1024 * 1024);
  assert.equal(await app.bookStore.count(), 3);
});
