import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { buildApp } from '../../../../../src/app.js';
import { defaultConfig } from '../../../../../src/config.js';
import { freshPostgresStore, TEST_STORE } from '../../../../postgres.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over `agent`, its body read whole. */
function send(agent: Agent, port: number, method: string, path: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: payload === undefined ? {} : { 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

test('every books route answers once, complete, over one kept-alive connection, and logs nothing but request lines', async (t) => {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  const store = TEST_STORE === 'postgres' ? await freshPostgresStore(t) : undefined;
  const app = await buildApp({ config: defaultConfig(), store, logger: pino({ level: 'info' }, sink) });
  t.after(() => app.close());
  let connections = 0;
  app.server.on('connection', () => (connections += 1));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => agent.destroy());

  const created = await send(agent, port, 'POST', '/api/v1/books', {
    title: 'Dune',
    author: 'Frank Herbert',
    year: 1965,
  });
  assert.equal(created.status, 201);
  const book = JSON.parse(created.body) as { id: string; title: string; year: number };
  const answers: [string, Answer][] = [
    ['list', await send(agent, port, 'GET', '/api/v1/books?limit=100')],
    ['list again', await send(agent, port, 'GET', '/api/v1/books?limit=100')],
    ['get', await send(agent, port, 'GET', `/api/v1/books/${book.id}`)],
    ['search', await send(agent, port, 'GET', '/api/v1/books/search?q=herbert')],
    ['patch', await send(agent, port, 'PATCH', `/api/v1/books/${book.id}`, { year: 1966 })],
    ['get after patch', await send(agent, port, 'GET', `/api/v1/books/${book.id}`)],
    ['delete', await send(agent, port, 'DELETE', `/api/v1/books/${book.id}`)],
    ['get after delete', await send(agent, port, 'GET', `/api/v1/books/${book.id}`)],
  ];
  for (const [what, answer] of [['create', created] as [string, Answer], ...answers]) {
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8', what);
    assert.equal(Number(answer.headers['content-length']), Buffer.byteLength(answer.body), what);
    JSON.parse(answer.body);
  }
  const [list, listAgain, get, search, patch, getAfterPatch, deleted, getAfterDelete] = answers.map(([, a]) => a);
  assert.equal(list?.status, 200);
  assert.equal(listAgain?.body, list?.body, 'an unchanged page reads the same');
  assert.ok((JSON.parse(list?.body ?? '{}') as { items: { id: string }[] }).items.some((item) => item.id === book.id));
  assert.deepEqual(JSON.parse(get!.body), JSON.parse(created.body));
  assert.deepEqual(
    (JSON.parse(search!.body) as { items: { id: string }[] }).items.map((item) => item.id),
    [book.id],
  );
  assert.equal((JSON.parse(patch!.body) as { year: number }).year, 1966);
  assert.equal(getAfterPatch?.body, patch?.body);
  assert.deepEqual(JSON.parse(deleted!.body), { message: `Book ${book.id} deleted successfully` });
  assert.equal(getAfterDelete?.status, 404);

  assert.equal(connections, 1, 'every answer left the connection usable');
  // The request log's lines come through the batching-free test logger at once; a reply sent
  // twice would add Fastify's warnings or errors here.
  assert.deepEqual(
    lines.filter((line) => line.level !== 30),
    [],
  );
  assert.equal(lines.filter((line) => /^(GET|POST|PATCH|DELETE) \/api\/v1\/books/.test(line.msg)).length, 9);
});
