// `npm run bench:scale`: how the cost of each request grows with the collection.
// For each size it starts the production build with the store prefilled
// (bench/scale-server.ts), measures through HTTP what a client sees, one route at a time,
// and reads the server's memory. See docs/performance.md.
//
// With `--store postgres` each size gets a fresh database in a throwaway cluster (or in
// BENCH_DATABASE_URL's server) filled by bulk load (bench/lib/postgres-bulk-load.ts), and the
// production build runs on it as `DATABASE_URL=... npm start` does. Besides the same probes it
// reports the sizes on disk, concurrent creates against plain inserts, and get and list at many
// connections against the same build in memory mode holding the same books, in the same run.

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
import { loadAverage, warnIfBusy } from './lib/stats.js';
import type { TestPostgres } from '@books/test-postgres';
import {
  concurrentWrites,
  diskSizes,
  filledDatabase,
  serverVersion,
  startBenchPostgres,
  type ConcurrentWrites,
  type DiskSizes,
} from './lib/postgres-scale.js';

const SEEDED_BOOKS = 3;
const PAGE = 20;

const HELP = `Usage: npm run bench:scale -- [options]
  --sizes <a,b,..>    synthetic books to preload (default 10000,100000,1000000)
  --duration <s>      seconds of requests per probe (default 3)
  --connections <n>   concurrent connections (default 1: the latency of one request, no queueing)
  --json <path>       where to write the results (default bench/results/scale-<time>.json)
  --store <s>         memory (default) or postgres: a throwaway PostgreSQL 15 cluster, or the server in
                      BENCH_DATABASE_URL (a database per size is created there and dropped)
  --many <n>          postgres: connections of the concurrency figures (default 50)
  --skip-build        use dist/ as it is, even when older than src/`;

interface Options {
  sizes: number[];
  duration: number;
  connections: number;
  json: string;
  skipBuild: boolean;
  store: 'memory' | 'postgres';
  many: number;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      json: { type: 'string' },
      'skip-build': { type: 'boolean' },
      store: { type: 'string' },
      many: { type: 'string' },
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
  const store = values.store ?? 'memory';
  if (store !== 'memory' && store !== 'postgres') throw new Error(`--store must be memory or postgres, got ${store}`);
  return {
    store,
    many: int('many', values.many, 50, 2, 190),
    sizes: (values.sizes ?? '10000,100000,1000000').split(',').map((s) => int('sizes', s.trim(), 0, 0, 5_000_000)),
    duration: int('duration', values.duration, 3, 1, 60),
    connections: int('connections', values.connections, 1, 1, 200),
    json: resolve(values.json ?? join(RESULTS_DIR, `scale-${store === 'postgres' ? 'postgres-' : ''}${stamp}.json`)),
    skipBuild: values['skip-build'] ?? false,
  };
}

interface Probe {
  name: string;
  request: LoadRequest;
  /** Sent, one at a time, just before the probe is measured (not measured themselves). */
  before?: LoadRequest[];
  /** One path per request (deletes): measured once each, without warm-up. */
  paths?: string[];
}

const search = (q: string): LoadRequest => ({
  method: 'GET',
  path: `/api/v1/books/search?q=${encodeURIComponent(q)}&limit=${PAGE}`,
});

function probesFor(size: number, middleId: string, doomedIds: string[]): Probe[] {
  return [
    { name: 'list skip 0', request: { method: 'GET', path: `/api/v1/books?skip=0&limit=${PAGE}` } },
    {
      // Named alike at every size so the report lines the sizes up: 999,980 at a million.
      name: `list skip size-${PAGE}`,
      request: { method: 'GET', path: `/api/v1/books?skip=${Math.max(0, size - PAGE)}&limit=${PAGE}` },
    },
    { name: 'get by id', request: { method: 'GET', path: `/api/v1/books/${middleId}` } },
    // An author's full name: about 0.02% of the synthetic books.
    { name: 'search "eleanor whitfield"', request: search('eleanor whitfield') },
    // A common phrase (about 15% of the books): every candidate must be checked to count them.
    { name: 'search "in the"', request: search('in the') },
    // A common word: about 70% of the books match, and the total counts them all.
    { name: 'search "the"', request: search('the') },
    // Shorter than a trigram: answered by a scan.
    { name: 'search "a"', request: search('a') },
    { name: 'search "xu"', request: search('xu') },
    // A plan cached after repeated executions of another query must not slow this one down.
    {
      name: 'search "xu" after 10x "the"',
      request: search('xu'),
      before: Array.from({ length: 10 }, () => search('the')),
    },
    {
      name: 'create',
      request: {
        method: 'POST',
        path: '/api/v1/books',
        body: JSON.stringify({ title: 'Scale Test', author: 'Bench', year: 2024 }),
      },
    },
    {
      // The values the book has: every PATCH does the same work and answers the same body.
      name: 'patch',
      request: {
        method: 'PATCH',
        path: `/api/v1/books/${middleId}`,
        body: JSON.stringify({ title: 'Scale Patch', year: 2024 }),
      },
    },
    { name: 'delete', request: { method: 'DELETE', path: '/' }, paths: doomedIds.map((id) => `/api/v1/books/${id}`) },
  ];
}

interface Memory {
  rss: number;
  heapUsed: number;
  arrayBuffers: number;
}

interface SizeRecord {
  size: number;
  store: 'memory' | 'postgres';
  fillMs: number;
  loadAverageBefore: number;
  /** Memory store: the server's memory after the fill. */
  memoryAfterFill?: Memory;
  rssAfterLoad: number | undefined;
  /** PostgreSQL store: the tables and indexes on disk after the fill. */
  disk?: DiskSizes;
  probes: Record<string, LoadResult & { matches?: number }>;
  /** PostgreSQL store: the figures at many connections. */
  many?: ManyConnections;
}

interface ManyConnections {
  writes: ConcurrentWrites;
  /** req/s of the same HTTP requests against the PostgreSQL-backed and the memory-backed server. */
  http: Record<string, { postgres: LoadResult; memory: LoadResult }>;
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

function serverEnv(port: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...extra };
  delete env.ENABLE_TRAFFIC_GENERATOR;
  delete env.ENABLE_CHAOS_HEADERS;
  delete env.LOG_LEVEL;
  return env;
}

/** The production build holding `size` synthetic books in memory (bench/scale-server.ts). */
async function startMemoryServer(
  size: number,
  pinned: boolean,
): Promise<{ child: ChildProcess; port: number; fillMs: number }> {
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
async function startPostgresServer(url: string, pinned: boolean): Promise<{ child: ChildProcess; port: number }> {
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

/** Ids of books from the second quarter of the collection, for the delete probe. */
async function idsToDelete(port: number, size: number, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let skip = Math.floor(size / 4); ids.length < count; skip += 100) {
    const page = await json<{ items: { id: string }[] }>(port, `/api/v1/books?skip=${skip}&limit=100`);
    if (page.items.length === 0) break;
    ids.push(...page.items.map((book) => book.id));
  }
  return ids.slice(0, count);
}

async function runProbes(
  size: number,
  port: number,
  pid: number | undefined,
  options: Options,
): Promise<SizeRecord['probes']> {
  const total = size + SEEDED_BOOKS;
  const middle = await json<{ items: { id: string }[] }>(port, `/api/v1/books?skip=${Math.floor(total / 2)}&limit=1`);
  const middleId = middle.items[0]?.id;
  if (!middleId) throw new Error('no book in the middle of the collection');
  const doomed = await idsToDelete(port, size, Math.min(1000, Math.floor(size / 4)));

  const probes: SizeRecord['probes'] = {};
  for (const probe of probesFor(size, middleId, doomed)) {
    if (probe.request.path.startsWith('/api/v1/books?')) {
      // Every page is measured with its exact total: check it before, and the load below keeps it.
      const page = await json<{ total: number; items: unknown[] }>(port, probe.request.path);
      if (page.total !== total || page.items.length !== Math.min(PAGE, total)) {
        throw new Error(`${probe.name}: total ${page.total} and ${page.items.length} items, expected ${total}`);
      }
    }
    if (!probe.paths) {
      // A short warm-up, so the figures are of optimised code.
      await runLoad({ port, request: probe.request, connections: options.connections, duration: 1 });
    }
    for (const request of probe.before ?? []) await send(port, request);
    const result = await runLoad({
      port,
      request: probe.request,
      connections: options.connections,
      duration: options.duration,
      serverPid: pid,
      ...(probe.paths && { paths: probe.paths }),
    });
    const matches = probe.request.path.includes('/search')
      ? (await json<{ total: number }>(port, probe.request.path)).total
      : undefined;
    probes[probe.name] = { ...result, ...(matches !== undefined && { matches }) };
    console.log(
      `  ${String(size).padStart(8)} ${probe.name.padEnd(30)} p50 ${result.p50.toFixed(3)} ms  p99 ${result.p99.toFixed(3)} ms` +
        `  ${result.rps.toFixed(0)} req/s` +
        (matches !== undefined ? `  (${matches} matches)` : '') +
        (result.non2xx + result.errors > 0 ? `  (!) non-2xx ${result.non2xx}, errors ${result.errors}` : ''),
    );
  }
  return probes;
}

async function measureMemorySize(size: number, options: Options, pinned: boolean): Promise<SizeRecord> {
  const loadAverageBefore = loadAverage();
  const server = await startMemoryServer(size, pinned);
  try {
    const memoryAfterFill = await memoryOf(server.child);
    const probes = await runProbes(size, server.port, server.child.pid, options);
    return {
      size,
      store: 'memory',
      fillMs: server.fillMs,
      loadAverageBefore,
      memoryAfterFill,
      rssAfterLoad: server.child.pid ? rssOf(server.child.pid) : undefined,
      probes,
    };
  } finally {
    await stopProcess(server.child);
  }
}

const HTTP_AT_MANY: { name: string; request: LoadRequest }[] = [
  { name: 'get', request: { method: 'GET', path: '/api/v1/books/3fa85f64-5717-4562-b3fc-2c963f66afa6' } },
  { name: 'list', request: { method: 'GET', path: `/api/v1/books?skip=0&limit=${PAGE}` } },
];

/** get and list at many connections, PostgreSQL-backed and memory-backed servers alternately. */
async function httpAtMany(
  size: number,
  postgresServer: { child: ChildProcess; port: number },
  options: Options,
  pinned: boolean,
): Promise<ManyConnections['http']> {
  const memory = await startMemoryServer(size, pinned);
  try {
    const figures: ManyConnections['http'] = {};
    for (const { name, request } of HTTP_AT_MANY) {
      const load = (server: { child: ChildProcess; port: number }) =>
        runLoad({
          port: server.port,
          request,
          connections: options.many,
          duration: options.duration,
          serverPid: server.child.pid,
        });
      await runLoad({ port: postgresServer.port, request, connections: options.many, duration: 1 });
      await runLoad({ port: memory.port, request, connections: options.many, duration: 1 });
      const postgres = await load(postgresServer);
      const inMemory = await load(memory);
      figures[name] = { postgres, memory: inMemory };
      console.log(
        `  ${String(size).padStart(8)} ${name} at ${options.many} connections: postgres ${postgres.rps.toFixed(0)} req/s,` +
          ` memory ${inMemory.rps.toFixed(0)} req/s (${((100 * postgres.rps) / inMemory.rps).toFixed(0)}%)` +
          (postgres.non2xx + postgres.errors + inMemory.non2xx + inMemory.errors > 0 ? '  (!) failures' : ''),
      );
    }
    return figures;
  } finally {
    await stopProcess(memory.child);
  }
}

async function measurePostgresSize(
  size: number,
  database: TestPostgres,
  options: Options,
  pinned: boolean,
): Promise<SizeRecord> {
  const loadAverageBefore = loadAverage();
  const { url, fillMs } = await filledDatabase(database, size);
  try {
    const disk = await diskSizes(url);
    console.log(
      `  ${String(size).padStart(8)} bulk load ${(fillMs / 1000).toFixed(1)} s; books ${mb(disk.booksTotal)} on disk` +
        ` (table ${mb(disk.booksHeap)}, indexes ${mb(Object.values(disk.booksIndexes).reduce((a, b) => a + b, 0))})`,
    );
    const server = await startPostgresServer(url, pinned);
    try {
      const probes = await runProbes(size, server.port, server.child.pid, options);
      const http = await httpAtMany(size, server, options, pinned);
      const writes = await concurrentWrites(url, options.many, options.duration);
      console.log(
        `  ${String(size).padStart(8)} ${options.many} concurrent creates ${writes.createsPerSecond.toFixed(0)}/s,` +
          ` plain inserts ${writes.plainInsertsPerSecond.toFixed(0)}/s` +
          ` (${((100 * writes.createsPerSecond) / writes.plainInsertsPerSecond).toFixed(0)}%);` +
          ` total ${writes.storeTotal}, rows ${writes.countedRows}${writes.storeTotal === writes.countedRows ? ' (exact)' : ' (!) NOT EXACT'}`,
      );
      return {
        size,
        store: 'postgres',
        fillMs,
        loadAverageBefore,
        disk,
        rssAfterLoad: server.child.pid ? rssOf(server.child.pid) : undefined,
        probes,
        many: { writes, http },
      };
    } finally {
      await stopProcess(server.child);
    }
  } finally {
    await database.dropDatabase(url);
  }
}

const mb = (bytes: number | undefined) => (bytes === undefined ? '-' : `${(bytes / 2 ** 20).toFixed(0)} MB`);
const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)}%`;

function report(records: readonly SizeRecord[]): string {
  const names = Object.keys(records[0]?.probes ?? {});
  const header = ['', ...records.map((r) => `${r.size.toLocaleString('en')} books p50 / p99 ms`)];
  const rows = names.map((name) => {
    const matches = records.map((r) => r.probes[name]?.matches);
    return [
      name,
      ...records.map((r, i) => {
        const p = r.probes[name];
        if (!p) return '-';
        return `${p.p50.toFixed(3)} / ${p.p99.toFixed(3)}` + (matches[i] !== undefined ? ` (${matches[i]})` : '');
      }),
    ];
  });
  const row = (label: string, cell: (r: SizeRecord) => string) => rows.push([label, ...records.map(cell)]);
  if (records.some((r) => r.store === 'memory')) {
    row('RSS after fill (after GC)', (r) => mb(r.memoryAfterFill?.rss));
    row('heap used after fill', (r) => mb(r.memoryAfterFill?.heapUsed));
    row('array buffers (index)', (r) => mb(r.memoryAfterFill?.arrayBuffers));
  } else {
    row('books on disk (table + indexes)', (r) => mb(r.disk?.booksTotal));
    row('  table (heap + TOAST)', (r) => mb(r.disk?.booksHeap));
    for (const index of Object.keys(records[0]?.disk?.booksIndexes ?? {})) {
      row(`  index ${index}`, (r) => mb(r.disk?.booksIndexes[index]));
    }
    row('book_block_counts and book_group_counts', (r) => mb(r.disk?.blockCounts));
    row('database', (r) => mb(r.disk?.database));
    const many = records[0]?.many?.writes.connections ?? 0;
    row(`creates at ${many} conn. / plain inserts`, (r) =>
      r.many
        ? `${r.many.writes.createsPerSecond.toFixed(0)} / ${r.many.writes.plainInsertsPerSecond.toFixed(0)}/s = ${pct(r.many.writes.createsPerSecond, r.many.writes.plainInsertsPerSecond)}`
        : '-',
    );
    row('  total exact after them', (r) =>
      r.many
        ? r.many.writes.storeTotal === r.many.writes.countedRows
          ? `yes (${r.many.writes.storeTotal})`
          : 'NO'
        : '-',
    );
    for (const { name } of HTTP_AT_MANY) {
      row(`HTTP ${name} at ${many} conn. postgres / memory`, (r) => {
        const pair = r.many?.http[name];
        return pair
          ? `${pair.postgres.rps.toFixed(0)} / ${pair.memory.rps.toFixed(0)} req/s = ${pct(pair.postgres.rps, pair.memory.rps)}`
          : '-';
      });
    }
  }
  row('server RSS after the probes', (r) => mb(r.rssAfterLoad));
  row(records[0]?.store === 'postgres' ? 'bulk load time' : 'fill time', (r) => `${(r.fillMs / 1000).toFixed(1)} s`);
  row('load average before', (r) => r.loadAverageBefore.toFixed(1));
  return renderTable(header, rows);
}

async function main(): Promise<void> {
  const options = parseOptions();
  installCleanup();
  warnIfBusy();
  mkdirSync(dirname(options.json), { recursive: true });
  const perSizeSeconds = (options.store === 'postgres' ? 24 : 14) * (options.duration + 1 + 1) + 300;
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
  // The throwaway cluster first: its processes inherit this process's CPUs, and pinned to the load
  // generator's CPU they ran every statement, parallel workers included, on that one CPU.
  const database = options.store === 'postgres' ? await startBenchPostgres() : undefined;
  if (pinned) pinProcess(process.pid, LOADGEN_CPU);
  try {
    console.log(
      `Books API (${options.store} store) at ${options.sizes.join(', ')} books; ${options.connections} connection(s), ${options.duration} s per probe; ` +
        (pinned ? `server on CPU ${SERVER_CPU}, load generator on CPU ${LOADGEN_CPU}` : 'no CPU pinning') +
        (database
          ? `; PostgreSQL ${await serverVersion(database.adminUrl)}${database.canRestart ? ' (throwaway cluster, unpinned)' : ''}`
          : '') +
        `; load average ${loadAverage().toFixed(2)}`,
    );
    const records: SizeRecord[] = [];
    for (const size of options.sizes) {
      records.push(
        database
          ? await measurePostgresSize(size, database, options, pinned)
          : await measureMemorySize(size, options, pinned),
      );
    }

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
  } finally {
    await database?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
