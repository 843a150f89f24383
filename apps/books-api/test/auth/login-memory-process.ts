/**
 * Run by login-memory.test.ts as `node --expose-gc --import tsx login-memory-process.ts <what> <count>`:
 * sends `count` failed logins with distinct 16 KiB user names and prints, as one JSON line, the
 * heap in use (after full collections) before and after them. `throttle` reserves them on the memory
 * login throttle directly; `logins` sends them to POST /token of the app.
 */
import { randomBytes } from 'node:crypto';
import { createMemoryLoginThrottle } from '../../src/auth/login-throttle.js';
import { buildApp } from '../../src/app.js';
import { defaultConfig } from '../../src/config.js';
import { hs256Config, login } from './fixtures.js';

const [what, countText] = process.argv.slice(2);
const count = Number(countText);
if (globalThis.gc === undefined) throw new Error('run with --expose-gc');
const gc = globalThis.gc;

// The per-client limit would stop a flood from one client after a few attempts, before anything
// is counted; here every attempt is counted, which is what could grow the throttle's state.
const limits = {
  maxFailuresPerUsername: 5,
  maxFailuresPerClient: 1_000_000,
  maxFailuresPerUsernameAllClients: 100,
  windowSeconds: 3600,
};

/** A distinct 16 KiB user name of characters JSON escapes six times over, the costliest to keep. */
const longName = (index: number) => `${index}-${randomBytes(8).toString('hex')}-`.padEnd(16 * 1024, '\u0001');

function heapInUse(): number {
  for (let i = 0; i < 3; i += 1) gc();
  return process.memoryUsage().heapUsed;
}

async function failedReservations(): Promise<void> {
  const throttle = createMemoryLoginThrottle(limits);
  await throttle.reserve({ username: longName(-1), client: '192.0.2.1' });
  const before = heapInUse();
  for (let i = 0; i < count; i += 1) {
    const reservation = await throttle.reserve({ username: longName(i), client: '192.0.2.1' });
    if (!reservation.granted) throw new Error(`attempt ${i} was refused`);
  }
  const after = heapInUse();
  // Used after the reading, so the collector cannot take the throttle (and what it holds) before it.
  await throttle.release({ username: longName(0), client: '192.0.2.1' });
  report(before, after);
}

async function failedLogins(): Promise<void> {
  const app = await buildApp({ config: defaultConfig(await hs256Config(undefined, { loginThrottle: limits })) });
  // Warm-up: the route's first requests compile and allocate what every later one shares.
  for (let i = 0; i < 50; i += 1) await expectUnauthorized(app, longName(-1 - i));
  const before = heapInUse();
  for (let i = 0; i < count; i += 1) await expectUnauthorized(app, longName(i));
  report(before, heapInUse());
  await app.close();
}

async function expectUnauthorized(app: Awaited<ReturnType<typeof buildApp>>, username: string): Promise<void> {
  const response = await login(app, { username, password: 'wrong' }, '192.0.2.1');
  if (response.statusCode !== 401) throw new Error(`login answered ${response.statusCode}: ${response.body}`);
}

function report(before: number, after: number): void {
  process.stdout.write(`${JSON.stringify({ before, after })}\n`);
}

await (what === 'throttle' ? failedReservations() : failedLogins());
