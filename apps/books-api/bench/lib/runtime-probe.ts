// What a benchmarked server's runtime is doing, asked over IPC: event-loop utilisation,
// memory, and time spent in garbage collection by kind. The server runs unchanged; a small
// preload (`node --import=<data: URL>`) installs a GC observer and answers 'probe' messages.
// It is loaded into every server of a comparison alike, and costs nothing between probes
// except the GC observer (prom-client's default metrics already install one of their own).

import type { ChildProcess } from 'node:child_process';

/** Cumulative figures of one process at one moment. */
export interface ProbeReading {
  /** performance.now() in the server, ms. */
  at: number;
  /** performance.eventLoopUtilization(): cumulative idle and active ms. */
  idle: number;
  active: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Total GC pause time in ms and number of GCs, by kind (minor, major, incremental, weakcb). */
  gcMs: Record<string, number>;
  gcCount: Record<string, number>;
}

/** What happened between two readings of the same process. */
export interface ProbeInterval {
  seconds: number;
  /** Share of the interval the event loop was busy, 0-1. */
  elu: number;
  /** Share of the interval spent in GC pauses, 0-1, in total and by kind. */
  gcShare: number;
  gcShareByKind: Record<string, number>;
  gcCountByKind: Record<string, number>;
}

// Kept free of anything that needs a loader: it runs before the server's own modules, as
// plain JavaScript. A GC entry's detail.kind is one of perf_hooks' NODE_PERFORMANCE_GC_* flags.
const PRELOAD_SOURCE = `
import { constants, performance, PerformanceObserver } from 'node:perf_hooks';
const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
const gcMs = { minor: 0, major: 0, incremental: 0, weakcb: 0 };
const gcCount = { minor: 0, major: 0, incremental: 0, weakcb: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = KINDS[entry.detail?.kind] ?? 'other';
    gcMs[kind] = (gcMs[kind] ?? 0) + entry.duration;
    gcCount[kind] = (gcCount[kind] ?? 0) + 1;
  }
}).observe({ entryTypes: ['gc'] });
process.on('message', (message) => {
  if (message !== 'runtime-probe') return;
  const { idle, active } = performance.eventLoopUtilization();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  process.send({ runtimeProbe: { at: performance.now(), idle, active, rss, heapUsed, heapTotal, external, arrayBuffers, gcMs: { ...gcMs }, gcCount: { ...gcCount } } });
});
// The channel must not keep the server alive once it has closed.
process.channel?.unref();
`;

export const PROBE_PRELOAD = `data:text/javascript,${encodeURIComponent(PRELOAD_SOURCE)}`;

/** Asks a server started with `runtimeProbe: true` for its current figures. */
export function probe(child: ChildProcess, timeoutMs = 5000): Promise<ProbeReading> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error('runtime probe: no answer'));
    }, timeoutMs);
    const onMessage = (message: unknown) => {
      const reading = (message as { runtimeProbe?: ProbeReading } | null)?.runtimeProbe;
      if (reading === undefined) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(reading);
    };
    child.on('message', onMessage);
    child.send('runtime-probe');
  });
}

/** Event-loop utilisation and GC share between two readings of one process. */
export function between(before: ProbeReading, after: ProbeReading): ProbeInterval {
  const wallMs = after.at - before.at;
  const active = after.active - before.active;
  const idle = after.idle - before.idle;
  const kinds = [...new Set([...Object.keys(before.gcMs), ...Object.keys(after.gcMs)])];
  const gcShareByKind: Record<string, number> = {};
  const gcCountByKind: Record<string, number> = {};
  let gcMs = 0;
  for (const kind of kinds) {
    const ms = (after.gcMs[kind] ?? 0) - (before.gcMs[kind] ?? 0);
    gcMs += ms;
    gcShareByKind[kind] = wallMs > 0 ? ms / wallMs : Number.NaN;
    gcCountByKind[kind] = (after.gcCount[kind] ?? 0) - (before.gcCount[kind] ?? 0);
  }
  return {
    seconds: wallMs / 1000,
    elu: active + idle > 0 ? active / (active + idle) : Number.NaN,
    gcShare: wallMs > 0 ? gcMs / wallMs : Number.NaN,
    gcShareByKind,
    gcCountByKind,
  };
}
