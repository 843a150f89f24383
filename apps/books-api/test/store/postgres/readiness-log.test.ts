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

test('while the database is still unreachable at start, neither the retries nor readiness polls log a warning or a stack trace', async (t) => {
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
  // The start's own attempts to reach the database, as well as the polls.
  await waitForLine(server, /retrying/);
  for (const line of server.lines) {
    const entry = JSON.parse(line) as { level: number; err?: unknown };
    assert.ok(entry.level < WARN, `logged at level ${entry.level}: ${line}`);
    assert.equal(entry.err, undefined, `logged an error with its stack: ${line}`);
  }
});
