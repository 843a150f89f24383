import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_PROXY_SECRET, throughProxy } from '../../../test/proxy-sign-in';
import { apiHeaders, contentSecurityPolicy, newNonce, pageHeaders } from './security-headers';

const directives = (policy: string) => new Map(policy.split('; ').map((part) => [part.split(' ')[0], part]));

describe('security headers', () => {
  it('allow scripts only from this origin with the nonce, and nothing to frame or embed the page', () => {
    const policy = directives(contentSecurityPolicy('abc123', { development: false }));
    expect(policy.get('default-src')).toBe("default-src 'self'");
    expect(policy.get('script-src')).toBe("script-src 'self' 'nonce-abc123'");
    expect(policy.get('style-src')).toBe("style-src 'self' 'nonce-abc123'");
    expect(policy.get('style-src-attr')).toBe("style-src-attr 'unsafe-inline'");
    expect(policy.get('object-src')).toBe("object-src 'none'");
    expect(policy.get('base-uri')).toBe("base-uri 'self'");
    expect(policy.get('frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(directives(contentSecurityPolicy('n', { development: true })).get('script-src')).toContain('unsafe-eval');
  });

  it('makes a new, unguessable nonce every time', () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
  });

  it('add HSTS only over https, and no-store with nosniff to API answers', () => {
    const page = pageHeaders('n', { https: false, development: false });
    expect(page['X-Content-Type-Options']).toBe('nosniff');
    expect(page['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
    expect(page['Strict-Transport-Security']).toBeUndefined();
    expect(pageHeaders('n', { https: true, development: false })['Strict-Transport-Security']).toBe('max-age=31536000');
    expect(apiHeaders({ https: false })).toMatchObject({
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    });
  });
});

describe('the proxy in front of every request', () => {
  afterEach(() => vi.unstubAllEnvs());

  async function proxyAnswer(path: string, headers: Record<string, string> = {}) {
    vi.resetModules();
    const { proxy } = await import('@/proxy');
    return proxy(new NextRequest(`http://portal.test${path}`, { headers }));
  }

  it('hands a page the same nonce it announces in the response policy, new for every request', async () => {
    vi.stubEnv('PORTAL_MOCK_PLATFORM', 'true');
    vi.stubEnv('PORTAL_AUTH', 'none');
    const first = await proxyAnswer('/resources');
    const policy = first.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeDefined();
    // NextResponse.next() passes changed request headers on as x-middleware-request-* headers.
    expect(first.headers.get('x-middleware-request-x-nonce')).toBe(nonce);
    expect(first.headers.get('x-middleware-request-content-security-policy')).toBe(policy);
    const second = await proxyAnswer('/resources');
    expect(second.headers.get('content-security-policy')).not.toBe(policy);
  });

  it('gives API answers and refusals nosniff and no-store, and HSTS when PORTAL_PUBLIC_URL is https', async () => {
    vi.stubEnv('PORTAL_AUTH', 'proxy');
    vi.stubEnv('PORTAL_PROXY_SECRET', TEST_PROXY_SECRET);
    vi.stubEnv('PORTAL_MOCK_PLATFORM', 'true');
    vi.stubEnv('PORTAL_PUBLIC_URL', 'https://portal.example.com');
    for (const path of ['/api/platform/resources', '/resources']) {
      const refused = await proxyAnswer(path);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
      expect(refused.headers.get('cache-control')).toBe('no-store');
      expect(refused.headers.get('strict-transport-security')).toBe('max-age=31536000');
    }
    const allowed = await proxyAnswer('/api/platform/resources', throughProxy({ 'x-forwarded-user': 'ada' }));
    expect(allowed.headers.get('cache-control')).toBe('no-store');
    expect(allowed.headers.get('x-middleware-request-x-nonce')).toBeNull();
  });

  it("refuses pages and API calls that forward an identity without the proxy's proof: 401, no redirect", async () => {
    vi.stubEnv('PORTAL_AUTH', 'proxy');
    vi.stubEnv('PORTAL_PROXY_SECRET', TEST_PROXY_SECRET);
    vi.stubEnv('PORTAL_MOCK_PLATFORM', 'true');
    const admin = { 'x-forwarded-user': 'ada', 'x-forwarded-email': 'ada@example.com', 'x-forwarded-groups': 'admins' };
    for (const path of ['/resources', '/settings', '/api/platform/resources']) {
      const proofs: Record<string, string>[] = [
        {},
        { 'x-portal-proxy-secret': 'not-the-proxy-secret-0123456789abcdef' },
      ];
      for (const proof of proofs) {
        const refused = await proxyAnswer(path, { ...admin, ...proof });
        expect(refused.status, path).toBe(401);
        expect(refused.headers.get('location'), path).toBeNull();
        expect(await refused.text(), path).toMatch(/Sign-in required/);
      }
      const allowed = await proxyAnswer(path, throughProxy(admin));
      expect(allowed.status, path).toBe(200);
      expect(allowed.headers.get('x-middleware-next'), path).toBe('1');
    }
  });
});
