import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The contract's "Login form bounds": 10,000 failed logins with distinct 16 KiB user names leave
 * the process's memory within 32 MiB of where it started. Measured in a child process of its own,
 * with full collections before each reading, so only what the logins left behind is counted.
 */
const BOUND_BYTES = 32 * 1024 * 1024;
const CONTRACT_LOGINS = 10_000;
const PROCESS = fileURLToPath(new URL('./login-memory-process.ts', import.meta.url));

async function heapGrowth(what: 'throttle' | 'logins', count: number): Promise<number> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', PROCESS, what, String(count)],
    { maxBuffer: 1024 * 1024 },
  );
  const { before, after } = JSON.parse(stdout) as { before: number; after: number };
  return after - before;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

test('10,000 failed logins with distinct 16 KiB user names leave the throttle within 32 MiB', async (t) => {
  const growth = await heapGrowth('throttle', CONTRACT_LOGINS);
  t.diagnostic(`heap growth after ${CONTRACT_LOGINS} failed reservations: ${mib(growth)}`);
  assert.ok(growth < BOUND_BYTES, `the heap grew by ${mib(growth)}`);
});

test('failed logins through POST /token with 16 KiB user names keep no more than the contract allows per login', async (t) => {
  // Each login costs a full password verification, so fewer are sent, held to the same share of
  // the bound as 10,000 would be, plus the few hundred KiB by which the heap in use differs from
  // one full collection to the next.
  const logins = 200;
  const jitter = 2 * 1024 * 1024;
  const growth = await heapGrowth('logins', logins);
  t.diagnostic(`heap growth after ${logins} failed logins: ${mib(growth)}`);
  const allowed = (BOUND_BYTES * logins) / CONTRACT_LOGINS + jitter;
  assert.ok(growth < allowed, `the heap grew by ${mib(growth)} (${mib(allowed)} allowed for ${logins} logins)`);
});
