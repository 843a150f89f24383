import { describe, expect, it } from 'vitest';
import { buildAccountManifest } from '@/lib/platform/account-manifest';
import type { AccountObject } from './account-object';
import { planChange } from './account-change-plan';
import { CHANGE_KEYS } from './change-annotations';
import { toStorageAccount } from './account-mapper';

const context = {
  requestId: 'req-1',
  requestedBy: 'owner@books.example',
  principal: { subject: 'https://idp.example#owner', identity: 'owner@books.example', role: 'admin' as const },
};

function account(resourceVersion = '41'): AccountObject {
  const manifest = buildAccountManifest({
    name: 'stplan01',
    application: 'webshop',
    environment: 'dev',
    resourceGroup: 'rg-books-dev',
    location: 'westeurope',
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
  });
  return { ...manifest, metadata: { ...manifest.metadata, resourceVersion } };
}

describe('planning an in-place change', () => {
  it('sends the version the person read, so the API server refuses a stale one', () => {
    const { patch } = planChange(account(), { resourceVersion: '41', accessTier: 'Cool' }, context);
    expect(patch?.metadata.resourceVersion).toBe('41');
    expect(patch?.spec?.forProvider).toEqual({ accessTier: 'Cool' });
    expect(patch?.metadata.annotations).toMatchObject({
      [CHANGE_KEYS.changedBy]: 'owner@books.example',
      [CHANGE_KEYS.changeRequestId]: 'req-1',
    });
  });

  it('refuses at once when the object is already at another version', () => {
    expect(() => planChange(account('42'), { resourceVersion: '41', accessTier: 'Cool' }, context)).toThrow(
      /you sent version 41; it is now at 42/,
    );
  });

  it('removes the firewall with null when public access goes off, and sends nothing for no change', () => {
    const { patch } = planChange(account(), { resourceVersion: '41', publicNetworkAccess: false }, context);
    expect(patch?.spec?.forProvider).toEqual({ publicNetworkAccessEnabled: false, networkRules: null });
    expect(planChange(account(), { resourceVersion: '41', accessTier: 'Hot' }, context)).toEqual({ changes: [] });
  });

  it('records what it applied, so a later edit elsewhere shows as drift and its own does not', () => {
    const object = account();
    const { patch } = planChange(object, { resourceVersion: '41', minTlsVersion: 'TLS1_3' }, context);
    const after: AccountObject = {
      ...object,
      metadata: {
        ...object.metadata,
        annotations: { ...object.metadata?.annotations, ...patch?.metadata.annotations },
      },
      spec: { forProvider: { ...object.spec?.forProvider, minTlsVersion: 'TLS1_3' } },
    };
    expect(toStorageAccount(after).sync.changedOutsidePortal).toEqual([]);
    const editedElsewhere: AccountObject = {
      ...after,
      spec: { forProvider: { ...after.spec?.forProvider, accessTier: 'Cool' } },
    };
    expect(toStorageAccount(editedElsewhere).sync).toMatchObject({
      inSync: false,
      changedOutsidePortal: ['accessTier'],
    });
  });

  it('refuses to change an account that is being deleted', () => {
    const object = account();
    object.metadata = { ...object.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' };
    expect(() => planChange(object, { resourceVersion: '41', accessTier: 'Cool' }, context)).toThrow(/being deleted/);
  });
});
