/**
 * Classification and remediation in Chromium when Azure's side changes: an ARM PATCH edits the
 * account in Azure, an ARM PUT makes an account nobody asked for, a throttling ARM hides Azure.
 * Each remediation goes through its review dialog, as in remediation-journey.test.ts (the cluster's
 * side), on the same world (remediation-journey-world.ts).
 * Run: npm run portal:build && node --import tsx --test e2e/cloud-remediation-journey.test.ts
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { until } from './harness';
import {
  api,
  apply,
  applyRefused,
  armWrite,
  assertAccessible,
  browserErrorsButRefusedApplies,
  classified,
  createThroughPortal,
  dryRuns,
  forProvider,
  history,
  type Item,
  kubectl,
  kubectlCreate,
  loadLatest,
  openDetail,
  reloadUntil,
  review,
  runInRemediationJourney,
  screenshot,
  standIn,
  verdict,
} from './remediation-journey-world';

runInRemediationJourney();

describe('classification and remediation, in a browser', () => {
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
    assert.deepEqual(browserErrorsButRefusedApplies(), []);
  });
});
