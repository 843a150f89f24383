import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import Fastify, { LogController } from 'fastify';
import { lazyChildLoggerFactory } from '../src/lazy-child-logger.js';

const logController = new LogController({ disableRequestLogging: true });

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

test('request.log builds no child logger for a request that does not log', async (t) => {
  const { logger } = capturingLogger();
  // Every pino logger (Fastify's own children of the root included) inherits child() from one prototype.
  let proto: object = logger;
  while (!Object.hasOwn(proto, 'child')) proto = Object.getPrototypeOf(proto) as object;
  const withChild = proto as { child: typeof logger.child };
  const original = withChild.child;
  let children = 0;
  withChild.child = function (this: typeof logger, ...args: Parameters<typeof logger.child>) {
    children += 1;
    return original.apply(this, args);
  } as typeof logger.child;
  t.after(() => {
    withChild.child = original;
  });
  const app = Fastify({ loggerInstance: logger, childLoggerFactory: lazyChildLoggerFactory, logController });
  app.get('/quiet', async () => ({ ok: true }));
  t.after(() => app.close());
  await app.ready();
  children = 0; // Fastify makes children of its own while it starts; only the request's count here.
  const response = await app.inject({ url: '/quiet' });
  assert.equal(response.statusCode, 200);
  assert.equal(children, 0);
});

test('request.log lines carry the request id once a request does log', async (t) => {
  const { logger, lines } = capturingLogger();
  const app = Fastify({
    loggerInstance: logger,
    childLoggerFactory: lazyChildLoggerFactory,
    logController,
    genReqId: () => 'req-42',
  });
  app.get('/loud', async (request) => {
    request.log.warn({ detail: 'x' }, 'something to say');
    request.log.info('and more');
    return { level: request.log.level };
  });
  t.after(() => app.close());
  const response = await app.inject({ url: '/loud' });
  assert.deepEqual(response.json(), { level: 'info' });
  const said = lines.filter((line) => line.reqId === 'req-42').map((line) => [line.level, line.msg, line.detail]);
  assert.deepEqual(said, [
    [40, 'something to say', 'x'],
    [30, 'and more', undefined],
  ]);
});
