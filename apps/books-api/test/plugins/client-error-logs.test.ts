import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test, type TestContext } from 'node:test';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { defaultConfig } from '../../src/config.js';
import { createSeededStore } from '../../src/plugins/app/book-store.js';
import type { BookStore } from '../../src/store/book-store.js';
import { hs256Config } from '../auth/fixtures.js';
import { exchange, openSocket } from '../raw-http.js';

interface LogLine {
  level: number;
  msg?: string;
  err?: { stack?: string };
}

const ERROR = 50;
const INFO = 30;

/** A listening app whose pino logger (at debug, so every line is seen) writes into `lines`. */
async function loggedServer(t: TestContext, store?: BookStore) {
  const lines: LogLine[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as LogLine);
      done();
    },
  });
  const base = await hs256Config();
  const app = await buildApp({
    config: defaultConfig(base),
    logger: pino({ level: 'debug' }, destination),
    store,
  });
  t.after(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { lines, port: address.port };
}

const post = (path: string, type: string, body: string, length = Buffer.byteLength(body)) =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n${body}`;

test(
  'client errors and client aborts are logged below error level and without stack traces',
  { timeout: 60_000 },
  async (t) => {
    const { lines, port } = await loggedServer(t);
    const statuses = [
      await exchange(port, 'NOT A REQUEST LINE\r\n\r\n'),
      await exchange(port, `GET /api/ps HTTP/1.1\r\nHost: localhost\r\nX-Filler: ${'a'.repeat(17 * 1024)}\r\n\r\n`),
      await exchange(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n'),
      await exchange(port, 'GET /nowhere HTTP/1.1\r\nHost: localhost\r\n\r\n'),
      await exchange(port, post('/api/v1/books', 'application/json', '{"title":')),
      await exchange(port, post('/api/v1/books', 'application/json', '{}', 100 * 1024 * 1024)),
      await exchange(port, post('/api/v1/books', 'text/plain', 'hello')),
      await exchange(port, post('/token', 'multipart/form-data; boundary=zz', 'garbage')),
      await exchange(port, post('/token', 'application/x-www-form-urlencoded', 'username=u&password=wrong')),
    ].map((responses) => responses[0]?.status);
    assert.deepEqual(statuses, [400, 431, 400, 404, 422, 413, 415, 400, 401]);

    // A client that goes away in the middle of its body.
    const aborting = await openSocket(port);
    aborting.write(post('/api/v1/books', 'application/json', '{"title":"t"', 1000));
    await exchange(port, 'GET /api/ps HTTP/1.1\r\nHost: localhost\r\n\r\n');
    aborting.destroy();
    // One more round trip: the server has seen the abort by the time it answers.
    await exchange(port, 'GET /api/ps HTTP/1.1\r\nHost: localhost\r\n\r\n');

    const loud = lines.filter((line) => line.level >= ERROR);
    assert.deepEqual(loud, [], 'a client error was logged at error level');
    const withStack = lines.filter((line) => line.level >= INFO && line.err?.stack !== undefined);
    assert.deepEqual(withStack, [], 'a client error was logged with a stack trace at info or above');
    assert.ok(lines.some((line) => line.level === INFO && /client error/.test(line.msg ?? '')));
  },
);

test('a fault of the service is logged at error level with its stack', async (t) => {
  const store = createSeededStore();
  store.list = () => {
    throw new Error('the store broke');
  };
  const { lines, port } = await loggedServer(t, store);
  const [response] = await exchange(port, 'GET /api/v1/books HTTP/1.1\r\nHost: localhost\r\n\r\n');
  assert.equal(response?.status, 500);
  const fault = lines.find((line) => line.level === ERROR);
  assert.match(fault?.err?.stack ?? '', /the store broke/);
});
