/**
 * Identity as the OpenID Provider vouches for it, on the portal's production build against the
 * Kubernetes stand-in: an unverified e-mail claim gets nobody else's account, and accounts recorded
 * before subjects (an e-mail only) stay their owner's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { buildAccountManifest, PORTAL_KEYS } from '../src/lib/platform/account-manifest';
import { parseStorageAccountRequest } from '../src/lib/platform/storage-request';
import { waitForStreamedContent } from './harness';
import {
  account,
  asUser,
  MALLORY,
  pageAs,
  portal,
  provider,
  RITA,
  signIn,
  standIn,
  storageRequest,
  runInSecurityJourney,
  VERA,
} from './security-journey-world';

runInSecurityJourney();

describe('identity the provider vouches for', () => {
  it('gives a user whose unverified e-mail equals another’s none of that person’s accounts', async () => {
    const mallory = await signIn(MALLORY);
    const page = await pageAs(MALLORY);
    await page.goto(`${portal.url}/resources`);
    await waitForStreamedContent(page);
    assert.match(await page.getByTestId('account-button').innerText(), /Mallory/);
    await page.getByTestId('account-button').click();
    assert.doesNotMatch(await page.getByRole('menu').innerText(), /rita@example\.com/);

    const before = structuredClone(account('stsecrita')?.metadata);
    const version = before?.resourceVersion ?? '';
    const attempts = [
      await asUser(mallory, '/api/platform/resources?name=stsecrita', {
        method: 'PATCH',
        body: { resourceVersion: version, httpsOnly: false },
      }),
      await asUser(mallory, '/api/platform/resources/resync?name=stsecrita', { method: 'POST' }),
      await asUser(mallory, '/api/platform/resources?name=stsecrita', { method: 'DELETE' }),
    ];
    for (const attempt of attempts) {
      assert.equal(attempt.status, 403, await attempt.clone().text());
      assert.match(((await attempt.json()) as { error: string }).error, /needs the admin role/);
    }
    const after = account('stsecrita')?.metadata;
    assert.equal(after?.resourceVersion, version, 'Rita’s account did not change');
    assert.equal(after?.deletionTimestamp, undefined);
    assert.deepEqual(after?.annotations, before?.annotations);

    // What Mallory does to her own account is recorded as hers, never under Rita's address.
    const created = await asUser(mallory, '/api/platform/resources', {
      method: 'POST',
      body: storageRequest('stsecmallory'),
    });
    assert.equal(created.status, 201, await created.clone().text());
    assert.equal(
      (await asUser(mallory, '/api/platform/resources/resync?name=stsecmallory', { method: 'POST' })).status,
      202,
    );
    const own = account('stsecmallory')?.metadata.annotations ?? {};
    assert.equal(own[PORTAL_KEYS.requestedBy], 'mallory');
    assert.equal(own[PORTAL_KEYS.requestedBySubject], `${provider.issuer}#mallory`);
    assert.equal(own['platform-portal/resync-requested-by'], 'mallory');
    assert.ok(!Object.values(own).some((value) => value.includes(RITA.email)), JSON.stringify(own));

    // Rita herself is recorded by subject and may resync her own account.
    const ritas = account('stsecrita')?.metadata.annotations ?? {};
    assert.equal(ritas[PORTAL_KEYS.requestedBySubject], `${provider.issuer}#rita`);
    const rita = await signIn(RITA);
    assert.equal((await asUser(rita, '/api/platform/resources/resync?name=stsecrita', { method: 'POST' })).status, 202);
    assert.equal(account('stsecrita')?.metadata.annotations?.['platform-portal/resync-requested-by'], RITA.email);
  });

  it('keeps an account recorded before subjects (an e-mail only) for the user whose verified e-mail it names', async () => {
    const parsed = parseStorageAccountRequest(storageRequest('stseclegacy'));
    assert.ok(parsed.success);
    const manifest = buildAccountManifest(parsed.request, { requestedBy: RITA.email, requestId: 'before-subjects' });
    const kubeconfig = new KubeConfig();
    kubeconfig.loadFromString(standIn.kubeconfig());
    await kubeconfig.makeApiClient(CustomObjectsApi).createClusterCustomObject({
      group: 'storage.azure.upbound.io',
      version: 'v1beta1',
      plural: 'accounts',
      body: manifest,
    });
    assert.equal(account('stseclegacy')?.metadata.annotations?.[PORTAL_KEYS.requestedBySubject], undefined);

    for (const person of [MALLORY, VERA]) {
      const cookie = await signIn(person);
      const resync = await asUser(cookie, '/api/platform/resources/resync?name=stseclegacy', { method: 'POST' });
      assert.equal(resync.status, 403, `${person.login} resynced Rita's legacy account`);
    }
    const rita = await signIn(RITA);
    const resync = await asUser(rita, '/api/platform/resources/resync?name=stseclegacy', { method: 'POST' });
    assert.equal(resync.status, 202, await resync.text());
    // The stand-in's reconciliation moves the version on by itself for a while: retry a stale one.
    let change: Response | undefined;
    for (let attempt = 0; attempt < 20 && (change === undefined || change.status === 409); attempt += 1) {
      if (change) await new Promise((resolve) => setTimeout(resolve, 250));
      const version = account('stseclegacy')?.metadata.resourceVersion ?? '';
      change = await asUser(rita, '/api/platform/resources?name=stseclegacy', {
        method: 'PATCH',
        body: { resourceVersion: version, minTlsVersion: 'TLS1_3' },
      });
    }
    assert.equal(change?.status, 200, await change?.text());
  });
});
