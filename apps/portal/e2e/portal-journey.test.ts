/**
 * Browser journeys through the production build in development mode (PORTAL_MOCK_PLATFORM=true).
 * Every test fails on any console error; every page leaves a screenshot in e2e/artifacts/.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEVELOPMENT_MODE_EMPTY_INVENTORY } from '../src/components/resources/empty-inventory';
import {
  ensureProductionBuild,
  launchBrowser,
  screenshot,
  startPortal,
  waitForStreamedContent,
  type BrowserSession,
  type RunningPortal,
} from './harness';

const PHONE = { width: 375, height: 812 };

let portal: RunningPortal;
let browser: BrowserSession;
const pages: Page[] = [];
/** Documents a test asks for expecting a 404; Chromium logs their status, which is no page error. */
const expectedNotFound = new Set<string>();

async function open(path: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage(viewport);
  pages.push(page);
  const response = await page.goto(`${portal.url}${path}`);
  assert.ok(response, `no response for ${path}`);
  await waitForStreamedContent(page);
  return page;
}

/** Fails when a page is wider than the viewport (horizontal scrolling on a phone). */
async function assertNoHorizontalOverflow(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  assert.ok(scrollWidth <= innerWidth, `page is ${scrollWidth}px wide in a ${innerWidth}px viewport`);
}

before(async () => {
  ensureProductionBuild();
  portal = await startPortal({ PORTAL_MOCK_PLATFORM: 'true' });
  browser = await launchBrowser();
});

afterEach(async () => {
  const errors = browser.errors
    .splice(0)
    .filter(
      (error) =>
        ![...expectedNotFound].some((url) => error.startsWith(`${url}: `) && error.includes('404 (Not Found)')),
    );
  await Promise.all(pages.splice(0).map((page) => page.close()));
  assert.deepEqual(errors, [], 'the browser console reported errors');
});

after(async () => {
  await browser?.close();
  await portal?.stop();
});

describe('portal in development mode', () => {
  it('landing page shows the mock banner, the counts by state and links onward', async () => {
    const page = await open('/');
    await page.getByRole('heading', { level: 1, name: 'Self-service cloud platform' }).waitFor();
    assert.match(await page.getByRole('note').first().innerText(), /Development mode/);
    const counts = page.getByRole('list', { name: 'Storage accounts by state' });
    assert.match(await counts.innerText(), /0\s+Total/);
    assert.match(await counts.innerText(), /0\s+Provisioning/);
    assert.equal(await page.title(), 'Platform portal');
    await screenshot(page, 'landing-light');
    await page.getByRole('link', { name: 'Browse the catalog' }).click();
    await page.waitForURL('**/catalog');
  });

  it('catalog offers storage and marks the rest as coming soon without buttons', async () => {
    const page = await open('/catalog');
    const storage = page.getByRole('article', { name: 'Azure Storage Account' });
    await storage.getByRole('link', { name: 'Request an Azure Storage Account' }).waitFor();
    const soon = page.getByRole('article').filter({ hasText: 'Coming soon' });
    assert.ok((await soon.count()) >= 2);
    for (const card of await soon.all()) {
      assert.equal(await card.getByRole('button').count(), 0);
      assert.equal(await card.getByRole('link', { name: /request/i }).count(), 0);
    }
    await screenshot(page, 'catalog');
  });

  it('walks catalog → basics → networking → review with dry run → create in westus3 → detail', async () => {
    const page = await open('/catalog');
    await page.getByRole('link', { name: 'Request an Azure Storage Account' }).click();
    await page.waitForURL('**/catalog/azure-storage');
    await page.getByRole('heading', { level: 1, name: 'New Azure storage account' }).waitFor();

    const preview = page.getByTestId('manifest-preview');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('alert').filter({ hasText: 'Application: Application is required' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'application');

    await page.getByRole('textbox', { name: 'Application' }).fill('webshop');
    await page.getByRole('textbox', { name: 'Account name' }).fill('BAD');
    await page.getByRole('textbox', { name: 'Application' }).focus();
    await page
      .getByText('Invalid characters: use only lower-case letters a-z and digits 0-9', { exact: true })
      .waitFor();
    await page.getByRole('textbox', { name: 'Account name' }).fill('');
    assert.match(await preview.innerText(), /platform-portal\/application: webshop/);

    await page.getByRole('combobox', { name: 'Location' }).click();
    await page.getByRole('option', { name: 'westus3', exact: true }).click();
    await page.getByRole('combobox', { name: 'Account kind' }).click();
    await page.getByRole('option', { name: 'BlockBlobStorage' }).click();
    assert.match(await page.getByRole('combobox', { name: 'Performance tier' }).innerText(), /Premium/);
    assert.match(await preview.innerText(), /accountTier: Premium/);
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByRole('heading', { name: 'Step 2 of 3: Networking and security' }).waitFor();
    await page.getByRole('switch', { name: 'Hierarchical namespace (Data Lake Storage)' }).check();
    await page.getByRole('switch', { name: 'SFTP' }).check();
    assert.match(await preview.innerText(), /sftpEnabled: true/);
    await screenshot(page, 'workflow');

    const creates: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/platform/resources')) creates.push(request.url());
    });
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByText('Dry run passed').waitFor();
    assert.match(await preview.innerText(), /location: westus3/);
    assert.deepEqual(creates, [], 'nothing is created before the person confirms');
    await screenshot(page, 'workflow-review');

    await page.getByRole('button', { name: 'Create storage account' }).dblclick();
    await page.waitForURL(/\/resources\/stwebshop[a-z0-9]{5}$/);
    const name = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    await page.getByRole('heading', { level: 1, name }).waitFor();
    assert.equal(creates.length, 1, 'a double click sends one create');
  });

  it('inventory says development mode stores nothing, right after a successful create, and leads to the catalog', async () => {
    const page = await open('/resources');
    const created = await page.evaluate(async () => {
      const response = await fetch('/api/platform/resources', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          application: 'shop',
          environment: 'dev',
          resourceGroup: 'rg-books-dev',
          location: 'westus3',
        }),
      });
      return response.status;
    });
    assert.equal(created, 201);
    await page.reload();
    await waitForStreamedContent(page);
    await page.getByText(DEVELOPMENT_MODE_EMPTY_INVENTORY).waitFor();
    assert.equal(await page.getByText('No storage accounts yet').count(), 0, 'no claim that nothing was created');
    await page.getByRole('link', { name: 'Request a storage account' }).waitFor();
    await page.getByRole('textbox', { name: 'Filter resources' }).fill('shop');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await screenshot(page, 'inventory');
  });

  it('applications page explains that nothing is assigned yet', async () => {
    const page = await open('/applications');
    await page.getByRole('heading', { name: 'No applications yet' }).waitFor();
    await screenshot(page, 'applications');
  });

  it('detail page shows everything known and guards deletion with the typed name', async () => {
    const page = await open('/resources/stdemo01');
    await page.getByRole('heading', { level: 1, name: 'stdemo01' }).waitFor();
    assert.equal(await page.title(), 'stdemo01 · Platform portal');
    const conditions = page.getByRole('list', { name: 'Conditions' });
    await conditions.getByText('Ready: True (Available)').waitFor();
    await page.getByRole('list', { name: 'Events' }).getByText('CreatedExternalResource').waitFor();
    await page.getByRole('link', { name: 'Back to resources' }).waitFor();
    assert.match(
      (await page.getByRole('link', { name: 'Open in the Azure portal' }).getAttribute('href')) ?? '',
      /^https:\/\/portal\.azure\.com\/#@\/resource\/subscriptions\/.*\/storageAccounts\/stdemo01\/overview$/,
    );
    await page.getByRole('link', { name: 'https://stdemo01.blob.core.windows.net/' }).waitFor();
    await page.getByRole('button', { name: 'Copy name' }).waitFor();
    await page.getByRole('button', { name: 'Copy YAML' }).waitFor();
    assert.match(await page.getByRole('region', { name: 'Network and security' }).innerText(), /TLS 1\.2/);
    await page
      .getByRole('region', { name: 'Desired and observed state' })
      .getByRole('status')
      .filter({ hasText: 'In sync' })
      .waitFor();
    assert.match(await page.getByLabel('The resource as YAML').innerText(), /kind: Account/);
    await screenshot(page, 'detail');

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete storage account stdemo01?' });
    assert.match(await dialog.innerText(), /destroys the Azure storage account stdemo01 and all the data in it/);
    const confirm = dialog.getByRole('button', { name: 'Delete storage account' });
    assert.equal(await confirm.isDisabled(), true);
    await dialog.getByRole('textbox', { name: 'Name of the storage account' }).fill('stdemo0');
    assert.equal(await confirm.isDisabled(), true);
    await dialog.getByRole('textbox', { name: 'Name of the storage account' }).fill('stdemo01');
    assert.equal(await confirm.isEnabled(), true);
    await screenshot(page, 'delete-dialog');
    await confirm.click();
    await page.waitForURL('**/resources?deleted=stdemo01');
    // Development mode lists nothing, so the deleted account is not listed either.
    await page
      .getByRole('status')
      .filter({ hasText: 'stdemo01 was deleted and is no longer in the inventory.' })
      .waitFor();
  });

  it('switches to dark mode, remembers it, and paints dark from the first byte', async () => {
    const page = await open('/');
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    await page.getByRole('button', { name: 'Switch to light mode' }).waitFor();
    // Before any React code runs, the inline script must already have chosen dark.
    await page.goto(`${portal.url}/resources/stdemo01`, { waitUntil: 'commit' });
    await page.waitForSelector('body');
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), true);
    await page.waitForLoadState('load');
    await page.getByRole('heading', { level: 1, name: 'stdemo01' }).waitFor();
    await screenshot(page, 'detail-dark');
    await page.goto(`${portal.url}/catalog/azure-storage`);
    await waitForStreamedContent(page);
    await page.getByTestId('manifest-preview').waitFor();
    await screenshot(page, 'workflow-dark');
    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    await page.waitForFunction(() => document.documentElement.classList.contains('light'));
  });

  it('works at phone width with a temporary navigation drawer', async () => {
    const page = await open('/', PHONE);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await assertNoHorizontalOverflow(page);
    await screenshot(page, 'phone-landing');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawerLink = page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Catalog' })
      .first();
    await drawerLink.waitFor({ state: 'visible' });
    // Let the slide-in finish so the screenshot shows the open drawer, not a frame of the animation.
    await page.waitForFunction(() => {
      const paper = document.querySelector('.MuiDrawer-modal .MuiDrawer-paper');
      return paper !== null && getComputedStyle(paper).transform === 'none';
    });
    await screenshot(page, 'phone-navigation');
    await drawerLink.click();
    await page.waitForURL('**/catalog');
    await page.getByRole('heading', { level: 1, name: 'Catalog' }).waitFor();
    await assertNoHorizontalOverflow(page);

    for (const [path, name] of [
      ['/catalog/azure-storage', 'phone-workflow'],
      ['/resources', 'phone-inventory'],
      ['/resources/stdemo01', 'phone-detail'],
    ] as const) {
      await page.goto(`${portal.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await screenshot(page, name);
    }
    await page.goto(`${portal.url}/catalog/azure-storage`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await assertNoHorizontalOverflow(page);
  });

  it('shows a not-found page for an unknown address', async () => {
    const page = await browser.newPage();
    pages.push(page);
    expectedNotFound.add(`${portal.url}/no-such-page`).add(`${portal.url}/resources/No_Such_Account`);
    const response = await page.goto(`${portal.url}/no-such-page`);
    assert.equal(response?.status(), 404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    const missing = await page.goto(`${portal.url}/resources/No_Such_Account`);
    assert.equal(missing?.status(), 404);
    await page.getByRole('heading', { level: 1, name: 'Resource not found' }).waitFor();
    await screenshot(page, 'not-found');
  });
});
