// `npm run bench`: the Books API's production build against a bare node:http baseline that
// answers the same requests with the same bytes. See docs/performance.md.
//
// Every round starts a fresh service (`node dist/server.js`, as `npm start` does, request
// log on) and prefills it with the same deterministic books over HTTP, warms both servers
// up, captures the service's responses for the baseline, then loads the two alternately,
// route by route (A, B, A, B ...). Create runs last, and the next round starts from a fresh
// store again, so the books created by the benchmark never skew another measurement.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { captureForBaseline, startBaseline, type RunningBaseline } from './lib/baseline.js';
import { buildIfNeeded } from './lib/build.js';
import { APP_DIR, LOADGEN_CPU, RESULTS_DIR, SERVER_CPU } from './lib/layout.js';
import { runComparison } from './lib/compare.js';
import { runSustained, type SustainedMix } from './lib/sustained.js';
import { runLoad, type LoadOptions, type LoadResult } from './lib/load.js';
import { assertWrkInstalled, LOAD_GENERATORS, routesWrkCanSend, runWrk, type LoadGenerator } from './lib/wrk.js';
import { installCleanup, pinProcess, pinningAvailable, stopProcess } from './lib/processes.js';
import { booksIn, prefill, startService, type RunningService } from './lib/service.js';
import { selectRoutes, type BenchRoute } from './lib/routes.js';
import { startTraceSink } from './lib/trace-sink.js';
import { loadAverage, warnIfBusy } from './lib/stats.js';
import { failuresOf, formatTable, summarise, type RoundRecord } from './lib/report.js';
import type { TestPostgres } from '@books/test-postgres';
import { startBenchPostgres } from './lib/postgres-scale.js';

const HELP = `Usage: npm run bench -- [options]
  --duration <s>      seconds of load per route, side and round (default 5)
  --connections <n>   concurrent connections (default 50)
  --rounds <n>        rounds; figures are medians over rounds (default 3)
  --routes <a,b,..>   subset of: list,get,search,status,ps,patch,create (default all)
  --warmup <s>        seconds of warm-up per route and side each round (default 1; 3 with --sustained)
  --prefill <n>       books created over HTTP before each round (default 200)
  --log-file <path>   where the service's request log goes (default /dev/null)
  --json <path>       where to write the results (default bench/results/bench-<time>.json)
  --skip-build        use dist/ as it is, even when older than src/
  --store <s>         memory (default) or postgres: each round's service gets a fresh database in a throwaway
                      PostgreSQL 15 cluster (or in BENCH_DATABASE_URL's server), as DATABASE_URL=... npm start
  --loadgen <g>       autocannon (default) or wrk: the wrk binary on PATH (apt-get install wrk), as issue 16's
                      acceptance check uses it (wrk -t1 -c<connections> -d<duration>s --latency); it cannot send
                      HEAD, so status is left out (an explicit --routes with status is refused)
  --cpu-prof          also write a V8 CPU profile of the service per round to bench/results/profiles/
  --compare <git-ref> instead of the baseline, measure this checkout against the build of another revision:
                      both pinned to the same core at the same time, each loaded by its own load generator,
                      ratios normalised by each server's CPU time (so they hold on a busy machine)
  --sustained         instead of the baseline, keep one service process under load for --minutes and measure it
                      against a freshly started one every --interval s, both on the same core at the same time
                      (the --compare method): the long-lived/fresh ratio per window shows whether a process slows
                      down under sustained load. --duration and --warmup apply per route and window
  --minutes <n>       with --sustained: how long the long-lived process is kept under load (default 10)
  --interval <s>      with --sustained: seconds between measurement windows (default 60)
  --tracing           the service with OpenTelemetry tracing on, every request sampled, its spans exported to
                      a sink in this process that reads and drops them (compare with a run without it)
  --mix <m>           with --sustained: read (list and get, default) or create (list, get and create: the store
                      grows all along, as under real writes)`;

interface Options {
  duration: number;
  connections: number;
  rounds: number;
  warmup: number;
  prefill: number;
  routes: BenchRoute[];
  logFile: string;
  json: string;
  skipBuild: boolean;
  cpuProf: boolean;
  compare: string | undefined;
  sustained: boolean;
  minutes: number;
  interval: number;
  mix: SustainedMix;
  store: 'memory' | 'postgres';
  loadgen: LoadGenerator;
  tracing: boolean;
  /** Set by main() with --tracing: the sink's URL. */
  tracesEndpoint?: string;
}

function positiveInt(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > max) throw new Error(`--${name} must be an integer 0-${max}, got ${text}`);
  return n;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      rounds: { type: 'string' },
      routes: { type: 'string' },
      warmup: { type: 'string' },
      prefill: { type: 'string' },
      'log-file': { type: 'string' },
      json: { type: 'string' },
      'skip-build': { type: 'boolean' },
      'cpu-prof': { type: 'boolean' },
      compare: { type: 'string' },
      store: { type: 'string' },
      sustained: { type: 'boolean' },
      minutes: { type: 'string' },
      interval: { type: 'string' },
      mix: { type: 'string' },
      loadgen: { type: 'string' },
      tracing: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const loadgen = values.loadgen ?? 'autocannon';
  if (!LOAD_GENERATORS.some((g) => g === loadgen)) {
    throw new Error(`--loadgen must be ${LOAD_GENERATORS.join(' or ')}, got ${loadgen}`);
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const options: Options = {
    duration: positiveInt('duration', values.duration, 5, 120),
    connections: positiveInt('connections', values.connections, 50, 1000),
    rounds: positiveInt('rounds', values.rounds, 3, 20),
    // A window's fresh process starts JIT-cold: it needs longer than a round's warm-up.
    warmup: positiveInt('warmup', values.warmup, values.sustained ? 3 : 1, 60),
    prefill: positiveInt('prefill', values.prefill, 200, 10_000),
    routes: selectRoutes(
      values.routes
        ?.split(',')
        .map((r) => r.trim())
        .filter(Boolean),
    ),
    logFile: values['log-file'] ?? '/dev/null',
    json: resolve(values.json ?? join(RESULTS_DIR, `bench-${stamp}.json`)),
    skipBuild: values['skip-build'] ?? false,
    cpuProf: values['cpu-prof'] ?? false,
    compare: values.compare,
    store: values.store === 'postgres' ? 'postgres' : 'memory',
    sustained: values.sustained ?? false,
    minutes: positiveInt('minutes', values.minutes, 10, 240),
    interval: positiveInt('interval', values.interval, 60, 3600),
    mix: values.mix === 'create' ? 'create' : 'read',
    loadgen: loadgen as LoadGenerator,
    tracing: values.tracing ?? false,
  };
  if (values.mix !== undefined && values.mix !== 'read' && values.mix !== 'create') {
    throw new Error(`--mix must be read or create, got ${values.mix}`);
  }
  if (options.sustained && (options.compare !== undefined || options.store !== 'memory')) {
    throw new Error('--sustained measures the in-memory build of this checkout; leave out --compare and --store');
  }
  if (options.sustained && (options.interval < 2 * options.duration + 10 || options.minutes < 1)) {
    throw new Error('--sustained needs --minutes of at least 1 and an --interval longer than its windows');
  }
  if (values.store !== undefined && values.store !== 'memory' && values.store !== 'postgres') {
    throw new Error(`--store must be memory or postgres, got ${values.store}`);
  }
  if (options.tracing && (options.compare !== undefined || options.sustained)) {
    throw new Error('--tracing measures against the baseline: it cannot be combined with --compare or --sustained');
  }
  if (options.store === 'postgres' && options.compare !== undefined) {
    throw new Error('--compare measures the in-memory build only; leave out --store postgres');
  }
  if (options.duration < 1 || options.rounds < 1 || options.connections < 1) {
    throw new Error('--duration, --rounds and --connections must be at least 1');
  }
  if (options.loadgen === 'wrk') {
    if (options.sustained)
      throw new Error('--sustained loads a mix of requests, which wrk cannot: leave out --loadgen');
    assertWrkInstalled();
    options.routes = routesWrkCanSend(options.routes, values.routes !== undefined);
  }
  return options;
}

/** One load run: autocannon in this process (pinned with it), or a wrk process of its own. */
function loadOnce(load: LoadOptions, options: Options, pinned: boolean): Promise<LoadResult> {
  return options.loadgen === 'wrk' ? runWrk(load, pinned ? LOADGEN_CPU : undefined) : runLoad(load);
}

function startBooksService(
  cpu: number | undefined,
  options: Options,
  databaseUrl: string | undefined,
): Promise<RunningService> {
  return startService({
    appDir: APP_DIR,
    cpu,
    logFile: options.logFile,
    cpuProf: options.cpuProf,
    databaseUrl,
    ...(options.tracesEndpoint === undefined ? {} : { tracesEndpoint: options.tracesEndpoint }),
  });
}

async function warmUp(port: number, routes: readonly BenchRoute[], options: Options, pinned: boolean): Promise<void> {
  if (options.warmup === 0) return;
  for (const route of routes) {
    const bounded = route.name === 'create' ? { amount: 2000 } : {};
    await loadOnce(
      { port, request: route.request, connections: options.connections, duration: options.warmup, ...bounded },
      options,
      pinned,
    );
  }
}

async function runRound(
  round: number,
  options: Options,
  pinned: boolean,
  database: TestPostgres | undefined,
): Promise<RoundRecord> {
  const cpu = pinned ? SERVER_CPU : undefined;
  const record: RoundRecord = { round, loadAverageBefore: loadAverage(), booksAtEnd: undefined, routes: {} };
  // A fresh database per round, as a fresh memory store: created books never skew the next round.
  const databaseUrl = database ? await database.createDatabase('bench') : undefined;
  const service = await startBooksService(cpu, options, databaseUrl);
  let baseline: RunningBaseline | undefined;
  try {
    await prefill(service.port, options.prefill);
    await warmUp(service.port, options.routes, options, pinned);
    baseline = await startBaseline(cpu, await captureForBaseline(service.port, options.routes, round));
    await warmUp(baseline.port, options.routes, options, pinned);

    for (const route of options.routes) {
      const load = (port: number, pid: number | undefined) =>
        loadOnce(
          {
            port,
            request: route.request,
            connections: options.connections,
            duration: options.duration,
            serverPid: pid,
          },
          options,
          pinned,
        );
      const serviceResult = await load(service.port, service.child.pid);
      const baselineResult = await load(baseline.port, baseline.child.pid);
      record.routes[route.name] = { service: serviceResult, baseline: baselineResult };
      console.log(
        `  round ${round} ${route.name.padEnd(7)} service ${serviceResult.rps.toFixed(0).padStart(6)} req/s` +
          ` p99 ${serviceResult.p99.toFixed(2)} ms | baseline ${baselineResult.rps.toFixed(0).padStart(6)} req/s` +
          ` p99 ${baselineResult.p99.toFixed(2)} ms` +
          (failuresOf(serviceResult) + failuresOf(baselineResult) > 0
            ? `  (!) non-2xx ${serviceResult.non2xx}/${baselineResult.non2xx}, errors ${serviceResult.errors}/${baselineResult.errors}`
            : ''),
      );
    }
    record.booksAtEnd = await booksIn(service.port);
  } finally {
    await stopProcess(service.child);
    if (baseline) await stopProcess(baseline.child);
    if (database && databaseUrl) await database.dropDatabase(databaseUrl);
  }
  return record;
}

async function main(): Promise<void> {
  const options = parseOptions();
  installCleanup();
  warnIfBusy();
  mkdirSync(RESULTS_DIR, { recursive: true });
  mkdirSync(dirname(options.json), { recursive: true });

  // The whole run is bounded: a stuck server or client cannot keep it going.
  const plannedSeconds = options.sustained
    ? options.minutes * 60 + options.interval + 120
    : options.rounds * options.routes.length * 2 * (options.duration + options.warmup + 1) + options.rounds * 30;
  const watchdog = setTimeout(
    () => {
      console.error(`benchmark exceeded ${2 * plannedSeconds} s: aborting`);
      process.exit(1);
    },
    2 * plannedSeconds * 1000,
  );
  watchdog.unref();

  if (!options.skipBuild) buildIfNeeded(APP_DIR);
  const pinned = pinningAvailable();
  const measuresBaseline = !options.sustained && options.compare === undefined;
  // The throwaway cluster first: its processes inherit this process's CPUs, and pinned to the load
  // generator's CPU they ran every statement on that one CPU.
  const database = measuresBaseline && options.store === 'postgres' ? await startBenchPostgres() : undefined;
  if (pinned) pinProcess(process.pid, LOADGEN_CPU);
  if (options.sustained) {
    await runSustained({ ...options, pinned });
    return;
  }
  if (options.compare !== undefined) {
    await runComparison({ ...options, ref: options.compare, pinned });
    return;
  }
  const sink = options.tracing ? await startTraceSink() : undefined;
  if (sink !== undefined) options.tracesEndpoint = sink.url;
  console.log(
    `Books API (${options.store} store${sink ? ', tracing on, every request sampled' : ''}) vs node:http baseline: ${options.routes.map((r) => r.name).join(', ')}; ` +
      `${options.rounds} round(s) x ${options.duration} s, ${options.connections} connections; ` +
      (pinned
        ? `servers on CPU ${SERVER_CPU}, load generator (${options.loadgen}) on CPU ${LOADGEN_CPU}`
        : `no CPU pinning (taskset or a 2nd CPU missing), load generator ${options.loadgen}`) +
      `; load average ${loadAverage().toFixed(2)}; about ${Math.ceil(plannedSeconds / 60)} min`,
  );

  const rounds: RoundRecord[] = [];
  try {
    for (let round = 1; round <= options.rounds; round++) rounds.push(await runRound(round, options, pinned, database));
  } finally {
    await database?.stop();
    if (sink !== undefined) {
      console.log(`trace sink: ${sink.exports()} OTLP exports received`);
      await sink.close();
    }
  }

  const summary = summarise(options.routes, rounds);
  console.log('');
  console.log(formatTable(summary));
  const machine = await import('node:os');
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: machine.cpus().map((c) => c.model),
    pinned,
    options: { ...options, routes: options.routes.map((r) => r.name) },
    loadAverageAtEnd: loadAverage(),
    summary,
    rounds,
  };
  writeFileSync(options.json, JSON.stringify(report, null, 2));
  console.log(`\nload average at the end ${loadAverage().toFixed(2)}; results written to ${options.json}`);
  if (summary.some((s) => s.failures > 0)) {
    console.error('some requests failed or answered non-2xx: the figures above are not trustworthy');
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
