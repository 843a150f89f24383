import { describe, expect, it } from 'vitest';
import {
  buildAccountManifest,
  forProviderFields,
  forProviderOf,
  generatedNamePrefix,
  PORTAL_KEYS,
  settingsFromForProvider,
} from './account-manifest';
import { OWNED_FIELDS, ownedFromRequest } from './owned-settings';
import { parseStorageAccountRequest, type StorageAccountRequestInput } from './storage-request';

function request(input: Partial<StorageAccountRequestInput> = {}) {
  const parsed = parseStorageAccountRequest({
    application: 'web-shop',
    environment: 'prod',
    resourceGroup: 'rg-books-prod',
    location: 'northeurope',
    ...input,
  });
  if (!parsed.success) throw new Error(JSON.stringify(parsed.fields));
  return parsed.request;
}

describe('Account manifest builder', () => {
  it('builds a storage.azure.upbound.io/v1beta1 Account with the security baseline', () => {
    const manifest = buildAccountManifest(request({ name: 'stwebshop01' }));
    expect(manifest.apiVersion).toBe('storage.azure.upbound.io/v1beta1');
    expect(manifest.kind).toBe('Account');
    expect(manifest.metadata.name).toBe('stwebshop01');
    expect(manifest.spec.forProvider).toMatchObject({
      location: 'northeurope',
      resourceGroupName: 'rg-books-prod',
      accountKind: 'StorageV2',
      accountTier: 'Standard',
      accountReplicationType: 'LRS',
      minTlsVersion: 'TLS1_2',
      httpsTrafficOnlyEnabled: true,
      allowNestedItemsToBePublic: false,
      crossTenantReplicationEnabled: false,
      infrastructureEncryptionEnabled: true,
      publicNetworkAccessEnabled: false,
    });
  });

  it('labels the object with application and environment', () => {
    const { labels } = buildAccountManifest(request()).metadata;
    expect(labels[PORTAL_KEYS.application]).toBe('web-shop');
    expect(labels[PORTAL_KEYS.environment]).toBe('prod');
  });

  it('writes labels and annotations under the neutral platform-portal prefix only', () => {
    const manifest = buildAccountManifest(request(), { requestId: 'r1', requestedBy: 'ann', requestedAt: 'now' });
    expect(manifest.metadata.labels).toEqual({
      'app.kubernetes.io/managed-by': 'platform-portal',
      'platform-portal/application': 'web-shop',
      'platform-portal/environment': 'prod',
    });
    expect(Object.keys(manifest.metadata.annotations ?? {}).sort()).toEqual([
      'platform-portal/request-id',
      'platform-portal/requested-at',
      'platform-portal/requested-by',
    ]);
  });

  it('uses generateName when no name is given, short enough for the random suffix', () => {
    const manifest = buildAccountManifest(request({ application: 'a-very-long-application-name-indeed' }));
    expect(manifest.metadata.name).toBeUndefined();
    expect(manifest.metadata.generateName).toMatch(/^st[a-z0-9]+$/);
    expect(manifest.metadata.generateName!.length + 5).toBeLessThanOrEqual(24);
    expect(generatedNamePrefix('web-shop')).toBe('stwebshop');
  });

  it('cannot be talked out of the security baseline', () => {
    const manifest = buildAccountManifest(request({ httpsOnly: true }));
    expect(JSON.stringify(manifest)).not.toContain('TLS1_0');
    expect(manifest.spec.forProvider.allowNestedItemsToBePublic).toBe(false);
  });

  it('restricts public access to the allowed ranges', () => {
    const open = buildAccountManifest(request({ publicNetworkAccess: true }));
    expect(open.spec.forProvider.networkRules).toEqual([
      { defaultAction: 'Allow', bypass: ['AzureServices'], ipRules: [] },
    ]);
    const limited = buildAccountManifest(request({ publicNetworkAccess: true, allowedIpRanges: ['203.0.113.0/24'] }));
    expect(limited.spec.forProvider.networkRules).toEqual([
      { defaultAction: 'Deny', bypass: ['AzureServices'], ipRules: ['203.0.113.0/24'] },
    ]);
    expect(buildAccountManifest(request()).spec.forProvider.networkRules).toBeUndefined();
  });

  it('records provenance as annotations when given', () => {
    const manifest = buildAccountManifest(request(), {
      requestId: 'req-1',
      requestedBy: 'dev@example.com',
      requestedAt: '2026-01-01T00:00:00Z',
    });
    expect(manifest.metadata.annotations).toEqual({
      [PORTAL_KEYS.requestId]: 'req-1',
      [PORTAL_KEYS.requestedBy]: 'dev@example.com',
      [PORTAL_KEYS.requestedAt]: '2026-01-01T00:00:00Z',
    });
  });

  it('maps the protocol and access settings to the CRD fields', () => {
    const manifest = buildAccountManifest(
      request({ hierarchicalNamespace: true, sftpEnabled: true, accessTier: 'Cool', sharedKeyAccess: false }),
    );
    expect(manifest.spec.forProvider).toMatchObject({
      isHnsEnabled: true,
      sftpEnabled: true,
      nfsv3Enabled: false,
      accessTier: 'Cool',
      sharedAccessKeyEnabled: false,
    });
  });
});

describe('spec.forProvider and the owned settings', () => {
  it("reads back every owned setting it writes, under the portal's names", () => {
    const settings = ownedFromRequest(
      request({
        accessTier: 'Cool',
        publicNetworkAccess: true,
        allowedIpRanges: ['203.0.113.9', '198.51.100.0/24'],
        hierarchicalNamespace: true,
        sftpEnabled: true,
      }),
    );
    const { tags, ...forProvider } = forProviderOf(settings);
    expect(tags).toEqual({ application: 'web-shop', environment: 'prod', 'managed-by': 'crossplane' });
    const read = settingsFromForProvider({ ...forProvider, tags });
    expect(Object.keys(read).sort()).toEqual([...OWNED_FIELDS].sort());
    expect(read).toEqual({ ...settings, allowedIpRanges: ['198.51.100.0/24', '203.0.113.9'] });
  });

  it('leaves out what a side does not state, or states with the wrong type', () => {
    expect(
      settingsFromForProvider({
        location: 'westeurope',
        httpsTrafficOnlyEnabled: 'yes',
        minTlsVersion: '',
        tags: null,
      }),
    ).toStrictEqual({ location: 'westeurope' });
  });

  it('writes only the settings a change names, and removes the firewall when public access goes', () => {
    expect(forProviderFields({ minTlsVersion: 'TLS1_3', environment: 'prod' })).toEqual({
      minTlsVersion: 'TLS1_3',
      tags: { environment: 'prod' },
    });
    expect(forProviderFields({ publicNetworkAccess: false, allowedIpRanges: [] })).toEqual({
      publicNetworkAccessEnabled: false,
      networkRules: null,
    });
  });
});
