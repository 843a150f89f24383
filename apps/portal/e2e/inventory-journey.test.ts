/**
 * The inventory at scale in Chromium: the production portal on a Kubernetes stand-in holding a few
 * hundred accounts pages, filters and sorts on the server through the page's URL, on a wide screen
 * and on a phone, and the cluster sees no list for any of it once the portal's cache is warm.
 * Run: npm run portal:build && node --import tsx --test e2e/inventory-journey.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { StandIn } from '../kube-stand-in/index';
import type { PortalServer } from '../kube-stand-in/portal-server';
import { startTestCluster } from '../test/kubernetes-harness';
import { seriousAccessibilityViolations } from './axe';
import {
  screenshot,
  startClusterJourney,
  waitForStreamedContent,
  type BrowserSession,
  type ClusterJourney,
} from './harness';

const ACCOUNTS = 540;
// The stand-in's fill names nine applications and numbers them anew every 90 accounts.
const APPLICATIONS = 9 * Math.ceil(ACCOUNTS / 90);

let journey: ClusterJourney | undefined;
let standIn: StandIn;
let portal: PortalServer;
let browser: BrowserSession;

before(async () => {
  const cluster = await startTestCluster();
  cluster.standIn.fillAccounts(ACCOUNTS, 'stpage');
  journey = await startClusterJourney(cluster);
  ({ standIn, portal, browser } = journey);
});

after(() => journey?.close());

async function assertAccessible(page: Page, what: string): Promise<void> {
  assert.deepEqual(await seriousAccessibilityViolations(page), [], `serious accessibility problems on ${what}`);
}

const accountLists = () => standIn.requests().filter((r) => r.verb === 'list' && r.resource === 'accounts').length;

async function names(page: Page): Promise<string[]> {
  return page.getByRole('table', { name: 'Storage accounts' }).locator('tbody').getByRole('link').allTextContents();
}

describe('the inventory of a large platform, in a browser', () => {
  it('pages, filters and sorts on the server, with no list at the cluster per view', async () => {
    const page = await browser.newPage({ width: 1280, height: 900 });
    await page.goto(`${portal.url}/resources`);
    await waitForStreamedContent(page);
    const pager = page.getByRole('navigation', { name: 'Inventory pages' });
    await pager.getByText(`1–50 of ${ACCOUNTS}`).waitFor();
    const listsWhenWarm = accountLists();
    const first = await names(page);
    assert.equal(first.length, 50);
    assert.deepEqual(first, [...first].sort());
    assert.equal(first[0], 'stpage00000');

    await pager.getByRole('link', { name: 'Next page' }).click();
    await pager.getByText(`51–100 of ${ACCOUNTS}`).waitFor();
    assert.equal((await names(page))[0], 'stpage00050');
    await pager.getByRole('link', { name: 'Previous page' }).click();
    await pager.getByText(`1–50 of ${ACCOUNTS}`).waitFor();

    await page.getByRole('link', { name: 'Name' }).click();
    await page.waitForURL(/sort=-name/);
    await page.getByRole('columnheader', { name: 'Name' }).and(page.locator('[aria-sort="descending"]')).waitFor();
    assert.equal((await names(page))[0], `stpage${String(ACCOUNTS - 1).padStart(5, '0')}`);

    // Typed key by key: the server re-renders the rows under the field, which keeps its focus and text.
    const filter = page.getByRole('textbox', { name: 'Filter resources' });
    await filter.pressSequentially('stpage001');
    await page.waitForURL(/q=stpage001(&|$)/);
    await pager.getByText('1–50 of 100').waitFor();
    assert.equal((await names(page))[0], 'stpage00199');
    await page.keyboard.type('2');
    await page.waitForURL(/q=stpage0012/);
    assert.equal(await filter.inputValue(), 'stpage0012');
    assert.ok(await filter.evaluate((input) => input === document.activeElement), 'the filter keeps the focus');
    await pager.getByText('1–10 of 10').waitFor();
    assert.deepEqual(
      await names(page),
      Array.from({ length: 10 }, (_, i) => `stpage0012${9 - i}`),
    );
    await screenshot(page, 'inventory/filtered-sorted');
    await assertAccessible(page, 'the filtered, sorted inventory');

    await filter.fill('nothing-like-this');
    await page.getByText('No resources match "nothing-like-this".').waitFor();
    // The filter replaces its URL as it goes; back is the page before the sort, unfiltered, and so is the field.
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('q') && !url.searchParams.has('sort'));
    await pager.getByText(`of ${ACCOUNTS}`).waitFor();
    assert.equal(await filter.inputValue(), '');

    // The class against intent filters on the server too, with the text filter and the order kept.
    // Accounts nobody asked for through the portal are changed in the cluster, as far as intent goes.
    await page.goto(`${portal.url}/resources?class=cluster_drift&q=stpage0012&sort=-name`);
    await waitForStreamedContent(page);
    await page.getByText('Intent: Changed in the cluster').waitFor();
    await pager.getByText('1–10 of 10').waitFor();
    assert.equal((await names(page))[0], 'stpage00129');
    await page.getByRole('link', { name: 'Show every account' }).click();
    await page.waitForURL((url) => !url.searchParams.has('class') && url.searchParams.get('q') === 'stpage0012');
    await page.goto(`${portal.url}/resources?class=in_sync`);
    await waitForStreamedContent(page);
    await page.getByText('No storage accounts are “In sync”.').waitFor();

    await page.goto(`${portal.url}/`);
    await waitForStreamedContent(page);
    await page
      .getByRole('list', { name: 'Storage accounts by state' })
      .getByRole('link', { name: `${ACCOUNTS} Total` })
      .waitFor();
    await page
      .getByRole('list', { name: 'Storage accounts against intent' })
      .getByRole('link', { name: `${ACCOUNTS} Changed in the cluster` })
      .waitFor();
    await page.goto(`${portal.url}/applications`);
    await waitForStreamedContent(page);
    await page.getByRole('table', { name: 'Applications and their storage accounts' }).waitFor();
    assert.equal(accountLists(), listsWhenWarm, 'no Account LIST at the cluster for any of these views');
    await page.close();
  });

  it('pages the applications on the server too, readable on a phone', async () => {
    const page = await browser.newPage({ width: 390, height: 844 });
    await page.goto(`${portal.url}/applications`);
    await waitForStreamedContent(page);
    const table = page.getByRole('table', { name: 'Applications and their storage accounts' });
    const pager = page.getByRole('navigation', { name: 'Applications pages' });
    const applications = () => table.locator('tbody th').allTextContents();
    await pager.getByText(`1–50 of ${APPLICATIONS} applications`).waitFor();
    const first = await applications();
    assert.equal(first.length, 50);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `nothing sits off-screen (page is ${width}px wide)`);
    await screenshot(page, 'applications/phone');
    await assertAccessible(page, 'the paged applications at phone width');

    await pager.getByRole('link', { name: 'Next page' }).click();
    await pager.getByText(`51–${APPLICATIONS} of ${APPLICATIONS} applications`).waitFor();
    const second = await applications();
    assert.equal(second.length, APPLICATIONS - 50);
    assert.equal(new Set([...first, ...second]).size, APPLICATIONS, 'every application on one page or the other');
    await pager.getByRole('button', { name: 'Next page' }).and(page.locator('[disabled]')).waitFor();
    await pager.getByRole('link', { name: 'Previous page' }).click();
    await pager.getByText(`1–50 of ${APPLICATIONS} applications`).waitFor();
    assert.deepEqual(await applications(), first);
    await page.close();
    assert.deepEqual(browser.errors.splice(0), []);
  });

  it('keeps the phone layout: one card per account on the page, and the pager', async () => {
    const page = await browser.newPage({ width: 390, height: 844 });
    await page.goto(`${portal.url}/resources?state=Ready&sort=-age`);
    await waitForStreamedContent(page);
    const cards = page.getByRole('list', { name: 'Storage accounts' }).getByRole('listitem');
    assert.equal(await cards.count(), 50);
    await page.getByRole('navigation', { name: 'Inventory pages' }).getByText(`1–50 of ${ACCOUNTS}`).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `nothing sits off-screen (page is ${width}px wide)`);
    await screenshot(page, 'inventory/phone');
    await assertAccessible(page, 'the paged inventory at phone width');
    await page.close();
    assert.deepEqual(browser.errors.splice(0), []);
  });
});
