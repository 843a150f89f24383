// One load run with wrk (`npm run bench -- --loadgen wrk`), the load generator of issue 16's
// acceptance check. wrk is a lighter client than autocannon (C, one epoll thread), so a server
// pinned to one core gets further before the client becomes part of what is measured, and the
// figures compare with the independent check's. The run is `wrk -t1 -c<n> -d<s>s --latency`,
// pinned like autocannon to the load generator's core; its text report is parsed here.
//
// wrk sends GET without a script. Another method or a body needs a small Lua script (written to
// a temporary file) that sets `wrk.method` and `wrk.body`; headers go on the command line.
// HEAD cannot be measured: wrk 4.1 (Debian's) does not tell its HTTP parser which method it sent,
// so after a HEAD response the parser waits for a body (the Content-Length's, or with none, as the
// service's /api/status answers, until the connection closes) and no request ever completes.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_HOST, cpuTimeOf } from './processes.js';
import type { LoadCounts, LoadOptions, LoadRequest, LoadResult } from './load.js';
import type { BenchRoute } from './routes.js';

export const LOAD_GENERATORS = ['autocannon', 'wrk'] as const;
export type LoadGenerator = (typeof LOAD_GENERATORS)[number];

/**
 * What wrk's report says about one run. `non2xx` is wrk's "Non-2xx or 3xx responses", which
 * despite its name counts statuses of 400 and more: a 3xx counts as answered (no route of the mix
 * answers 3xx). `errors` are its socket errors: connect + read + write + timeout (wrk's timeout is 2 s).
 */
export type WrkReport = LoadCounts;

const TIME_UNITS_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A wrk duration such as `812.00us`, `2.31ms`, `1.05s` or `1.20m`, in ms. */
export function wrkTimeToMs(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(us|ms|s|m|h)$/.exec(text.trim());
  const scale = match?.[2] ? TIME_UNITS_MS[match[2]] : undefined;
  if (!match?.[1] || scale === undefined) throw new Error(`not a wrk duration: ${text}`);
  return Number(match[1]) * scale;
}

/** Parses wrk's text report (run with --latency). Throws when a figure it needs is missing. */
export function parseWrkOutput(text: string): WrkReport {
  const requests = /^\s*(\d+) requests in /m.exec(text)?.[1];
  const rps = /^Requests\/sec:\s*(\d+(?:\.\d+)?)/m.exec(text)?.[1];
  // The percentile lines of "Latency Distribution", e.g. "     99%    4.10ms".
  const percentile = (p: number) => {
    const value = new RegExp(`^\\s*${p}(?:\\.0+)?%\\s+(\\S+)\\s*$`, 'm').exec(text)?.[1];
    return value === undefined ? undefined : wrkTimeToMs(value);
  };
  const p50 = percentile(50);
  const p99 = percentile(99);
  if (requests === undefined || rps === undefined || p50 === undefined || p99 === undefined) {
    throw new Error(`unexpected wrk output (was it run with --latency?):\n${text}`);
  }
  // Only printed when there were any.
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const errors = socket ? socket.slice(1, 5).reduce((n, v) => n + Number(v), 0) : 0;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  return { requests: Number(requests), rps: Number(rps), p50, p99, non2xx, errors };
}

/**
 * The CPU time, in ms, of the children a shell waited for, from the second line of its `times`
 * builtin ("0m0.030000s 0m0.200000s" in dash, "0m0.030s 0m0.200s" in bash: user, then system).
 */
export function parseChildrenTimes(text: string): number | undefined {
  const lines = text.trim().split('\n');
  const match = /^(\d+)m(\d+(?:\.\d+)?)s (\d+)m(\d+(?:\.\d+)?)s$/.exec(lines.at(-1)?.trim() ?? '');
  if (!match) return undefined;
  const [, um, us, sm, ss] = match.map(Number) as [number, number, number, number, number];
  return (um * 60 + us + sm * 60 + ss) * 1000;
}

/** A Lua long string holding `text` as it is: its level is one its closing bracket never has. */
function luaString(text: string): string {
  let level = '';
  while (text.includes(`]${level}]`)) level += '=';
  // A long string drops a newline right after its opening bracket: keep a leading one.
  return `[${level}[${text.startsWith('\n') ? '\n' : ''}${text}]${level}]`;
}

/**
 * The Lua script a run needs, or undefined for a plain GET. `amount` stops the (single) thread
 * after that many answers: the run then still lasts its -d, but sends no more requests.
 */
export function wrkScript(request: LoadRequest, amount?: number): string | undefined {
  const lines: string[] = [];
  if (request.method !== 'GET') lines.push(`wrk.method = "${request.method}"`);
  if (request.body !== undefined) lines.push(`wrk.body = ${luaString(request.body)}`);
  if (amount !== undefined) {
    lines.push(
      'local answered = 0',
      'function response(status, headers, body)',
      '  answered = answered + 1',
      `  if answered >= ${Math.trunc(amount)} then wrk.thread:stop() end`,
      'end',
    );
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : undefined;
}

/** Why wrk cannot send this request, or undefined when it can. */
export function wrkCannotSend(request: LoadRequest): string | undefined {
  return request.method === 'HEAD'
    ? 'wrk 4.1 waits for a body after a HEAD response, so no HEAD request ever completes'
    : undefined;
}

/**
 * The routes wrk can send: an unsendable route the user named is refused, a defaulted one left
 * out with a note.
 */
export function routesWrkCanSend(routes: readonly BenchRoute[], routesGiven: boolean): BenchRoute[] {
  const unsendable = routes.filter((r) => wrkCannotSend(r.request) !== undefined);
  if (unsendable.length === 0) return [...routes];
  const names = unsendable.map((r) => r.name).join(', ');
  const why = [...new Set(unsendable.map((r) => wrkCannotSend(r.request)))].join('; ');
  if (routesGiven) throw new Error(`--loadgen wrk cannot measure ${names}: ${why}`);
  console.log(`--loadgen wrk: leaving out ${names} (${why})`);
  return routes.filter((r) => !unsendable.includes(r));
}

export function wrkInstalled(): boolean {
  return spawnSync('wrk', ['-v'], { stdio: 'ignore' }).error === undefined;
}

export function assertWrkInstalled(): void {
  if (!wrkInstalled()) {
    throw new Error('--loadgen wrk: no wrk on PATH; install it with `sudo apt-get install wrk`');
  }
}

/** One load run with wrk, pinned to `cpu` when given; latencies in ms. */
export async function runWrk(options: LoadOptions, cpu: number | undefined): Promise<LoadResult> {
  const { request } = options;
  const refused = wrkCannotSend(request);
  if (refused) throw new Error(`--loadgen wrk cannot load ${request.method} ${request.path}: ${refused}`);
  if (options.paths || options.mix) throw new Error('--loadgen wrk sends one request over and over: no paths or mix');

  const script = wrkScript(request, options.amount);
  const dir = script ? mkdtempSync(join(tmpdir(), 'books-bench-wrk-')) : undefined;
  const scriptFile = dir ? join(dir, 'request.lua') : undefined;
  if (scriptFile && script) writeFileSync(scriptFile, script);

  const headers: Record<string, string> = { ...request.headers };
  if (request.body !== undefined) headers['content-type'] ??= 'application/json';
  // With `amount`, the duration is only an upper bound (a bounded create warm-up).
  const wrkArgs = [
    '-t1',
    `-c${options.connections}`,
    `-d${Math.max(1, Math.ceil(options.duration))}s`,
    '--latency',
    ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    ...(scriptFile ? ['-s', scriptFile] : []),
    `http://${BENCH_HOST}:${options.port}${request.path}`,
  ];
  // Through a shell whose `times` reports the CPU wrk used once it has exited (its /proc entry
  // is gone by then); taskset pins the shell and so wrk, which inherits the affinity.
  const shell = ['sh', '-c', 'wrk "$@"; code=$?; times; exit $code', 'sh', ...wrkArgs];
  const argv = cpu === undefined ? shell : ['taskset', '-c', String(cpu), ...shell];

  const serverCpuBefore = options.serverPid ? cpuTimeOf(options.serverPid) : undefined;
  const started = process.hrtime.bigint();
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(argv[0] as string, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      // wrk stops by itself after -d; this only guards against a stuck run.
      const timer = setTimeout(() => child.kill('SIGKILL'), (options.duration + 30) * 1000);
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve(out);
        else reject(new Error(`wrk exited with ${code ?? signal}: ${(err + out).trim()}`));
      });
    });
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    const serverCpuAfter = options.serverPid ? cpuTimeOf(options.serverPid) : undefined;
    const report = parseWrkOutput(output);
    const wrkCpuMs = parseChildrenTimes(output);
    return {
      ...report,
      serverCpu:
        serverCpuBefore !== undefined && serverCpuAfter !== undefined
          ? (serverCpuAfter - serverCpuBefore) / elapsedMs
          : undefined,
      loadgenCpu: wrkCpuMs === undefined ? undefined : wrkCpuMs / elapsedMs,
    };
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
