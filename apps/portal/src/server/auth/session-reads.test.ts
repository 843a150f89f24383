/**
 * How often one request reads the session store: the proxy resolves the user and hands it to the
 * route behind it, so a signed-in API call reads its session once, not once in the proxy and
 * again in the route.
 */
import { NextRequest } from 'next/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const PORTAL = 'http://portal.test';
const ADA = { subject: 'ada-1', identity: 'ada@example.com', name: 'Ada', role: 'admin' } as const;

beforeEach(() => {
  vi.resetModules();
  vi.stubEnv('PORTAL_MOCK_PLATFORM', 'true');
  vi.stubEnv('PORTAL_AUTH', 'oidc');
  vi.stubEnv('PORTAL_OIDC_ISSUER', 'http://127.0.0.1:9');
  vi.stubEnv('PORTAL_OIDC_CLIENT_ID', 'platform-portal');
  vi.stubEnv('PORTAL_OIDC_CLIENT_SECRET', 'not-a-real-secret');
  vi.stubEnv('PORTAL_PUBLIC_URL', PORTAL);
  vi.stubEnv('PORTAL_SESSION_SECRET', 'y'.repeat(48));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** A signed-in session's cookie, and a count of the reads of the session store from now on. */
async function signedIn() {
  const { loadConfig } = await import('@/server/runtime/config');
  const { getSessionStore, sessionCookieName, startSession } = await import('./sessions');
  const auth = loadConfig().auth;
  if (auth.mode !== 'oidc') throw new Error('the test runs in oidc mode');
  const { value } = await startSession(auth.session, { ...ADA }, undefined);
  const reads = vi.spyOn(getSessionStore(auth.session), 'get');
  return { cookie: `${sessionCookieName(auth.session)}=${value}`, reads };
}

/** The request a route handler receives after the proxy: with the headers the proxy changed. */
function behindProxy(url: string, request: Request, answer: Response): Request {
  const headers = new Headers(request.headers);
  for (const name of answer.headers.get('x-middleware-override-headers')?.split(',') ?? []) {
    const value = answer.headers.get(`x-middleware-request-${name}`);
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return new Request(url, { headers });
}

/** A signed-in user's inventory call as the proxy passes it on to the route. */
async function signedInCallThroughProxy() {
  const { cookie, reads } = await signedIn();
  const { proxy } = await import('@/proxy');
  const { GET } = await import('@/app/api/platform/resources/route');
  const url = `${PORTAL}/api/platform/resources`;
  const request = new NextRequest(url, { headers: { cookie } });
  const forwarded = behindProxy(url, request, await proxy(request));
  return { cookie, reads, GET, url, forwarded };
}

describe('the session store', () => {
  it('is read once for a signed-in API call, by the proxy, and the route knows who asked', async () => {
    const { reads, GET, forwarded } = await signedInCallThroughProxy();
    const response = await GET(forwarded);

    expect(response.status).toBe(200);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('is read again by a route called without the proxy, and a handed-over user serves one request only', async () => {
    const { cookie, reads, GET, url, forwarded } = await signedInCallThroughProxy();
    expect((await GET(forwarded)).status).toBe(200);

    // The same token again, without the cookie: nothing is handed over twice.
    const replayed = new Request(url, {
      headers: { 'x-portal-principal-handoff': forwarded.headers.get('x-portal-principal-handoff') ?? '' },
    });
    expect((await GET(replayed)).status).toBe(401);
    expect((await GET(new Request(url, { headers: { cookie } }))).status).toBe(200);
    // The proxy's read, then the direct call's own (the replay carries no cookie to read).
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('never takes a handed-over user from the client: the proxy drops the header', async () => {
    const { proxy } = await import('@/proxy');
    const url = `${PORTAL}/api/platform/resources`;
    const forged = await proxy(new NextRequest(url, { headers: { 'x-portal-principal-handoff': 'forged' } }));
    expect(forged.status).toBe(401);
    const { cookie } = await signedIn();
    const passed = await proxy(new NextRequest(url, { headers: { cookie, 'x-portal-principal-handoff': 'forged' } }));
    expect(passed.headers.get('x-middleware-request-x-portal-principal-handoff')).not.toBe('forged');
  });

  it('keeps at most MAX_PENDING_HANDOFFS unclaimed users: a flood drops the oldest, whose request reads its session', async () => {
    const { handOver, takeOver, MAX_PENDING_HANDOFFS } = await import('./principal-handoff');
    const first = handOver({ ...ADA });
    let last = first;
    for (let index = 0; index < MAX_PENDING_HANDOFFS; index += 1) last = handOver({ ...ADA });
    expect(takeOver(first)).toBeUndefined();
    expect(takeOver(last)).toEqual(ADA);
  });
});
