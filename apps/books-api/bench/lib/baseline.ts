// The node:http baseline of `npm run bench`: the service's answers to the routes of a round,
// captured to a file, and bench/baseline-server.ts started to answer with them.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { capture, type CapturedResponse } from './capture.js';
import { APP_DIR, RESULTS_DIR } from './layout.js';
import { freePort, startProcess, waitUntilReady } from './processes.js';
import type { BenchRoute } from './routes.js';

export interface RunningBaseline {
  child: ChildProcess;
  port: number;
}

/** Captures the service's answer to each route into the round's file, and returns its path. */
export async function captureForBaseline(port: number, routes: readonly BenchRoute[], round: number): Promise<string> {
  // Create first: capturing it adds a book, which the list and /api/ps bodies must include.
  const ordered = [...routes].sort((a, b) => Number(b.name === 'create') - Number(a.name === 'create'));
  const captured: CapturedResponse[] = [];
  for (const route of ordered) captured.push(await capture(port, route.request));
  const capturedFile = join(RESULTS_DIR, `captured-round-${round}.json`);
  writeFileSync(capturedFile, JSON.stringify(captured, null, 2));
  return capturedFile;
}

export async function startBaseline(cpu: number | undefined, capturedFile: string): Promise<RunningBaseline> {
  const port = await freePort();
  const child = startProcess({
    command: process.execPath,
    args: ['--import', 'tsx', 'bench/baseline-server.ts', capturedFile, String(port)],
    cwd: APP_DIR,
    env: { ...process.env },
    cpu,
  });
  await waitUntilReady(child, port, '/', 30_000);
  return { child, port };
}
