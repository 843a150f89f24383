// /docs' Authorize through the identity provider's authorization-code flow with PKCE, in Debian's
// Chromium, against a real OpenID Provider (oidc-provider) on a loopback port: the provider's
// sign-in opens in its own window, the code comes back to Swagger UI's redirect page, the page
// redeems it (the CSP allows the token endpoint and nothing else new), and "Try it out" sends the
// provider's token, which the API verifies. Screenshots go to test-results/ (not committed).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { launchChromium, type Chromium } from '@books/test-browser';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import type { BrowserContext } from 'playwright-core';
import { buildApp } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { RESOURCE, TestProvider, signingKey } from '../test/auth/oidc/test-provider.js';
import { silentLogger } from '../test/postgres.js';
import { answeredStatus, listen, RENDER_TIMEOUT_MS } from './swagger-ui.js';

const SCREENSHOTS = fileURLToPath(new URL('../test-results/docs-provider-sign-in/', import.meta.url));
const DOCS_CLIENT = 'books-docs';
const USER = {
  login: 'docs-writer',
  password: 'demo-password-not-secret',
  claims: { roles: ['Books.Read', 'Books.Write'] },
};

describe('/docs Authorize with the identity provider in Chromium', () => {
  let app: FastifyInstance;
  let provider: TestProvider;
  let origin: string;
  let browser: Chromium;
  let context: BrowserContext;

  before(async () => {
    provider = await TestProvider.start([], [await signingKey('ES256', 'docs-key')], [USER]);
    const config = defaultConfig({
      auth: {
        ...defaultConfig().auth,
        identityProvider: {
          issuer: provider.issuer,
          audience: RESOURCE,
          rolesClaim: undefined,
          docs: { clientId: DOCS_CLIENT, scopes: ['openid', 'Books.Read', 'Books.Write'] },
        },
      },
    });
    app = await buildApp({ config, logger: silentLogger });
    origin = await listen(app);
    // Registered as Entra ID's single-page apps or Keycloak's public clients are: no secret, PKCE.
    provider.addPublicClient(DOCS_CLIENT, `${origin}/docs/static/oauth2-redirect.html`);
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium('books-api-e2e');
    context = browser.context;
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await provider?.close();
  });

  test('Authorize signs in at the provider with PKCE, and Try it out sends its token', async () => {
    const page = await context.newPage();
    const problems: string[] = [];
    const providerRequests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      const url = request.url();
      if (url.startsWith(provider.issuer)) providerRequests.push(`${request.method()} ${new URL(url).pathname}`);
      else if (!url.startsWith(origin) && !url.startsWith('data:')) problems.push(`request to another origin: ${url}`);
    });
    await page.goto(`${origin}/docs`, { waitUntil: 'load' });
    const listBooks = page.locator('#operations-books-list_books_api_v1_books_get');
    await listBooks.waitFor({ timeout: RENDER_TIMEOUT_MS });

    await page.locator('.auth-wrapper .authorize').click();
    const dialog = page.locator('.dialog-ux');
    const section = dialog.locator('.auth-container', { hasText: 'OAuth2AuthorizationCodeBearer' });
    await section.waitFor({ timeout: RENDER_TIMEOUT_MS });
    assert.match(await section.innerText(), /Authorization URL/);
    assert.match(await section.innerText(), new RegExp(`${provider.issuer}/auth`));
    assert.equal(await section.locator('input[data-name="clientId"]').inputValue(), DOCS_CLIENT);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-authorize-dialog.png') });

    const [popup] = await Promise.all([
      context.waitForEvent('page', { timeout: RENDER_TIMEOUT_MS }),
      section.locator('button.authorize').click(),
    ]);
    await popup.waitForLoadState('load');
    assert.equal(new URL(popup.url()).origin, provider.issuer, 'the sign-in page is the provider own');
    await popup.locator('input[name="login"]').fill(USER.login);
    await popup.locator('input[name="password"]').fill(USER.password);
    await popup.screenshot({ path: join(SCREENSHOTS, 'docs-provider-sign-in.png') });
    await Promise.all([
      popup.waitForEvent('close', { timeout: RENDER_TIMEOUT_MS }),
      popup.getByRole('button', { name: 'Sign in' }).click(),
    ]);

    // Signed in: the section offers Logout; the code was redeemed from the page with its PKCE verifier.
    await section.locator('h6', { hasText: 'Authorized' }).waitFor({ timeout: RENDER_TIMEOUT_MS });
    assert.equal(await section.locator('button.authorize').innerText(), 'Logout');
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-authorized.png') });
    assert.ok(providerRequests.includes('POST /token'), providerRequests.join(', '));
    const authorizeRequest = provider.authorizationRequests.at(-1)!;
    assert.equal(authorizeRequest.get('code_challenge_method'), 'S256');
    assert.ok((authorizeRequest.get('code_challenge') ?? '').length >= 43);
    assert.equal(authorizeRequest.get('client_id'), DOCS_CLIENT);
    await section.locator('button.btn-done').click();

    await listBooks.locator('.opblock-summary').click();
    await listBooks.getByRole('button', { name: 'Try it out' }).click();
    const sent = page.waitForRequest((request) => request.url().startsWith(`${origin}/api/v1/books`));
    await listBooks.getByRole('button', { name: 'Execute' }).click();
    const authorization = (await sent).headers()['authorization'] ?? '';
    assert.match(authorization, /^Bearer /);
    const claims = decodeJwt(authorization.slice('Bearer '.length));
    assert.equal(claims.iss, provider.issuer);
    assert.equal(claims.sub, USER.login);
    assert.equal(await answeredStatus(listBooks), '200');
    const body = await listBooks.locator('.live-responses-table .response-col_description pre').first().innerText();
    assert.equal(JSON.parse(body).user, USER.login);
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-try-it-out-with-provider-token.png'), fullPage: false });
    assert.deepEqual(problems, []);
  });
});
