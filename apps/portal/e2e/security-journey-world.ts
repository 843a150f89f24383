/**
 * The world both security journeys run in (security-journey.test.ts and
 * verified-identity-journey.test.ts): the portal's production build in oidc mode with a real
 * OpenID Provider, sessions in PostgreSQL, on the Kubernetes stand-in, with Rita's account
 * stsecrita made at the start; and the ways a test acts as a signed-in person. Every value the
 * portal is configured with is random, so a test can look for it in any answer.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, afterEach, before } from 'node:test';
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import type { Page } from 'playwright-core';
import type { StandIn } from '../kube-stand-in/index';
import type { PortalServer } from '../kube-stand-in/portal-server';
import { startTestCluster } from '../test/kubernetes-harness';
import { startSignInJourney, type BrowserSession, type SignInJourney } from './harness';
import { fillSignInForm, testUser, type TestIdentityProvider, type TestUser } from './test-identity-provider';

const SESSION_COOKIE = 'portal-session';
// Hex, so no page or JSON could carry them escaped in another spelling.
export const CLIENT_SECRET = randomBytes(24).toString('hex');
export const SESSION_SECRET = randomBytes(32).toString('hex');
export const DATABASE_PASSWORD = randomBytes(16).toString('hex');
export const PROXY_SECRET = randomBytes(24).toString('hex');

export const ADA = testUser('ada', 'Ada Admin', ['platform-admins']);
export const RITA = testUser('rita', 'Rita Requester', ['developers']);
export const VERA = testUser('vera', 'Vera Viewer', ['staff']);
// Mallory set her e-mail to Rita's at the provider, which did not verify it.
export const MALLORY = testUser('mallory', 'Mallory', ['developers'], { email: RITA.email, emailVerified: false });

// Set by runInSecurityJourney's before(); importers see them (live bindings) once it has run.
let journey: SignInJourney | undefined;
let postgres: TestPostgres | undefined;
export let standIn: StandIn;
export let databaseUrl: string;
export let provider: TestIdentityProvider;
export let portal: PortalServer;
let browser: BrowserSession;
export let kubeconfigPath: string;
const pages: Page[] = [];
const cookies = new Map<string, string>();

async function newPage(): Promise<Page> {
  const page = await browser.newPage();
  pages.push(page);
  return page;
}

/** Signs in through the provider's form in Chromium; answers the portal's session cookie. */
export async function signIn(person: TestUser): Promise<string> {
  const known = cookies.get(person.login);
  if (known) return known;
  await browser.context.clearCookies();
  const page = await newPage();
  await page.goto(`${portal.url}/resources`);
  await page.waitForURL(`${provider.issuer}/interaction/**`);
  await fillSignInForm(page, person);
  await page.waitForURL(`${portal.url}/resources`);
  const cookie = (await browser.context.cookies(portal.url)).find((c) => c.name === SESSION_COOKIE);
  assert.ok(cookie, `no session cookie for ${person.login}`);
  cookies.set(person.login, cookie.value);
  // Closed at once: left open on /resources, its live updates would re-render it after the next
  // person's sign-in cleared the cookies, and its own sign-in redirect would race that person's
  // interaction with the provider in the same browser (a 400 on the provider's resume, or a
  // sign-in failed with reason=provider).
  await page.close();
  return cookie.value;
}

/** A page in Chromium signed in as the person (the session cookie set in the browser). */
export async function pageAs(person: TestUser): Promise<Page> {
  const cookie = await signIn(person);
  await browser.context.clearCookies();
  await browser.context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: portal.url }]);
  return newPage();
}

/** A request carrying a session cookie; mutations come from the portal's own origin, as its pages send them. */
export function asUser(
  cookie: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { Cookie: `${SESSION_COOKIE}=${cookie}`, ...init.headers };
  if (init.method && init.method !== 'GET') headers['Origin'] = portal.url;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  return fetch(`${portal.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    redirect: 'manual',
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

export const storageRequest = (name: string) => ({
  name,
  application: 'security',
  environment: 'dev',
  resourceGroup: 'rg-books-dev',
  location: 'westeurope',
});

export const account = (name: string) => standIn.accounts().find((candidate) => candidate.metadata.name === name);

/** Starts the world before the file's tests and stops it after them; each test ends with no browser error but refusals. */
export function runInSecurityJourney(): void {
  before(async () => {
    const cluster = await startTestCluster({
      timing: { syncedDelayMs: 50, readyDelayMs: 300, deleteDelayMs: 60_000, retryDelayMs: 500 },
    });
    kubeconfigPath = cluster.kubeconfigPath;
    standIn = cluster.standIn;
    try {
      postgres = await startPostgres();
      const url = new URL(await postgres.createDatabase('portal_security'));
      // A password the portal must never show (a throwaway cluster trusts local connections and ignores it).
      if (url.password === '') url.password = DATABASE_PASSWORD;
      databaseUrl = url.href;
    } catch (error) {
      await cluster.dispose();
      throw error;
    }
    journey = await startSignInJourney(cluster, {
      users: [ADA, RITA, VERA, MALLORY],
      clientSecret: CLIENT_SECRET,
      sessionSecret: SESSION_SECRET,
      env: { PORTAL_DATABASE_URL: databaseUrl },
    });
    ({ provider, portal, browser } = journey);
    const created = await asUser(await signIn(RITA), '/api/platform/resources', {
      method: 'POST',
      body: storageRequest('stsecrita'),
    });
    assert.equal(created.status, 201, await created.text());
  });

  afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.close()));
    // Refusals are what these tests provoke; the test provider has no favicon.
    const errors = browser.errors
      .splice(0)
      .filter((error) => !/status of 40[134]/.test(error) && !error.startsWith(`${provider.issuer}/favicon.ico`));
    assert.deepEqual(errors, [], 'the browser console reported errors');
  });

  after(async () => {
    await journey?.close();
    await postgres?.stop();
  });
}
