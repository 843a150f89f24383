/**
 * Classification and every remediation in Chromium, on the production server against the
 * Kubernetes stand-in and the ARM stand-in on one simulated Azure, with the ledger in a throwaway
 * PostgreSQL and cloud observation through the official SDK. Each class comes from a real scenario:
 * real kubectl edits the cluster object, an ARM PATCH edits Azure, an ARM PUT makes an account
 * nobody asked for, a stand-in reset loses the cluster, a throttling ARM hides Azure. Each
 * remediation goes through its review dialog: the diff, the server's dry run, a 409 when someone
 * changed the account between review and apply, then the apply and its record in the history.
 * Run: npm run portal:build && node --import tsx --test e2e/remediation-journey.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import type { Locator, Page } from 'playwright-core';
import { armClientEnvironment, type StandIn } from '../kube-stand-in/index';
import type { PortalServer } from '../kube-stand-in/portal-server';
import { startTestCluster } from '../test/kubernetes-harness';
import { armAccountRequest } from '../test/stand-in-client';
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
import { kubectlFor, stripPortalAnnotations, type Kubectl } from './kubectl';

const TIMING = { syncedDelayMs: 100, readyDelayMs: 500, deleteDelayMs: 500, retryDelayMs: 1000 };

let journey: ClusterJourney | undefined;
let standIn: StandIn;
let postgres: TestPostgres;
let portal: PortalServer;
let browser: BrowserSession;
let kubectl: Kubectl;

interface Classification {
  code: string;
  fields: string[];
}

interface Item {
  name: string;
  state: string;
  resourceVersion?: string;
  source?: string;
  observeOnly?: boolean;
  classification: Classification;
}

interface HistoryEntry {
  action: string;
  by: string;
  status: string;
  changes: { field: string; from?: unknown; to?: unknown }[];
}

const screenshot = (page: Page, name: string) => saveScreenshot(page, `remediation/${name}`);

const api = <T>(path: string, init?: RequestInit) => callPlatform<T>(portal, path, init);

async function item(name: string): Promise<Item | undefined> {
  const { status, body } = await api<{ item: Item }>(`/resources?name=${name}`);
  return status === 200 ? body.item : undefined;
}

/** Waits until the API classifies the account so, and answers it. */
function classified(name: string, code: string, fields?: string[]): Promise<Item> {
  return until(
    async () => {
      const found = await item(name);
      if (found?.classification.code !== code) return undefined;
      if (fields && JSON.stringify(found.classification.fields) !== JSON.stringify(fields)) return undefined;
      return found;
    },
    `${name} to read ${code}${fields ? ` (${fields.join(', ')})` : ''}`,
  );
}

async function history(name: string): Promise<HistoryEntry[]> {
  return (await api<{ items: HistoryEntry[] }>(`/resources/history?name=${name}`)).body.items;
}

async function createThroughPortal(name: string): Promise<Item> {
  const created = await requestAccount(portal, name, { accessTier: 'Hot' });
  assert.equal(created.status, 201);
  return classified(name, 'in_sync');
}

/** Writes to the account in Azure through ARM, as anything editing Azure outside Crossplane would. */
async function armWrite(method: 'PUT' | 'PATCH', group: string, name: string, body: unknown): Promise<void> {
  assert.equal(await armAccountRequest(standIn, method, group, name, body), 200);
}

/** Creates the cluster object with kubectl behind the portal's back, and waits until the portal sees it. */
async function kubectlCreate(name: string, spec: Record<string, unknown>): Promise<void> {
  await kubectl(
    ['create', '-f', '-'],
    JSON.stringify({ apiVersion: 'storage.azure.upbound.io/v1beta1', kind: 'Account', metadata: { name }, spec }),
  );
  await until(async () => ((await item(name))?.source === 'cluster' ? true : undefined), 'the portal to see it');
}

function forProvider(name: string): Record<string, unknown> {
  const account = standIn.accounts().find((a) => a.metadata.name === name);
  return (account?.spec?.['forProvider'] ?? {}) as Record<string, unknown>;
}

async function openDetail(name: string): Promise<Page> {
  const page = await browser.newPage({ width: 1280, height: 900 });
  await page.goto(`${portal.url}/resources/${name}`);
  await waitForStreamedContent(page);
  await page.getByRole('heading', { level: 1, name }).waitFor();
  return page;
}

/** The Intent section's verdict, by its class. */
function verdict(page: Page, code: string): Locator {
  return page.locator(`[role="status"][data-classification="${code}"]`);
}

/** Reloads the page until the Intent section shows this class (the portal's caches catch up). */
async function reloadUntil(page: Page, code: string): Promise<void> {
  await until(async () => {
    await page.reload();
    await waitForStreamedContent(page);
    return (await verdict(page, code).count()) > 0 ? true : undefined;
  }, `the page to show ${code}`);
}

/** Clicks Apply in a review and waits for the page to say the remediation was accepted. */
async function apply(page: Page, dialog: Locator, button: string): Promise<void> {
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `${button}: accepted` })
    .waitFor();
}

/** Clicks Apply in a review that no longer holds, and answers the dialog's alert once it says `why`. */
async function applyRefused(dialog: Locator, why: RegExp): Promise<Locator> {
  await dialog.getByRole('button', { name: 'Apply' }).click();
  const alert = dialog.getByRole('alert');
  await alert.getByText(why).waitFor();
  return alert;
}

/** Leaves a review refused as stale: the dialog closes on the latest version of the account. */
async function loadLatest(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Load the latest version' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Opens a remediation's review: the server's dry run answers, and the dialog lists what it changes. */
async function review(page: Page, button: string, name: string): Promise<{ dialog: Locator; changes: string[] }> {
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `${button}: ${name}` });
  await dialog.getByText('The cluster accepted a dry run of this.').waitFor();
  const changes = await dialog.getByRole('list', { name: 'What this changes' }).getByRole('listitem').allInnerTexts();
  return { dialog, changes };
}

function dryRuns(verb: 'create' | 'patch', name: string): number {
  return standIn
    .requests()
    .filter(
      (r) =>
        r.verb === verb &&
        r.query.includes('dryRun=All') &&
        (verb === 'create' ? r.path.endsWith('/accounts') : r.path.endsWith(`/accounts/${name}`)),
    ).length;
}

async function assertAccessible(page: Page, what: string): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  assert.deepEqual(await seriousAccessibilityViolations(page), [], `axe-core found serious violations on ${what}`);
}

before(async () => {
  const [cluster, databaseUrl] = await Promise.all([
    startTestCluster({ timing: TIMING }),
    startPostgres().then((server) => {
      postgres = server;
      return server.createDatabase('portal_remediation_journey');
    }),
  ]);
  // No sign-in (the journey's default): every request is an admin, who may take every remediation
  // (roles have route tests).
  journey = await startClusterJourney(cluster, {
    PORTAL_DATABASE_URL: databaseUrl,
    PORTAL_OBSERVATION_TTL_SECONDS: '1',
    ...armClientEnvironment(cluster.standIn, cluster.caPath),
  });
  ({ standIn, portal, browser } = journey);
  kubectl = kubectlFor(cluster.kubeconfigPath, cluster.directory);
});

after(async () => {
  await journey?.close();
  await postgres?.stop();
});

describe('classification and remediation, in a browser', () => {
  it('recreate: a stand-in reset reads not_in_cluster, and the review brings it back under its external name', async () => {
    const name = 'stjrnlost';
    await createThroughPortal(name);
    standIn.reset();
    const lost = await classified(name, 'not_in_cluster');
    assert.equal(lost.source, 'ledger');

    const page = await openDetail(name);
    await verdict(page, 'not_in_cluster').getByText('Missing from the cluster').waitFor();
    const before = dryRuns('create', name);
    const { dialog, changes } = await review(page, 'Recreate in the cluster', name);
    assert.ok(changes.includes('Location: westeurope'), changes.join('; '));
    assert.ok(changes.includes('Minimum TLS version: TLS 1.2'), changes.join('; '));
    assert.equal(dryRuns('create', name), before + 1, 'the review asked the cluster for a dry run');
    assert.equal(standIn.accounts().filter((a) => a.metadata.name === name).length, 0, 'a dry run stores nothing');
    await assertAccessible(page, 'the recreate review');
    await screenshot(page, '01-recreate-review');

    // Someone else recreates it with kubectl between the review and the apply: the portal refuses.
    // (Orphan, so that deleting it again below leaves the Azure account alone.)
    await kubectlCreate(name, {
      deletionPolicy: 'Orphan',
      forProvider: {
        location: 'westeurope',
        resourceGroupName: 'rg-books-dev',
        accountTier: 'Standard',
        accountReplicationType: 'LRS',
      },
    });
    const conflict = await applyRefused(dialog, /cluster object exists/);
    assert.match(await conflict.innerText(), /^Not applied: /);
    await screenshot(page, '02-recreate-conflict');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Lose it again, and this time apply.
    await kubectl(['delete', 'account', name, '--wait=true', '--timeout=60s']);
    assert.ok(standIn.azure.get(name), 'the Azure account is still there');
    await classified(name, 'not_in_cluster');
    await reloadUntil(page, 'not_in_cluster');
    const again = await review(page, 'Recreate in the cluster', name);
    await apply(page, again.dialog, 'Recreate in the cluster');
    const back = standIn.accounts().find((a) => a.metadata.name === name);
    assert.equal(back?.metadata.annotations?.['crossplane.io/external-name'], name);
    await classified(name, 'in_sync');
    await reloadUntil(page, 'in_sync');
    const [latest] = await history(name);
    assert.deepEqual([latest?.action, latest?.status, latest?.by], ['recreate', 'applied', 'anonymous']);
    await page.getByRole('list', { name: 'History' }).getByText('by anonymous').first().waitFor();
    await screenshot(page, '03-recreated');
    await page.close();
  });

  it('restore-intent: kubectl strips the annotations and edits the spec, the portal names the field and puts it back', async () => {
    const name = 'stjrnkubectl';
    await createThroughPortal(name);
    const stripped = await stripPortalAnnotations(kubectl, name);
    assert.ok(stripped.length > 0, 'the portal had annotated the account');
    await kubectl([
      'patch',
      'account',
      name,
      '--type=merge',
      '-p',
      '{"spec":{"forProvider":{"minTlsVersion":"TLS1_0"}}}',
    ]);
    await classified(name, 'cluster_drift', ['minTlsVersion']);

    const page = await openDetail(name);
    const shown = verdict(page, 'cluster_drift');
    await shown.getByText('Changed in the cluster').waitFor();
    assert.match(await shown.innerText(), /Differs: Minimum TLS version/);
    const before = dryRuns('patch', name);
    const { dialog, changes } = await review(page, 'Restore intent', name);
    assert.deepEqual(changes, ['Minimum TLS version: TLS 1.0 → TLS 1.2']);
    assert.equal(dryRuns('patch', name), before + 1, 'the review asked the cluster for a dry run');
    assert.equal(forProvider(name)['minTlsVersion'], 'TLS1_0', 'a dry run changes nothing');
    await assertAccessible(page, 'the restore-intent review');
    await screenshot(page, '04-restore-review');

    // A kubectl edit after the review makes the page's version stale: 409, nothing overwritten.
    await kubectl(['annotate', 'account', name, 'example.com/reviewed-by=platform-team']);
    await applyRefused(dialog, /changed by someone else/);
    assert.equal(forProvider(name)['minTlsVersion'], 'TLS1_0');
    await screenshot(page, '05-restore-conflict');
    await loadLatest(dialog);

    const latest = await review(page, 'Restore intent', name);
    await apply(page, latest.dialog, 'Restore intent');
    assert.equal(forProvider(name)['minTlsVersion'], 'TLS1_2');
    await classified(name, 'in_sync');
    await reloadUntil(page, 'in_sync');
    const [record] = await history(name);
    assert.equal(record?.action, 'restore-intent');
    assert.equal(record?.status, 'applied');
    await screenshot(page, '06-restored');
    await page.close();
  });

  it('accept-cloud: an edit through ARM reads drifted, and the review records Azure’s value as intent', async () => {
    const name = 'stjrnazure';
    await createThroughPortal(name);
    await armWrite('PATCH', 'rg-books-dev', name, { properties: { minimumTlsVersion: 'TLS1_1' } });
    await classified(name, 'drifted', ['minTlsVersion']);

    const page = await openDetail(name);
    const shown = verdict(page, 'drifted');
    await shown.getByText('Changed in Azure').waitFor();
    assert.match(await shown.innerText(), /Differs: Minimum TLS version/);
    // Crossplane has not looked since; its report must not make the page call the account in sync.
    assert.equal(await page.getByText('In sync', { exact: true }).count(), 0);
    const comparison = page.getByRole('list', { name: 'Intent, cluster object and Azure' });
    assert.match(
      await comparison.getByRole('listitem').filter({ hasText: 'Minimum TLS version' }).innerText(),
      /Intent: TLS 1\.2\s*Cluster object: TLS 1\.2\s*Azure: TLS 1\.1/,
    );
    const before = dryRuns('patch', name);
    const { dialog, changes } = await review(page, 'Accept current values', name);
    assert.deepEqual(changes, ['Minimum TLS version: TLS 1.2 → TLS 1.1']);
    assert.equal(dryRuns('patch', name), before + 1, 'the review asked the cluster for a dry run');
    await assertAccessible(page, 'the accept-cloud review');
    await screenshot(page, '07-accept-review');

    await kubectl(['annotate', 'account', name, 'example.com/reviewed-by=platform-team']);
    await applyRefused(dialog, /changed by someone else/);
    assert.equal((await history(name))[0]?.action, 'create', 'a refused remediation records no intent');
    await loadLatest(dialog);

    const latest = await review(page, 'Accept current values', name);
    await apply(page, latest.dialog, 'Accept current values');
    assert.equal(forProvider(name)['minTlsVersion'], 'TLS1_1', 'the cluster object asks for what Azure holds');
    await classified(name, 'in_sync');
    await reloadUntil(page, 'in_sync');
    const [record] = await history(name);
    assert.deepEqual(
      [record?.action, record?.status, record?.changes],
      [
        'accept-cloud',
        'applied',
        [{ field: 'minTlsVersion', label: 'Minimum TLS version', from: 'TLS1_2', to: 'TLS1_1' }],
      ],
    );
    await screenshot(page, '08-accepted');
    await page.close();
  });

  it('restore-intent on an account edited through ARM puts Azure back through Crossplane', async () => {
    const name = 'stjrnazureback';
    await createThroughPortal(name);
    await armWrite('PATCH', 'rg-books-dev', name, { properties: { publicNetworkAccess: 'Enabled' } });
    await classified(name, 'drifted', ['publicNetworkAccess']);
    const page = await openDetail(name);
    const { dialog, changes } = await review(page, 'Restore intent', name);
    // The cluster object already asks for the intent; Crossplane is asked to apply it to Azure again.
    assert.deepEqual(changes, []);
    await dialog.getByText('No setting changes; Crossplane is asked to reconcile.').waitFor();
    await apply(page, dialog, 'Restore intent');
    await until(
      async () => (standIn.azure.get(name)?.properties.publicNetworkAccess === 'Disabled' ? true : undefined),
      'Crossplane to put Azure back',
    );
    await classified(name, 'in_sync');
    await page.close();
  });

  it('desired_only: kubectl deletes the account, Azure goes with it, and recreate makes it again from intent', async () => {
    const name = 'stjrngone';
    await createThroughPortal(name);
    await kubectl(['delete', 'account', name, '--wait=true', '--timeout=60s']);
    assert.equal(standIn.azure.get(name), undefined, 'the provider deleted the Azure account');
    const gone = await classified(name, 'desired_only');
    assert.equal(gone.source, 'ledger');
    // kubectl is not the portal: its delete is not in the history, and intent stands.
    assert.deepEqual(
      (await history(name)).map((entry) => entry.action),
      ['create'],
    );

    const page = await openDetail(name);
    await verdict(page, 'desired_only').getByText('Not in Azure').waitFor();
    const { dialog, changes } = await review(page, 'Recreate in the cluster', name);
    assert.ok(changes.includes('Minimum TLS version: TLS 1.2'), changes.join('; '));
    await apply(page, dialog, 'Recreate in the cluster');
    await classified(name, 'in_sync');
    assert.equal(standIn.azure.get(name)?.properties.minimumTlsVersion, 'TLS1_2', 'Crossplane created it in Azure');
    await reloadUntil(page, 'in_sync');
    await screenshot(page, '09-desired-only-recreated');
    await page.close();
  });

  it('pending: while Crossplane retries a failing create the account is pending, never in sync', async () => {
    const name = 'stjrnretry';
    standIn.injectFailure(name, 'quota exceeded');
    try {
      const created = await requestAccount(portal, name);
      assert.equal(created.status, 201);
      await classified(name, 'pending');
      const page = await openDetail(name);
      await verdict(page, 'pending').getByText('Pending').waitFor();
      assert.equal(await page.getByText('In sync', { exact: true }).count(), 0);
      await page.close();
    } finally {
      standIn.clearFailure(name);
    }
    await classified(name, 'in_sync');
  });

  it('adopt, then manage: a tagged Azure account nobody asked for reads cloud_only and comes under management', async () => {
    const name = 'stjrnfound';
    await armWrite('PUT', 'rg-books-prod', name, {
      location: 'westeurope',
      kind: 'StorageV2',
      sku: { name: 'Standard_GRS' },
      tags: { application: 'billing', environment: 'prod' },
      properties: { minimumTlsVersion: 'TLS1_2', supportsHttpsTrafficOnly: true, publicNetworkAccess: 'Disabled' },
    });
    const found = await classified(name, 'cloud_only');
    assert.equal(found.source, 'cloud');
    // Untagged, it still looks like the portal's in a resource group the cluster approves; elsewhere
    // it is none of the portal's business: not listed, not shown, not adoptable.
    const untagged = { location: 'westeurope', kind: 'StorageV2', sku: { name: 'Standard_LRS' } };
    await armWrite('PUT', 'rg-platform-shared', 'stjrnloose', untagged);
    await armWrite('PUT', 'rg-someone-else', 'stjrnforeign', untagged);
    await classified('stjrnloose', 'cloud_only');
    const listed = await until(async () => {
      const { body } = await api<{ items: Item[] }>('/resources');
      return body.items.some((entry) => entry.name === 'stjrnloose') ? body.items : undefined;
    }, 'the inventory to list stjrnloose');
    assert.equal(
      listed.find((entry) => entry.name === 'stjrnforeign'),
      undefined,
    );
    assert.equal((await api(`/resources?name=stjrnforeign`)).status, 404);
    const foreign = await api('/resources/remediate?name=stjrnforeign&dryRun=true', {
      method: 'POST',
      body: JSON.stringify({ action: 'adopt' }),
    });
    assert.equal(foreign.status, 404);
    const inventory = await api<{ items: Item[] }>('/resources');
    assert.equal(inventory.body.items.find((entry) => entry.name === name)?.classification.code, 'cloud_only');
    assert.deepEqual(await history(name), []);
    const azureBefore = standIn.azure.get(name);
    const armWrites = () => standIn.arm.requests().filter((r) => r.method !== 'GET').length;
    const writesBefore = armWrites();

    const page = await openDetail(name);
    await verdict(page, 'cloud_only').getByText('Not requested (Azure only)').waitFor();
    const { dialog, changes } = await review(page, 'Adopt (observe only)', name);
    assert.ok(
      changes.includes('Replication: Geo-redundant (GRS)') || changes.some((c) => c.startsWith('Replication: ')),
    );
    assert.ok(changes.includes('Application: billing'), changes.join('; '));
    assert.equal(standIn.accounts().filter((a) => a.metadata.name === name).length, 0, 'a dry run stores nothing');
    await assertAccessible(page, 'the adopt review');
    await screenshot(page, '10-adopt-review');

    // Someone takes it into the cluster with kubectl first: the adoption no longer applies.
    await kubectlCreate(name, {
      managementPolicies: ['Observe'],
      forProvider: { location: 'westeurope', resourceGroupName: 'rg-books-prod' },
    });
    await applyRefused(dialog, /already known/);
    await screenshot(page, '11-adopt-conflict');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await kubectl(['delete', 'account', name, '--wait=true', '--timeout=60s']);
    assert.ok(standIn.azure.get(name), 'deleting an observe-only object leaves Azure alone');
    await classified(name, 'cloud_only');
    await reloadUntil(page, 'cloud_only');

    const again = await review(page, 'Adopt (observe only)', name);
    await apply(page, again.dialog, 'Adopt (observe only)');
    const adopted = standIn.accounts().find((a) => a.metadata.name === name);
    assert.deepEqual(adopted?.spec?.['managementPolicies'], ['Observe']);
    assert.equal(adopted?.metadata.annotations?.['crossplane.io/external-name'], name);
    const observing = await classified(name, 'in_sync');
    assert.equal(observing.observeOnly, true);
    assert.deepEqual(standIn.azure.get(name), azureBefore, 'adopting wrote nothing to Azure');
    assert.equal(armWrites(), writesBefore, 'the portal never wrote to ARM');
    const [adoptRecord] = await history(name);
    assert.deepEqual([adoptRecord?.action, adoptRecord?.status], ['adopt', 'applied']);
    await reloadUntil(page, 'in_sync');
    await screenshot(page, '12-adopted');

    // manage: the review, a kubectl edit that makes it stale, then the apply.
    const before = dryRuns('patch', name);
    const manage = await review(page, 'Manage fully', name);
    assert.ok(manage.changes.includes('Minimum TLS version: TLS 1.2'), manage.changes.join('; '));
    assert.equal(dryRuns('patch', name), before + 1, 'the review asked the cluster for a dry run');
    assert.deepEqual(forProvider(name), { location: 'westeurope', resourceGroupName: 'rg-books-prod' });
    await assertAccessible(page, 'the manage review');
    await screenshot(page, '13-manage-review');
    await kubectl(['annotate', 'account', name, 'example.com/owner=billing']);
    await applyRefused(manage.dialog, /changed by someone else/);
    await loadLatest(manage.dialog);

    const latest = await review(page, 'Manage fully', name);
    await apply(page, latest.dialog, 'Manage fully');
    const managed = standIn.accounts().find((a) => a.metadata.name === name);
    assert.deepEqual(managed?.spec?.['managementPolicies'], ['*']);
    assert.equal(forProvider(name)['accountReplicationType'], 'GRS');
    const full = await classified(name, 'in_sync');
    assert.notEqual(full.observeOnly, true);
    assert.equal(standIn.azure.get(name)?.sku.name, 'Standard_GRS', 'Azure kept what it held');
    const actions = (await history(name)).map((entry) => [entry.action, entry.status]);
    assert.deepEqual(actions, [
      ['manage', 'applied'],
      ['adopt', 'applied'],
    ]);
    await reloadUntil(page, 'in_sync');
    await page.getByRole('button', { name: 'Manage fully', exact: true }).waitFor({ state: 'detached' });
    await screenshot(page, '14-managed');
    await page.close();
  });

  it('an ARM that throttles reads observation_unavailable, never in sync, until it answers again', async () => {
    const name = 'stjrnthrottle';
    await createThroughPortal(name);
    standIn.arm.setFaults({ throttle: { retryAfterSeconds: 1 } });
    try {
      await classified(name, 'observation_unavailable');
      const inventory = await api<{ items: Item[] }>('/resources');
      assert.ok(
        inventory.body.items.every((entry) => entry.classification.code !== 'in_sync'),
        'nothing reads in sync while Azure cannot be read',
      );
      const page = await openDetail(name);
      const shown = verdict(page, 'observation_unavailable');
      await shown.getByText('Azure not readable').waitFor();
      assert.match(await shown.innerText(), /throttling/);
      assert.equal(await page.getByText('In sync', { exact: true }).count(), 0);
      await screenshot(page, '15-observation-unavailable');
      await page.close();
    } finally {
      standIn.arm.clearFaults();
    }
    await classified(name, 'in_sync');
  });

  it('logged nothing in the browser but the refused applies', () => {
    assert.deepEqual(
      browser.errors.filter((error) => !/remediate.*status of 409/.test(error)),
      [],
    );
  });
});
