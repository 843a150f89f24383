import { describe, expect, it } from 'vitest';
import { buildAccountManifest } from '@/lib/platform/account-manifest';
import {
  applyChange,
  checkForm,
  initialFormValues,
  parseIpRanges,
  previewRequest,
  toRequestInput,
} from './storage-form-model';

const groups = [
  { name: 'rg-a', location: 'westeurope', ready: true },
  { name: 'rg-b', location: 'northeurope', ready: true },
  { name: 'rg-c', location: 'westus3', ready: true },
];
const choices = { resourceGroups: groups, locations: ['westeurope', 'northeurope', 'westus3'] as const };

describe('storage workflow form rules', () => {
  const start = { ...initialFormValues(choices), application: 'shop' };

  it('starts from the first ready resource group and its location', () => {
    expect(initialFormValues(choices)).toMatchObject({ resourceGroup: 'rg-a', location: 'westeurope' });
  });

  it('follows the location of a newly chosen resource group', () => {
    expect(applyChange(start, 'resourceGroup', 'rg-b', choices).location).toBe('northeurope');
    expect(applyChange(start, 'resourceGroup', 'rg-c', choices).location).toBe('westus3');
  });

  it("falls back to the first allowed location when the group's own is not allowed", () => {
    const narrowed = { resourceGroups: groups, locations: ['swedencentral'] as const };
    expect(initialFormValues(narrowed).location).toBe('swedencentral');
    expect(applyChange(start, 'resourceGroup', 'rg-c', narrowed).location).toBe('swedencentral');
  });

  it('forces Premium for premium-only kinds and drops geo replication with it', () => {
    const geo = applyChange(start, 'replicationType', 'GRS');
    const next = applyChange(geo, 'accountKind', 'FileStorage');
    expect(next).toMatchObject({ accountTier: 'Premium', replicationType: 'LRS' });
    expect(checkForm(next).valid).toBe(true);
  });

  it('clears the access tier for kinds that take none, and restores a default when it applies again', () => {
    const storageV1 = applyChange(start, 'accountKind', 'Storage');
    expect(storageV1.accessTier).toBe('');
    expect(applyChange(storageV1, 'accountKind', 'StorageV2').accessTier).toBe('Hot');
  });

  it('turns SFTP and NFSv3 off with hierarchical namespace', () => {
    const hns = applyChange(applyChange(start, 'hierarchicalNamespace', true), 'sftpEnabled', true);
    const nfs = applyChange(hns, 'nfsv3Enabled', true);
    expect(nfs).toMatchObject({ sftpEnabled: true, nfsv3Enabled: true, httpsOnly: false });
    expect(applyChange(nfs, 'hierarchicalNamespace', false)).toMatchObject({ sftpEnabled: false, nfsv3Enabled: false });
  });

  it('sends allowed ranges only with public network access', () => {
    const typed = applyChange(start, 'allowedIpRanges', '203.0.113.0/24,\n198.51.100.7');
    expect(toRequestInput(typed).allowedIpRanges).toEqual([]);
    expect(toRequestInput(applyChange(typed, 'publicNetworkAccess', true)).allowedIpRanges).toEqual([
      '203.0.113.0/24',
      '198.51.100.7',
    ]);
    expect(parseIpRanges('  ')).toEqual([]);
  });

  it('leaves the name out when empty so the platform generates one', () => {
    expect(toRequestInput(start)).not.toHaveProperty('name');
    expect(toRequestInput(applyChange(start, 'name', 'stshop01')).name).toBe('stshop01');
  });

  it('reports field problems through the shared schema', () => {
    const check = checkForm({ ...start, application: 'Not Valid', name: 'x' });
    expect(check.valid).toBe(false);
    expect(!check.valid && Object.keys(check.fields).sort()).toEqual(['application', 'name']);
  });

  it('previews the manifest of a form that is not valid yet, from what is typed so far', () => {
    const typed = { ...start, name: ' ', application: ' shop ', accountKind: 'BlockBlobStorage' as const };
    const values = applyChange(applyChange(typed, 'accountKind', 'BlockBlobStorage'), 'publicNetworkAccess', true);
    const typedSoFar = { ...values, allowedIpRanges: '203.0.113.7, not-an-ip' };
    expect(checkForm(typedSoFar).valid).toBe(false);
    const preview = previewRequest(typedSoFar);
    expect(preview).toMatchObject({ name: undefined, application: 'shop', accountTier: 'Premium' });
    expect(preview).not.toHaveProperty('accessTier');
    const { forProvider } = buildAccountManifest(preview).spec;
    expect(forProvider.networkRules?.[0]?.ipRules).toEqual(['203.0.113.7', 'not-an-ip']);
    expect(forProvider).toMatchObject({ accountKind: 'BlockBlobStorage', accountTier: 'Premium' });
  });
});
