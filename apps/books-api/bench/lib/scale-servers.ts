// The two servers `npm run bench:scale` measures: the production build holding synthetic books
// in memory (bench/scale-server.ts, which reports over IPC when it is filled and what memory it
// uses), and the production build on a bulk-loaded PostgreSQL database, as `npm start` runs it.

import type { ChildProcess } from 'node:child_process';
import { send } from './capture.js';
import { APP_DIR, SERVER_CPU } from './layout.js';
import { freePort, startProcess, stopProcess } from './processes.js';

export interface ScaleServer {
  child: ChildProcess;
  port: number;
}

export interface Memory {
  rss: number;
  heapUsed: number;
  arrayBuffers: number;
}

function waitForMessage<T>(child: ChildProcess, type: string, timeoutMs: number): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no '${type}' from the scale server within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onMessage = (message: { type?: string }) => {
      if (message.type !== type) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolvePromise(message as T);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`scale server exited (code ${code})`));
    });
  });
}

export async function memoryOf(child: ChildProcess): Promise<Memory> {
  const answer = waitForMessage<Memory>(child, 'memory', 60_000);
  child.send({ type: 'memory' });
  return answer;
}

function serverEnv(port: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...extra };
  delete env.ENABLE_TRAFFIC_GENERATOR;
  delete env.ENABLE_CHAOS_HEADERS;
  delete env.LOG_LEVEL;
  return env;
}

/** The production build holding `size` synthetic books in memory (bench/scale-server.ts). */
export async function startMemoryServer(size: number, pinned: boolean): Promise<ScaleServer & { fillMs: number }> {
  const port = await freePort();
  const child = startProcess({
    command: process.execPath,
    args: ['--expose-gc', '--import', 'tsx', 'bench/scale-server.ts', String(size), String(port)],
    cwd: APP_DIR,
    env: serverEnv(port),
    cpu: pinned ? SERVER_CPU : undefined,
    ipc: true,
    stdio: ['ignore', 'ignore', 'inherit'], // the request log goes nowhere, as in npm run bench
  });
  try {
    const { fillMs } = await waitForMessage<{ fillMs: number }>(child, 'ready', 600_000);
    return { child, port, fillMs };
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

/** `DATABASE_URL=<url> npm start`: the production build on PostgreSQL, ready once /api/ps answers 200. */
export async function startPostgresServer(url: string, pinned: boolean): Promise<ScaleServer> {
  const port = await freePort();
  const child = startProcess({
    command: process.execPath,
    args: ['dist/server.js'],
    cwd: APP_DIR,
    env: serverEnv(port, { DATABASE_URL: url }),
    cpu: pinned ? SERVER_CPU : undefined,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the PostgreSQL-backed server exited (code ${child.exitCode})`);
    const status = await send(port, { method: 'GET', path: '/api/ps' }).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) return { child, port };
    if (Date.now() > deadline) {
      await stopProcess(child);
      throw new Error('the PostgreSQL-backed server was not ready within 120 s');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
