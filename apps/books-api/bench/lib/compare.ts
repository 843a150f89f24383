// `npm run bench -- --compare <git-ref>`: this checkout (the candidate) against the build of
// another revision (the reference), measured at the same time so that whatever else the
// machine is doing hits both alike. Both servers are pinned to the same core and each is
// loaded by a load generator of its own (both on the other core). Requests per second are
// then divided by the CPU time each server got, so the ratio compares the cost of a request,
// not luck in the scheduler; the raw req/s ratio is reported beside it. Each round starts
// fresh servers and alternates which one is started and loaded first; the figures are
// medians over rounds. `--compare HEAD` against an unchanged tree is the A/A control: it
// should read 1.00 within the run's noise. With `--loadgen wrk` each side gets its own wrk.

import { writeFileSync } from 'node:fs';
import { APP_DIR, LOADGEN_CPU, SERVER_CPU } from './layout.js';
import { loadInChild, type ChildLoadResult } from './load-child.js';
import { stopProcess } from './processes.js';
import { prepareReference } from './reference-build.js';
import { renderTable } from './report.js';
import type { BenchRoute } from './routes.js';
import type { LoadGenerator } from './wrk.js';
import { prefill, startService, type RunningService } from './service.js';
import { loadAverage, median } from './stats.js';

export interface ComparisonOptions {
  ref: string;
  pinned: boolean;
  duration: number;
  connections: number;
  rounds: number;
  warmup: number;
  prefill: number;
  routes: BenchRoute[];
  logFile: string;
  json: string;
  loadgen: LoadGenerator;
}

type Side = 'candidate' | 'reference';

type SideResult = ChildLoadResult;

type RoundResults = Record<string, Record<Side, SideResult>>;

function loadSide(
  port: number,
  pid: number | undefined,
  route: BenchRoute,
  options: ComparisonOptions,
  warmup: boolean,
): Promise<SideResult> {
  return loadInChild(
    {
      port,
      request: route.request,
      connections: options.connections,
      duration: warmup ? options.warmup : options.duration,
      serverPid: pid,
      // A bounded warm-up for create, so the stores do not grow by a whole run's worth of books.
      ...(route.name === 'create' && warmup ? { amount: 2000 } : {}),
    },
    options.pinned,
    options.loadgen,
  );
}

async function runRound(round: number, referenceDir: string, options: ComparisonOptions): Promise<RoundResults> {
  const cpu = options.pinned ? SERVER_CPU : undefined;
  const dirs: Record<Side, string> = { candidate: APP_DIR, reference: referenceDir };
  // Alternate which side starts and is loaded first, so neither always gets the head start.
  const order: Side[] = round % 2 === 1 ? ['candidate', 'reference'] : ['reference', 'candidate'];
  const servers = {} as Record<Side, RunningService>;
  const results: RoundResults = {};
  try {
    for (const side of order) {
      servers[side] = await startService({ appDir: dirs[side], cpu, logFile: options.logFile, cpuProf: false });
      await prefill(servers[side].port, options.prefill);
    }
    for (const route of options.routes) {
      const both = async (warmup: boolean) => {
        const [first, second] = await Promise.all(
          order.map((side) => loadSide(servers[side].port, servers[side].child.pid, route, options, warmup)),
        );
        return { [order[0] as Side]: first, [order[1] as Side]: second } as Record<Side, SideResult>;
      };
      if (options.warmup > 0) await both(true);
      const measured = await both(false);
      results[route.name] = measured;
      const { candidate: c, reference: r } = measured;
      console.log(
        `  round ${round} ${route.name.padEnd(7)} candidate ${c.rps.toFixed(0).padStart(6)} req/s` +
          ` (cpu ${(c.serverCpu ?? 0).toFixed(2)}) p99 ${c.p99.toFixed(2)} ms | reference ${r.rps.toFixed(0).padStart(6)}` +
          ` req/s (cpu ${(r.serverCpu ?? 0).toFixed(2)}) p99 ${r.p99.toFixed(2)} ms` +
          (c.non2xx + c.errors + r.non2xx + r.errors > 0 ? '  (!) failures' : ''),
      );
    }
  } finally {
    for (const side of order) if (servers[side]) await stopProcess(servers[side].child);
  }
  return results;
}

export async function runComparison(options: ComparisonOptions): Promise<void> {
  const reference = prepareReference(options.ref);
  console.log(
    `candidate (this checkout) vs ${options.ref} (${reference.commit.slice(0, 12)}): ` +
      `${options.routes.map((r) => r.name).join(', ')}; ${options.rounds} round(s) x ${options.duration} s, ` +
      `${options.connections} connections each, load by ${options.loadgen}; ` +
      (options.pinned
        ? `both servers on CPU ${SERVER_CPU}, both load generators on CPU ${LOADGEN_CPU}`
        : 'no CPU pinning (taskset or a 2nd CPU missing)') +
      `; load average ${loadAverage().toFixed(2)}`,
  );
  const rounds: RoundResults[] = [];
  for (let round = 1; round <= options.rounds; round++) rounds.push(await runRound(round, reference.appDir, options));

  const summary = options.routes.map((route) => {
    const pairs = rounds.map((r) => r[route.name]).filter((p) => p !== undefined);
    const costRatios = pairs
      .map((p) =>
        p.candidate.perCpuSecond && p.reference.perCpuSecond
          ? p.candidate.perCpuSecond / p.reference.perCpuSecond
          : NaN,
      )
      .filter(Number.isFinite);
    return {
      route: route.name,
      ratioPerCpu: costRatios.length > 0 ? median(costRatios) : NaN,
      ratioRps: median(pairs.map((p) => p.candidate.rps / p.reference.rps)),
      candidateP99: median(pairs.map((p) => p.candidate.p99)),
      referenceP99: median(pairs.map((p) => p.reference.p99)),
      failures: pairs.reduce(
        (n, p) => n + p.candidate.non2xx + p.candidate.errors + p.reference.non2xx + p.reference.errors,
        0,
      ),
    };
  });
  const fixed = (v: number, digits: number) => (Number.isFinite(v) ? v.toFixed(digits) : '-');
  console.log('');
  console.log(
    renderTable(
      ['route', 'candidate/reference per CPU-s', 'req/s ratio', 'candidate p99 ms', 'reference p99 ms'],
      summary.map((s) => [
        s.route + (s.failures > 0 ? ' (!)' : ''),
        fixed(s.ratioPerCpu, 3),
        fixed(s.ratioRps, 3),
        fixed(s.candidateP99, 2),
        fixed(s.referenceP99, 2),
      ]),
    ),
  );
  writeFileSync(
    options.json,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        mode: 'compare',
        loadgen: options.loadgen,
        ref: options.ref,
        commit: reference.commit,
        summary,
        rounds,
      },
      null,
      2,
    ),
  );
  console.log(`\nload average at the end ${loadAverage().toFixed(2)}; results written to ${options.json}`);
  if (summary.some((s) => s.failures > 0)) {
    console.error('some requests failed or answered non-2xx: the figures above are not trustworthy');
    process.exitCode = 1;
  }
}
