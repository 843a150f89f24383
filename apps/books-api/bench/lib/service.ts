// Starting the Books API's production build for a benchmark, from this checkout or from a
// reference revision's tree, configured as a plain `npm start`, and filling it with books.

import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { send } from './capture.js';
import { syntheticBooks } from './book-generator.js';
import { RESULTS_DIR } from './layout.js';
import { freePort, startProcess, waitUntilReady } from './processes.js';
import { PROBE_PRELOAD } from './runtime-probe.js';

export interface ServiceOptions {
  /** The apps/books-api folder whose dist/server.js runs. */
  appDir: string;
  /** CPU to pin to, or undefined. */
  cpu: number | undefined;
  /** Where the request log goes. */
  logFile: string;
  cpuProf: boolean;
  /** DATABASE_URL for the PostgreSQL store; unset runs the default in-memory store. */
  databaseUrl?: string;
  /**
   * Load bench/lib/runtime-probe's preload and open an IPC channel, so the harness can ask the
   * process for its event-loop utilisation, memory and GC time (see runtime-probe.ts).
   */
  runtimeProbe?: boolean;
  /** Traces on, every request sampled, exported to this OTLP endpoint; unset: tracing off. */
  tracesEndpoint?: string;
}

export interface RunningService {
  child: ChildProcess;
  port: number;
}

function serviceEnv(port: number, databaseUrl: string | undefined, tracesEndpoint?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', PORT: String(port) };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  // Defaults of a plain `npm start`: no background traffic, no chaos, the default log level.
  delete env.ENABLE_TRAFFIC_GENERATOR;
  delete env.ENABLE_CHAOS_HEADERS;
  delete env.LOG_LEVEL;
  // Tracing only when the bench asks for it (--tracing): off means off, whatever this shell sets.
  for (const name of Object.keys(env)) if (name.startsWith('OTEL_')) delete env[name];
  if (tracesEndpoint !== undefined) {
    env.OTEL_EXPORTER_OTLP_ENDPOINT = tracesEndpoint;
    env.OTEL_TRACES_SAMPLER = 'always_on';
  }
  return env;
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const port = await freePort();
  const log = openSync(options.logFile, 'a');
  const profile = options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${join(RESULTS_DIR, 'profiles')}`] : [];
  const child = startProcess({
    command: process.execPath,
    args: [...profile, ...(options.runtimeProbe ? [`--import=${PROBE_PRELOAD}`] : []), 'dist/server.js'],
    cwd: options.appDir,
    env: serviceEnv(port, options.databaseUrl, options.tracesEndpoint),
    cpu: options.cpu,
    stdio: ['ignore', log, 'inherit'],
    ipc: options.runtimeProbe ?? false,
  });
  closeSync(log);
  await waitUntilReady(child, port, '/api/ps', 30_000);
  // On PostgreSQL /api/ps answers 503 until the migrations are applied.
  for (let waited = 0; (await send(port, { method: 'GET', path: '/api/ps' })).status !== 200; waited += 100) {
    if (waited > 60_000) throw new Error('the service did not become ready within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, port };
}

/** Creates `count` deterministic books over HTTP: every server of a run holds the same ones. */
export async function prefill(port: number, count: number): Promise<void> {
  const books = syntheticBooks();
  for (let i = 0; i < count; i++) {
    const answer = await send(port, {
      method: 'POST',
      path: '/api/v1/books',
      body: JSON.stringify(books.next().value),
    });
    if (answer.status !== 201) throw new Error(`prefill: POST answered ${answer.status}`);
  }
}

/** The number of books the service's store holds, as /api/ps reports it. */
export async function booksIn(port: number): Promise<number | undefined> {
  const answer = await send(port, { method: 'GET', path: '/api/ps' });
  const parsed = JSON.parse(answer.body.toString('utf8')) as { books?: unknown };
  return typeof parsed.books === 'number' ? parsed.books : undefined;
}
