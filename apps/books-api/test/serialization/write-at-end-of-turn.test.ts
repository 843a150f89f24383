import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test, type TestContext } from 'node:test';
import Fastify from 'fastify';
import pino from 'pino';
import { writeAtEndOfTurn } from '../../src/serialization/book-json.js';
import { exchange, listeningApp, openSocket } from '../raw-http.js';

const BOOK = '/api/v1/books/3fa85f64-5717-4562-b3fc-2c963f66afa6';

/** A Fastify app with only the hook and routes that report what a send did at once. */
async function probeApp(t: TestContext, enabled: boolean, lines: string[] = []) {
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
  const app = Fastify({ loggerInstance: logger });
  if (enabled) app.addHook('onSend', writeAtEndOfTurn);
  const writtenAtOnce: boolean[] = [];
  app.get('/sync', (_request, reply) => {
    reply.send('answered');
    writtenAtOnce.push(reply.raw.writableEnded);
  });
  // Headers written around Fastify: its own write of them fails when the batch is released.
  app.get('/broken', (_request, reply) => {
    reply.raw.writeHead(200, { 'content-type': 'text/plain' });
    reply.send('never');
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  t.after(() => app.close());
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { url: `http://127.0.0.1:${address.port}`, port: address.port, writtenAtOnce };
}

test('a response is held to the end of its turn, then written; off, it is written at once', async (t) => {
  for (const enabled of [true, false]) {
    const { url, writtenAtOnce } = await probeApp(t, enabled);
    const response = await fetch(`${url}/sync`);
    assert.equal(response.status, 200);
    assert.equal(await response.text(), 'answered');
    assert.deepEqual(writtenAtOnce, [!enabled], `enabled: ${enabled}`);
  }
});

test('many connections at once: every response is written, each with its own body', async (t) => {
  const { url } = await probeApp(t, true);
  const answers = await Promise.all(
    Array.from({ length: 50 }, async () => {
      const response = await fetch(`${url}/sync`);
      return `${response.status} ${await response.text()}`;
    }),
  );
  assert.deepEqual(
    answers,
    Array.from({ length: 50 }, () => '200 answered'),
  );
});

test('a response that fails when its batch is written is logged and its connection closed; the server goes on', async (t) => {
  const lines: string[] = [];
  const { url, port } = await probeApp(t, true, lines);
  const socket = await openSocket(port);
  socket.on('error', () => undefined);
  socket.write('GET /broken HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await once(socket, 'close');
  const failure = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line['level'] === 50);
  assert.equal(failure?.['msg'], 'writing a response failed');
  assert.equal(typeof failure?.['reqId'], 'string');
  const after = await fetch(`${url}/sync`);
  assert.equal(await after.text(), 'answered');
});

test('the service: pipelined requests on one connection are answered in order, each once', async (t) => {
  const { port } = await listeningApp(t);
  const requests = [BOOK, '/api/v1/books?limit=1', '/api/v1/books/not-an-id', '/nowhere', BOOK]
    .map((path, index, all) => {
      const close = index === all.length - 1 ? 'Connection: close\r\n' : '';
      return `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${close}\r\n`;
    })
    .join('');
  const responses = await exchange(port, requests);
  assert.deepEqual(
    responses.map((response) => response.status),
    [200, 200, 422, 404, 200],
  );
  assert.equal((JSON.parse(responses[0]!.body) as { id: string }).id, BOOK.slice(-36));
  assert.equal(responses[0]!.body, responses[4]!.body);
  const ids = responses.map((response) => response.headers['x-request-id']);
  assert.equal(new Set(ids).size, ids.length, 'each answer has its own request id');
});
