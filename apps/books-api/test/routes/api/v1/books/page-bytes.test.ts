import assert from 'node:assert/strict';
import { channel } from 'node:diagnostics_channel';
import { test, type TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../../../src/app.js';
import { defaultConfig } from '../../../../../src/config.js';
import { KeepAliveClient } from '../../../../keep-alive-client.js';
import { freshPostgresStore, TEST_STORE } from '../../../../postgres.js';

interface Sent {
  url: string;
  payload: unknown;
}

/**
 * The app of the store under test, with an onSend hook that records what each route hands
 * Fastify to write. The hook is added through Fastify's documented 'fastify.initialization'
 * diagnostics channel, the way a tracing package adds its hooks: the app itself stays as users
 * run it.
 */
async function appRecordingPayloads(t: TestContext): Promise<{
  app: FastifyInstance;
  sent: Sent[];
}> {
  const sent: Sent[] = [];
  const initialization = channel('fastify.initialization');
  const addRecorder = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onSend', async (request, _reply, payload) => {
      sent.push({ url: request.url, payload });
      return payload;
    });
  };
  const store = TEST_STORE === 'postgres' ? await freshPostgresStore(t) : undefined;
  initialization.subscribe(addRecorder);
  let app: FastifyInstance;
  try {
    app = await buildApp({ config: defaultConfig(), store });
  } finally {
    initialization.unsubscribe(addRecorder);
  }
  t.after(() => app.close());
  return { app, sent };
}

test('pages of books leave as UTF-8 bytes, an unchanged page as the same remembered bytes', async (t) => {
  const { app, sent } = await appRecordingPayloads(t);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const client = new KeepAliveClient(port, 1);
  t.after(() => client.close());

  // Text whose UTF-8 is longer than its UTF-16 length: a body measured as text would be cut short.
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/books',
    payload: { title: 'Søren’s Straße 📚', author: 'Zoë Ø', year: 2001 },
  });
  assert.equal(created.statusCode, 201);

  const answers = [];
  for (const path of ['/api/v1/books?limit=100', '/api/v1/books?limit=100', '/api/v1/books/search?q=s%C3%B8ren']) {
    const answer = await client.send({ method: 'GET', path });
    const recorded = sent.at(-1);
    assert.equal(recorded?.url, path);
    answers.push({ path, answer, payload: recorded?.payload });
  }
  for (const { path, answer, payload } of answers) {
    assert.equal(answer.status, 200, path);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8', path);
    assert.ok(Buffer.isBuffer(payload), `${path}: the page went to Fastify as ${typeof payload}, not as bytes`);
    assert.deepEqual(answer.bytes, payload, `${path}: the body is not the page's bytes`);
    assert.equal(Number(answer.headers['content-length']), answer.bytes.length, path);
    const page = JSON.parse(answer.body) as { items: { title: string }[] };
    assert.ok(
      page.items.some((item) => item.title === 'Søren’s Straße 📚'),
      path,
    );
  }
  assert.equal(answers[1]?.payload, answers[0]?.payload, 'the unchanged page was made again instead of remembered');
  assert.equal(client.sockets.size, 1, 'the answers did not all come over one kept-alive connection');
});
