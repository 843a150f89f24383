import { describe, expect, it } from 'vitest';
import { azurePortalUrl, formatSetting, formatSku, formatTlsVersion } from './display';

describe('human words for raw values', () => {
  it('spells out TLS versions and keeps anything unexpected', () => {
    expect(formatTlsVersion('TLS1_2')).toBe('TLS 1.2');
    expect(formatTlsVersion('TLS1_3')).toBe('TLS 1.3');
    expect(formatTlsVersion('SSL3')).toBe('SSL3');
    expect(formatTlsVersion(undefined)).toBe('—');
  });

  it('explains SKUs and settings', () => {
    expect(formatSku('Standard_RAGRS')).toBe('Standard, read-access geo-redundant (RA-GRS)');
    expect(formatSku('Odd')).toBe('Odd');
    expect(formatSetting('httpsOnly', true)).toBe('Yes');
    expect(formatSetting('allowedIpRanges', [])).toBe('None');
    expect(formatSetting('allowedIpRanges', ['1.2.3.4', '10.0.0.0/8'])).toBe('1.2.3.4, 10.0.0.0/8');
    expect(formatSetting('minTlsVersion', 'TLS1_2')).toBe('TLS 1.2');
    expect(formatSetting('kind', 'StorageV2')).toBe('General-purpose v2 (StorageV2)');
  });

  it.each(['__proto__', 'constructor', 'toString'])(
    'shows a value named like an inherited key (%j) as it is',
    (value) => {
      expect(formatSetting('replication', value)).toBe(value);
      expect(formatSetting('kind', value)).toBe(value);
      expect(formatSku(`Standard_${value}`)).toBe(`Standard_${value}`);
    },
  );
});

describe('link to the Azure portal', () => {
  it('opens the account itself once Azure reported its resource id', () => {
    const id = '/subscriptions/s-1/resourceGroups/rg-a/providers/Microsoft.Storage/storageAccounts/stshop01';
    expect(azurePortalUrl({ observed: { id } })).toBe(`https://portal.azure.com/#@/resource${id}/overview`);
  });

  it('opens the list of storage accounts before that', () => {
    expect(azurePortalUrl({ observed: {} })).toBe(
      'https://portal.azure.com/#browse/Microsoft.Storage%2FStorageAccounts',
    );
  });
});
