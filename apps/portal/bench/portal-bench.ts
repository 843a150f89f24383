// `npm run bench:portal` (run it as `flock /tmp/bench.lock npm run bench:portal`): the portal at
// scale. For each size it starts a Kubernetes stand-in holding that many Ready accounts and the
// production portal (PORTAL_AUTH=none) on it, waits until the portal's cache is warm, then measures
// what a user and a script see: the API's page of 50 (plain and filtered), /resources'
// DOMContentLoaded in Chromium (the first view after the start and the views after it), the Account
// LIST calls the cluster gets per page view, and the portal's memory while live event streams are
// open. See docs/performance.md ("Portal at scale").

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium } from '@books/test-browser';
import { ensureProductionBuild, waitForStreamedContent } from '../e2e/harness';
import { startStandIn, type StandIn } from '../kube-stand-in/index';
import { startPortalServer, type PortalServer } from '../kube-stand-in/portal-server';

const HELP = `Usage: npm run bench:portal -- [options]
  --sizes <a,b,..>   accounts in the stand-in (default 1000,10000; 0 measures the portal's own baseline)
  --requests <n>     API requests per probe (default 300)
  --views <n>        /resources loads in Chromium (default 6; the first, after the start, reported apart)
  --streams <n>      live event streams (GET /api/platform/events) held open throughout (default 5)
  --json <path>      where to write the results (default apps/portal/bench/results/portal-<time>.json)`;

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const PAGE = 50;
// A filter that matches a few hundred of the stand-in's accounts wherever they sit in the order.
const FILTER = 'books1';

interface Options {
  sizes: number[];
  requests: number;
  views: number;
  streams: number;
  json: string;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '1000,10000' },
      requests: { type: 'string', default: '300' },
      views: { type: 'string', default: '6' },
      streams: { type: 'string', default: '5' },
      json: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const whole = (text: string, name: string, least = 1) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < least) throw new Error(`--${name} must be a whole number from ${least}`);
    return value;
  };
  return {
    sizes: values.sizes.split(',').map((size) => whole(size.trim(), 'sizes', 0)),
    requests: whole(values.requests, 'requests'),
    views: Math.max(2, whole(values.views, 'views')),
    streams: values.streams === '0' ? 0 : whole(values.streams, 'streams'),
    json: values.json ?? join(RESULTS_DIR, `portal-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
  };
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Resident memory of a process and its descendants (next start may run the server in a child). */
function treeMemory(pid: number): { rssMb: number; peakMb: number } {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  let rss = 0;
  let peak = 0;
  const visit = (id: number) => {
    try {
      const status = readFileSync(`/proc/${id}/status`, 'utf8');
      rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      return;
    }
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return { rssMb: Math.round(rss / 1024), peakMb: Math.round(peak / 1024) };
}

const accountLists = (standIn: StandIn) =>
  standIn.requests().filter((r) => r.verb === 'list' && r.resource === 'accounts').length;

async function waitWarm(portal: PortalServer, size: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      const response = await fetch(`${portal.url}/api/platform/resources?limit=1`);
      if (response.ok && ((await response.json()) as { total: number }).total >= size) return Date.now() - started;
    } catch {
      // Not up yet.
    }
    if (Date.now() - started > 120_000) throw new Error(`The portal's cache did not warm up:\n${portal.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface ApiProbe {
  p50Ms: number;
  p99Ms: number;
  bytes: number;
  total: number;
}

/** Sequential requests (one connection: the latency of one request, no queueing), cycling through the first pages. */
async function probeApi(portal: PortalServer, query: string, requests: number): Promise<ApiProbe> {
  const pages: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 5; page += 1) {
    const url = `${portal.url}/api/platform/resources?limit=${PAGE}${query}${cursor ? `&cursor=${cursor}` : ''}`;
    pages.push(url);
    const body = (await (await fetch(url)).json()) as { next: string | null };
    if (!body.next) break;
    cursor = body.next;
  }
  const samples: number[] = [];
  let bytes = 0;
  let total = 0;
  for (let index = 0; index < requests; index += 1) {
    const url = pages[index % pages.length] ?? '';
    const started = performance.now();
    const response = await fetch(url);
    const text = await response.text();
    samples.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 200)}`);
    bytes = text.length;
    total = (JSON.parse(text) as { total: number }).total;
  }
  return { p50Ms: percentile(samples, 50), p99Ms: percentile(samples, 99), bytes, total };
}

interface PageProbe {
  /** The first view after the portal started: nothing cached in the browser, the server's first render. */
  firstViewMs: number;
  /** The median of the views after it (a returning user, the browser's cache full). */
  domContentLoadedMs: number;
  rows: number;
}

async function probePage(portal: PortalServer, views: number): Promise<PageProbe> {
  const { context, close } = await launchChromium('portal-bench');
  try {
    const samples: number[] = [];
    let first = NaN;
    let rows = 0;
    for (let view = 0; view < views; view += 1) {
      const page = await context.newPage();
      await page.goto(`${portal.url}/resources`, { waitUntil: 'load' });
      const timing = await page.evaluate(() => {
        const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
        return navigation ? navigation.domContentLoadedEventEnd - navigation.startTime : NaN;
      });
      // React may reveal the streamed table after the load event; count its rows once it has.
      await waitForStreamedContent(page);
      rows = await page.getByRole('table', { name: 'Storage accounts' }).getByRole('row').count();
      // The first view fills the browser's cache of scripts and styles; a returning user has them.
      if (view > 0) samples.push(timing);
      else first = timing;
      await page.close();
    }
    return { firstViewMs: first, domContentLoadedMs: percentile(samples, 50), rows: Math.max(0, rows - 1) };
  } finally {
    await close();
  }
}

/** Page views (HTML of /resources, the overview and applications, and API pages) against the cluster's LIST count. */
async function listsPerView(portal: PortalServer, standIn: StandIn): Promise<{ views: number; lists: number }> {
  const before = accountLists(standIn);
  const paths = ['/resources', '/', '/applications', `/resources?q=${FILTER}`, '/api/platform/resources?limit=50'];
  let views = 0;
  for (let round = 0; round < 4; round += 1) {
    for (const path of paths) {
      const response = await fetch(`${portal.url}${path}`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
      views += 1;
    }
  }
  return { views, lists: accountLists(standIn) - before };
}

/** Live event streams held open as browser tabs hold them; each counts the bytes the portal sent it. */
interface OpenStreams {
  received(): number[];
  close(): void;
}

async function openStreams(portal: PortalServer, count: number): Promise<OpenStreams> {
  const controller = new AbortController();
  const bytes = Array.from({ length: count }, () => 0);
  await Promise.all(
    bytes.map(async (_, index) => {
      const response = await fetch(`${portal.url}/api/platform/events`, {
        headers: { accept: 'text/event-stream' },
        signal: controller.signal,
      });
      if (response.status !== 200 || !response.body)
        throw new Error(`event stream ${index} answered ${response.status}`);
      const reader = response.body.getReader();
      void (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            bytes[index] = (bytes[index] ?? 0) + value.byteLength;
          }
        } catch {
          // Aborted when the bench closes the streams.
        }
      })();
    }),
  );
  return { received: () => [...bytes], close: () => controller.abort() };
}

interface SizeResult {
  accounts: number;
  warmUpMs: number;
  plain: ApiProbe;
  filtered: ApiProbe;
  page: PageProbe;
  listCalls: { views: number; lists: number };
  memory: { rssMb: number; peakMb: number };
  /** Event streams open while everything above was measured, and the bytes each received. */
  streams: { open: number; bytes: number[] };
}

async function runSize(size: number, opts: Options): Promise<SizeResult> {
  // Reconciliation of the filled accounts is done; slow timings keep the simulated provider quiet.
  const standIn = await startStandIn({
    timing: { syncedDelayMs: 60_000, readyDelayMs: 60_000, deleteDelayMs: 60_000, retryDelayMs: 60_000 },
  });
  const directory = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const kubeconfigPath = join(directory, 'kubeconfig');
  standIn.writeKubeconfig(kubeconfigPath);
  let portal: PortalServer | undefined;
  try {
    standIn.fillAccounts(size, 'stbench');
    portal = await startPortalServer({
      kubeconfigPath,
      env: { PORTAL_AUTH: 'none', PORTAL_LOG_LEVEL: 'warn' },
      startTimeoutMs: 120_000,
    });
    const pid = portal.pid;
    const warmUpMs = await waitWarm(portal, size);
    // The first page view after the start comes first, before the API probes warm anything up.
    const page = await probePage(portal, opts.views);
    const streams = await openStreams(portal, opts.streams);
    try {
      const plain = await probeApi(portal, '', opts.requests);
      const filtered = await probeApi(portal, `&q=${FILTER}`, opts.requests);
      const listCalls = await listsPerView(portal, standIn);
      const memory = treeMemory(pid);
      return {
        accounts: size,
        warmUpMs,
        plain,
        filtered,
        page,
        listCalls,
        memory,
        streams: { open: opts.streams, bytes: streams.received() },
      };
    } finally {
      streams.close();
    }
  } finally {
    await portal?.stop();
    await standIn.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

function table(results: SizeResult[]): string {
  const rows = [
    '| accounts | API page p50 / p99 | filtered page p50 / p99 | page size | `/resources` DOMContentLoaded: first view, then | Account LISTs per view | portal RSS (peak), event streams open |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.accounts.toLocaleString('en')} | ${r.plain.p50Ms.toFixed(1)} / ${r.plain.p99Ms.toFixed(1)} ms | ` +
        `${r.filtered.p50Ms.toFixed(1)} / ${r.filtered.p99Ms.toFixed(1)} ms (${r.filtered.total} match) | ` +
        `${(r.plain.bytes / 1024).toFixed(0)} KB | ${(r.page.firstViewMs / 1000).toFixed(2)} s, then ${(r.page.domContentLoadedMs / 1000).toFixed(2)} s (${r.page.rows} rows) | ` +
        `${(r.listCalls.lists / r.listCalls.views).toFixed(2)} (${r.listCalls.lists} in ${r.listCalls.views}) | ` +
        `${r.memory.rssMb} MB (${r.memory.peakMb} MB), ${r.streams.open} |`,
    ),
  ];
  return rows.join('\n');
}

async function main(): Promise<void> {
  const opts = options();
  ensureProductionBuild();
  const results: SizeResult[] = [];
  for (const size of opts.sizes) {
    console.error(`portal bench: ${size.toLocaleString('en')} accounts`);
    const result = await runSize(size, opts);
    console.error(
      `  warm in ${result.warmUpMs} ms; API p50 ${result.plain.p50Ms.toFixed(1)} ms; DOMContentLoaded first ${result.page.firstViewMs.toFixed(0)} ms, then ${result.page.domContentLoadedMs.toFixed(0)} ms; RSS ${result.memory.rssMb} MB with ${result.streams.open} streams`,
    );
    results.push(result);
  }
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  console.log(`\n${new Date().toISOString().slice(0, 10)}, ${machine}\n\n${table(results)}\n`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(opts.json, JSON.stringify({ date: new Date().toISOString(), machine, results }, null, 2));
  console.error(`results: ${opts.json}`);
}

await main();
