// Plain-text tables for the benchmark reports, and the summary of `npm run bench`'s rounds
// against the baseline.

import type { LoadResult } from './load.js';
import type { BenchRoute } from './routes.js';
import { median } from './stats.js';

export interface SideFigures {
  rps: number;
  p50: number;
  p99: number;
}

export interface SummaryRow {
  route: string;
  service: SideFigures;
  baseline: SideFigures;
  ratio: number;
  failures: number;
}

export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '-');
const count = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '-');

export function formatTable(rows: readonly SummaryRow[]): string {
  return renderTable(
    [
      'route',
      'service req/s',
      'baseline req/s',
      'ratio',
      'service p50 ms',
      'baseline p50 ms',
      'service p99 ms',
      'baseline p99 ms',
    ],
    rows.map((r) => [
      r.route + (r.failures > 0 ? ' (!)' : ''),
      count(r.service.rps),
      count(r.baseline.rps),
      `${(r.ratio * 100).toFixed(0)}%`,
      ms(r.service.p50),
      ms(r.baseline.p50),
      ms(r.service.p99),
      ms(r.baseline.p99),
    ]),
  );
}

/** One route of one round: the service and the baseline under the same load. */
export interface Pair {
  service: LoadResult;
  baseline: LoadResult;
}

export interface RoundRecord {
  round: number;
  loadAverageBefore: number;
  booksAtEnd: number | undefined;
  routes: Record<string, Pair>;
}

/** Failed or non-2xx requests; a run that got no answer at all counts as one failure. */
export function failuresOf(result: LoadResult): number {
  return result.non2xx + result.errors + (result.requests === 0 ? 1 : 0);
}

/** Medians over rounds; the ratio is the median of each round's service/baseline req/s. */
export function summarise(routes: readonly BenchRoute[], rounds: readonly RoundRecord[]): SummaryRow[] {
  return routes.map((route) => {
    const pairs = rounds.map((r) => r.routes[route.name]).filter((p): p is Pair => p !== undefined);
    const side = (pick: (p: Pair) => LoadResult) => ({
      rps: median(pairs.map((p) => pick(p).rps)),
      p50: median(pairs.map((p) => pick(p).p50)),
      p99: median(pairs.map((p) => pick(p).p99)),
    });
    return {
      route: route.name,
      service: side((p) => p.service),
      baseline: side((p) => p.baseline),
      ratio: median(pairs.map((p) => p.service.rps / p.baseline.rps)),
      failures: pairs.reduce((n, p) => n + failuresOf(p.service) + failuresOf(p.baseline), 0),
    };
  });
}
