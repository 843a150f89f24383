import { describe, expect, it } from 'vitest';
import { withChange } from './account-change';
import {
  changeableSettings,
  ownedChanges,
  ownedFromRequest,
  ownedFromView,
  settingsInEffect,
  type OwnedSettings,
} from './owned-settings';
import { parseStorageAccountRequest } from './storage-request';

function request(input: Record<string, unknown>) {
  const parsed = parseStorageAccountRequest({
    name: 'stowned01',
    application: 'webshop',
    environment: 'dev',
    resourceGroup: 'rg-books-dev',
    location: 'westeurope',
    ...input,
  });
  if (!parsed.success) throw new Error(parsed.message);
  return parsed.request;
}

describe('owned settings', () => {
  it('takes a create request with the security baseline every manifest carries', () => {
    const owned = ownedFromRequest(
      request({ accessTier: 'Cool', publicNetworkAccess: true, allowedIpRanges: ['203.0.113.7'] }),
    );
    expect(owned).toMatchObject({
      location: 'westeurope',
      kind: 'StorageV2',
      tier: 'Standard',
      replication: 'LRS',
      accessTier: 'Cool',
      minTlsVersion: 'TLS1_2',
      allowNestedItemsToBePublic: false,
      crossTenantReplication: false,
      infrastructureEncryption: true,
      publicNetworkAccess: true,
      allowedIpRanges: ['203.0.113.7'],
      application: 'webshop',
      environment: 'dev',
    });
  });

  it('has no access tier for a kind without one', () => {
    // As a manifest would: the tier is dropped for a kind that has none, whatever the request held.
    const premium = { ...request({}), accountKind: 'BlockBlobStorage' as const, accountTier: 'Premium' as const };
    expect(ownedFromRequest({ ...premium, accessTier: 'Hot' }).accessTier).toBeUndefined();
    expect(ownedFromRequest({ ...request({}), accessTier: 'Hot' }).accessTier).toBe('Hot');
  });

  it('lists every field of a new account as a change, and only the moved fields of a change', () => {
    const before = ownedFromRequest(request({}));
    expect(ownedChanges(undefined, before).map((change) => change.field)).toContain('location');
    expect(ownedChanges(undefined, before).every((change) => change.from === undefined)).toBe(true);
    const after = withChange(before, { minTlsVersion: 'TLS1_3', environment: 'prod' });
    expect(ownedChanges(before, after)).toEqual([
      { field: 'minTlsVersion', label: 'Minimum TLS version', from: 'TLS1_2', to: 'TLS1_3' },
      { field: 'environment', label: 'Environment', from: 'dev', to: 'prod' },
    ]);
  });

  it('moves only what a change names, and empties the firewall when public access is switched off', () => {
    const open: OwnedSettings = {
      ...ownedFromRequest(request({ publicNetworkAccess: true, allowedIpRanges: ['203.0.113.7'] })),
    };
    const closed = withChange(open, { publicNetworkAccess: false });
    expect(closed.publicNetworkAccess).toBe(false);
    expect(closed.allowedIpRanges).toEqual([]);
    expect({ ...closed, publicNetworkAccess: true, allowedIpRanges: ['203.0.113.7'] }).toEqual(open);
  });

  it('fills what a cluster object leaves out with Azure defaults, not with the portal baseline', () => {
    const owned = ownedFromView({ location: 'westeurope', resourceGroup: 'rg-books-dev' });
    expect(owned).toMatchObject({
      minTlsVersion: 'TLS1_0',
      publicNetworkAccess: true,
      allowNestedItemsToBePublic: true,
    });
    expect(owned.application).toBeUndefined();
  });
});

describe('settings derived from the two sides', () => {
  it('takes what Azure reports over what the spec asks, and Azure defaults for what neither states', () => {
    const settings = settingsInEffect({ minTlsVersion: 'TLS1_2', httpsOnly: false }, { minTlsVersion: 'TLS1_3' });
    expect(settings).toMatchObject({ minTlsVersion: 'TLS1_3', httpsOnly: false, sharedKeyAccess: true });
  });

  it('starts a change from the spec, the platform baseline where it is silent, and the ownership labels', () => {
    expect(
      changeableSettings({ accessTier: 'Cool', tier: 'Standard' }, { application: 'webshop', environment: '' }),
    ).toStrictEqual({
      accessTier: 'Cool',
      publicNetworkAccess: false,
      allowedIpRanges: [],
      minTlsVersion: 'TLS1_2',
      httpsOnly: true,
      application: 'webshop',
    });
  });
});
