// Plain-text tables for the benchmark reports.

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
