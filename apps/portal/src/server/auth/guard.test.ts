/**
 * The guard through the real route handlers, in proxy mode (the only mode whose identity a test
 * can set with headers) over the mock platform, whose accounts were all requested by someone else.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEST_PROXY_SECRET, throughProxy } from '../../../test/proxy-sign-in';

const ORIGIN = 'http://portal.test';
const RESOURCES = `${ORIGIN}/api/platform/resources`;
const valid = { application: 'webshop', environment: 'dev', resourceGroup: 'rg-books-dev', location: 'westeurope' };

const FORWARDED_ADMIN = { 'x-forwarded-user': 'ada', 'x-forwarded-groups': 'platform-admins' };
const VIEWER = throughProxy({ 'x-forwarded-email': 'vera@example.com', 'x-forwarded-groups': 'staff' });
const REQUESTER = throughProxy({ 'x-forwarded-email': 'rita@example.com', 'x-forwarded-groups': 'staff, developers' });
const ADMIN = throughProxy(FORWARDED_ADMIN);

async function routes() {
  vi.resetModules();
  return import('@/app/api/platform/resources/route');
}

async function resyncRoute() {
  vi.resetModules();
  return import('@/app/api/platform/resources/resync/route');
}

function request(method: string, url: string, headers: Record<string, string>, body?: unknown): Request {
  return new Request(url, {
    method,
    headers: { host: 'portal.test', origin: ORIGIN, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function errorOf(response: Response): Promise<string> {
  return ((await response.json()) as { error: string }).error;
}

afterEach(() => vi.unstubAllEnvs());

describe('the guard in proxy mode', () => {
  beforeEach(() => {
    vi.stubEnv('PORTAL_MOCK_PLATFORM', 'true');
    vi.stubEnv('PORTAL_AUTH', 'proxy');
    vi.stubEnv('PORTAL_PROXY_SECRET', TEST_PROXY_SECRET);
    vi.stubEnv('PORTAL_ADMIN_GROUPS', 'platform-admins');
    vi.stubEnv('PORTAL_REQUESTER_GROUPS', 'developers');
  });

  it('answers 401 Sign-in required to a request without a forwarded identity, for reads and changes', async () => {
    const { GET, POST, DELETE } = await routes();
    for (const response of [
      await GET(new Request(RESOURCES)),
      await POST(request('POST', RESOURCES, {}, valid)),
      await DELETE(request('DELETE', `${RESOURCES}?name=stdemo01`, {})),
    ]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'Sign-in required' });
    }
  });

  it("answers 401 to a forwarded admin without the proxy's proof, or with a wrong one", async () => {
    const { GET, POST, DELETE } = await routes();
    const wrong = `${TEST_PROXY_SECRET.slice(0, -1)}x`;
    for (const headers of [
      FORWARDED_ADMIN,
      { ...FORWARDED_ADMIN, 'x-portal-proxy-secret': '' },
      { ...FORWARDED_ADMIN, 'x-portal-proxy-secret': wrong },
      { ...FORWARDED_ADMIN, 'x-portal-proxy-secret': TEST_PROXY_SECRET.slice(0, -1) },
      { ...FORWARDED_ADMIN, 'x-portal-proxy-secret': `${TEST_PROXY_SECRET} ` + 'x'.repeat(4000) },
    ]) {
      for (const response of [
        await GET(request('GET', RESOURCES, headers)),
        await POST(request('POST', RESOURCES, headers, valid)),
        await DELETE(request('DELETE', `${RESOURCES}?name=stdemo01`, headers)),
      ]) {
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({ error: 'Sign-in required' });
      }
    }
    expect((await DELETE(request('DELETE', `${RESOURCES}?name=stdemo01`, ADMIN))).status).toBe(200);
  });

  it('lets a viewer read but refuses it a create with 403 naming the requester role', async () => {
    const { GET, POST } = await routes();
    expect((await GET(request('GET', RESOURCES, VIEWER))).status).toBe(200);
    const refused = await POST(request('POST', RESOURCES, VIEWER, valid));
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatch(/needs the requester or admin role/);
  });

  it('records the signed-in requester as requested-by, whatever else the request claims', async () => {
    const { POST } = await routes();
    const response = await POST(request('POST', RESOURCES, REQUESTER, valid));
    expect(response.status).toBe(201);
    const { item } = (await response.json()) as { item: { requestedBy: string; requestedBySubject: string } };
    expect(item.requestedBy).toBe('rita@example.com');
    // Proxy mode: the forwarded user is the subject (the e-mail when only that is forwarded).
    expect(item.requestedBySubject).toBe('rita@example.com');
  });

  it('refuses a requester a resync of an account someone else requested, and lets an admin', async () => {
    const { POST } = await resyncRoute();
    const refused = await POST(request('POST', `${RESOURCES}/resync?name=stdemo01`, REQUESTER));
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatch(/Asking for a resync needs the admin role/);
    const viewer = await POST(request('POST', `${RESOURCES}/resync?name=stdemo01`, VIEWER));
    expect(viewer.status).toBe(403);
    const accepted = await POST(request('POST', `${RESOURCES}/resync?name=stdemo01`, ADMIN));
    expect(accepted.status).toBe(202);
  });

  it('refuses a requester the deletion of an account someone else requested, naming the admin role', async () => {
    const { DELETE } = await routes();
    const refused = await DELETE(request('DELETE', `${RESOURCES}?name=stdemo01`, REQUESTER));
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatch(/needs the admin role/);
  });

  it('lets an admin delete any account', async () => {
    const { DELETE } = await routes();
    const response = await DELETE(request('DELETE', `${RESOURCES}?name=stdemo01`, ADMIN));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ item: { name: 'stdemo01' } });
  });

  it('still refuses a cross-site mutation from a signed-in admin', async () => {
    const { POST } = await routes();
    const response = await POST(request('POST', RESOURCES, { ...ADMIN, origin: 'https://evil.example' }, valid));
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toBe('Cross-site requests are not allowed');
  });
});

describe('forwarded identity outside proxy mode', () => {
  it('is ignored with PORTAL_AUTH=none: the request is anonymous', async () => {
    vi.stubEnv('PORTAL_MOCK_PLATFORM', 'true');
    vi.stubEnv('PORTAL_AUTH', 'none');
    const { POST } = await routes();
    const response = await POST(request('POST', RESOURCES, ADMIN, valid));
    expect(response.status).toBe(201);
    expect(((await response.json()) as { item: { requestedBy: string } }).item.requestedBy).toBe('anonymous');
  });

  it('is ignored in development mode: the request is the developer', async () => {
    vi.stubEnv('PORTAL_MOCK_PLATFORM', 'true');
    const { POST } = await routes();
    const response = await POST(request('POST', RESOURCES, { 'x-forwarded-email': 'mallory@example.com' }, valid));
    expect(response.status).toBe(201);
    expect(((await response.json()) as { item: { requestedBy: string } }).item.requestedBy).toBe('developer');
  });
});
