import { availableParallelism, loadavg } from 'node:os';

/** Nearest-rank percentile of an ascending array; NaN for an empty one. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (finite.length === 0) return Number.NaN;
  const mid = finite.length >> 1;
  const upper = finite[mid] ?? Number.NaN;
  return finite.length % 2 === 1 ? upper : ((finite[mid - 1] ?? upper) + upper) / 2;
}

/** The 1-minute load average, to note how busy the shared machine was. */
export function loadAverage(): number {
  return loadavg()[0] ?? Number.NaN;
}

/**
 * A warning when the machine is busier than it has CPUs: the figures of such a run are not
 * comparable with a quiet run's (only ratios measured within the run are). Undefined otherwise.
 */
export function busyMachineWarning(load = loadAverage(), cpus = availableParallelism()): string | undefined {
  if (!(load > cpus)) return undefined;
  return (
    `warning: the 1-minute load average is ${load.toFixed(2)} on ${cpus} CPU(s): other work is running, so this ` +
    "run's absolute figures are not comparable with a quiet machine's; compare ratios within the run, or wait " +
    '(other benchmarks: flock /tmp/bench.lock npm run bench)'
  );
}

/** Prints busyMachineWarning's warning, if any, to stderr. */
export function warnIfBusy(): void {
  const warning = busyMachineWarning();
  if (warning !== undefined) console.error(warning);
}
