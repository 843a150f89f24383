/**
 * GET /api/platform/events over real HTTP connections, in a portal replica of its own against the
 * Kubernetes stand-in: sign-in required, one event per changed account with increasing ids and in
 * order, Last-Event-ID resumes (and asks for a reload when it cannot), and at most
 * PORTAL_MAX_STREAMS_PER_USER streams per user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standInRequest } from './stand-in-client';
import { startTestCluster, type TestCluster } from './kubernetes-harness';
import { PROXY_SECRET, startRouteHost, type RouteHost } from './route-host';
import { openSse, type SseFrame, type SseStream } from './sse-client';

const MAX_STREAMS = 3;
let cluster: TestCluster;
let host: RouteHost;
let sequence = 0;

beforeAll(async () => {
  cluster = await startTestCluster();
  host = await startRouteHost(cluster, { azure: false, env: { PORTAL_MAX_STREAMS_PER_USER: String(MAX_STREAMS) } });
}, 60_000);

afterAll(async () => {
  await host?.stop();
  await cluster?.dispose();
});

function asUser(user: string): Record<string, string> {
  return { 'x-portal-proxy-secret': PROXY_SECRET, 'x-forwarded-user': user };
}

const open = (user: string, extra: Record<string, string> = {}, query = ''): Promise<SseStream> =>
  openSse(`${host.url}/api/platform/events${query}`, { ...asUser(user), ...extra });

/** An Account made behind the portal's back, as kubectl would. */
async function createOutOfBand(name: string): Promise<void> {
  const answer = await standInRequest(cluster.standIn, 'POST', '/apis/storage.azure.upbound.io/v1beta1/accounts', {
    apiVersion: 'storage.azure.upbound.io/v1beta1',
    kind: 'Account',
    metadata: { name },
    spec: {
      forProvider: {
        accountReplicationType: 'LRS',
        accountTier: 'Standard',
        location: 'westeurope',
        resourceGroupName: 'rg-books-dev',
      },
    },
  });
  expect(answer.status).toBe(201);
}

const about =
  (name: string, type = 'changed') =>
  (frame: SseFrame): boolean =>
    frame.event === 'account' &&
    frame.data !== undefined &&
    (JSON.parse(frame.data) as { name: string; type: string }).name === name &&
    (JSON.parse(frame.data) as { type: string }).type === type;

/** Waits until the portal's cache follows the cluster (the stream itself starts it). */
async function warm(stream: SseStream): Promise<void> {
  const name = `stwarm${sequence++}`;
  await createOutOfBand(name);
  await stream.next(about(name), 10_000);
}

describe('GET /api/platform/events', () => {
  it('needs a signed-in user: 401 without one, as every route', async () => {
    const stream = await openSse(`${host.url}/api/platform/events`, { 'x-portal-proxy-secret': PROXY_SECRET });
    expect(stream.status).toBe(401);
    expect(JSON.parse(stream.text() || '{}')).toEqual({ error: 'Sign-in required' });
    stream.close();
  });

  it('streams text/event-stream with one event per changed account, ids increasing, in the order they happened', async () => {
    const stream = await open('erin');
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(stream.headers['cache-control']).toBe('no-store');
      await warm(stream);
      const names = [`stord${sequence++}`, `stord${sequence++}`, `stord${sequence++}`];
      for (const name of names) await createOutOfBand(name);
      const seen = await Promise.all(names.map((name) => stream.next(about(name))));
      const ids = seen.map((frame) => Number(frame.id));
      expect(ids.every(Number.isSafeInteger)).toBe(true);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      const allIds = stream.frames.filter((f) => f.id !== undefined).map((f) => Number(f.id));
      expect(new Set(allIds).size).toBe(allIds.length);
      expect([...allIds].sort((a, b) => a - b)).toEqual(allIds);
      expect(JSON.parse(seen[0]?.data ?? '{}')).toMatchObject({ type: 'changed', name: names[0], namespace: null });
      // The simulated provider makes each Ready: more events for the same account, later ids.
      const ready = await stream.next(
        (f) => about(names[0] ?? '')(f) && (JSON.parse(f.data ?? '{}') as { state?: string }).state === 'Ready',
        10_000,
      );
      expect(Number(ready.id)).toBeGreaterThan(ids[0] ?? Infinity);
    } finally {
      stream.close();
    }
  }, 30_000);

  it('resumes from Last-Event-ID with exactly the events missed, and asks for a reload when it cannot', async () => {
    const first = await open('frank');
    await warm(first);
    const lastSeen = first.frames.filter((f) => f.id !== undefined).at(-1)?.id ?? '';
    first.close();
    const missed = `stmissed${sequence++}`;
    await createOutOfBand(missed);
    const resumed = await open('frank', { 'last-event-id': lastSeen });
    try {
      const replayed = await resumed.next(about(missed));
      expect(Number(replayed.id)).toBeGreaterThan(Number(lastSeen));
      expect(resumed.frames.filter((f) => f.id !== undefined).every((f) => Number(f.id) > Number(lastSeen))).toBe(true);
    } finally {
      resumed.close();
    }
    // An id from before this process (or long gone from the replay buffer): reload the view.
    const stale = await open('frank', { 'last-event-id': '1' });
    try {
      const reload = await stale.next((f) => f.event === 'reload');
      expect(Number(reload.id)).toBeGreaterThan(Number(lastSeen));
    } finally {
      stale.close();
    }
  }, 30_000);

  it(`allows ${MAX_STREAMS} open streams per user: one more is 429, and closing one frees its place`, async () => {
    const streams = await Promise.all(Array.from({ length: MAX_STREAMS }, () => open('gina')));
    expect(streams.map((s) => s.status)).toEqual(Array(MAX_STREAMS).fill(200));
    const refused = await open('gina');
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text() || '{}')).toMatchObject({ error: expect.stringMatching(/live event streams/) });
    refused.close();
    // Another person has places of their own.
    const other = await open('hugo');
    expect(other.status).toBe(200);
    other.close();
    streams[0]?.close();
    let again: SseStream | undefined;
    for (let attempt = 0; attempt < 50 && again?.status !== 200; attempt += 1) {
      again?.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await open('gina');
    }
    expect(again?.status).toBe(200);
    again?.close();
    for (const stream of streams) stream.close();
  }, 30_000);

  it('notifies the user who started an action when it completes or fails, and nobody else', async () => {
    const rita = { user: 'rita', groups: 'portal-requesters' };
    const ritaStream = await open('rita');
    const otherStream = await open('sam');
    try {
      await warm(ritaStream);
      const create = (name: string) =>
        host.call<{ item: { name: string } }>('POST', '/api/platform/resources', rita, {
          name,
          application: 'webshop',
          environment: 'dev',
          resourceGroup: 'rg-books-dev',
          location: 'westeurope',
        });
      const good = `stnotegood${sequence++}`;
      const bad = `stnotebad${sequence++}`;
      cluster.standIn.injectFailure(bad, 'quota exceeded');
      expect((await create(good)).status).toBe(201);
      expect((await create(bad)).status).toBe(201);
      const notified = (name: string) => (frame: SseFrame) =>
        frame.event === 'notification' && (JSON.parse(frame.data ?? '{}') as { account?: string }).account === name;
      const completed = JSON.parse((await ritaStream.next(notified(good), 10_000)).data ?? '{}') as object;
      expect(completed).toMatchObject({ account: good, action: 'create', outcome: 'completed' });
      const failed = JSON.parse((await ritaStream.next(notified(bad), 10_000)).data ?? '{}') as object;
      expect(failed).toMatchObject({ account: bad, action: 'create', outcome: 'failed' });
      expect((failed as { reason: string }).reason).toMatch(/ReconcileError.*quota exceeded/);
      // Sam's stream carries the accounts' changes, but not Rita's notifications.
      await otherStream.next(about(good));
      expect(otherStream.frames.some((f) => f.event === 'notification')).toBe(false);
    } finally {
      cluster.standIn.clearFailure();
      ritaStream.close();
      otherStream.close();
    }
  }, 30_000);
});
