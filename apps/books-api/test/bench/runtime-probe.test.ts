import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { between, probe, PROBE_PRELOAD, type ProbeReading } from '../../bench/lib/runtime-probe.js';
import { mixRoutes } from '../../bench/lib/sustained.js';

function reading(overrides: Partial<ProbeReading>): ProbeReading {
  return {
    at: 0,
    idle: 0,
    active: 0,
    rss: 0,
    heapUsed: 0,
    heapTotal: 0,
    external: 0,
    arrayBuffers: 0,
    gcMs: { minor: 0, major: 0 },
    gcCount: { minor: 0, major: 0 },
    ...overrides,
  };
}

test('between: event-loop utilisation and GC share over the interval, by kind', () => {
  const before = reading({
    at: 1_000,
    idle: 500,
    active: 500,
    gcMs: { minor: 10, major: 0 },
    gcCount: { minor: 2, major: 0 },
  });
  const after = reading({
    at: 3_000,
    idle: 1_000,
    active: 2_000,
    gcMs: { minor: 50, major: 60, incremental: 10 },
    gcCount: { minor: 12, major: 1, incremental: 3 },
  });
  const interval = between(before, after);
  assert.equal(interval.seconds, 2);
  assert.equal(interval.elu, 0.75);
  assert.equal(interval.gcShare, 0.055);
  assert.deepEqual(interval.gcShareByKind, { minor: 0.02, major: 0.03, incremental: 0.005 });
  assert.deepEqual(interval.gcCountByKind, { minor: 10, major: 1, incremental: 3 });
});

test('the preload answers probes over IPC, counts GCs by kind, and does not keep the process alive', async () => {
  // A forced full GC, then a message once the GC observer has had its turn.
  const script =
    'globalThis.keep = Array.from({ length: 1e5 }, (_, i) => ({ i })); gc();' +
    ' setTimeout(() => console.log("collected"), 100); setTimeout(() => {}, 600);';
  const child = spawn(process.execPath, ['--expose-gc', `--import=${PROBE_PRELOAD}`, '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  assert.ok(child.stdout);
  await once(child.stdout, 'data');
  const first = await probe(child);
  assert.ok(first.heapUsed > 0 && first.rss >= first.heapUsed);
  assert.ok(first.idle + first.active > 0);
  assert.ok((first.gcCount.major ?? 0) >= 1, `GCs by kind: ${JSON.stringify(first.gcCount)}`);
  assert.ok((first.gcMs.major ?? 0) > 0);
  const second = await probe(child);
  assert.ok(second.at >= first.at);
  // Exits once its own work is done, although the harness's channel is still open.
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.equal(code, 0);
});

test('the sustained mixes: list and get, and create besides for the growing store', () => {
  assert.deepEqual(
    mixRoutes('read').map((r) => r.name),
    ['list', 'get'],
  );
  assert.deepEqual(
    mixRoutes('create').map((r) => r.name),
    ['list', 'get', 'create'],
  );
});
