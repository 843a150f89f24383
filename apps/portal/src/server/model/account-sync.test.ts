import { describe, expect, it } from 'vitest';
import { buildAccountManifest } from '@/lib/platform/account-manifest';
import { toStorageAccount } from './account-mapper';
import type { AccountObject } from './account-object';
import { CHANGE_KEYS, withLastApplied } from './change-annotations';

/**
 * An account as the portal creates it (public access limited to one range, so it has firewall
 * rules), once Crossplane has reconciled it: Ready and Synced.
 */
function created(): AccountObject {
  const manifest = withLastApplied(
    buildAccountManifest({
      name: 'stsync01',
      application: 'webshop',
      environment: 'dev',
      resourceGroup: 'rg-books-dev',
      location: 'westus3',
      accountKind: 'StorageV2',
      accountTier: 'Standard',
      replicationType: 'LRS',
      accessTier: 'Hot',
      publicNetworkAccess: true,
      allowedIpRanges: ['203.0.113.0/24'],
      hierarchicalNamespace: false,
      sftpEnabled: false,
      nfsv3Enabled: false,
      httpsOnly: true,
      sharedKeyAccess: true,
    }),
  );
  return {
    ...manifest,
    metadata: { ...manifest.metadata, name: 'stsync01', resourceVersion: '7' },
    status: {
      conditions: [
        { type: 'Ready', status: 'True', reason: 'Available' },
        { type: 'Synced', status: 'True', reason: 'ReconcileSuccess' },
      ],
    },
  };
}

function withForProvider(object: AccountObject, forProvider: Record<string, unknown>): AccountObject {
  return { ...object, spec: { forProvider } };
}

describe("Crossplane's verdict", () => {
  it('is not in sync before Crossplane has reported, nor while Azure is still creating the account', () => {
    const object = created();
    const fresh = { ...object, status: {} };
    expect(toStorageAccount(fresh).sync).toMatchObject({
      inSync: false,
      reasons: ['Crossplane has not yet reported the account ready and synced'],
    });
    const creating = {
      ...object,
      status: {
        conditions: [
          { type: 'Ready', status: 'False', reason: 'Creating' },
          { type: 'Synced', status: 'True', reason: 'ReconcileSuccess' },
        ],
      },
    };
    expect(toStorageAccount(creating).sync.inSync).toBe(false);
    expect(toStorageAccount(object).sync.inSync).toBe(true);
  });
});

describe('drift from the request the portal applied at create', () => {
  it('records spec.forProvider as the last applied request on the manifest it creates', () => {
    const object = created();
    const recorded = object.metadata?.annotations?.[CHANGE_KEYS.lastApplied] ?? '';
    expect(JSON.parse(recorded)).toEqual(object.spec?.forProvider);
    expect(toStorageAccount(object).sync).toMatchObject({ inSync: true, changedOutsidePortal: [] });
  });

  it('reports a spec edited elsewhere after create, with no change made in the portal', () => {
    const object = created();
    const edited = withForProvider(object, {
      ...object.spec?.forProvider,
      minTlsVersion: 'TLS1_3',
      accessTier: 'Cool',
    });
    expect(toStorageAccount(edited).sync).toMatchObject({
      inSync: false,
      changedOutsidePortal: ['accessTier', 'minTlsVersion'],
    });
    const { networkRules: _removed, ...withoutFirewall } = object.spec?.forProvider ?? {};
    expect(toStorageAccount(withForProvider(object, withoutFirewall)).sync.changedOutsidePortal).toEqual([
      'networkRules',
    ]);
  });

  it('is not fooled by fields the provider late-initializes, nor by keys the API server gives back in its own order', () => {
    const object = created();
    const forProvider = object.spec?.forProvider as unknown as Record<string, unknown>;
    // Go serializes maps with sorted keys; providers fill in Azure's defaults the portal never set.
    const reordered = Object.fromEntries(
      Object.keys(forProvider)
        .sort()
        .map((key) => [key, forProvider[key]]),
    );
    reordered['networkRules'] = [{ bypass: ['AzureServices'], defaultAction: 'Deny', ipRules: ['203.0.113.0/24'] }];
    reordered['dnsEndpointType'] = 'Standard';
    reordered['largeFileShareEnabled'] = false;
    expect(toStorageAccount(withForProvider(object, reordered)).sync).toMatchObject({
      inSync: true,
      changedOutsidePortal: [],
    });
  });
});
