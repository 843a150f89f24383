import { describe, expect, it } from 'vitest';
import { parseStorageAccountRequest, type StorageAccountRequestInput } from './storage-request';
import { AZURE_PUBLIC_REGIONS, isAllowedIpRange } from './storage-rules';

const base: StorageAccountRequestInput = {
  application: 'webshop',
  environment: 'dev',
  resourceGroup: 'rg-books-dev',
  location: 'westeurope',
};

function fieldsOf(input: unknown) {
  const result = parseStorageAccountRequest(input);
  return result.success ? {} : result.fields;
}

describe('storage account request schema', () => {
  it('accepts a minimal request and fills in safe defaults', () => {
    const result = parseStorageAccountRequest(base);
    expect(result).toMatchObject({
      success: true,
      request: {
        accountKind: 'StorageV2',
        accountTier: 'Standard',
        replicationType: 'LRS',
        httpsOnly: true,
        publicNetworkAccess: false,
      },
    });
  });

  it('treats an empty name as "generate one"', () => {
    const result = parseStorageAccountRequest({ ...base, name: '' });
    expect(result.success && result.request.name).toBe(undefined);
  });

  it.each(['ab', 'a'.repeat(25), 'Upper1', 'with-dash', 'spa ce'])('rejects the account name %j', (name) => {
    expect(fieldsOf({ ...base, name })).toHaveProperty('name');
  });

  it.each([
    ['ab', 'Too short: use at least 3 characters (this has 2)'],
    ['a'.repeat(30), 'Too long: use at most 24 characters (this has 30)'],
    ['Upper1', 'Invalid characters: use only lower-case letters a-z and digits 0-9'],
    ['with-dash', 'Invalid characters: use only lower-case letters a-z and digits 0-9'],
  ])('says which name rule %j breaks', (name, message) => {
    expect(fieldsOf({ ...base, name }).name).toBe(message);
  });

  it('says "required" for an empty application or resource group, and which rule a bad one breaks', () => {
    expect(fieldsOf({ ...base, application: '', resourceGroup: ' ' })).toEqual({
      application: 'Application is required',
      resourceGroup: 'Resource group is required',
    });
    expect(fieldsOf({ ...base, application: 'Web Shop' }).application).toMatch(/^Invalid characters/);
    expect(fieldsOf({ ...base, application: 'a'.repeat(41) }).application).toMatch(/^Too long/);
    expect(fieldsOf({ ...base, application: 'shop-' }).application).toMatch(/^Start and end with a letter or digit/);
  });

  it.each(['abc', 'a'.repeat(24), 'st2024data'])('accepts the account name %j', (name) => {
    expect(fieldsOf({ ...base, name })).toEqual({});
  });

  it.each(['BlockBlobStorage', 'FileStorage'])('requires Premium for %s', (accountKind) => {
    expect(fieldsOf({ ...base, accountKind, accountTier: 'Standard' })).toHaveProperty('accountTier');
    expect(fieldsOf({ ...base, accountKind, accountTier: 'Premium' })).toEqual({});
  });

  it.each(['GRS', 'RAGRS', 'GZRS', 'RAGZRS'])('refuses geo-redundant %s replication on Premium', (replicationType) => {
    expect(fieldsOf({ ...base, accountTier: 'Premium', replicationType })).toHaveProperty('replicationType');
    expect(fieldsOf({ ...base, accountTier: 'Standard', replicationType })).toEqual({});
  });

  it('allows an access tier only for BlobStorage, FileStorage and StorageV2', () => {
    expect(fieldsOf({ ...base, accountKind: 'Storage', accessTier: 'Hot' })).toHaveProperty('accessTier');
    expect(
      fieldsOf({ ...base, accountKind: 'BlockBlobStorage', accountTier: 'Premium', accessTier: 'Hot' }),
    ).toHaveProperty('accessTier');
    expect(fieldsOf({ ...base, accountKind: 'BlobStorage', accessTier: 'Cool' })).toEqual({});
    expect(fieldsOf({ ...base, accountKind: 'FileStorage', accountTier: 'Premium', accessTier: 'Hot' })).toEqual({});
  });

  it('requires hierarchical namespace for SFTP and NFSv3', () => {
    expect(fieldsOf({ ...base, sftpEnabled: true })).toHaveProperty('sftpEnabled');
    expect(fieldsOf({ ...base, nfsv3Enabled: true, httpsOnly: false })).toHaveProperty('nfsv3Enabled');
    expect(fieldsOf({ ...base, hierarchicalNamespace: true, sftpEnabled: true })).toEqual({});
    expect(fieldsOf({ ...base, hierarchicalNamespace: true, nfsv3Enabled: true, httpsOnly: false })).toEqual({});
  });

  it('refuses NFSv3 while HTTPS-only traffic is required', () => {
    expect(fieldsOf({ ...base, hierarchicalNamespace: true, nfsv3Enabled: true })).toHaveProperty('nfsv3Enabled');
  });

  it('refuses hierarchical namespace on kinds that do not support it', () => {
    expect(fieldsOf({ ...base, accountKind: 'BlobStorage', hierarchicalNamespace: true })).toHaveProperty(
      'hierarchicalNamespace',
    );
  });

  it('checks allowed IP ranges and needs public network access for them', () => {
    expect(fieldsOf({ ...base, publicNetworkAccess: true, allowedIpRanges: ['10.0.0.0/33'] })).toHaveProperty(
      'allowedIpRanges',
    );
    expect(fieldsOf({ ...base, allowedIpRanges: ['203.0.113.0/24'] })).toHaveProperty('allowedIpRanges');
    expect(
      fieldsOf({ ...base, publicNetworkAccess: true, allowedIpRanges: ['203.0.113.0/24', '198.51.100.7'] }),
    ).toEqual({});
  });

  it.each(AZURE_PUBLIC_REGIONS)('accepts the Azure region %s', (location) => {
    expect(fieldsOf({ ...base, location })).toEqual({});
  });

  it.each(['mars', 'West US 3', 'westus9'])('refuses %j as a location', (location) => {
    expect(fieldsOf({ ...base, location })).toHaveProperty('location');
  });

  it('reports unknown fields, wrong types and missing fields all at once', () => {
    expect(fieldsOf({ environment: 'qa', location: 5, httpsOnly: 'yes', manifest: {} })).toEqual({
      application: 'Application is required',
      resourceGroup: 'Resource group is required',
      environment: expect.stringContaining('Environment must be one of'),
      location: expect.stringContaining('Location must be an Azure public region name'),
      httpsOnly: 'HTTPS only must be true or false',
      manifest: 'Unknown field',
    });
  });

  it('explains a body that is not an object without inventing a field', () => {
    const result = parseStorageAccountRequest([base]);
    expect(result).toEqual({ success: false, message: 'Request body must be a JSON object', fields: {} });
  });
});

describe('isAllowedIpRange', () => {
  it.each([
    ['203.0.113.7', true],
    ['203.0.113.0/24', true],
    ['10.0.0.0/8', true],
    ['10.0.0.0/31', false],
    ['256.1.1.1', false],
    ['2001:db8::/32', false],
    ['example.com', false],
  ])('%s -> %s', (value, expected) => {
    expect(isAllowedIpRange(value)).toBe(expected);
  });
});
