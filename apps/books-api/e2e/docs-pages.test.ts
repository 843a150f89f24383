// /docs (Swagger UI) and /redoc (ReDoc) in Debian's Chromium: each page renders the API's
// operations from this server alone. Any request that fails, any request to another origin
// and any console error fails the test.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { buildApp } from '../src/app.js';
import { defaultConfig } from '../src/config.js';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
// Generous: two cores are shared with other suites.
const RENDER_TIMEOUT_MS = 60_000;

describe('documentation pages in Chromium', () => {
  let app: FastifyInstance;
  let origin: string;
  let context: BrowserContext;
  let profile: string;

  before(async () => {
    app = await buildApp({ config: defaultConfig({ chaosHeadersEnabled: true }) });
    await app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    profile = mkdtempSync(join(tmpdir(), 'books-api-e2e-profile-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      headless: true,
      viewport: { width: 1280, height: 900 },
    });
  });

  after(async () => {
    await context?.close();
    if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
    await app?.close();
  });

  /** Opens a page and records every problem: failed or foreign requests, error statuses, console errors. */
  async function open(path: string): Promise<{ page: Page; problems: string[] }> {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) {
        problems.push(`request to another origin: ${url}`);
      }
    });
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(`${origin}${path}`, { waitUntil: 'load' });
    return { page, problems };
  }

  test('/docs renders every operation, and "Try it out" leaves X-Force-Error empty', async () => {
    const { page, problems } = await open('/docs');
    const listBooks = page.locator('#operations-books-list_books_api_v1_books_get');
    await listBooks.waitFor({ timeout: RENDER_TIMEOUT_MS });
    assert.equal(await page.locator('.opblock').count(), 13);
    await listBooks.locator('.opblock-summary').click();
    await listBooks.getByRole('button', { name: 'Try it out' }).click();
    const header = listBooks.locator('tr[data-param-name="X-Force-Error"] input');
    await header.waitFor({ timeout: RENDER_TIMEOUT_MS });
    assert.equal(await header.inputValue(), '');
    await listBooks.getByRole('button', { name: 'Execute' }).click();
    // The first row of the table is its header ("Code"); the answer's row holds a status number.
    const status = listBooks
      .locator('.live-responses-table .response-col_status')
      .filter({ hasText: /^\s*\d{3}/ })
      .first();
    await status.waitFor({ timeout: RENDER_TIMEOUT_MS });
    assert.equal((await status.innerText()).trim(), '200');
    await page.waitForLoadState('networkidle');
    assert.deepEqual(problems, []);
  });

  test('/redoc renders the API from this server only, its footer logo included', async () => {
    const { page, problems } = await open('/redoc');
    const operation = page.locator('h2', { hasText: 'List books (paginated, insertion order)' });
    await operation.waitFor({ timeout: RENDER_TIMEOUT_MS });
    await page.waitForLoadState('networkidle');
    const images = await page
      .locator('img')
      .evaluateAll((nodes) => nodes.map((node) => (node as HTMLImageElement).src));
    for (const src of images) assert.ok(src.startsWith('data:') || src.startsWith(origin), src);
    assert.deepEqual(problems, []);
  });
});
