/**
 * The portal's security defaults, on its production build against the Kubernetes stand-in:
 * no configured secret on any page or API answer for any role (oidc mode with a real OpenID
 * Provider, and proxy mode); the headers of pages and API answers; pages that render and hydrate
 * in Chromium without a CSP violation; no 500 on inherited query values. What the provider vouches
 * for is verified-identity-journey.test.ts's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startPortalServer } from '../kube-stand-in/portal-server';
import { screenshot, waitForStreamedContent } from './harness';
import {
  ADA,
  asUser,
  CLIENT_SECRET,
  DATABASE_PASSWORD,
  databaseUrl,
  kubeconfigPath,
  MALLORY,
  pageAs,
  portal,
  PROXY_SECRET,
  RITA,
  SESSION_SECRET,
  signIn,
  standIn,
  storageRequest,
  runInSecurityJourney,
  VERA,
} from './security-journey-world';

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

runInSecurityJourney();

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
