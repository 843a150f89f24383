/**
 * Sign-in with a real OpenID Provider (oidc-provider on loopback) in Chromium, against the
 * portal's production server on the Kubernetes stand-in: redirects and 401s without a session,
 * what each role may do, ownership on delete, the recorded identity, sign-out (a copied cookie
 * stops working), and expired or tampered session cookies. How the portal's sign-in is configured
 * is identity-configurations.test.ts's.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { StandIn } from '../kube-stand-in/index';
import type { PortalServer } from '../kube-stand-in/portal-server';
import { PORTAL_KEYS } from '../src/lib/platform/account-manifest';
import { startTestCluster } from '../test/kubernetes-harness';
import {
  screenshot,
  startSignInJourney,
  waitForStreamedContent,
  type BrowserSession,
  type SignInJourney,
} from './harness';
import { importServerModule } from './server-modules';
import { fillSignInForm, testUser, type TestIdentityProvider, type TestUser } from './test-identity-provider';

const { seal, unseal } = await importServerModule<typeof import('../src/server/auth/sealed-token')>(
  '../src/server/auth/sealed-token.ts',
);

const SESSION_COOKIE = 'portal-session';
const SESSION_SECRET = randomBytes(48).toString('base64');

const ADA = testUser('ada', 'Ada Admin', ['platform-admins']);
const RITA = testUser('rita', 'Rita Requester', ['developers']);
const VERA = testUser('vera', 'Vera Viewer', ['staff']);

let journey: SignInJourney | undefined;
let standIn: StandIn;
let provider: TestIdentityProvider;
let portal: PortalServer;
let browser: BrowserSession;
const pages: Page[] = [];

const storageRequest = (name: string) => ({
  name,
  application: 'identity',
  environment: 'dev',
  resourceGroup: 'rg-books-dev',
  location: 'westeurope',
});

async function newPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
  const page = await browser.newPage(viewport);
  pages.push(page);
  return page;
}

/** Opens a portal page, signs in at the provider when asked, and waits to be back on that page. */
async function signIn(page: Page, user: TestUser, path = '/'): Promise<void> {
  await page.goto(`${portal.url}${path}`);
  await page.waitForURL(`${provider.issuer}/interaction/**`);
  await fillSignInForm(page, user);
  await page.waitForURL((url) => url.href === `${portal.url}${path}`);
  await waitForStreamedContent(page);
}

/** Signs out through the account menu and the provider's confirmation page. */
async function signOut(page: Page): Promise<void> {
  await page.getByTestId('account-button').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL(`${provider.issuer}/**`);
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await page.waitForURL(`${portal.url}/signed-out`);
}

async function sessionCookie(): Promise<string> {
  const cookie = (await browser.context.cookies(portal.url)).find((candidate) => candidate.name === SESSION_COOKIE);
  assert.ok(cookie, 'the portal set no session cookie');
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, 'Lax');
  assert.equal(cookie.secure, false, 'plain http on loopback: not Secure');
  // The contract's 8 h from sign-in; the sign-in happened within the last few minutes.
  const hoursLeft = (cookie.expires * 1000 - Date.now()) / 3_600_000;
  assert.ok(hoursLeft > 7.8 && hoursLeft <= 8, `the session cookie lasts ${hoursLeft} h`);
  return cookie.value;
}

/** A call made by the page itself: same origin, with the browser's session cookie. */
async function call(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    { method, path, body },
  );
}

/** A request from outside the browser carrying a given session cookie (as someone who copied it would). */
function withCookie(path: string, cookie: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${portal.url}${path}`, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), Cookie: `${SESSION_COOKIE}=${cookie}` },
  });
}

/**
 * A fetch like the client router's (`RSC: 1` and the given headers), following redirects only on
 * the portal's origin as the router's fetch() would have to; answers the last response and every
 * address it went through. Next itself redirects (307) a router fetch that lacks its cache-busting
 * `_rsc` parameter, so a hop or two on the portal is normal.
 */
async function routerFetch(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ response: Response; hops: string[] }> {
  let url = new URL(path, portal.url);
  const hops: string[] = [];
  for (;;) {
    const response = await fetch(url, { redirect: 'manual', headers: { RSC: '1', ...headers } });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || location === null) return { response, hops };
    url = new URL(location, url);
    hops.push(url.href);
    if (url.origin !== portal.url || hops.length > 5) return { response, hops };
  }
}

before(async () => {
  const cluster = await startTestCluster({
    timing: { syncedDelayMs: 50, readyDelayMs: 300, deleteDelayMs: 60_000, retryDelayMs: 500 },
  });
  journey = await startSignInJourney(cluster, {
    users: [ADA, RITA, VERA],
    clientSecret: randomBytes(24).toString('base64url'),
    sessionSecret: SESSION_SECRET,
  });
  ({ standIn, provider, portal, browser } = journey);
});

afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
  await browser.context.clearCookies();
  // Refusals are expected here (401 and 403 are what these tests provoke); the test provider has no favicon.
  const errors = browser.errors
    .splice(0)
    .filter((error) => !/status of 40[13]/.test(error) && !error.startsWith(`${provider.issuer}/favicon.ico`));
  assert.deepEqual(errors, [], 'the browser console reported errors');
});

after(async () => {
  await journey?.close();
});

describe('portal sign-in with an OpenID Connect provider', () => {
  it('redirects a page without a session to sign-in before rendering, and answers an API call 401', async () => {
    const page = await fetch(`${portal.url}/resources?filter=x`, { redirect: 'manual' });
    assert.equal(page.status, 303);
    assert.equal(
      new URL(page.headers.get('location') ?? '', portal.url).href,
      `${portal.url}/api/auth/signin?returnTo=%2Fresources%3Ffilter%3Dx`,
    );
    const api = await fetch(`${portal.url}/api/platform/resources`);
    assert.equal(api.status, 401);
    assert.deepEqual(await api.json(), { error: 'Sign-in required' });

    // Forwarded identity headers count for nothing outside proxy mode.
    const forwarded = {
      'X-Forwarded-Email': 'ada@example.com',
      'X-Forwarded-User': 'ada',
      'X-Forwarded-Groups': 'platform-admins',
    };
    const forgedApi = await fetch(`${portal.url}/api/platform/resources`, { headers: forwarded });
    assert.equal(forgedApi.status, 401);
    const forgedPage = await fetch(`${portal.url}/resources`, { redirect: 'manual', headers: forwarded });
    assert.equal(forgedPage.status, 303);
  });

  it('an admin signs in, comes back to the page asked for, and sees name and role in the app bar', async () => {
    const page = await newPage();
    await signIn(page, ADA, '/resources');
    assert.match(await page.getByTestId('account-button').innerText(), /Ada Admin/);
    assert.equal(await page.getByTestId('account-role').innerText(), 'admin');
    const created = await call(page, 'POST', '/api/platform/resources', storageRequest('stidentityada'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.item.requestedBy, 'ada@example.com');
    await screenshot(page, 'identity/admin-signed-in');
  });

  it('a requester creates an account recorded as its own, and may not delete someone else’s', async () => {
    const page = await newPage();
    await signIn(page, RITA, '/catalog/azure-storage');
    assert.equal(await page.getByTestId('account-role').innerText(), 'requester');
    await page.getByLabel('Account name').waitFor();

    const created = await call(page, 'POST', '/api/platform/resources', storageRequest('stidentityrita'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const stored = standIn.accounts().find((account) => account.metadata.name === 'stidentityrita');
    assert.equal(stored?.metadata.annotations?.[PORTAL_KEYS.requestedBy], 'rita@example.com');

    await page.goto(`${portal.url}/resources/stidentityrita`);
    await waitForStreamedContent(page);
    await page.getByText('rita@example.com').first().waitFor();
    assert.equal(await page.getByRole('button', { name: 'Delete' }).isEnabled(), true);

    const refused = await call(page, 'DELETE', '/api/platform/resources?name=stidentityada');
    assert.equal(refused.status, 403);
    assert.match(refused.body.error, /needs the admin role/);
    assert.ok(
      standIn
        .accounts()
        .some((account) => account.metadata.name === 'stidentityada' && !account.metadata.deletionTimestamp),
    );

    await page.goto(`${portal.url}/resources/stidentityada`);
    await waitForStreamedContent(page);
    assert.equal(await page.getByRole('button', { name: 'Delete' }).isDisabled(), true);
    await page.getByText(/Deleting storage accounts needs the admin role/).waitFor();
    await screenshot(page, 'identity/requester-may-not-delete');
  });

  it('a viewer reads but may not create: the create form answers 200 and says why instead of the form, on a phone too', async () => {
    const page = await newPage({ width: 390, height: 844 });
    await signIn(page, VERA, '/resources');
    assert.equal(await page.getByTestId('account-role').innerText(), 'viewer');

    const opened = await page.goto(`${portal.url}/catalog/azure-storage`);
    assert.equal(opened?.status(), 200);
    await page.getByRole('heading', { name: 'You may not use this page' }).waitFor();
    const refusal = await page.getByTestId('access-refused').innerText();
    assert.match(refusal, /Creating storage accounts needs the requester or admin role/);
    assert.match(refusal, /Vera Viewer \(vera@example\.com\)/);
    assert.match(refusal, /Your role\s+viewer/);
    assert.match(refusal, /Role needed\s+requester or admin/);
    assert.match(refusal, /one of these groups at your identity provider: developers, platform-admins/);
    assert.equal(await page.getByLabel('Account name').count(), 0, 'no create form for a viewer');
    const fitsThePhone = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    assert.equal(fitsThePhone, true, 'the refused create page scrolls sideways at 390 px');
    await screenshot(page, 'identity/viewer-forbidden-phone');

    // The same status outside the browser: a viewer may open every page.
    assert.equal((await withCookie('/catalog/azure-storage', await sessionCookie())).status, 200);

    // The link to the form, followed inside the app (client-side navigation), lands on the same page.
    await page.goto(`${portal.url}/resources`);
    await waitForStreamedContent(page);
    await page.getByRole('link', { name: 'New storage account' }).click();
    await page.waitForURL(`${portal.url}/catalog/azure-storage`);
    await page.getByRole('heading', { name: 'You may not use this page' }).waitFor();

    const listed = await call(page, 'GET', '/api/platform/resources');
    assert.equal(listed.status, 200);
    const refused = await call(page, 'POST', '/api/platform/resources', storageRequest('stidentityvera'));
    assert.equal(refused.status, 403);
    assert.match(refused.body.error, /needs the requester or admin role/);

    const forged = await withCookie('/api/platform/resources?name=stidentityrita', await sessionCookie(), {
      method: 'DELETE',
      headers: { 'X-Forwarded-Email': 'ada@example.com', 'X-Forwarded-Groups': 'platform-admins' },
    });
    assert.equal(forged.status, 403);
  });

  it('an admin deletes a requester’s account and is recorded as who asked', async () => {
    const page = await newPage();
    await signIn(page, ADA, '/resources/stidentityrita');
    page.on('dialog', () => undefined);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('textbox').fill('stidentityrita');
    await page.getByRole('button', { name: 'Delete storage account' }).click();
    await page.waitForURL(`${portal.url}/resources?deleted=stidentityrita`);
    const deleting = standIn.accounts().find((account) => account.metadata.name === 'stidentityrita');
    assert.ok(deleting?.metadata.deletionTimestamp, 'the account is being deleted');
    assert.equal(deleting.metadata.annotations?.[PORTAL_KEYS.deletionRequestedBy], 'ada@example.com');

    await page.goto(`${portal.url}/resources/stidentityrita`);
    await waitForStreamedContent(page);
    await page.getByText('Deletion requested by', { exact: true }).waitFor();
    await page.getByText('ada@example.com').first().waitFor();
    await screenshot(page, 'identity/deletion-requested-by');
  });

  it('sign-out ends the session on the server and at the provider: a copied cookie no longer works', async () => {
    const page = await newPage();
    await signIn(page, RITA, '/resources');
    const copied = await sessionCookie();
    assert.equal((await withCookie('/api/platform/resources', copied)).status, 200);

    await signOut(page);
    await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
    const api = await withCookie('/api/platform/resources', copied);
    assert.equal(api.status, 401);
    assert.deepEqual(await api.json(), { error: 'Sign-in required' });
    assert.equal((await withCookie('/resources', copied)).status, 303);

    // The provider's session ended too: signing in again asks for the password.
    await page.goto(`${portal.url}/resources`);
    await page.waitForURL(`${provider.issuer}/interaction/**`);
    await page.getByLabel('Password').waitFor();
  });

  it('without a session the router’s fetches of a page get no redirect to the provider, and a click still signs in', async () => {
    // Outside the browser: the proxy cannot tell a router fetch from a page load (Next strips the
    // RSC headers before it runs), so both go to the sign-in route on this origin, which can tell
    // and answers the router 204 instead of sending it to the provider.
    const navigationAndPrefetch: Record<string, string>[] = [
      {},
      { 'Next-Router-Prefetch': '1', 'Next-Router-Segment-Prefetch': '/_tree' },
    ];
    for (const headers of navigationAndPrefetch) {
      const { response, hops } = await routerFetch('/resources', headers);
      assert.equal(response.status, 204, `router fetch went through ${hops.join(' → ')}`);
      assert.ok(hops[0]?.startsWith(`${portal.url}/api/auth/signin?returnTo=%2Fresources`), hops.join(' → '));
      assert.ok(
        hops.every((hop) => hop.startsWith(`${portal.url}/`)),
        hops.join(' → '),
      );
    }
    const pageLoad = await fetch(`${portal.url}/api/auth/signin?returnTo=%2Fresources`, { redirect: 'manual' });
    assert.equal(pageLoad.status, 303);
    assert.ok(
      pageLoad.headers.get('location')?.startsWith(`${provider.issuer}/auth?`),
      'a page load goes on to the provider',
    );

    // In Chromium: the signed-out page's navigation links prefetch protected pages in the
    // background; after Next's own hop that adds its `_rsc` parameter they end in a 204 from the
    // sign-in route (no console error, see afterEach).
    const page = await newPage();
    const prefetched = page.waitForResponse((response) =>
      response.url().startsWith(`${portal.url}/api/auth/signin?returnTo=%2Fresources&_rsc=`),
    );
    await page.goto(`${portal.url}/signed-out`);
    assert.equal((await prefetched).status(), 204);

    // A click on a link is a client-side navigation first; the router then loads the sign-in
    // route as a page, the provider asks for the password, and sign-in comes back to that page.
    await page.getByRole('link', { name: 'Resources' }).first().click();
    await page.waitForURL(`${provider.issuer}/interaction/**`);
    await fillSignInForm(page, RITA);
    await page.waitForURL(`${portal.url}/resources`);
    await waitForStreamedContent(page);
    assert.equal(await page.getByTestId('account-role').innerText(), 'requester');
  });

  it('refuses an expired or tampered session cookie', async () => {
    const page = await newPage();
    await signIn(page, RITA, '/resources');
    const live = await sessionCookie();
    const payload = await unseal(live, { secret: SESSION_SECRET, purpose: 'session' });
    assert.ok(typeof payload?.sid === 'string');

    // The same live session id, sealed with an expiry in the past.
    const expired = await seal(
      { sid: payload.sid },
      { secret: SESSION_SECRET, purpose: 'session', expiresAt: new Date(Date.now() - 1000) },
    );
    const cipher = live.split('.');
    cipher[3] = `${(cipher[3] ?? '').slice(0, -4)}${(cipher[3] ?? '').endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const tampered = cipher.join('.');

    for (const cookie of [expired, tampered]) {
      assert.equal((await withCookie('/api/platform/resources', cookie)).status, 401);
      const redirected = await withCookie('/resources', cookie);
      assert.equal(redirected.status, 303);
      assert.match(redirected.headers.get('location') ?? '', /\/api\/auth\/signin\?returnTo=%2Fresources$/);
    }
    assert.equal((await withCookie('/api/platform/resources', live)).status, 200, 'the real cookie still works');

    await browser.context.clearCookies();
    await browser.context.addCookies([{ name: SESSION_COOKIE, value: tampered, url: portal.url }]);
    await page.goto(`${portal.url}/resources`);
    await page.waitForURL(`${provider.issuer}/interaction/**`);
  });
});
