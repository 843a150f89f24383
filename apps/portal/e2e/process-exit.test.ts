/**
 * How the production server (`next start`) ends: when its stdout and stderr pipes close (the
 * parent died) it exits at its next log line instead of spinning on EPIPE, and after SIGTERM it
 * exits within the grace period even while a request is still waiting (issue 40, "Also found").
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startPortalServer, type PortalServer } from '../kube-stand-in/portal-server';

/** SHUTDOWN_GRACE_MS of src/server/runtime/exit-guards.ts (a server-only module). */
const SHUTDOWN_GRACE_MS = 10_000;

const DEVELOPMENT = { PORTAL_MOCK_PLATFORM: 'true', PORTAL_AUTH: 'none' };

/** The exit code, or undefined when the process is still running after `timeoutMs`. */
async function exitWithin(child: ChildProcess, timeoutMs: number): Promise<number | string | undefined> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode ?? child.signalCode ?? undefined;
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string);
  const timer = sleep(timeoutMs, undefined, { ref: false });
  return Promise.race([exited, timer]);
}

describe('how the production server ends', () => {
  let portal: PortalServer | undefined;
  afterEach(async () => {
    // A server that did not exit as it should is killed here, so it cannot outlive the test.
    if (portal && portal.process.exitCode === null && portal.process.signalCode === null)
      portal.process.kill('SIGKILL');
    portal = undefined;
  });

  it('exits at its next log line once its stdout and stderr are closed, rather than looping on EPIPE', async () => {
    portal = await startPortalServer({ env: DEVELOPMENT });
    portal.process.stdout?.destroy();
    portal.process.stderr?.destroy();
    // An API request writes a log line, which now fails with EPIPE.
    await fetch(`${portal.url}/api/platform/resources`).catch(() => undefined);
    const code = await exitWithin(portal.process, 10_000);
    assert.notEqual(code, undefined, 'the server was still running 10 s after its output closed');
    assert.equal(code, 1);
  });

  it('exits promptly on SIGTERM when idle', async () => {
    portal = await startPortalServer({ env: DEVELOPMENT });
    await (await fetch(`${portal.url}/api/platform/resources`)).arrayBuffer();
    const started = Date.now();
    portal.process.kill('SIGTERM');
    const code = await exitWithin(portal.process, 5000);
    assert.notEqual(code, undefined, 'the server was still running 5 s after SIGTERM');
    assert.ok(Date.now() - started < 5000);
  });

  it('exits within the grace period after SIGTERM while a request is still waiting for its body', async () => {
    portal = await startPortalServer({ env: DEVELOPMENT });
    const { hostname, port } = new URL(portal.url);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    socket.on('error', () => {});
    // Headers announce a body that never comes: the request stays in flight.
    socket.write(
      `POST /api/platform/resources HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${portal.url}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"application":',
    );
    await sleep(1000);
    const started = Date.now();
    portal.process.kill('SIGTERM');
    const code = await exitWithin(portal.process, SHUTDOWN_GRACE_MS + 5000);
    socket.destroy();
    assert.notEqual(code, undefined, `the server was still running ${SHUTDOWN_GRACE_MS + 5000} ms after SIGTERM`);
    assert.ok(Date.now() - started >= SHUTDOWN_GRACE_MS - 1000, 'the request in flight had its grace period');
    assert.match(portal.output(), /Shutdown: requests still running after 10000 ms were cut/);
  });
});
