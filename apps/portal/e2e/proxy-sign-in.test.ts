/**
 * Proxy mode on the production server: a forwarded identity counts only on a request that proves
 * it came through the authenticating proxy (X-Portal-Proxy-Secret equal to PORTAL_PROXY_SECRET);
 * without that proof pages and API calls are 401, whatever they forward, and the portal does not
 * start in proxy mode without the secret (contract: "Proxy sign-in").
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startPortalServer, type PortalServer } from '../kube-stand-in/portal-server';

const PROXY_SECRET = randomBytes(24).toString('hex');
const ADMIN = { 'X-Forwarded-User': 'ada', 'X-Forwarded-Email': 'ada@example.com', 'X-Forwarded-Groups': 'admins' };
const PAGES = ['/', '/resources', '/settings', '/catalog/azure-storage'];
const CREATE = { application: 'webshop', environment: 'dev', resourceGroup: 'rg-books-dev', location: 'westeurope' };

describe('proxy sign-in on the production server', () => {
  let portal: PortalServer;

  before(async () => {
    portal = await startPortalServer({
      env: {
        PORTAL_MOCK_PLATFORM: 'true',
        PORTAL_AUTH: 'proxy',
        PORTAL_PROXY_SECRET: PROXY_SECRET,
        PORTAL_ADMIN_GROUPS: 'admins',
      },
    });
  });
  after(() => portal?.stop());

  const send = (path: string, headers: Record<string, string>, body?: unknown) =>
    fetch(`${portal.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      redirect: 'manual',
      headers: {
        ...headers,
        ...(body === undefined ? {} : { Origin: portal.url, 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('answers 401 to pages and API calls that forward an admin without the proof, or with a wrong one', async () => {
    const forged = [
      ADMIN,
      { ...ADMIN, 'X-Portal-Proxy-Secret': '' },
      { ...ADMIN, 'X-Portal-Proxy-Secret': PROXY_SECRET.slice(0, -1) },
      { ...ADMIN, 'X-Portal-Proxy-Secret': `${PROXY_SECRET}0` },
      { ...ADMIN, 'X-Portal-Proxy-Secret': randomBytes(24).toString('hex') },
    ];
    for (const headers of forged) {
      for (const path of PAGES) {
        const page = await send(path, headers);
        assert.equal(page.status, 401, `${path} with ${JSON.stringify(headers)}`);
        assert.equal(page.headers.get('location'), null, 'no redirect to a sign-in that does not exist');
        assert.match(await page.text(), /open the portal through its authenticating proxy/);
      }
      const list = await send('/api/platform/resources', headers);
      assert.equal(list.status, 401);
      assert.deepEqual(await list.json(), { error: 'Sign-in required' });
      const create = await send('/api/platform/resources', headers, CREATE);
      assert.equal(create.status, 401);
      assert.deepEqual(await create.json(), { error: 'Sign-in required' });
    }
  });

  it('believes the forwarded identity with the proof', async () => {
    const proven = { ...ADMIN, 'X-Portal-Proxy-Secret': PROXY_SECRET };
    for (const path of PAGES) assert.equal((await send(path, proven)).status, 200, path);
    assert.equal((await send('/api/platform/resources', proven)).status, 200);
    const create = await send('/api/platform/resources', proven, CREATE);
    assert.equal(create.status, 201);
    const { item } = (await create.json()) as { item: { requestedBy: string } };
    assert.equal(item.requestedBy, 'ada@example.com');
    const settings = await (await send('/settings', proven)).text();
    assert.doesNotMatch(settings, new RegExp(PROXY_SECRET), 'the settings page shows the secret only as set');
  });

  it('refuses to start in proxy mode without PORTAL_PROXY_SECRET, naming it', async () => {
    await assert.rejects(
      startPortalServer({ env: { PORTAL_MOCK_PLATFORM: 'true', PORTAL_AUTH: 'proxy' } }),
      /The portal exited with code 1[\s\S]*PORTAL_PROXY_SECRET must be set with PORTAL_AUTH=proxy/,
    );
  });
});
