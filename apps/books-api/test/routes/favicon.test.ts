import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { defaultConfig } from '../../src/config.js';

test('GET /favicon.ico answers 204 with a long cache lifetime and writes no request log line', async (t) => {
  const lines: { path?: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  const app = await buildApp({ config: defaultConfig(), logger: pino({ level: 'info' }, sink) });
  t.after(() => app.close());

  const response = await app.inject({ url: '/favicon.ico' });
  assert.equal(response.statusCode, 204);
  assert.equal(response.body, '');
  const maxAge = Number(/max-age=(\d+)/.exec(String(response.headers['cache-control']))?.[1]);
  assert.ok(maxAge >= 30 * 24 * 60 * 60, `cache-control: ${response.headers['cache-control']}`);
  assert.ok(response.headers['x-request-id']);

  // Another request is logged, which shows the sink receives request lines at all.
  await app.inject({ url: '/api/ps' });
  assert.ok(lines.some((line) => line.path === '/api/ps'));
  assert.equal(lines.filter((line) => line.path === '/favicon.ico').length, 0);
});

test('/favicon.ico is not in the OpenAPI document', async (t) => {
  const app = await buildApp({ config: defaultConfig() });
  t.after(() => app.close());
  const document = JSON.parse((await app.inject({ url: '/openapi.json' })).body) as { paths: object };
  assert.equal(Object.hasOwn(document.paths, '/favicon.ico'), false);
});
