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
import { buildIfNeeded } from './lib/build.js';
import { APP_DIR, LOADGEN_CPU, RESULTS_DIR, SERVER_CPU } from './lib/layout.js';
import { installCleanup, pinProcess, pinningAvailable, rssOf, stopProcess } from './lib/processes.js';
import { renderTable } from './lib/report.js';
import { HTTP_AT_MANY, httpAtMany, runProbes, type HttpAtMany, type ProbeResults } from './lib/scale-probes.js';
import { memoryOf, startMemoryServer, startPostgresServer, type Memory } from './lib/scale-servers.js';
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
  probes: ProbeResults;
  /** PostgreSQL store: the figures at many connections. */
  many?: ManyConnections;
}

interface ManyConnections {
  writes: ConcurrentWrites;
  http: HttpAtMany;
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
