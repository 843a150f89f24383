import { describe, expect, it } from 'vitest';
import { conformCombination, replicationAllowed, ruleViolations, type StorageCombination } from './storage-rules';

const standard: StorageCombination = {
  accountKind: 'StorageV2',
  accountTier: 'Standard',
  replicationType: 'LRS',
  accessTier: 'Hot',
  publicNetworkAccess: false,
  allowedIpRanges: [],
  hierarchicalNamespace: false,
  sftpEnabled: false,
  nfsv3Enabled: false,
  httpsOnly: true,
};

const fieldsBroken = (settings: Partial<StorageCombination>) =>
  ruleViolations({ ...standard, ...settings }).map((violation) => violation.field);

describe('Azure storage rules', () => {
  it('finds nothing wrong with a standard StorageV2 account', () => {
    expect(ruleViolations(standard)).toEqual([]);
  });

  it('puts each broken rule on the field to change', () => {
    expect(fieldsBroken({ accountKind: 'FileStorage' })).toEqual(['accountTier']);
    expect(fieldsBroken({ accountTier: 'Premium', replicationType: 'GZRS' })).toEqual(['replicationType']);
    expect(fieldsBroken({ accountKind: 'Storage' })).toEqual(['accessTier']);
    expect(fieldsBroken({ sftpEnabled: true })).toEqual(['sftpEnabled']);
    expect(fieldsBroken({ hierarchicalNamespace: true, nfsv3Enabled: true })).toEqual(['nfsv3Enabled']);
    expect(fieldsBroken({ allowedIpRanges: ['10.0.0.0/8'] })).toEqual(['allowedIpRanges']);
    expect(fieldsBroken({ publicNetworkAccess: true, allowedIpRanges: ['10.0.0.0/31'] })).toEqual(['allowedIpRanges']);
  });

  it('allows geo-redundant replication on Standard only', () => {
    expect(replicationAllowed('Standard', 'RAGRS')).toBe(true);
    expect(replicationAllowed('Premium', 'RAGRS')).toBe(false);
    expect(replicationAllowed('Premium', 'ZRS')).toBe(true);
  });

  it('conforms every combination it produces to the rules', () => {
    const premiumGeo = conformCombination({ ...standard, accountKind: 'BlockBlobStorage', replicationType: 'GRS' });
    expect(premiumGeo).toMatchObject({ accountTier: 'Premium', replicationType: 'LRS' });
    expect(ruleViolations(premiumGeo)).toEqual([]);
    const nfs = conformCombination({ ...standard, hierarchicalNamespace: true, nfsv3Enabled: true }, 'nfsv3Enabled');
    expect(nfs.httpsOnly).toBe(false);
    expect(ruleViolations(nfs)).toEqual([]);
    const https = conformCombination({ ...nfs, httpsOnly: true }, 'httpsOnly');
    expect(https.nfsv3Enabled).toBe(false);
  });
});
