import { describe, expect, it } from 'vitest';
import { PORTAL_KEYS } from '@/lib/platform/account-manifest';
import { deriveState, toStorageAccount } from './account-mapper';
import { currentSettings } from './account-change-plan';

describe('account state', () => {
  it.each([
    [[], false, 'Provisioning'],
    [[{ type: 'Synced', status: 'True' as const }], false, 'Provisioning'],
    [
      [
        { type: 'Synced', status: 'True' as const },
        { type: 'Ready', status: 'False' as const, reason: 'Creating' },
      ],
      false,
      'Provisioning',
    ],
    [
      [
        { type: 'Synced', status: 'True' as const },
        { type: 'Ready', status: 'True' as const },
      ],
      false,
      'Ready',
    ],
    [[{ type: 'Synced', status: 'False' as const, reason: 'ReconcileError' }], false, 'Failed'],
    [[{ type: 'Ready', status: 'False' as const, reason: 'Unavailable' }], false, 'Failed'],
    [[{ type: 'Ready', status: 'True' as const }], true, 'Deleting'],
    [[{ type: 'Ready', status: 'Unknown' as const }], false, 'Unknown'],
  ])('conditions %j (deleting: %s) -> %s', (conditions, deleting, expected) => {
    expect(deriveState(conditions, deleting).state).toBe(expected);
  });

  it('explains a failure with the reason and message of the failing condition', () => {
    const { detail } = deriveState(
      [{ type: 'Synced', status: 'False', reason: 'ReconcileError', message: 'quota exceeded' }],
      false,
    );
    expect(detail).toBe('ReconcileError: quota exceeded');
  });
});

describe('Account object to StorageAccount', () => {
  it('reads labels, annotations, desired settings and what Azure observed', () => {
    const account = toStorageAccount({
      metadata: {
        name: 'stshop01',
        uid: 'u-1',
        creationTimestamp: '2026-01-01T00:00:00Z',
        labels: { [PORTAL_KEYS.application]: 'shop', [PORTAL_KEYS.environment]: 'prod' },
        annotations: { [PORTAL_KEYS.requestedBy]: 'dev@example.com', [PORTAL_KEYS.requestId]: 'r-1' },
      },
      spec: {
        forProvider: {
          accountTier: 'Premium',
          accountReplicationType: 'ZRS',
          accountKind: 'BlockBlobStorage',
          resourceGroupName: 'rg',
          location: 'westeurope',
        },
      },
      status: {
        conditions: [
          { type: 'Ready', status: 'True', reason: 'Available' },
          { type: 'Synced', status: 'True' },
          { status: 'True' },
        ],
        atProvider: {
          primaryBlobEndpoint: 'https://stshop01.blob.core.windows.net/',
          location: 'westeurope',
          networkRules: [{ ipRules: ['203.0.113.0/24'] }],
        },
      },
    });
    expect(account).toMatchObject({
      name: 'stshop01',
      application: 'shop',
      environment: 'prod',
      sku: 'Premium_ZRS',
      kind: 'BlockBlobStorage',
      state: 'Ready',
      requestedBy: 'dev@example.com',
      requestId: 'r-1',
      observed: { primaryBlobEndpoint: 'https://stshop01.blob.core.windows.net/' },
    });
    expect(account.reported.allowedIpRanges).toEqual(['203.0.113.0/24']);
    expect(account.conditions).toHaveLength(2);
  });

  it('leaves settings a side does not state out of its views rather than holding them as undefined', () => {
    const account = toStorageAccount({
      metadata: { name: 'stpartial01', labels: { [PORTAL_KEYS.environment]: 'dev' } },
      spec: { forProvider: { location: 'westeurope', accountTier: 'Standard', publicNetworkAccessEnabled: false } },
      status: { atProvider: { location: 'westeurope' } },
    });
    expect(account.desired).toStrictEqual({ location: 'westeurope', tier: 'Standard', publicNetworkAccess: false });
    expect(account.reported).toStrictEqual({ location: 'westeurope' });
    expect(currentSettings(account)).toStrictEqual({
      publicNetworkAccess: false,
      allowedIpRanges: [],
      minTlsVersion: 'TLS1_2',
      httpsOnly: true,
      environment: 'dev',
    });
  });

  it('survives an object with almost nothing in it', () => {
    const account = toStorageAccount({ metadata: { name: 'x1y', deletionTimestamp: '2026-01-01T00:00:00Z' } });
    expect(account).toMatchObject({
      name: 'x1y',
      state: 'Deleting',
      conditions: [],
      observed: {},
      deletionRequestedAt: '2026-01-01T00:00:00Z',
    });
    expect(account.sku).toBeUndefined();
  });
});
