/**
 * The portal's PostgreSQL stores through a crash of their database (a throwaway cluster of this
 * test's own: pg_ctl's immediate stop, and SIGKILL of the postmaster) and its restart on the same
 * port. The session store and the intent ledger, used all through the outage by several callers at
 * once as a busy portal would, serve every caller again (a write and a read) within a bound of the
 * restart: the pools' longest pause between two reconnect attempts (MAX_RECONNECT_DELAY_SECONDS)
 * plus what a busy machine adds. With the driver's default pause, which grows to 20 s over the
 * failed attempts of the whole pool, callers waited many seconds after the database was back.
 */
import { MAX_RECONNECT_DELAY_SECONDS } from '@books/shared-rules';
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownedChanges } from '../src/lib/platform/owned-settings';
import { createPostgresSessionStore } from '../src/server/auth/postgres-session-store';
import { createPostgresLedger } from '../src/server/backends/ledger/postgres-ledger';
import { STANDARD_INTENT } from './storage-fixtures';

/** What a machine busy with other suites may add to a reconnect, to the calls and to this loop. */
const SCHEDULING_SLACK_MS = 2500;
/** Each store works again this soon after the restart: its pool's next attempt comes within the delay. */
const RECOVERY_MS = MAX_RECONNECT_DELAY_SECONDS * 1000 + SCHEDULING_SLACK_MS;
/** Long enough for the pools' failed attempts to add up: the driver's default pause is then 10-20 s. */
const DOWN_MS = 4000;
/** Callers per store: as many as its pool has connections, so that every connection keeps trying. */
const CALLERS = 4;
/** How long a store that missed the bound is still waited for, so that the failure says how late it was. */
const GIVE_UP_MS = 30_000;

const principal = {
  subject: 'https://idp.example#rita',
  identity: 'rita@example.com',
  name: 'Rita',
  role: 'requester' as const,
};
const actor = { subject: principal.subject, display: principal.identity };

let server: TestPostgres;
beforeAll(async () => {
  // Its own server, which the test crashes; commits flushed before they are acknowledged, as in production.
  server = await startPostgres({ ownServer: true, settings: { synchronous_commit: 'on' } });
}, 120_000);
afterAll(() => server?.stop(), 60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `work` from CALLERS loops until stopped, noting when each loop's calls succeeded and how many failed. */
function keepCalling(work: (call: number) => Promise<void>) {
  const succeededAt: number[][] = Array.from({ length: CALLERS }, () => []);
  let failures = 0;
  let running = true;
  let calls = 0;
  const loop = async (caller: number) => {
    while (running) {
      try {
        await work(calls++);
        succeededAt[caller]!.push(performance.now());
      } catch {
        failures += 1;
        // As a user trying again would, though sooner: the test wants many attempts during the outage.
        await sleep(100);
      }
    }
  };
  const loops = succeededAt.map((_, caller) => loop(caller));
  return {
    failures: () => failures,
    /** How long after `since` every loop had succeeded at least once; undefined while one has not. */
    everyCallerBackAfter: (since: number): number | undefined => {
      let last = 0;
      for (const times of succeededAt) {
        const first = times.find((at) => at > since);
        if (first === undefined) return undefined;
        last = Math.max(last, first - since);
      }
      return Math.round(last);
    },
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe.each(['immediate', 'kill'] as const)('the portal after a database crash (%s)', (how) => {
  it(
    'writes and reads sessions and intent again within a bound of the restart',
    { timeout: 120_000 },
    async ({ annotate }) => {
      const databaseUrl = await server.createDatabase(`portal_restart_${how}`);
      const sessions = createPostgresSessionStore(databaseUrl);
      const ledger = createPostgresLedger(databaseUrl);
      try {
        const signInAndBack = async () => {
          const id = await sessions.create({ principal, expiresAt: new Date(Date.now() + 3_600_000) });
          const session = await sessions.get(id);
          if (session?.principal.subject !== principal.subject) throw new Error('the session was not read back');
        };
        const recordAndBack = async (call: number) => {
          const account = `strestart${how.slice(0, 1)}${call}`;
          const record = await ledger.append({
            account,
            action: 'create',
            actor,
            requestId: `req-${account}`,
            desired: STANDARD_INTENT,
            changes: ownedChanges(undefined, STANDARD_INTENT),
          });
          await ledger.settle(record.id, { status: 'applied' });
          const [item] = await ledger.history(account);
          if (item?.id !== record.id || item.status !== 'applied') throw new Error('the intent was not read back');
        };
        await signInAndBack();
        await recordAndBack(-1);

        const stores = { sessions: keepCalling(signInAndBack), ledger: keepCalling(recordAndBack) };
        await sleep(500);
        await server.crashServer(how);
        await sleep(DOWN_MS);
        await server.startServer();
        const upAt = performance.now();

        while (Object.values(stores).some((store) => store.everyCallerBackAfter(upAt) === undefined)) {
          if (performance.now() - upAt > GIVE_UP_MS) break;
          await sleep(50);
        }
        await Promise.all(Object.values(stores).map((store) => store.stop()));

        const back = Object.fromEntries(
          Object.entries(stores).map(([name, store]) => [name, store.everyCallerBackAfter(upAt)]),
        );
        await annotate(`every caller served again after the restart (ms): ${JSON.stringify(back)}`);
        for (const [name, store] of Object.entries(stores)) {
          expect(store.failures(), `${name}: calls failed during the outage`).toBeGreaterThan(0);
          expect(back[name], `${name} serves every caller again within ${RECOVERY_MS} ms of the restart`).toBeLessThan(
            RECOVERY_MS,
          );
        }
      } finally {
        await Promise.all([sessions.close(), ledger.close()]);
      }
    },
  );
});
