// Runs one load run in a process of its own, pinned to the load generator's core, so that two
// servers can be loaded at the same time by two independent load generators
// (`npm run bench -- --compare`, `npm run bench -- --sustained`): autocannon (runLoad) in a
// Node process of its own, or wrk, which is one already.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { APP_DIR, LOADGEN_CPU } from './layout.js';
import type { LoadOptions, LoadResult } from './load.js';
import { runWrk, type LoadGenerator } from './wrk.js';

export interface ChildLoadResult extends LoadResult {
  /** Requests per second of server CPU time: the cost of a request, whatever the CPU share. */
  perCpuSecond: number | undefined;
}

function withPerCpuSecond(result: LoadResult): ChildLoadResult {
  return { ...result, perCpuSecond: result.serverCpu ? result.rps / result.serverCpu : undefined };
}

export async function loadInChild(
  options: LoadOptions,
  pinned: boolean,
  loadgen: LoadGenerator = 'autocannon',
): Promise<ChildLoadResult> {
  if (loadgen === 'wrk') return withPerCpuSecond(await runWrk(options, pinned ? LOADGEN_CPU : undefined));
  const worker = join(APP_DIR, 'bench', 'lib', 'load-worker.ts');
  const args = JSON.stringify(options);
  const command = pinned ? 'taskset' : process.execPath;
  const argv = pinned
    ? ['-c', String(LOADGEN_CPU), process.execPath, '--import', 'tsx', worker, args]
    : ['--import', 'tsx', worker, args];
  return new Promise<ChildLoadResult>((resolve, reject) => {
    const child = spawn(command, argv, { cwd: APP_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      const last = out.trim().split('\n').at(-1);
      if (code !== 0 || !last) return reject(new Error(`load generator exited with ${code}`));
      resolve(withPerCpuSecond(JSON.parse(last) as LoadResult));
    });
  });
}
