/**
 * Live pages in Chromium on the production server against the Kubernetes stand-in: an account made
 * with real kubectl behind the portal's back shows on an open inventory, and its change on an open
 * account page, within the contract's 2 s, with no reload; an idle inventory asks nothing but its
 * one event stream.
 * Run: npm run portal:build && node --import tsx --test e2e/live-journey.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page, Request } from 'playwright-core';
import { startTestCluster } from '../test/kubernetes-harness';
import { kubectlFor, type Kubectl } from './kubectl';
import { screenshot, startClusterJourney, waitForStreamedContent, type ClusterJourney } from './harness';

/** The contract's bound for a cluster change to show on an open page. */
const LIVE_BOUND_MS = 2_000;
const TIMING = { syncedDelayMs: 100, readyDelayMs: 600, deleteDelayMs: 600, retryDelayMs: 1000 };

let journey: ClusterJourney | undefined;
let kubectl: Kubectl;

before(async () => {
  const cluster = await startTestCluster({ timing: TIMING });
  journey = await startClusterJourney(cluster);
  kubectl = kubectlFor(cluster.kubeconfigPath, cluster.directory);
});

after(() => journey?.close());

function account(name: string): string {
  return JSON.stringify({
    apiVersion: 'storage.azure.upbound.io/v1beta1',
    kind: 'Account',
    metadata: { name, labels: { 'platform-portal/application': 'live', 'platform-portal/environment': 'dev' } },
    spec: {
      forProvider: {
        accountReplicationType: 'LRS',
        accountTier: 'Standard',
        location: 'westeurope',
        resourceGroupName: 'rg-books-dev',
      },
    },
  });
}

async function openLive(path: string): Promise<{ page: Page; requests: Request[] }> {
  const page = await journey!.browser.newPage({ width: 1280, height: 900 });
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  await page.goto(`${journey!.portal.url}${path}`);
  await waitForStreamedContent(page);
  await page.getByRole('status').filter({ hasText: 'Live' }).first().waitFor();
  return { page, requests };
}

describe('live pages', () => {
  it('shows an account made with kubectl on an open inventory within 2 s, with no reload', async () => {
    const { page } = await openLive('/resources');
    const marker = await page.evaluate(() => ((window as unknown as { marker: number }).marker = Math.random()));
    const name = `stlive${Date.now() % 100000}`;
    await kubectl(['create', '-f', '-'], account(name));
    const created = Date.now();
    await page.getByRole('link', { name, exact: true }).first().waitFor({ timeout: LIVE_BOUND_MS });
    const shownAfterMs = Date.now() - created;
    // The same document: the page changed in place, it did not reload.
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), marker);
    await screenshot(page, 'live/inventory-after-kubectl-create');
    process.stdout.write(`# inventory showed the kubectl create after ${shownAfterMs} ms\n`);
  });

  it('shows a kubectl change on the open account page within 2 s', async () => {
    const name = `stlivepage${Date.now() % 100000}`;
    await kubectl(['create', '-f', '-'], account(name));
    const { page } = await openLive(`/resources/${name}`);
    await page.getByText('Ready', { exact: true }).first().waitFor({ timeout: 10_000 });
    await kubectl(['label', 'account', name, 'platform-portal/environment=prod', '--overwrite']);
    await page.getByText('prod', { exact: true }).first().waitFor({ timeout: LIVE_BOUND_MS });
    await screenshot(page, 'live/account-after-kubectl-label');
  });

  it('makes no requests but its one event stream while the inventory is idle', async () => {
    const { page, requests } = await openLive('/resources');
    // Let anything still settling (accounts becoming Ready) pass, then watch a quiet page.
    await page.waitForTimeout(2_000);
    const from = requests.length;
    await page.waitForTimeout(5_000);
    const idle = requests.slice(from).map((request) => request.url());
    assert.deepEqual(idle, []);
    const streams = requests.filter((request) => request.url().includes('/api/platform/events'));
    assert.equal(streams.length, 1, `one stream for the tab, got ${streams.map((r) => r.url()).join(', ')}`);
    await screenshot(page, 'live/idle-inventory');
  });
});
