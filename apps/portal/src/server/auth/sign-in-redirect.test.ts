/**
 * The way to sign-in for a page without a session, through the real proxy and the real sign-in
 * route: a full page load ends at the provider, while the client router's own fetches of a page
 * (navigation or prefetch, marked by `RSC: 1`) never get a redirect to another origin, which the
 * browser would refuse (CORS) instead of loading the page.
 */
import { createServer } from 'node:net';
import { NextRequest } from 'next/server';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const PORTAL = 'http://portal.test';
const ROUTER_FETCH = { RSC: '1' };
const ROUTER_PREFETCH = { RSC: '1', 'Next-Router-Prefetch': '1', 'Next-Router-Segment-Prefetch': '/_tree' };

/** A loopback port that refuses connections: an issuer nobody answers at, so any contact fails fast. */
let silentIssuer: string;
beforeAll(async () => {
  const reserved = createServer();
  await new Promise<void>((resolve) => reserved.listen(0, '127.0.0.1', resolve));
  const address = reserved.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => reserved.close(() => resolve()));
  silentIssuer = `http://127.0.0.1:${port}`;
});

beforeEach(() => {
  vi.resetModules();
  vi.stubEnv('PORTAL_MOCK_PLATFORM', 'true');
  vi.stubEnv('PORTAL_AUTH', 'oidc');
  vi.stubEnv('PORTAL_OIDC_ISSUER', silentIssuer);
  vi.stubEnv('PORTAL_OIDC_CLIENT_ID', 'platform-portal');
  vi.stubEnv('PORTAL_OIDC_CLIENT_SECRET', 'not-a-real-secret');
  vi.stubEnv('PORTAL_PUBLIC_URL', PORTAL);
  vi.stubEnv('PORTAL_SESSION_SECRET', 'x'.repeat(48));
});
afterEach(() => vi.unstubAllEnvs());

async function proxy(path: string, headers: Record<string, string> = {}): Promise<Response> {
  const { proxy } = await import('@/proxy');
  return proxy(new NextRequest(`${PORTAL}${path}`, { headers }));
}

async function signIn(path: string, headers: Record<string, string> = {}): Promise<Response> {
  const { GET } = await import('@/app/api/auth/signin/route');
  return GET(new Request(`${PORTAL}${path}`, { headers }));
}

describe('the proxy without a session', () => {
  it('sends a page, and the router’s fetches of it, to the sign-in route on the portal’s own origin', async () => {
    for (const headers of [{}, ROUTER_FETCH, ROUTER_PREFETCH]) {
      const response = await proxy('/resources?filter=x', headers);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(`${PORTAL}/api/auth/signin?returnTo=%2Fresources%3Ffilter%3Dx`);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers an API call 401 Sign-in required', async () => {
    const response = await proxy('/api/platform/resources', ROUTER_FETCH);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Sign-in required' });
  });
});

describe('the sign-in route without a session', () => {
  it('answers a router fetch or prefetch 204 without contacting the provider or starting a sign-in', async () => {
    for (const headers of [ROUTER_FETCH, ROUTER_PREFETCH]) {
      const response = await signIn('/api/auth/signin?returnTo=%2Fresources', headers);
      expect(response.status).toBe(204);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toBeNull();
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('starts sign-in at the provider for a page load (here the provider is unreachable, so 503)', async () => {
    const response = await signIn('/api/auth/signin?returnTo=%2Fresources');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: expect.stringMatching(/sign-in provider cannot be reached/) });
  });

  it('logs an unreachable provider as a warning through the portal logger, with the request id', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const lines: Record<string, unknown>[] = [];
    const write = process.stdout.write.bind(process.stdout);
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (!text.startsWith('{"level"')) return write(chunk, ...(rest as []));
      for (const line of text.split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      return true;
    });
    try {
      const response = await signIn('/api/auth/signin?returnTo=%2Fresources', { 'x-request-id': 'sign-in-log-1' });
      expect(response.status).toBe(503);
    } finally {
      vi.restoreAllMocks();
    }
    expect(consoleError).not.toHaveBeenCalled();
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        app: 'portal',
        msg: 'sign-in provider unreachable',
        requestId: 'sign-in-log-1',
        err: expect.objectContaining({ message: expect.any(String) }),
      }),
    );
  });
});

describe('sign-out', () => {
  it('refuses a cross-site POST, so another site cannot sign people out', async () => {
    const { POST } = await import('@/app/api/auth/signout/route');
    const response = await POST(
      new Request(`${PORTAL}/api/auth/signout`, {
        method: 'POST',
        headers: { host: 'portal.test', origin: 'https://evil.example' },
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: 'Cross-site requests are not allowed' });
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});
