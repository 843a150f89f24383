// What `npm run bench:scale` measures at each size: the probes, one route at a time through
// HTTP as a client sees it, and get and list at many connections against a memory-backed server
// holding the same books.

import { send } from './capture.js';
import { runLoad, type LoadRequest, type LoadResult } from './load.js';
import { stopProcess } from './processes.js';
import { startMemoryServer, type ScaleServer } from './scale-servers.js';

const SEEDED_BOOKS = 3;
const PAGE = 20;

/** How hard each probe is loaded. */
export interface ProbeLoad {
  connections: number;
  duration: number;
}

export type ProbeResults = Record<string, LoadResult & { matches?: number }>;

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

async function json<T>(port: number, path: string): Promise<T> {
  const answer = await send(port, { method: 'GET', path });
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
  return JSON.parse(answer.body.toString('utf8')) as T;
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

export async function runProbes(
  size: number,
  port: number,
  pid: number | undefined,
  options: ProbeLoad,
): Promise<ProbeResults> {
  const total = size + SEEDED_BOOKS;
  const middle = await json<{ items: { id: string }[] }>(port, `/api/v1/books?skip=${Math.floor(total / 2)}&limit=1`);
  const middleId = middle.items[0]?.id;
  if (!middleId) throw new Error('no book in the middle of the collection');
  const doomed = await idsToDelete(port, size, Math.min(1000, Math.floor(size / 4)));

  const probes: ProbeResults = {};
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

export const HTTP_AT_MANY: { name: string; request: LoadRequest }[] = [
  { name: 'get', request: { method: 'GET', path: '/api/v1/books/3fa85f64-5717-4562-b3fc-2c963f66afa6' } },
  { name: 'list', request: { method: 'GET', path: `/api/v1/books?skip=0&limit=${PAGE}` } },
];

/** req/s of the same HTTP requests against the PostgreSQL-backed and the memory-backed server. */
export type HttpAtMany = Record<string, { postgres: LoadResult; memory: LoadResult }>;

/** get and list at many connections, PostgreSQL-backed and memory-backed servers alternately. */
export async function httpAtMany(
  size: number,
  postgresServer: ScaleServer,
  options: ProbeLoad & { many: number },
  pinned: boolean,
): Promise<HttpAtMany> {
  const memory = await startMemoryServer(size, pinned);
  try {
    const figures: HttpAtMany = {};
    for (const { name, request } of HTTP_AT_MANY) {
      const load = (server: ScaleServer) =>
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
