// `npm run bench -- --sustained`: does a service process get slower the longer it serves?
//
// One long-lived service process is kept under load without pause (a mix of list and get,
// or with `--mix create` list, get and create, so its store grows as a real one would). At
// every interval (minute 0, 1, 2 ...) the background load stops for a short measurement
// window: a fresh process of the same build is started and prefilled like the long-lived one
// was; both are warmed up, first with the background mix, then with each route alone, so that
// they differ in how long they have served and not in what; then both are measured at the
// same time on the same core, each loaded by its own load generator, exactly as `--compare`
// does. The figure is the ratio of requests per CPU-second, long-lived / fresh, per route and
// window: whatever the shared machine does hits both sides of a window alike. Window 0 is
// taken when the long-lived process is itself fresh, so it is the A/A control of the run.
//
// Beside the ratio, each window records what could explain a drift: both processes' heap and
// RSS, the share of time in GC pauses and the event-loop utilisation during the measurement
// (runtime-probe.ts), and the number of books in each store.

import { writeFileSync } from 'node:fs';
import { APP_DIR, LOADGEN_CPU, SERVER_CPU } from './layout.js';
import { loadInChild, type ChildLoadResult } from './load-child.js';
import type { LoadRequest } from './load.js';
import { stopProcess } from './processes.js';
import { renderTable } from './report.js';
import { ROUTES, type BenchRoute } from './routes.js';
import { between, probe, type ProbeInterval, type ProbeReading } from './runtime-probe.js';
import { booksIn, prefill, startService, type RunningService } from './service.js';
import { loadAverage, median } from './stats.js';

export type SustainedMix = 'read' | 'create';

export interface SustainedOptions {
  pinned: boolean;
  minutes: number;
  /** Seconds from the start of one window to the start of the next. */
  interval: number;
  mix: SustainedMix;
  /** Seconds each route is measured in a window. */
  duration: number;
  /** Seconds each route warms both processes up in a window. */
  warmup: number;
  connections: number;
  prefill: number;
  logFile: string;
  json: string;
  cpuProf: boolean;
}

type Side = 'longLived' | 'fresh';

interface SideFigures {
  result: ChildLoadResult;
}

export interface WindowRecord {
  window: number;
  /** Minutes since the long-lived process was started and prefilled. */
  minutes: number;
  loadAverage: number;
  books: Record<Side, number | undefined>;
  /** Memory at the end of the window's measurement. */
  heapUsedMB: Record<Side, number>;
  rssMB: Record<Side, number>;
  /** GC and event-loop figures over the window's measurement (all routes). */
  runtime: Record<Side, ProbeInterval>;
  routes: Record<string, Record<Side, SideFigures> & { ratioPerCpu: number; ratioRps: number }>;
  /** The load between the previous window and this one (the long-lived process only). */
  background?: { seconds: number; rps: number; serverCpu: number | undefined; runtime: ProbeInterval };
}

const byName = (name: string): BenchRoute => {
  const route = ROUTES.find((r) => r.name === name);
  if (route === undefined) throw new Error(`no route ${name}`);
  return route;
};

/** The routes measured in every window, and the background mix, per mix. */
export function mixRoutes(mix: SustainedMix): BenchRoute[] {
  return (mix === 'read' ? ['list', 'get'] : ['list', 'get', 'create']).map(byName);
}

const mb = (bytes: number) => bytes / (1024 * 1024);

function loadOptions(
  server: RunningService,
  route: BenchRoute,
  seconds: number,
  options: SustainedOptions,
  warmup: boolean,
) {
  return {
    port: server.port,
    request: route.request,
    connections: options.connections,
    duration: seconds,
    serverPid: server.child.pid,
    // A bounded warm-up for create, as in the other modes.
    ...(route.name === 'create' && warmup ? { amount: 2000 } : {}),
  };
}

/** Every connection sends the mix's requests in turn: the background load of the long-lived process. */
function mixLoadOptions(
  server: RunningService,
  routes: readonly BenchRoute[],
  seconds: number,
  options: SustainedOptions,
) {
  const mix: LoadRequest[] = routes.map((r) => r.request);
  return {
    port: server.port,
    request: mix[0] as LoadRequest,
    mix,
    connections: options.connections,
    duration: seconds,
    serverPid: server.child.pid,
  };
}

async function measureWindow(
  index: number,
  longLived: RunningService,
  startedAt: number,
  options: SustainedOptions,
  cpuProfFresh: boolean,
): Promise<WindowRecord> {
  const routes = mixRoutes(options.mix);
  const minutes = (Date.now() - startedAt) / 60_000;
  const loadAvg = loadAverage();
  const fresh = await startService({
    appDir: APP_DIR,
    cpu: options.pinned ? SERVER_CPU : undefined,
    logFile: options.logFile,
    cpuProf: cpuProfFresh,
    runtimeProbe: true,
  });
  try {
    await prefill(fresh.port, options.prefill);
    const servers: Record<Side, RunningService> = { longLived, fresh };
    // Alternate which side's load generator starts first, as --compare does between rounds.
    const order: Side[] = index % 2 === 0 ? ['longLived', 'fresh'] : ['fresh', 'longLived'];
    const both = (route: BenchRoute, seconds: number, warmup: boolean) =>
      Promise.all(
        order.map((side) => loadInChild(loadOptions(servers[side], route, seconds, options, warmup), options.pinned)),
      ).then(
        ([first, second]) =>
          ({ [order[0] as Side]: first, [order[1] as Side]: second }) as Record<Side, ChildLoadResult>,
      );

    if (options.warmup > 0) {
      // First the background mix on both, so that the fresh process's code is optimised for
      // the same interleaving of routes as the long-lived one's (a process warmed up on one
      // route at a time ends up with other type feedback), then each route alone.
      const mixSeconds = options.warmup * routes.length;
      await Promise.all(
        order.map((side) => loadInChild(mixLoadOptions(servers[side], routes, mixSeconds, options), options.pinned)),
      );
      for (const route of routes) await both(route, options.warmup, true);
    }
    const before: Record<Side, ProbeReading> = {
      longLived: await probe(longLived.child),
      fresh: await probe(fresh.child),
    };
    const measured: WindowRecord['routes'] = {};
    for (const route of routes) {
      const r = await both(route, options.duration, false);
      const perCpu =
        r.longLived.perCpuSecond && r.fresh.perCpuSecond ? r.longLived.perCpuSecond / r.fresh.perCpuSecond : NaN;
      measured[route.name] = {
        longLived: { result: r.longLived },
        fresh: { result: r.fresh },
        ratioPerCpu: perCpu,
        ratioRps: r.longLived.rps / r.fresh.rps,
      };
    }
    const after: Record<Side, ProbeReading> = {
      longLived: await probe(longLived.child),
      fresh: await probe(fresh.child),
    };
    return {
      window: index,
      minutes,
      loadAverage: loadAvg,
      books: { longLived: await booksIn(longLived.port), fresh: await booksIn(fresh.port) },
      heapUsedMB: { longLived: mb(after.longLived.heapUsed), fresh: mb(after.fresh.heapUsed) },
      rssMB: { longLived: mb(after.longLived.rss), fresh: mb(after.fresh.rss) },
      runtime: { longLived: between(before.longLived, after.longLived), fresh: between(before.fresh, after.fresh) },
      routes: measured,
    };
  } finally {
    await stopProcess(fresh.child);
  }
}

function failures(windows: readonly WindowRecord[]): number {
  let n = 0;
  for (const w of windows) {
    for (const route of Object.values(w.routes)) {
      for (const side of [route.longLived, route.fresh]) n += side.result.non2xx + side.result.errors;
    }
  }
  return n;
}

const fixed = (v: number | undefined, digits: number) =>
  v !== undefined && Number.isFinite(v) ? v.toFixed(digits) : '-';
const percent = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? `${(v * 100).toFixed(1)}%` : '-');

export function formatWindows(windows: readonly WindowRecord[], routes: readonly BenchRoute[]): string {
  return renderTable(
    ['min', ...routes.map((r) => `${r.name} L/F`), 'books L', 'heap L/F MB', 'GC L/F', 'ELU L/F', 'load avg'],
    windows.map((w) => [
      fixed(w.minutes, 1),
      ...routes.map((r) => fixed(w.routes[r.name]?.ratioPerCpu, 3)),
      fixed(w.books.longLived, 0),
      `${fixed(w.heapUsedMB.longLived, 0)}/${fixed(w.heapUsedMB.fresh, 0)}`,
      `${percent(w.runtime.longLived.gcShare)}/${percent(w.runtime.fresh.gcShare)}`,
      `${fixed(w.runtime.longLived.elu, 2)}/${fixed(w.runtime.fresh.elu, 2)}`,
      fixed(w.loadAverage, 2),
    ]),
  );
}

export async function runSustained(options: SustainedOptions): Promise<void> {
  const routes = mixRoutes(options.mix);
  const windows = Math.floor((options.minutes * 60) / options.interval) + 1;
  console.log(
    `sustained load (${options.mix} mix: ${routes.map((r) => r.name).join(', ')}): one long-lived process for ` +
      `${options.minutes} min, measured against a fresh one every ${options.interval} s (${windows} windows, ` +
      `${routes.length} x ${options.duration} s each, ${options.connections} connections per side); ` +
      (options.pinned
        ? `servers on CPU ${SERVER_CPU}, load generators on CPU ${LOADGEN_CPU}`
        : 'no CPU pinning (taskset or a 2nd CPU missing)') +
      `; load average ${loadAverage().toFixed(2)}`,
  );
  const longLived = await startService({
    appDir: APP_DIR,
    cpu: options.pinned ? SERVER_CPU : undefined,
    logFile: options.logFile,
    cpuProf: options.cpuProf,
    runtimeProbe: true,
  });
  // Say how the long-lived process ended if it ends before the run does: a window's probe
  // would otherwise only report a closed channel.
  const reportEarlyExit = (code: number | null, signal: NodeJS.Signals | null) =>
    console.error(`the long-lived process exited early (code ${code}, signal ${signal})`);
  longLived.child.once('exit', reportEarlyExit);
  const records: WindowRecord[] = [];
  try {
    await prefill(longLived.port, options.prefill);
    const startedAt = Date.now();
    for (let index = 0; index < windows; index++) {
      let background: WindowRecord['background'];
      if (index > 0) {
        const seconds = Math.max(1, Math.round((startedAt + index * options.interval * 1000 - Date.now()) / 1000));
        const before = await probe(longLived.child);
        const result = await loadInChild(mixLoadOptions(longLived, routes, seconds, options), options.pinned);
        const after = await probe(longLived.child);
        background = { seconds, rps: result.rps, serverCpu: result.serverCpu, runtime: between(before, after) };
        if (result.errors > 0 || result.non2xx > 0) {
          console.error(`  background load: ${result.non2xx} non-2xx, ${result.errors} errors`);
        }
      }
      const record = await measureWindow(
        index,
        longLived,
        startedAt,
        options,
        options.cpuProf && index === windows - 1,
      );
      if (background) record.background = background;
      records.push(record);
      const cells = routes.map(
        (r) =>
          `${r.name} ${fixed(record.routes[r.name]?.ratioPerCpu, 3)} (${fixed(record.routes[r.name]?.longLived.result.rps, 0)}` +
          `/${fixed(record.routes[r.name]?.fresh.result.rps, 0)} req/s)`,
      );
      console.log(
        `  window ${index} at ${record.minutes.toFixed(1)} min: long-lived/fresh per CPU-s ${cells.join(', ')}; ` +
          `books ${fixed(record.books.longLived, 0)}, heap ${fixed(record.heapUsedMB.longLived, 0)}/` +
          `${fixed(record.heapUsedMB.fresh, 0)} MB, GC ${percent(record.runtime.longLived.gcShare)}/` +
          `${percent(record.runtime.fresh.gcShare)}, load avg ${record.loadAverage.toFixed(2)}` +
          (background
            ? `; background ${background.rps.toFixed(0)} req/s, GC ${percent(background.runtime.gcShare)}, ELU ${fixed(background.runtime.elu, 2)}`
            : ''),
      );
    }
  } finally {
    longLived.child.off('exit', reportEarlyExit);
    await stopProcess(longLived.child);
  }

  const later = records.filter((w) => w.window > 0);
  const summary = Object.fromEntries(
    routes.map((r) => [
      r.name,
      {
        control: records[0]?.routes[r.name]?.ratioPerCpu ?? NaN,
        medianAfterControl: median(later.map((w) => w.routes[r.name]?.ratioPerCpu ?? NaN)),
        medianLastThird: median(
          later.slice(Math.floor((later.length * 2) / 3)).map((w) => w.routes[r.name]?.ratioPerCpu ?? NaN),
        ),
      },
    ]),
  );
  console.log('');
  console.log(formatWindows(records, routes));
  console.log('');
  for (const [route, s] of Object.entries(summary)) {
    console.log(
      `${route}: control (minute 0) ${fixed(s.control, 3)}, median of later windows ${fixed(s.medianAfterControl, 3)}, ` +
        `of the last third ${fixed(s.medianLastThird, 3)}`,
    );
  }
  writeFileSync(
    options.json,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        mode: 'sustained',
        node: process.version,
        options: { ...options },
        loadAverageAtEnd: loadAverage(),
        summary,
        windows: records,
      },
      null,
      2,
    ),
  );
  console.log(`\nload average at the end ${loadAverage().toFixed(2)}; results written to ${options.json}`);
  if (failures(records) > 0) {
    console.error('some requests failed or answered non-2xx: the figures above are not trustworthy');
    process.exitCode = 1;
  }
}
