// /docs (Swagger UI) and /redoc (ReDoc) in Debian's Chromium: each page renders the API's
// operations from this server alone. Any request that fails, any request to another origin
// and any console error fails the test.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium, type Chromium } from '@books/test-browser';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { buildApp } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { answeredStatus, listen, RENDER_TIMEOUT_MS } from './swagger-ui.js';

describe('documentation pages in Chromium', () => {
  let app: FastifyInstance;
  let origin: string;
  let browser: Chromium;

  before(async () => {
    app = await buildApp({ config: defaultConfig({ chaosHeadersEnabled: true }) });
    origin = await listen(app);
    browser = await launchChromium('books-api-e2e');
  });

  after(async () => {
    await browser?.close();
    await app?.close();
  });

  /** Opens a page and records every problem: failed or foreign requests, error statuses, console errors. */
  async function open(path: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.context.newPage();
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
    // Every refusal of the page's policy: one a script catches leaves nothing in the console.
    await page.addInitScript(() => {
      const refused: string[] = [];
      Object.assign(window, { refused });
      document.addEventListener('securitypolicyviolation', (event) =>
        refused.push(`${event.effectiveDirective} ${event.blockedURI}`),
      );
    });
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
    assert.equal(await answeredStatus(listBooks), '200');
    await page.waitForLoadState('networkidle');
    assert.deepEqual(problems, []);
  });

  test('/redoc renders the API from this server only, its footer logo included, and searches it', async () => {
    const { page, problems } = await open('/redoc');
    await page.locator('h1', { hasText: 'Books Service' }).waitFor({ timeout: RENDER_TIMEOUT_MS });
    // The first view lists a tag's operations by method and path only: a summary shown is a result.
    const searchOperation = page.getByText('Search books by a case-insensitive substring of title or author');
    assert.equal(await searchOperation.count(), 0);
    await page.locator('[data-testid="search-trigger"]').click();
    await page.keyboard.type('search');
    await searchOperation.waitFor({ timeout: RENDER_TIMEOUT_MS });
    await page.keyboard.press('Escape');
    // "Show" renders each of the tag's operations.
    await page.getByText('+ Show').first().click();
    const operation = page.locator('h2', { hasText: 'List books (paginated, insertion order)' });
    await operation.waitFor({ timeout: RENDER_TIMEOUT_MS });
    await page.waitForLoadState('networkidle');
    const images = await page
      .locator('img')
      .evaluateAll((nodes) => nodes.map((node) => (node as HTMLImageElement).src));
    for (const src of images) assert.ok(src.startsWith('data:') || src.startsWith(origin), src);
    assert.deepEqual(problems, []);
    // Search tries to build its worker with eval first; refused, it searches on the page.
    const refused = await page.evaluate(() => (window as unknown as { refused: string[] }).refused);
    for (const refusal of refused) assert.equal(refusal, 'script-src eval');
  });
});
