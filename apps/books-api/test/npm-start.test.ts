import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILT_SERVER = new URL('../dist/server.js', import.meta.url);

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `npm start` is how people run the API, and process managers stop it by signalling npm. npm hands
 * the signal to its child, so the script must make the server that child (exec), not a shell
 * that dies and leaves the server running.
 */
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`npm start stops the server itself on ${signal} to npm`, async (t) => {
    assert.ok(existsSync(BUILT_SERVER), 'npm start runs the build: run npm run build first');
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = once(npm, 'exit');
    let output = '';
    npm.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    npm.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const server: { pid?: number } = {};
    t.after(() => {
      if (server.pid !== undefined && isRunning(server.pid)) process.kill(server.pid, 'SIGKILL');
      npm.kill('SIGKILL');
    });

    while (!/"msg":"Server listening at http:\/\/127\.0\.0\.1:\d+"/.test(output)) {
      const stopped = await Promise.race([once(npm.stdout, 'data').then(() => false), exited.then(() => true)]);
      if (stopped) assert.fail(`npm start exited before the server listened: ${output}`);
    }
    const listening = output.split('\n').find((line) => line.includes('Server listening at'))!;
    const { pid, msg } = JSON.parse(listening) as { pid: number; msg: string };
    server.pid = pid;
    assert.notEqual(pid, npm.pid, 'the server runs under npm');
    const port = /:(\d+)$/.exec(msg)![1];
    assert.equal((await fetch(`http://127.0.0.1:${port}/api/ps`)).status, 200);

    npm.kill(signal);
    await exited;
    for (let waited = 0; isRunning(pid) && waited < 100; waited += 1) await new Promise((r) => setTimeout(r, 100));
    assert.equal(isRunning(pid), false, `the server (pid ${pid}) still runs after npm got ${signal}`);
    assert.match(output, new RegExp(`${signal} received`), 'the server itself received the signal and drained');
  });
}
