// `npm run bench:outage`: the service on PostgreSQL under load while its database goes down and
// comes back. What it shows: every answer is a success or 503 (no other status, no socket error,
// no timeout), no answer waits longer than DATABASE_WAIT_TIMEOUT_MS plus a little, no error line
// is logged, and how soon after the restart the service serves again at half its rate before. Not part of npm test (seconds of
// load at 50 connections); the correctness checks live in test/store/postgres/database-crash.test.ts.

import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startBenchPostgres } from './lib/postgres-scale.js';
import { buildIfNeeded } from './lib/build.js';
import { APP_DIR } from './lib/layout.js';
import { BENCH_HOST, installCleanup, stopProcess } from './lib/processes.js';
import { SEEDED } from './lib/routes.js';
import { prefill, startService } from './lib/service.js';

const USAGE = `Usage: npm run bench:outage -- [options]
  --connections <n>   concurrent connections (default 50)
  --before <s>        seconds of load before the database goes down (default 5)
  --down <s>          seconds the database stays down (default 10)
  --after <s>         seconds of load after it is started again (default 15)
  --crash <how>       immediate (pg_ctl stop -m immediate, default) or kill (SIGKILL of the postmaster)
The mix, each connection in turn: list, get, create. Needs a throwaway cluster: BENCH_DATABASE_URL is refused.`;

const MIX = [
  { method: 'GET', path: '/api/v1/books?skip=0&limit=20' },
  { method: 'GET', path: `/api/v1/books/${SEEDED.cleanCode}` },
  {
    method: 'POST',
    path: '/api/v1/books',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Outage Book', author: 'Load Generator', year: 2024 }),
  },
] as const;

function fail(message: string): never {
  throw new Error(message);
}

function options() {
  const { values } = parseArgs({
    options: {
      connections: { type: 'string', default: '50' },
      before: { type: 'string', default: '5' },
      down: { type: 'string', default: '10' },
      after: { type: 'string', default: '15' },
      crash: { type: 'string', default: 'immediate' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const crash: 'immediate' | 'kill' =
    values.crash === 'immediate' || values.crash === 'kill' ? values.crash : fail('--crash must be immediate or kill');
  if (process.env.BENCH_DATABASE_URL) throw new Error('the outage bench stops its database: unset BENCH_DATABASE_URL');
  const seconds = (name: string, text: string) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number of seconds`);
    return value;
  };
  return {
    connections: seconds('connections', values.connections),
    before: seconds('before', values.before),
    down: seconds('down', values.down),
    after: seconds('after', values.after),
    crash,
  };
}

interface Second {
  ok: number;
  unavailable: number;
  other: number;
}

async function main(): Promise<void> {
  const settings = options();
  installCleanup();
  buildIfNeeded(APP_DIR);
  const database = await startBenchPostgres();
  const logFile = join(tmpdir(), `books-outage-${process.pid}.log`);
  try {
    const service = await startService({
      appDir: APP_DIR,
      cpu: undefined,
      logFile,
      cpuProf: false,
      databaseUrl: await database.createDatabase('outage'),
    });
    await prefill(service.port, 200);

    const started = performance.now();
    const seconds: Second[] = [];
    const statuses = new Map<number, number>();
    let slowestMs = 0;
    const total = settings.before + settings.down + settings.after;
    const load = new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: `http://${BENCH_HOST}:${service.port}`,
          connections: settings.connections,
          pipelining: 1,
          duration: total,
          timeout: 30,
          requests: MIX.map((request) => ({ ...request })),
        },
        (error: unknown, result: autocannon.Result) =>
          error ? reject(error instanceof Error ? error : new Error('autocannon failed')) : resolve(result),
      );
      instance.on('response', (_client, status, _bytes, responseTime) => {
        const second = Math.floor((performance.now() - started) / 1000);
        const bucket = (seconds[second] ??= { ok: 0, unavailable: 0, other: 0 });
        if (status >= 200 && status < 300) bucket.ok += 1;
        else if (status === 503) bucket.unavailable += 1;
        else bucket.other += 1;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        slowestMs = Math.max(slowestMs, responseTime);
      });
    });

    await new Promise((resolve) => setTimeout(resolve, settings.before * 1000));
    const downAt = (performance.now() - started) / 1000;
    await database.crashServer(settings.crash);
    await new Promise((resolve) => setTimeout(resolve, settings.down * 1000));
    const upAt = (performance.now() - started) / 1000;
    await database.startServer();
    const result = await load;
    await stopProcess(service.child);

    const firstOkAfter = seconds.findIndex((bucket, second) => second >= Math.floor(upAt) && (bucket?.ok ?? 0) > 0);
    // The full seconds of load before the crash (not the first, which includes warming up).
    const before = seconds.slice(1, Math.floor(downAt)).map((bucket) => bucket?.ok ?? 0);
    const rateBefore = before.length > 0 ? before.reduce((sum, n) => sum + n, 0) / before.length : 0;
    const backAt = seconds.findIndex(
      (bucket, second) => second > Math.ceil(upAt) && (bucket?.ok ?? 0) >= rateBefore / 2,
    );
    const errorLines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line));
    console.log(
      `database ${settings.crash === 'immediate' ? 'pg_ctl stop -m immediate' : 'postmaster SIGKILL'} ` +
        `at ${downAt.toFixed(1)} s, started again at ${upAt.toFixed(1)} s; ${settings.connections} connections`,
    );
    console.log('second  2xx  503  other');
    seconds.forEach((bucket, second) =>
      console.log(
        `${String(second).padStart(6)} ${String(bucket?.ok ?? 0).padStart(4)} ${String(bucket?.unavailable ?? 0).padStart(4)} ${String(bucket?.other ?? 0).padStart(6)}`,
      ),
    );
    console.log(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
    console.log(`socket errors ${result.errors}, timeouts ${result.timeouts}, slowest answer ${slowestMs} ms`);
    console.log(`first 2xx after the restart: second ${firstOkAfter}; error log lines: ${errorLines.length}`);
    console.log(
      backAt === -1
        ? `never back to half the rate before the crash (${Math.round(rateBefore)}/s)`
        : `back to half the rate before the crash (${Math.round(rateBefore)}/s) in second ${backAt}, ` +
            `${(backAt - upAt).toFixed(1)} s after the restart`,
    );
    const clean =
      [...statuses.keys()].every((status) => (status >= 200 && status < 300) || status === 503) &&
      result.errors === 0 &&
      result.timeouts === 0 &&
      errorLines.length === 0 &&
      firstOkAfter !== -1 &&
      backAt !== -1;
    console.log(clean ? 'OK: successes and 503s only, and the service recovered' : 'NOT OK');
    process.exitCode = clean ? 0 : 1;
  } finally {
    await database.stop();
  }
}

await main();
