// Child-process plumbing for the benchmarks: free ports, CPU pinning,
// readiness, and a guarantee that every server we start is killed when we stop.

import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { request } from 'node:http';

export const BENCH_HOST = '127.0.0.1';

const children = new Set<ChildProcess>();
let cleanupInstalled = false;

function killAll(signal: NodeJS.Signals): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}

/** Installs exit, Ctrl-C and crash handlers once: no server outlives the harness. */
export function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', () => killAll('SIGKILL'));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping the benchmark servers`);
      killAll('SIGTERM');
      process.exit(130);
    });
  }
  process.on('uncaughtException', (error) => {
    console.error(error);
    process.exit(1);
  });
}

/** A port the kernel picks from its ephemeral range: free now, and not the one another bench holds. */
function ephemeralPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, BENCH_HOST, () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

const handedOut = new Set<number>();

/** A free port on the bench host, never the same one twice in a run. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await ephemeralPort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

/** Whether taskset (util-linux) can pin processes and the machine has 2+ CPUs to pin to. */
export function pinningAvailable(): boolean {
  const probe = spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
  return probe.status === 0 && cpuCount() >= 2;
}

export function cpuCount(): number {
  const cpus = spawnSync('nproc', [], { encoding: 'utf8' });
  const n = Number.parseInt(cpus.stdout ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

/** Pins a process and all its threads to one CPU. */
export function pinProcess(pid: number, cpu: number): boolean {
  return spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' }).status === 0;
}

export interface StartOptions {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** CPU to pin to, or undefined to leave scheduling to the OS. */
  cpu: number | undefined;
  stdio?: StdioOptions;
  ipc?: boolean;
}

export function startProcess(options: StartOptions): ChildProcess {
  const pinned = options.cpu !== undefined;
  const command = pinned ? 'taskset' : options.command;
  const args = pinned ? ['-c', String(options.cpu), options.command, ...options.args] : options.args;
  const stdio: StdioOptions = options.stdio ?? ['ignore', 'ignore', 'inherit'];
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: options.ipc && Array.isArray(stdio) ? [...stdio, 'ipc'] : stdio,
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

function probe(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: BENCH_HOST, port, path, method: 'GET', timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/** Resolves once the server answers `path`; rejects when it exits or the time is up. */
export async function waitUntilReady(
  child: ChildProcess,
  port: number,
  path: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited before it listened (code ${child.exitCode ?? child.signalCode})`);
    }
    if ((await probe(port, path)) !== 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server on port ${port} not ready within ${timeoutMs} ms`);
}

/** Resident set size of a process in bytes, from /proc (Linux only). */
export function rssOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match?.[1] ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used so far, in ms (Linux only). */
export function cpuTimeOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may contain spaces, start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}
