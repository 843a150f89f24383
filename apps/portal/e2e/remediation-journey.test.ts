/**
 * Classification and remediation in Chromium when the cluster's side changes: a stand-in reset
 * loses the cluster, real kubectl edits or deletes the cluster object, Crossplane retries a failing
 * create. Each remediation goes through its review dialog: the diff, the server's dry run, a 409
 * when someone changed the account between review and apply, then the apply and its record in the
 * history. Azure's side is cloud-remediation-journey.test.ts's; the world both run in is
 * remediation-journey-world.ts.
 * Run: npm run portal:build && node --import tsx --test e2e/remediation-journey.test.ts
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestAccount } from './harness';
import { stripPortalAnnotations } from './kubectl';
import {
  apply,
  applyRefused,
  assertAccessible,
  browserErrorsButRefusedApplies,
  classified,
  createThroughPortal,
  dryRuns,
  forProvider,
  history,
  kubectl,
  kubectlCreate,
  loadLatest,
  openDetail,
  portal,
  reloadUntil,
  review,
  runInRemediationJourney,
  screenshot,
  standIn,
  verdict,
} from './remediation-journey-world';

runInRemediationJourney();

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

  it('logged nothing in the browser but the refused applies', () => {
    assert.deepEqual(browserErrorsButRefusedApplies(), []);
  });
});
