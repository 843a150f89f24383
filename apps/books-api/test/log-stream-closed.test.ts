import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { listeningServer, type ServerProcess } from './server-process.js';

/**
 * A server whose output pipes close (its parent died, the log collector went away) must not hang
 * or spin writing to them: it shuts down by itself once a write fails, and a SIGTERM still ends it.
 */

/** How long the process may take to be gone; far more than a clean shutdown of an idle server needs. */
const PROMPTLY_MS = 8000;

/** The process's exit, or undefined when it is still running after PROMPTLY_MS (it is then killed). */
async function exitWithin(t: TestContext, server: ServerProcess): Promise<{ code: number | null } | undefined> {
  const started = Date.now();
  const exited = await Promise.race([server.exit, delay(PROMPTLY_MS).then(() => undefined)]);
  if (exited !== undefined) t.diagnostic(`exited after ${Date.now() - started} ms`);
  if (exited === undefined) server.child.kill('SIGKILL');
  return exited;
}

function closeOutputPipes(server: ServerProcess): void {
  server.child.stdout!.destroy();
  server.child.stderr!.destroy();
}

test('the server shuts down by itself once it finds its log stream closed', async (t) => {
  const server = await listeningServer();
  t.after(() => server.child.kill('SIGKILL'));
  closeOutputPipes(server);
  // A request is logged: the write finds the pipe closed.
  const response = await fetch(`http://127.0.0.1:${server.port}/api/ps`);
  assert.equal(response.status, 200);
  const exited = await exitWithin(t, server);
  assert.ok(exited !== undefined, `still running ${PROMPTLY_MS} ms after its log stream closed`);
  assert.equal(exited.code, 1, 'it did not stop because it was asked to');
});

test('SIGTERM still ends a server whose log stream is closed, promptly and with exit code 0', async (t) => {
  const server = await listeningServer();
  t.after(() => server.child.kill('SIGKILL'));
  closeOutputPipes(server);
  server.child.kill('SIGTERM');
  const exited = await exitWithin(t, server);
  assert.ok(exited !== undefined, `still running ${PROMPTLY_MS} ms after SIGTERM`);
  assert.equal(exited.code, 0);
});
