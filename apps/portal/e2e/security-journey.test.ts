/**
 * The portal's security defaults, on its production build against the Kubernetes stand-in:
 * no configured secret on any page or API answer for any role (oidc mode with a real OpenID
 * Provider, and proxy mode); an unverified e-mail claim gets nobody else's account; accounts
 * recorded before subjects stay their owner's; the headers of pages and API answers; pages that
 * render and hydrate in Chromium without a CSP violation; no 500 on inherited query values.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import type { Page } from 'playwright-core';
import { startStandIn, type StandIn } from '../kube-stand-in/index';
import { freePort, startPortalServer, type PortalServer } from '../kube-stand-in/portal-server';
import { buildAccountManifest, PORTAL_KEYS } from '../src/lib/platform/account-manifest';
import { parseStorageAccountRequest } from '../src/lib/platform/storage-request';
import { launchBrowser, screenshot, waitForStreamedContent, type BrowserSession } from './harness';
import { startTestIdentityProvider, type TestIdentityProvider, type TestUser } from './test-identity-provider';

const SESSION_COOKIE = 'portal-session';
// Hex, so no page or JSON could carry them escaped in another spelling.
const CLIENT_SECRET = randomBytes(24).toString('hex');
const SESSION_SECRET = randomBytes(32).toString('hex');
const DATABASE_PASSWORD = randomBytes(16).toString('hex');
const PROXY_SECRET = randomBytes(24).toString('hex');

const user = (login: string, name: string, groups: string[], extra: Partial<TestUser> = {}): TestUser => ({
  login,
  password: randomUUID(),
  email: `${login}@example.com`,
  name,
  groups,
  ...extra,
});
const ADA = user('ada', 'Ada Admin', ['platform-admins']);
const RITA = user('rita', 'Rita Requester', ['developers']);
const VERA = user('vera', 'Vera Viewer', ['staff']);
// Mallory set her e-mail to Rita's at the provider, which did not verify it.
const MALLORY = user('mallory', 'Mallory', ['developers'], { email: RITA.email, emailVerified: false });

const PAGES = [
  '/',
  '/catalog',
  '/catalog/azure-storage',
  '/resources',
  '/resources?state=Ready',
  '/applications',
  '/settings',
  '/resources/stsecrita',
  '/no-such-page',
];

let standIn: StandIn;
let postgres: TestPostgres;
let databaseUrl: string;
let provider: TestIdentityProvider;
let portal: PortalServer;
let browser: BrowserSession;
let directory: string;
let kubeconfigPath: string;
const pages: Page[] = [];
const cookies = new Map<string, string>();

/** Every value the portal was configured with that no answer may contain. */
function secrets(): string[] {
  return [CLIENT_SECRET, SESSION_SECRET, PROXY_SECRET, DATABASE_PASSWORD, databaseUrl, standIn.token];
}

function assertNoSecret(text: string, where: string): void {
  for (const secret of secrets()) assert.ok(!text.includes(secret), `${where} contains a configured secret`);
}

/** The whole answer as text: status line, headers and body. */
async function answerText(response: Response): Promise<string> {
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  return `${response.status}\n${headers}\n\n${await response.text()}`;
}

async function newPage(): Promise<Page> {
  const page = await browser.newPage();
  pages.push(page);
  return page;
}

/** Signs in through the provider's form in Chromium; answers the portal's session cookie. */
async function signIn(person: TestUser): Promise<string> {
  const known = cookies.get(person.login);
  if (known) return known;
  await browser.context.clearCookies();
  const page = await newPage();
  await page.goto(`${portal.url}/resources`);
  await page.waitForURL(`${provider.issuer}/interaction/**`);
  await page.getByLabel('Username').fill(person.login);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
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
async function pageAs(person: TestUser): Promise<Page> {
  const cookie = await signIn(person);
  await browser.context.clearCookies();
  await browser.context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: portal.url }]);
  return newPage();
}

/** A request carrying a session cookie; mutations come from the portal's own origin, as its pages send them. */
function asUser(
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

const storageRequest = (name: string) => ({
  name,
  application: 'security',
  environment: 'dev',
  resourceGroup: 'rg-books-dev',
  location: 'westeurope',
});

const account = (name: string) => standIn.accounts().find((candidate) => candidate.metadata.name === name);

/** Every API call a page can make, for the given user: reads, refusals, errors and a dry run. */
async function everyApiAnswer(send: (path: string, init?: Parameters<typeof asUser>[2]) => Promise<Response>) {
  const calls: [string, Parameters<typeof asUser>[2]][] = [
    ['/api/platform/resources', {}],
    ['/api/platform/resources?name=stsecrita', {}],
    ['/api/platform/resources?name=stsecnothere', {}],
    ['/api/platform/resources?name=__proto__', {}],
    ['/api/platform/resource-groups', {}],
    ['/api/platform/resources?dryRun=true', { method: 'POST', body: storageRequest('stsecdryrun') }],
    ['/api/platform/resources', { method: 'POST', body: { name: 'x' } }],
    ['/api/platform/resources?name=stsecrita', { method: 'PATCH', body: { resourceVersion: '1', colour: 'red' } }],
    ['/api/platform/resources/resync?name=stsecnothere', { method: 'POST' }],
    ['/api/platform/resources?name=stsecnothere', { method: 'DELETE' }],
    ['/api/platform/resources', { method: 'PUT' }],
  ];
  const answers: string[] = [];
  for (const [path, init] of calls)
    answers.push(`${init?.method ?? 'GET'} ${path}\n${await answerText(await send(path, init))}`);
  return answers;
}

before(async () => {
  standIn = await startStandIn({
    timing: { syncedDelayMs: 50, readyDelayMs: 300, deleteDelayMs: 60_000, retryDelayMs: 500 },
  });
  directory = mkdtempSync(join(tmpdir(), 'portal-security-'));
  kubeconfigPath = join(directory, 'kubeconfig');
  standIn.writeKubeconfig(kubeconfigPath);
  postgres = await startPostgres();
  const url = new URL(await postgres.createDatabase('portal_security'));
  // A password the portal must never show (a throwaway cluster trusts local connections and ignores it).
  if (url.password === '') url.password = DATABASE_PASSWORD;
  databaseUrl = url.href;

  const [providerPort, portalPort] = [await freePort(), await freePort()];
  const portalUrl = `http://127.0.0.1:${portalPort}`;
  provider = await startTestIdentityProvider({
    port: providerPort,
    users: [ADA, RITA, VERA, MALLORY],
    client: {
      clientId: 'platform-portal',
      clientSecret: CLIENT_SECRET,
      redirectUri: `${portalUrl}/api/auth/callback/oidc`,
      postLogoutRedirectUri: `${portalUrl}/signed-out`,
    },
  });
  portal = await startPortalServer({
    kubeconfigPath,
    port: portalPort,
    env: {
      PORTAL_AUTH: 'oidc',
      PORTAL_OIDC_ISSUER: provider.issuer,
      PORTAL_OIDC_CLIENT_ID: 'platform-portal',
      PORTAL_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      PORTAL_OIDC_SCOPES: 'groups',
      PORTAL_PUBLIC_URL: portalUrl,
      PORTAL_SESSION_SECRET: SESSION_SECRET,
      PORTAL_DATABASE_URL: databaseUrl,
      PORTAL_ADMIN_GROUPS: 'platform-admins',
      PORTAL_REQUESTER_GROUPS: 'developers',
    },
  });
  browser = await launchBrowser();
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
  await browser?.close();
  await portal?.stop();
  await provider?.close();
  await postgres?.stop();
  await standIn?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('no secret on any page or API answer', () => {
  it('in oidc mode, for a viewer, a requester, an admin and a user with an unverified e-mail', async () => {
    for (const person of [VERA, RITA, ADA, MALLORY]) {
      const cookie = await signIn(person);
      for (const path of [...PAGES, '/sign-in-failed?reason=provider', '/signed-out']) {
        const response = await asUser(cookie, path);
        assert.ok([200, 404].includes(response.status), `${person.login} ${path}: ${response.status}`);
        // The HTML carries the page's RSC payload too (the props every client component gets).
        assertNoSecret(await answerText(response), `${person.login}'s ${path}`);
      }
      for (const answer of await everyApiAnswer((path, init) => asUser(cookie, path, init))) {
        assertNoSecret(answer, `${person.login}'s answer to ${answer.split('\n', 1)[0]}`);
      }
    }
  });

  it('shows an admin the configuration with secrets as set, and everyone else the mode, cluster and version', async () => {
    const admin = await (await asUser(await signIn(ADA), '/settings')).text();
    assert.match(admin, /OIDC client secret.*?set/);
    assert.match(admin, /Session secret.*?set/);
    assert.match(admin, new RegExp(`PostgreSQL at postgres://127\\.0\\.0\\.1:${new URL(databaseUrl).port}/`));
    assert.match(admin, /platform-portal/, 'the client id is shown');
    for (const person of [VERA, RITA]) {
      const summary = await (await asUser(await signIn(person), '/settings')).text();
      assert.match(summary, /Version/);
      assert.match(summary, /kube-stand-in/, 'the cluster’s name');
      assert.doesNotMatch(summary, /OIDC client ID|Session store|Admin groups|API server/);
    }
  });

  it('in proxy mode, for every role', async () => {
    const proxied = await startPortalServer({
      kubeconfigPath,
      env: {
        PORTAL_AUTH: 'proxy',
        PORTAL_PROXY_SECRET: PROXY_SECRET,
        PORTAL_SESSION_SECRET: SESSION_SECRET,
        PORTAL_DATABASE_URL: databaseUrl,
        PORTAL_OIDC_CLIENT_SECRET: CLIENT_SECRET,
        PORTAL_ADMIN_GROUPS: 'platform-admins',
        PORTAL_REQUESTER_GROUPS: 'developers',
      },
    });
    try {
      const roles = {
        viewer: { 'X-Forwarded-User': 'vera', 'X-Forwarded-Email': VERA.email, 'X-Forwarded-Groups': 'staff' },
        requester: { 'X-Forwarded-User': 'rita', 'X-Forwarded-Email': RITA.email, 'X-Forwarded-Groups': 'developers' },
        admin: { 'X-Forwarded-User': 'ada', 'X-Forwarded-Email': ADA.email, 'X-Forwarded-Groups': 'platform-admins' },
      };
      for (const [role, identity] of Object.entries(roles)) {
        const send = (path: string, init: Parameters<typeof asUser>[2] = {}) =>
          fetch(`${proxied.url}${path}`, {
            method: init?.method ?? 'GET',
            redirect: 'manual',
            headers: {
              'X-Portal-Proxy-Secret': PROXY_SECRET,
              ...identity,
              ...(init?.method && init.method !== 'GET' ? { Origin: proxied.url } : {}),
              ...(init?.body === undefined ? {} : { 'Content-Type': 'application/json' }),
            },
            ...(init?.body === undefined ? {} : { body: JSON.stringify(init.body) }),
          });
        for (const path of PAGES) {
          const response = await send(path);
          assert.ok([200, 404].includes(response.status), `${role} ${path}: ${response.status}`);
          assertNoSecret(await answerText(response), `proxy mode, ${role}'s ${path}`);
        }
        for (const answer of await everyApiAnswer(send)) assertNoSecret(answer, `proxy mode, ${role}: ${answer}`);
        const settings = await (await send('/settings')).text();
        if (role === 'admin') assert.match(settings, /Admin groups/);
        else assert.doesNotMatch(settings, /Admin groups/);
      }
    } finally {
      await proxied.stop();
    }
  });
});

describe('identity the provider vouches for', () => {
  it('gives a user whose unverified e-mail equals another’s none of that person’s accounts', async () => {
    const mallory = await signIn(MALLORY);
    const page = await pageAs(MALLORY);
    await page.goto(`${portal.url}/resources`);
    await waitForStreamedContent(page);
    assert.match(await page.getByTestId('account-button').innerText(), /Mallory/);
    await page.getByTestId('account-button').click();
    assert.doesNotMatch(await page.getByRole('menu').innerText(), /rita@example\.com/);

    const before = structuredClone(account('stsecrita')?.metadata);
    const version = before?.resourceVersion ?? '';
    const attempts = [
      await asUser(mallory, '/api/platform/resources?name=stsecrita', {
        method: 'PATCH',
        body: { resourceVersion: version, httpsOnly: false },
      }),
      await asUser(mallory, '/api/platform/resources/resync?name=stsecrita', { method: 'POST' }),
      await asUser(mallory, '/api/platform/resources?name=stsecrita', { method: 'DELETE' }),
    ];
    for (const attempt of attempts) {
      assert.equal(attempt.status, 403, await attempt.clone().text());
      assert.match(((await attempt.json()) as { error: string }).error, /needs the admin role/);
    }
    const after = account('stsecrita')?.metadata;
    assert.equal(after?.resourceVersion, version, 'Rita’s account did not change');
    assert.equal(after?.deletionTimestamp, undefined);
    assert.deepEqual(after?.annotations, before?.annotations);

    // What Mallory does to her own account is recorded as hers, never under Rita's address.
    const created = await asUser(mallory, '/api/platform/resources', {
      method: 'POST',
      body: storageRequest('stsecmallory'),
    });
    assert.equal(created.status, 201, await created.clone().text());
    assert.equal(
      (await asUser(mallory, '/api/platform/resources/resync?name=stsecmallory', { method: 'POST' })).status,
      202,
    );
    const own = account('stsecmallory')?.metadata.annotations ?? {};
    assert.equal(own[PORTAL_KEYS.requestedBy], 'mallory');
    assert.equal(own[PORTAL_KEYS.requestedBySubject], `${provider.issuer}#mallory`);
    assert.equal(own['platform-portal/resync-requested-by'], 'mallory');
    assert.ok(!Object.values(own).some((value) => value.includes(RITA.email)), JSON.stringify(own));

    // Rita herself is recorded by subject and may resync her own account.
    const ritas = account('stsecrita')?.metadata.annotations ?? {};
    assert.equal(ritas[PORTAL_KEYS.requestedBySubject], `${provider.issuer}#rita`);
    const rita = await signIn(RITA);
    assert.equal((await asUser(rita, '/api/platform/resources/resync?name=stsecrita', { method: 'POST' })).status, 202);
    assert.equal(account('stsecrita')?.metadata.annotations?.['platform-portal/resync-requested-by'], RITA.email);
  });

  it('keeps an account recorded before subjects (an e-mail only) for the user whose verified e-mail it names', async () => {
    const parsed = parseStorageAccountRequest(storageRequest('stseclegacy'));
    assert.ok(parsed.success);
    const manifest = buildAccountManifest(parsed.request, { requestedBy: RITA.email, requestId: 'before-subjects' });
    const kubeconfig = new KubeConfig();
    kubeconfig.loadFromString(standIn.kubeconfig());
    await kubeconfig.makeApiClient(CustomObjectsApi).createClusterCustomObject({
      group: 'storage.azure.upbound.io',
      version: 'v1beta1',
      plural: 'accounts',
      body: manifest,
    });
    assert.equal(account('stseclegacy')?.metadata.annotations?.[PORTAL_KEYS.requestedBySubject], undefined);

    for (const person of [MALLORY, VERA]) {
      const cookie = await signIn(person);
      const resync = await asUser(cookie, '/api/platform/resources/resync?name=stseclegacy', { method: 'POST' });
      assert.equal(resync.status, 403, `${person.login} resynced Rita's legacy account`);
    }
    const rita = await signIn(RITA);
    const resync = await asUser(rita, '/api/platform/resources/resync?name=stseclegacy', { method: 'POST' });
    assert.equal(resync.status, 202, await resync.text());
    // The stand-in's reconciliation moves the version on by itself for a while: retry a stale one.
    let change: Response | undefined;
    for (let attempt = 0; attempt < 20 && (change === undefined || change.status === 409); attempt += 1) {
      if (change) await new Promise((resolve) => setTimeout(resolve, 250));
      const version = account('stseclegacy')?.metadata.resourceVersion ?? '';
      change = await asUser(rita, '/api/platform/resources?name=stseclegacy', {
        method: 'PATCH',
        body: { resourceVersion: version, minTlsVersion: 'TLS1_3' },
      });
    }
    assert.equal(change?.status, 200, await change?.text());
  });
});

describe('security headers', () => {
  const directive = (policy: string, name: string) =>
    policy
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith(`${name} `));

  it('give every page a CSP with a fresh nonce on every script and style, nosniff and a referrer policy', async () => {
    const cookie = await signIn(ADA);
    const nonces = new Set<string>();
    for (const path of PAGES) {
      const response = await asUser(cookie, path);
      const policy = response.headers.get('content-security-policy') ?? '';
      assert.equal(directive(policy, 'default-src'), "default-src 'self'", path);
      const nonce = /script-src 'self' 'nonce-([^']+)'$/.exec(directive(policy, 'script-src') ?? '')?.[1];
      assert.ok(nonce, `${path}: ${policy}`);
      assert.equal(directive(policy, 'object-src'), "object-src 'none'");
      assert.equal(directive(policy, 'base-uri'), "base-uri 'self'");
      assert.equal(directive(policy, 'frame-ancestors'), "frame-ancestors 'none'");
      assert.doesNotMatch(directive(policy, 'script-src') ?? '', /unsafe-inline|unsafe-eval/);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
      assert.equal(response.headers.get('strict-transport-security'), null, 'plain http: no HSTS');
      const html = await response.text();
      const tags = [...html.matchAll(/<(script|style)\b[^>]*>/g)].map((match) => match[0]);
      assert.ok(tags.length > 0, path);
      for (const tag of tags) assert.ok(tag.includes(`nonce="${nonce}"`), `${path}: ${tag}`);
      nonces.add(nonce);
    }
    assert.equal(nonces.size, PAGES.length, 'a new nonce for every page');

    // The redirect to sign-in is a page answer too.
    const redirected = await fetch(`${portal.url}/resources`, { redirect: 'manual' });
    assert.equal(redirected.status, 303);
    assert.match(redirected.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(redirected.headers.get('x-content-type-options'), 'nosniff');
  });

  it('give every API answer nosniff and Cache-Control: no-store', async () => {
    const cookie = await signIn(VERA);
    const answers = [
      await asUser(cookie, '/api/platform/resources'),
      await asUser(cookie, '/api/platform/resources?name=stsecnothere'),
      await asUser(cookie, '/api/platform/resources', { method: 'POST', body: storageRequest('stsecvera') }),
      await asUser(cookie, '/api/platform/resources', { method: 'PUT' }),
      await fetch(`${portal.url}/api/platform/resources`),
      await fetch(`${portal.url}/api/auth/signin?returnTo=%2F`, { redirect: 'manual' }),
    ];
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 404, 403, 405, 401, 303],
    );
    for (const answer of answers) {
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', answer.url);
      assert.match(answer.headers.get('cache-control') ?? '', /no-store/, answer.url);
    }
  });

  it('add Strict-Transport-Security when PORTAL_PUBLIC_URL is https', async () => {
    const https = await startPortalServer({
      env: { PORTAL_MOCK_PLATFORM: 'true', PORTAL_AUTH: 'none', PORTAL_PUBLIC_URL: 'https://portal.example.test' },
    });
    try {
      for (const path of ['/resources', '/api/platform/resources']) {
        const response = await fetch(`${https.url}${path}`);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('strict-transport-security'), 'max-age=31536000', path);
      }
    } finally {
      await https.stop();
    }
  });

  it('let every page render and hydrate in Chromium without a CSP violation', async () => {
    const page = await pageAs(ADA);
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
      );
    });
    for (const path of PAGES) {
      await page.goto(`${portal.url}${path}`);
      await waitForStreamedContent(page);
      // The colour toggle names its target mode only once React has hydrated it.
      await page.getByRole('button', { name: /^Switch to (dark|light) mode$/ }).waitFor();
      const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
      assert.deepEqual(violations, [], `${path} broke the CSP`);
    }
    await page.goto(`${portal.url}/resources/stsecrita`);
    await waitForStreamedContent(page);
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    // Client-side navigation works, and emotion's styles apply (the app bar is laid out).
    await page.getByRole('link', { name: 'Catalog' }).first().click();
    await page.waitForURL(`${portal.url}/catalog`);
    await page.getByRole('heading', { name: 'Catalog', level: 1 }).waitFor();
    const position = await page.evaluate(
      () => getComputedStyle(document.querySelector('header') ?? document.body).position,
    );
    assert.notEqual(position, 'static', 'MUI’s styles did not apply');
    assert.deepEqual(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), []);
    await screenshot(page, 'security/catalog-dark-under-csp');
  });
});

describe('query values', () => {
  it('answers /sign-in-failed with an inherited key as the reason like an unknown reason, never 500', async () => {
    for (const reason of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'nonsense']) {
      const response = await fetch(`${portal.url}/sign-in-failed?reason=${reason}`);
      assert.equal(response.status, 200, reason);
      assert.match(await response.text(), /answer could not be verified/, reason);
    }
  });
});
