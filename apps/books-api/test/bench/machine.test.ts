import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { BENCH_HOST, freePort } from '../../bench/lib/processes.js';
import { busyMachineWarning } from '../../bench/lib/stats.js';

test('the bench warns when the load average is above the number of CPUs, and only then', () => {
  const warning = busyMachineWarning(5.3, 2);
  assert.match(warning ?? '', /load average is 5\.30 on 2 CPU\(s\)/);
  assert.match(warning ?? '', /not comparable/);
  assert.equal(busyMachineWarning(1.9, 2), undefined);
  assert.equal(busyMachineWarning(2, 2), undefined);
  assert.equal(busyMachineWarning(Number.NaN, 2), undefined, 'no load average (not Linux): no warning');
});

test('the bench takes ports the kernel says are free, never one twice, even one another process holds', async (t) => {
  // Another benchmark (or anything else) listening on a port the bench used to take first.
  const squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, BENCH_HOST, resolve));
  t.after(() => squatter.close());
  const taken = (squatter.address() as { port: number }).port;

  const ports = [await freePort(), await freePort(), await freePort()];
  assert.equal(new Set(ports).size, 3, 'three different ports');
  assert.ok(!ports.includes(taken), 'not the port another process listens on');
  for (const port of ports) {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, BENCH_HOST, resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  }
});
