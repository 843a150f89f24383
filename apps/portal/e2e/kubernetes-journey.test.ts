/**
 * The whole lifecycle in Chromium against the portal's production server on the Kubernetes
 * stand-in: create from the workflow, watch it become Ready, read its conditions and events,
 * delete it and watch it go; then the same pages with the cluster misbehaving.
 * Run: npm run portal:build && node --import tsx --test e2e/kubernetes-journey.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { StandIn } from '../kube-stand-in/index';
import type { PortalServer } from '../kube-stand-in/portal-server';
import { startTestCluster } from '../test/kubernetes-harness';
import {
  docsScreenshot,
  screenshot as saveScreenshot,
  SETTLE_TIMEOUT_MS,
  startClusterJourney,
  waitForStreamedContent,
  type BrowserSession,
  type ClusterJourney,
} from './harness';

// Long enough to see Provisioning and Deleting in the pages (which refresh every few seconds).
const TIMING = { syncedDelayMs: 100, readyDelayMs: 2500, deleteDelayMs: 2500, retryDelayMs: 1000 };

let journey: ClusterJourney | undefined;
let standIn: StandIn;
let portal: PortalServer;
let browser: BrowserSession;

function newPage(): Promise<Page> {
  return browser.newPage({ width: 1280, height: 900 });
}

function screenshot(page: Page, name: string): Promise<string> {
  return saveScreenshot(page, `kubernetes/${name}`);
}

function row(page: Page, name: string) {
  return page
    .getByRole('table', { name: 'Storage accounts' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

async function isFocused(target: Locator): Promise<boolean> {
  if ((await target.count()) !== 1) return false;
  return target.evaluate((element) => element === document.activeElement);
}

/** Presses a key until the target has focus; fails if it never gets there (it cannot be reached that way). */
async function pressUntilFocused(page: Page, key: string, target: Locator, limit = 60): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await isFocused(target)) return;
    await page.keyboard.press(key);
  }
  assert.ok(await isFocused(target), `${key} never reached ${target.toString()}`);
}

/** Moves focus forward with Tab only, as a keyboard user would, to the target. */
function tabTo(page: Page, target: Locator): Promise<void> {
  return pressUntilFocused(page, 'Tab', target);
}

before(async () => {
  // Sign-in has its own journey (identity-journey.test.ts); this one is about the cluster.
  journey = await startClusterJourney(await startTestCluster({ timing: TIMING }));
  ({ standIn, portal, browser } = journey);
});

after(() => journey?.close());

describe('portal on a Kubernetes cluster, in a browser', () => {
  it('creates a storage account from the workflow, shows it Ready with conditions and events, and deletes it', async () => {
    const page = await newPage();
    await page.goto(`${portal.url}/catalog/azure-storage`);
    await waitForStreamedContent(page);
    await page.getByLabel('Application').fill('journey');

    // Only Ready resource groups are offered; the seeded group that is still Creating is not.
    await page.getByRole('combobox', { name: 'Resource group' }).click();
    const options = await page.getByRole('option').allTextContents();
    assert.ok(
      options.some((o) => o.includes('rg-books-dev')),
      `options: ${options.join(', ')}`,
    );
    assert.ok(!options.some((o) => o.includes('rg-sandbox-pending')), `options: ${options.join(', ')}`);
    await page.getByRole('option', { name: /rg-books-dev/ }).click();

    await page.getByRole('combobox', { name: 'Location' }).click();
    await page.getByRole('option', { name: 'westus3', exact: true }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByText('Dry run passed').waitFor();
    await docsScreenshot(page, 'portal-workflow-review');
    assert.equal(standIn.accounts().length, 0, 'a dry run stores nothing');
    assert.ok(standIn.requests().some((r) => r.verb === 'create' && r.query.includes('dryRun=All')));

    // A double click on create must still create exactly one account.
    await page.getByRole('button', { name: 'Create storage account' }).dblclick();
    await page.waitForURL(/\/resources\/stjourney[a-z0-9]{5}$/);
    const name = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    const created = standIn.accounts().filter((a) => a.metadata.name?.startsWith('stjourney'));
    assert.equal(created.length, 1, `accounts: ${created.map((a) => a.metadata.name).join(', ')}`);
    assert.equal((created[0]?.spec as { forProvider?: { location?: string } })?.forProvider?.location, 'westus3');
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    await screenshot(page, '01-workflow-created');

    await page.goto(`${portal.url}/resources`);
    await waitForStreamedContent(page);
    await row(page, name).waitFor();
    await screenshot(page, '02-inventory-provisioning');
    // The inventory refreshes itself while anything is still provisioning.
    await row(page, name).getByText('Ready', { exact: true }).waitFor({ timeout: SETTLE_TIMEOUT_MS });
    await screenshot(page, '03-inventory-ready');
    await docsScreenshot(page, 'portal-inventory');

    await page.getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const conditions = page.getByRole('list', { name: 'Conditions' });
    await conditions.getByText('Synced: True (ReconcileSuccess)').waitFor();
    await conditions.getByText('Ready: True (Available)').waitFor();
    await page.getByRole('list', { name: 'Events' }).getByText('CreatedExternalResource').waitFor();
    await page.getByText(`https://${name}.blob.core.windows.net/`).first().waitFor();
    const yaml = (await page.getByLabel('The resource as YAML').textContent()) ?? '';
    assert.ok(
      yaml.includes('finalizer.managedresource.crossplane.io'),
      'the YAML view shows the object as the cluster holds it',
    );
    await screenshot(page, '04-detail-ready');
    await docsScreenshot(page, 'portal-account-detail');

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByLabel('Name of the storage account').fill(name);
    await page.getByRole('button', { name: 'Delete storage account' }).click();
    await page.waitForURL(/\/resources\?deleted=/);
    await waitForStreamedContent(page);
    const deleting = standIn.accounts().find((a) => a.metadata.name === name);
    assert.ok(deleting?.metadata.deletionTimestamp, 'the cluster object is being deleted');
    await screenshot(page, '05-inventory-deleting');
    // The cluster finishes first; then the inventory, refreshing itself, must drop the row.
    const gone = Date.now() + SETTLE_TIMEOUT_MS;
    while (standIn.accounts().some((a) => a.metadata.name === name)) {
      assert.ok(Date.now() < gone, 'the stand-in never finished the deletion');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await row(page, name).waitFor({ state: 'detached', timeout: SETTLE_TIMEOUT_MS });
    // With the row gone, the notice confirms the deletion instead of still calling it pending.
    const notice = page.getByRole('status').filter({ hasText: name });
    await notice.filter({ hasText: `${name} was deleted and is no longer in the inventory.` }).waitFor();
    assert.doesNotMatch(await notice.innerText(), /requested|disappears/);
    await screenshot(page, '06-inventory-gone');
    await page.close();
  });

  it('creates and deletes a storage account with the keyboard alone', async () => {
    const page = await newPage();
    await page.goto(`${portal.url}/catalog/azure-storage`);
    await waitForStreamedContent(page);
    await page.getByRole('heading', { level: 1, name: 'New Azure storage account' }).waitFor();

    await tabTo(page, page.getByRole('textbox', { name: 'Application' }));
    await page.keyboard.type('keys');
    // A select opens with the arrow keys and takes the highlighted option with Enter.
    await tabTo(page, page.getByRole('combobox', { name: 'Resource group' }));
    await page.keyboard.press('ArrowDown');
    const listbox = page.getByRole('listbox');
    await listbox.waitFor();
    await pressUntilFocused(page, 'ArrowDown', listbox.getByRole('option', { name: /rg-books-dev/ }));
    await page.keyboard.press('Enter');
    await listbox.waitFor({ state: 'detached' });
    assert.match(await page.getByRole('combobox', { name: 'Resource group' }).innerText(), /rg-books-dev/);

    await tabTo(page, page.getByRole('button', { name: 'Next' }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Step 2 of 3: Networking and security' }).waitFor();
    await tabTo(page, page.getByRole('button', { name: 'Review' }));
    await page.keyboard.press('Enter');
    await page.getByText('Dry run passed').waitFor();
    await tabTo(page, page.getByRole('button', { name: 'Create storage account' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/resources\/stkeys[a-z0-9]{5}$/);
    const name = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    assert.equal(standIn.accounts().filter((a) => a.metadata.name === name).length, 1);

    await tabTo(page, page.getByRole('button', { name: 'Delete', exact: true }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Delete storage account ${name}?` });
    await dialog.waitFor();
    // The dialog puts focus in the name field; Tab then reaches Cancel and the confirm button.
    await page.waitForFunction(() => document.activeElement?.tagName === 'INPUT');
    await page.keyboard.type(name);
    await pressUntilFocused(page, 'Tab', dialog.getByRole('button', { name: 'Delete storage account' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/resources\?deleted=/);
    await waitForStreamedContent(page);
    assert.ok(
      standIn.requests().some((r) => r.verb === 'delete' && r.path.endsWith(`/accounts/${name}`) && r.status < 300),
      'the cluster was asked to delete the account',
    );
    await page
      .getByRole('status')
      .filter({ hasText: `${name} was deleted and is no longer in the inventory.` })
      .waitFor({ timeout: SETTLE_TIMEOUT_MS });
    await row(page, name).waitFor({ state: 'detached' });
    await screenshot(page, '10-keyboard-deleted');
    await page.close();
  });

  it('shows what the cluster says when it forbids a create, reports a conflict, or cannot be reached', async () => {
    const page = await newPage();
    await page.goto(`${portal.url}/catalog/azure-storage`);
    await waitForStreamedContent(page);
    await page.getByLabel('Application').fill('faults');
    await page.getByLabel('Account name').fill('stfaults01');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByText('Dry run passed').waitFor();

    standIn.forbid({ verbs: ['create'] });
    await page.getByRole('button', { name: 'Create storage account' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The portal is not allowed to create the storage account' })
      .waitFor();
    await screenshot(page, '07-forbidden');

    await standIn.clearFaults();
    standIn.setConflictOnCreate(true);
    await page.getByRole('button', { name: 'Create storage account' }).click();
    await page.getByRole('alert').filter({ hasText: 'already exists' }).waitFor();
    await screenshot(page, '08-conflict');
    await standIn.clearFaults();

    await standIn.setUnreachable('refuse');
    await page.goto(`${portal.url}/resources`);
    await waitForStreamedContent(page);
    // With the cluster down the inventory answers from the intent ledger, and says so. The cache
    // learns the cluster is gone when its watch breaks, which a loaded machine may render after.
    const downNotice = page.getByRole('status').filter({ hasText: 'The cluster cannot be reached' });
    for (let attempt = 0; attempt < 15 && (await downNotice.count()) === 0; attempt++) {
      await page.waitForTimeout(1000);
      await page.reload();
      await waitForStreamedContent(page);
    }
    await downNotice.waitFor();
    await screenshot(page, '09-unreachable');
    await standIn.clearFaults();
    // The watch reconnects with backoff; once it has, the page no longer says the cluster is down.
    for (let attempt = 0; attempt < 30; attempt++) {
      await page.reload();
      await waitForStreamedContent(page);
      if ((await page.getByRole('status').filter({ hasText: 'The cluster cannot be reached' }).count()) === 0) break;
      await page.waitForTimeout(2000);
    }
    assert.equal(await page.getByRole('status').filter({ hasText: 'The cluster cannot be reached' }).count(), 0);
    await page
      .getByRole('table', { name: 'Storage accounts' })
      .or(page.getByRole('link', { name: 'Request a storage account' }))
      .first()
      .waitFor();
    await page.close();

    // The refused create and the conflict answer 403 and 409, which Chromium logs. Nothing else may appear.
    const expected = [
      /\/api\/platform\/resources: Failed to load resource: the server responded with a status of (403|409)/,
    ];
    assert.deepEqual(
      browser.errors.filter((e) => !expected.some((pattern) => pattern.test(e))),
      [],
    );
  });

  it('answers 404 with the not-found page for an account the cluster does not hold', async () => {
    browser.errors.splice(0);
    const page = await newPage();
    const response = await page.goto(`${portal.url}/resources/stnosuchaccount01`);
    assert.equal(response?.status(), 404);
    await page.getByRole('heading', { level: 1, name: 'Resource not found' }).waitFor();
    await page.close();
    assert.deepEqual(
      browser.errors.splice(0).filter((e) => !e.includes('status of 404 (Not Found)')),
      [],
    );
  });
});
