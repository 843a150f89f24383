import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { listeningServer, waitForLine } from '../../server-process.js';

/** A loopback port nothing listens on: connecting to it is refused, as to a database still starting. */
async function closedPort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}

const WARN = 40;

test('readiness polls while the database is still connecting at start log no warning and no stack trace', async (t) => {
  const server = await listeningServer({
    LOG_LEVEL: 'debug',
    DATABASE_URL: `postgres://books:secret@127.0.0.1:${await closedPort()}/books`,
  });
  t.after(() => server.child.kill('SIGKILL'));
  const polls = ['poll-1', 'poll-2', 'poll-3'];
  for (const reqId of polls) {
    const response = await fetch(`http://127.0.0.1:${server.port}/api/ps`, { headers: { 'x-request-id': reqId } });
    assert.equal(response.status, 503, 'not ready: the database has not been reached');
    await waitForLine(server, new RegExp(`"reqId":"${reqId}".*"status":503`));
  }
  const pollLines = server.lines.filter((line) => polls.some((reqId) => line.includes(`"reqId":"${reqId}"`)));
  for (const line of pollLines) {
    const entry = JSON.parse(line) as { level: number; err?: unknown };
    assert.ok(entry.level < WARN, `a poll logged at level ${entry.level}: ${line}`);
    assert.equal(entry.err, undefined, `a poll logged an error with its stack: ${line}`);
  }
});
