// Reads the Prometheus text format the way a scraper would, so tests assert on samples and
// labels rather than on substrings.

import type { FastifyInstance } from 'fastify';

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (match === null) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** `# TYPE name kind` lines, as a map from metric name to kind. */
export function metricTypes(text: string): Map<string, string> {
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (match !== null) types.set(match[1]!, match[2]!);
  }
  return types;
}

/** Sum of the samples of `name` whose labels include every pair of `labels`. */
export function sumOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((total, sample) => total + sample.value, 0);
}

export async function scrape(app: FastifyInstance): Promise<Sample[]> {
  return parseSamples((await app.inject({ url: '/metrics' })).body);
}
