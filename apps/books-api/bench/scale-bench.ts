// `npm run bench:scale`: how the cost of each request grows with the collection.
// For each size it starts the production build with the store prefilled
// (bench/scale-server.ts), measures through HTTP what a client sees, one route at a time,
// and reads the server's memory. See docs/performance.md.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import { buildIfNeeded } from './lib/build.js';
import { APP_DIR, LOADGEN_CPU, RESULTS_DIR, SERVER_CPU } from './lib/layout.js';
import { send } from './lib/capture.js';
import { runLoad, type LoadRequest, type LoadResult } from './lib/load.js';
import {
  freePort,
  installCleanup,
  pinProcess,
  pinningAvailable,
  rssOf,
  startProcess,
  stopProcess,
} from './lib/processes.js';
import { renderTable } from './lib/report.js';
import { loadAverage } from './lib/stats.js';

const SEEDED_BOOKS = 3;
const PAGE = 20;

const HELP = `Usage: npm run bench:scale -- [options]
  --sizes <a,b,..>    synthetic books to preload (default 10000,100000,1000000)
  --duration <s>      seconds of requests per probe (default 3)
  --connections <n>   concurrent connections (default 1: the latency of one request, no queueing)
  --json <path>       where to write the results (default bench/results/scale-<time>.json)
  --skip-build        use dist/ as it is, even when older than src/`;

interface Options {
  sizes: number[];
  duration: number;
  connections: number;
  json: string;
  skipBuild: boolean;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      json: { type: 'string' },
      'skip-build': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const int = (name: string, text: string | undefined, fallback: number, min: number, max: number) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name} must be an integer ${min}-${max}, got ${text}`);
    return n;
  };
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    sizes: (values.sizes ?? '10000,100000,1000000').split(',').map((s) => int('sizes', s.trim(), 0, 0, 5_000_000)),
    duration: int('duration', values.duration, 3, 1, 60),
    connections: int('connections', values.connections, 1, 1, 200),
    json: resolve(values.json ?? join(RESULTS_DIR, `scale-${stamp}.json`)),
    skipBuild: values['skip-build'] ?? false,
  };
}

interface Probe {
  name: string;
  request: LoadRequest;
}

function probesFor(total: number, middleId: string): Probe[] {
  return [
    { name: 'list skip 0', request: { method: 'GET', path: `/api/v1/books?skip=0&limit=${PAGE}` } },
    {
      name: `list last page`,
      request: { method: 'GET', path: `/api/v1/books?skip=${Math.max(0, total - PAGE)}&limit=${PAGE}` },
    },
    { name: 'get by id', request: { method: 'GET', path: `/api/v1/books/${middleId}` } },
    // An author's full name: about 0.02% of the synthetic books.
    {
      name: 'search selective',
      request: { method: 'GET', path: '/api/v1/books/search?q=eleanor%20whitfield&limit=20' },
    },
    // A common word: about 70% of the books match, and the total counts them all. Three
    // characters are one trigram, whose live count in the index is the total.
    { name: 'search unselective', request: { method: 'GET', path: '/api/v1/books/search?q=the&limit=20' } },
    // A common phrase (about 15% of the books): every candidate must be checked to count them.
    { name: 'search "in the"', request: { method: 'GET', path: '/api/v1/books/search?q=in%20the&limit=20' } },
    // Shorter than a trigram: answered by a scan.
    { name: 'search 2 chars', request: { method: 'GET', path: '/api/v1/books/search?q=xu&limit=20' } },
    {
      name: 'create',
      request: {
        method: 'POST',
        path: '/api/v1/books',
        body: JSON.stringify({ title: 'Scale Test', author: 'Bench', year: 2024 }),
      },
    },
  ];
}

interface Memory {
  rss: number;
  heapUsed: number;
  arrayBuffers: number;
}

interface SizeRecord {
  size: number;
  fillMs: number;
  loadAverageBefore: number;
  memoryAfterFill: Memory;
  rssAfterLoad: number | undefined;
  probes: Record<string, LoadResult & { matches?: number }>;
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

async function memoryOf(child: ChildProcess): Promise<Memory> {
  const answer = waitForMessage<Memory>(child, 'memory', 60_000);
  child.send({ type: 'memory' });
  return answer;
}

async function json<T>(port: number, path: string): Promise<T> {
  const answer = await send(port, { method: 'GET', path });
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
  return JSON.parse(answer.body.toString('utf8')) as T;
}

async function measureSize(size: number, options: Options, pinned: boolean): Promise<SizeRecord> {
  const port = await freePort();
  const loadAverageBefore = loadAverage();
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.ENABLE_TRAFFIC_GENERATOR;
  delete env.ENABLE_CHAOS_HEADERS;
  delete env.LOG_LEVEL;
  const child = startProcess({
    command: process.execPath,
    args: ['--expose-gc', '--import', 'tsx', 'bench/scale-server.ts', String(size), String(port)],
    cwd: APP_DIR,
    env,
    cpu: pinned ? SERVER_CPU : undefined,
    ipc: true,
    stdio: ['ignore', 'ignore', 'inherit'], // the request log goes nowhere, as in npm run bench
  });
  try {
    const { fillMs } = await waitForMessage<{ fillMs: number }>(child, 'ready', 600_000);
    const memoryAfterFill = await memoryOf(child);
    const total = size + SEEDED_BOOKS;
    const middle = await json<{ items: { id: string }[] }>(port, `/api/v1/books?skip=${Math.floor(total / 2)}&limit=1`);
    const middleId = middle.items[0]?.id;
    if (!middleId) throw new Error('no book in the middle of the collection');

    const probes: SizeRecord['probes'] = {};
    for (const probe of probesFor(total, middleId)) {
      // A short warm-up, so the figures are of optimised code.
      await runLoad({ port, request: probe.request, connections: options.connections, duration: 1 });
      const result = await runLoad({
        port,
        request: probe.request,
        connections: options.connections,
        duration: options.duration,
        serverPid: child.pid,
      });
      const matches = probe.request.path.includes('/search')
        ? (await json<{ total: number }>(port, probe.request.path)).total
        : undefined;
      probes[probe.name] = { ...result, ...(matches !== undefined && { matches }) };
      console.log(
        `  ${String(size).padStart(8)} ${probe.name.padEnd(18)} p50 ${result.p50.toFixed(3)} ms  p99 ${result.p99.toFixed(3)} ms` +
          `  ${result.rps.toFixed(0)} req/s` +
          (matches !== undefined ? `  (${matches} matches)` : '') +
          (result.non2xx + result.errors > 0 ? `  (!) non-2xx ${result.non2xx}, errors ${result.errors}` : ''),
      );
    }
    return {
      size,
      fillMs,
      loadAverageBefore,
      memoryAfterFill,
      rssAfterLoad: child.pid ? rssOf(child.pid) : undefined,
      probes,
    };
  } finally {
    await stopProcess(child);
  }
}

const mb = (bytes: number | undefined) => (bytes === undefined ? '-' : `${(bytes / 2 ** 20).toFixed(0)} MB`);

function report(records: readonly SizeRecord[]): string {
  const names = Object.keys(records[0]?.probes ?? {});
  const header = ['', ...records.map((r) => `${r.size.toLocaleString('en')} books p50 / p99 ms`)];
  const rows = names.map((name) => [
    name,
    ...records.map((r) => {
      const p = r.probes[name];
      return p ? `${p.p50.toFixed(3)} / ${p.p99.toFixed(3)}` : '-';
    }),
  ]);
  rows.push(['RSS after fill (after GC)', ...records.map((r) => mb(r.memoryAfterFill.rss))]);
  rows.push(['heap used after fill', ...records.map((r) => mb(r.memoryAfterFill.heapUsed))]);
  rows.push(['array buffers (index)', ...records.map((r) => mb(r.memoryAfterFill.arrayBuffers))]);
  rows.push(['RSS after the probes', ...records.map((r) => mb(r.rssAfterLoad))]);
  rows.push(['fill time', ...records.map((r) => `${(r.fillMs / 1000).toFixed(1)} s`)]);
  return renderTable(header, rows);
}

async function main(): Promise<void> {
  const options = parseOptions();
  installCleanup();
  mkdirSync(dirname(options.json), { recursive: true });
  const perSizeSeconds = 8 * (options.duration + 1 + 1) + 120;
  const watchdog = setTimeout(
    () => {
      console.error('scale benchmark took too long: aborting');
      process.exit(1);
    },
    options.sizes.length * perSizeSeconds * 2 * 1000,
  );
  watchdog.unref();

  if (!options.skipBuild) buildIfNeeded(APP_DIR);
  const pinned = pinningAvailable();
  if (pinned) pinProcess(process.pid, LOADGEN_CPU);
  console.log(
    `Books API at ${options.sizes.join(', ')} books; ${options.connections} connection(s), ${options.duration} s per probe; ` +
      (pinned ? `server on CPU ${SERVER_CPU}, load generator on CPU ${LOADGEN_CPU}` : 'no CPU pinning') +
      `; load average ${loadAverage().toFixed(2)}`,
  );
  const records: SizeRecord[] = [];
  for (const size of options.sizes) records.push(await measureSize(size, options, pinned));

  console.log('');
  console.log(report(records));
  writeFileSync(
    options.json,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        pinned,
        options,
        loadAverageAtEnd: loadAverage(),
        records,
      },
      null,
      2,
    ),
  );
  console.log(`\nload average at the end ${loadAverage().toFixed(2)}; results written to ${options.json}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
