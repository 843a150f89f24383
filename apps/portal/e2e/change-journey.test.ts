/**
 * Changing an account and resyncing it in Chromium, on the production server against the
 * Kubernetes stand-in: the change dialog's diff and dry run, a concurrent change answered with a
 * clear 409 (never overwritten), drift shown side by side, and a resync recorded with who asked.
 * Populated pages are checked with axe-core too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { StandIn } from '../kube-stand-in/index';
import type { PortalServer } from '../kube-stand-in/portal-server';
import { startTestCluster } from '../test/kubernetes-harness';
import { seriousAccessibilityViolations } from './axe';
import {
  callPlatform,
  requestAccount,
  screenshot as saveScreenshot,
  startClusterJourney,
  until,
  waitForStreamedContent,
  type BrowserSession,
  type ClusterJourney,
} from './harness';

const TIMING = { syncedDelayMs: 100, readyDelayMs: 500, deleteDelayMs: 500, retryDelayMs: 1000 };
const NAME = 'stchangejourney';

let journey: ClusterJourney | undefined;
let standIn: StandIn;
let portal: PortalServer;
let browser: BrowserSession;

const screenshot = (page: Page, name: string) => saveScreenshot(page, `change/${name}`);
const stored = () => standIn.accounts().find((account) => account.metadata.name === NAME);

interface Item {
  state: string;
  resourceVersion: string;
}

const api = <T>(path: string, init?: RequestInit) => callPlatform<T>(portal, path, init);

async function assertAccessible(page: Page, what: string): Promise<void> {
  // A button that has just become enabled fades from grey to its colour (MUI's 250 ms
  // transition); axe would measure the contrast halfway. Judge the page once it has settled.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  assert.deepEqual(await seriousAccessibilityViolations(page), [], `axe-core found serious violations on ${what}`);
}

before(async () => {
  journey = await startClusterJourney(await startTestCluster({ timing: TIMING }));
  ({ standIn, portal, browser } = journey);
  const created = await requestAccount(portal, NAME, { accessTier: 'Hot' });
  assert.equal(created.status, 201);
  await until(async () => {
    const { body } = await api<{ item: Item }>(`/resources?name=${NAME}`);
    return body.item.state === 'Ready' ? true : undefined;
  }, 'the account to become Ready');
});

after(() => journey?.close());

describe('changing and resyncing an account, in a browser', () => {
  it('shows the diff and a dry run, refuses a stale change with 409, then applies it on the latest version', async () => {
    const page = await browser.newPage({ width: 1280, height: 900 });
    await page.goto(`${portal.url}/resources/${NAME}`);
    await waitForStreamedContent(page);
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor();

    await page.getByRole('button', { name: 'Change settings' }).click();
    const dialog = page.getByRole('dialog', { name: `Change settings of ${NAME}` });
    const fixed = dialog.getByRole('list', { name: 'Settings that cannot be changed in place' });
    assert.match(await fixed.innerText(), /Location: westeurope\. An account cannot move to another region/);
    await dialog.getByRole('combobox', { name: 'Access tier' }).click();
    await page.getByRole('option', { name: 'Cool' }).click();
    await dialog.getByRole('button', { name: 'Review changes' }).click();
    const review = page.getByRole('dialog', { name: `Review the change to ${NAME}` });
    assert.equal(await review.getByRole('list', { name: 'Changes to apply' }).innerText(), 'Access tier: Hot → Cool');
    await review.getByText('The platform accepted this change in a dry run').waitFor();
    assert.equal(stored()?.spec?.['forProvider']?.['accessTier' as never], 'Hot', 'a dry run changes nothing');
    await assertAccessible(page, 'the review step');
    await screenshot(page, '01-review');

    // Someone else changes the account after this page read it.
    const { body: latest } = await api<{ item: Item }>(`/resources?name=${NAME}`);
    const concurrent = await api(`/resources?name=${NAME}`, {
      method: 'PATCH',
      body: JSON.stringify({ resourceVersion: latest.item.resourceVersion, minTlsVersion: 'TLS1_3' }),
    });
    assert.equal(concurrent.status, 200);

    await review.getByRole('button', { name: 'Apply changes' }).click();
    const conflict = review.getByRole('alert').filter({ hasText: 'Someone else changed this account' });
    await conflict.waitFor();
    assert.match(await conflict.innerText(), /changed by someone else after you loaded it/);
    await screenshot(page, '02-conflict');
    const forProvider = stored()?.spec?.['forProvider'] as Record<string, unknown>;
    assert.deepEqual([forProvider['accessTier'], forProvider['minTlsVersion']], ['Hot', 'TLS1_3']);

    await conflict.getByRole('button', { name: 'Load the latest version' }).click();
    const edit = page.getByRole('dialog', { name: `Change settings of ${NAME}` });
    await edit.getByRole('combobox', { name: 'Minimum TLS version' }).filter({ hasText: 'TLS 1.3' }).waitFor();
    await edit.getByRole('button', { name: 'Review changes' }).click();
    await review.getByText('The platform accepted this change in a dry run').waitFor();
    await review.getByRole('button', { name: 'Apply changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Change applied: Access tier Hot → Cool' }).waitFor();
    const applied = stored()?.spec?.['forProvider'] as Record<string, unknown>;
    assert.deepEqual([applied['accessTier'], applied['minTlsVersion']], ['Cool', 'TLS1_3'], 'nothing was overwritten');
    await screenshot(page, '03-applied');
    await page.close();

    // Chromium logs the 409 of the refused apply; nothing else may appear.
    assert.deepEqual(
      browser.errors.splice(0).filter((error) => !/status of 409/.test(error)),
      [],
    );
  });

  it('shows drift with desired beside observed, and records a resync with who asked', async () => {
    standIn.injectFailure(NAME, 'quota exceeded');
    await until(async () => {
      const { body } = await api<{ item: { sync: { inSync: boolean } } }>(`/resources?name=${NAME}`);
      return body.item.sync.inSync ? undefined : true;
    }, 'the failure to be reported');

    const page = await browser.newPage({ width: 1280, height: 900 });
    await page.goto(`${portal.url}/resources/${NAME}`);
    await waitForStreamedContent(page);
    const outOfSync = page.getByRole('status').filter({ hasText: 'Out of sync' });
    await outOfSync.waitFor();
    assert.match(await outOfSync.innerText(), /Synced=False.*quota exceeded/s);
    const comparison = page.getByRole('list', { name: 'Desired and observed settings' });
    assert.match(
      await comparison.getByRole('listitem').filter({ hasText: 'Minimum TLS version' }).innerText(),
      /Desired: TLS 1\.3\s*Azure reports: TLS 1\.3/,
    );
    await assertAccessible(page, 'the detail page out of sync');
    await screenshot(page, '04-out-of-sync');

    standIn.clearFailure(NAME);
    await page.getByRole('button', { name: 'Resync', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Resync requested at .* by anonymous/ })
      .waitFor();
    const annotations = stored()?.metadata.annotations ?? {};
    assert.ok(annotations['crossplane.io/reconcile-requested-at'], 'the reconcile request annotation is set');
    assert.equal(annotations['crossplane.io/paused'], undefined);
    assert.ok(
      Object.entries(annotations).some(([key, value]) => key.endsWith('/resync-requested-by') && value === 'anonymous'),
    );

    await until(async () => {
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await waitForStreamedContent(page);
      return (await page.getByRole('status').filter({ hasText: 'In sync' }).count()) > 0 ? true : undefined;
    }, 'the account to be in sync again');
    await page.getByText(/Crossplane has handled it/).waitFor();
    await screenshot(page, '05-resynced');

    await page.goto(`${portal.url}/resources`);
    await waitForStreamedContent(page);
    await assertAccessible(page, 'the populated inventory');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('list', { name: 'Storage accounts' }).getByRole('link', { name: NAME }).waitFor();
    await assertAccessible(page, 'the populated inventory at phone width');
    await screenshot(page, '06-phone-inventory');
    await page.goto(`${portal.url}/applications`);
    await waitForStreamedContent(page);
    await page
      .getByRole('table', { name: 'Applications and their storage accounts' })
      .getByRole('link', { name: NAME })
      .waitFor();
    await assertAccessible(page, 'the populated applications page at phone width');
    await page.close();
    assert.deepEqual(browser.errors.splice(0), []);
  });
});
