import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultConfig } from '../../src/config.js';
import { hs256Config } from '../auth/fixtures.js';
import { exchange, listeningApp, openSocket, parseResponses, readUntilClosed, type RawResponse } from '../raw-http.js';

/** A server that waits for a client forever fails these tests at this bound instead of hanging. */
const BOUNDED = { timeout: 60_000 };

function assertContractAnswer(response: RawResponse | undefined, status: number, detail: RegExp) {
  assert.ok(response !== undefined, 'an answer');
  assert.equal(response.status, status, response.body);
  assert.match(response.headers['content-type'] ?? '', /^application\/json/);
  assert.match(JSON.parse(response.body).detail, detail);
  assert.match(response.headers['x-request-id'] ?? '', /^[\x21-\x7e]{1,128}$/);
}

const GET = 'GET /api/ps HTTP/1.1\r\nHost: localhost\r\n';

test('a malformed request line is answered 400 in the contract shape and the connection is closed', async (t) => {
  const { port } = await listeningApp(t);
  const responses = await exchange(port, 'NOT A REQUEST LINE\r\n\r\n');
  assert.equal(responses.length, 1);
  assertContractAnswer(responses[0], 400, /could not be parsed/);
  assert.equal(responses[0]?.headers.connection, 'close');
});

test('a malformed header line is answered 400 in the contract shape', async (t) => {
  const { port } = await listeningApp(t);
  assertContractAnswer((await exchange(port, `${GET}Bad Header\r\n\r\n`))[0], 400, /could not be parsed/);
});

test('headers over 16 KiB are answered 431 in the contract shape', async (t) => {
  const { port } = await listeningApp(t);
  const big = `X-Filler: ${'a'.repeat(17 * 1024)}\r\n`;
  assertContractAnswer((await exchange(port, `${GET}${big}\r\n`))[0], 431, /too large/);
});

test('an Expect other than 100-continue is answered 417 in the contract shape', async (t) => {
  const { port } = await listeningApp(t);
  const responses = await exchange(port, `${GET}Expect: foo\r\n\r\n`);
  assertContractAnswer(responses[0], 417, /100-continue/);
});

test('an HTTP/1.1 request without Host is answered 400 in the contract shape', async (t) => {
  const { port } = await listeningApp(t);
  const responses = await exchange(port, 'GET /api/ps HTTP/1.1\r\n\r\n');
  assertContractAnswer(responses[0], 400, /Host header/);
  assert.equal(responses[0]?.headers.connection, 'close');
});

test('an HTTP/1.0 request without Host is served', async (t) => {
  const { port } = await listeningApp(t);
  assert.equal((await exchange(port, 'GET /api/ps HTTP/1.0\r\n\r\n'))[0]?.status, 200);
});

test('a POST pipelined ahead of a malformed request gets its 201 before the 400', async (t) => {
  const { port, app } = await listeningApp(t);
  const body = JSON.stringify({ title: 'Pipelined', author: 'A', year: 2001 });
  const post = `POST /api/v1/books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const responses = await exchange(port, `${post}GET /\x01 HTTP/1.1\r\n\r\n`);
  assert.deepEqual(
    responses.map(({ status }) => status),
    [201, 400],
  );
  assert.equal(JSON.parse(responses[0]!.body).title, 'Pipelined');
  assertContractAnswer(responses[1], 400, /could not be parsed/);
  assert.equal(await app.bookStore.count(), 4);
});

test('requests pipelined ahead of a malformed request, slow ones among them, get their answers in order before the 400', async (t) => {
  const { port } = await listeningApp(t, { config: await hs256Config() });
  const form = 'username=someone&password=wrong';
  // The password checks take a while: the parse error comes while both logins' answers are still
  // to be produced, and the GET's answer between them is ready first and waits behind the first.
  const login = `POST /token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form}`;
  // The connection stays open on the client's side: the server is the one that closes it, after the 400.
  const socket = await openSocket(port);
  const received = readUntilClosed(socket);
  socket.write(`${login}${GET}\r\n${login}GET /\x01 HTTP/1.1\r\n\r\n`);
  const responses = parseResponses(await received);
  assert.deepEqual(
    responses.map(({ status }) => status),
    [401, 200, 401, 400],
  );
  assertContractAnswer(responses[3], 400, /could not be parsed/);
});

test(
  'a client that sends its headers too slowly is answered 408 and cut, while others are served',
  BOUNDED,
  async (t) => {
    const connections = { ...defaultConfig().connections, headersTimeoutMs: 1000, requestTimeoutMs: 2000 };
    const { port } = await listeningApp(t, { config: { connections } });
    const slow = await openSocket(port);
    const received = readUntilClosed(slow);
    slow.write('GET /api/ps HTTP/1.1\r\nHost: local');
    // Served while the slow client holds its connection.
    assert.equal((await fetch(`http://127.0.0.1:${port}/api/ps`)).status, 200);
    const trickle = setInterval(() => slow.write('h'), 200);
    t.after(() => clearInterval(trickle));
    const [response] = parseResponses(await received);
    assertContractAnswer(response, 408, /not received in time/);
  },
);

test('a client that trickles its body is answered 408 and cut', BOUNDED, async (t) => {
  const connections = { ...defaultConfig().connections, headersTimeoutMs: 1000, requestTimeoutMs: 2000 };
  const { port, app } = await listeningApp(t, { config: { connections } });
  const slow = await openSocket(port);
  const received = readUntilClosed(slow);
  slow.write(
    'POST /api/v1/books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
  );
  const trickle = setInterval(() => slow.write(' '), 200);
  t.after(() => clearInterval(trickle));
  const [response] = parseResponses(await received);
  clearInterval(trickle);
  assertContractAnswer(response, 408, /not received in time/);
  assert.equal(await app.bookStore.count(), 3);
});

test('CONNECT is answered 400 in the contract shape, after the answer to a request pipelined ahead of it', async (t) => {
  const { port } = await listeningApp(t);
  const responses = await exchange(
    port,
    `${GET}\r\nCONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nX-Request-ID: connect-1\r\n\r\n`,
  );
  assert.deepEqual(
    responses.map(({ status }) => status),
    [200, 400],
  );
  assertContractAnswer(responses[1], 400, /CONNECT is not supported/);
  assert.equal(responses[1]?.headers['x-request-id'], 'connect-1');
  assert.equal(responses[1]?.headers.connection, 'close');
});

test('a client that half-closes after sending a login still gets its answer', async (t) => {
  const { port } = await listeningApp(t, { config: await hs256Config() });
  const form = 'username=someone&password=wrong';
  // The password check takes a while: the client's FIN arrives long before the answer is ready.
  const responses = await exchange(
    port,
    `POST /token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form}`,
  );
  assert.equal(responses.length, 1);
  assertContractAnswer(responses[0], 401, /Incorrect credentials/);
});

test('a request asking for a protocol upgrade is answered as HTTP/1.1 and its connection closed', async (t) => {
  const { port } = await listeningApp(t);
  // Node reads nothing more on a connection after such a request: the pipelined GET would wait forever.
  const responses = await exchange(port, `${GET}Connection: Upgrade\r\nUpgrade: h2c\r\n\r\n${GET}\r\n`);
  assert.equal(responses.length, 1);
  assert.equal(responses[0]?.status, 200);
  assert.equal(responses[0]?.headers.connection, 'close');
});
