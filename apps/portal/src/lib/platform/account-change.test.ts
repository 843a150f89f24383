import { describe, expect, it } from 'vitest';
import { applyChange, changeRequest, checkChangedSettings, diffSettings, parseAccountChange } from './account-change';
import type { ChangeableSettings } from './owned-settings';

const current: ChangeableSettings = {
  accessTier: 'Hot',
  publicNetworkAccess: true,
  allowedIpRanges: ['203.0.113.0/24'],
  minTlsVersion: 'TLS1_2',
  httpsOnly: true,
  application: 'webshop',
  environment: 'dev',
};

describe('parsing a change request', () => {
  it('accepts the version last read and the settings that can change in place', () => {
    const parsed = parseAccountChange({ resourceVersion: '42', accessTier: 'Cool', application: 'shop' });
    expect(parsed).toEqual({
      success: true,
      change: { resourceVersion: '42', accessTier: 'Cool', application: 'shop' },
    });
  });

  it('requires the resource version, saying why', () => {
    const parsed = parseAccountChange({ accessTier: 'Cool' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.fields['resourceVersion']).toMatch(/required.*concurrent change/);
  });

  it('names every field that cannot change in place, with the reason', () => {
    const parsed = parseAccountChange({ resourceVersion: '1', location: 'eastus', accountTier: 'Premium' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.message).toBe('These fields cannot be changed in place: location, accountTier');
    expect(parsed.fields['location']).toMatch(/^Location cannot be changed in place: .*region/);
    expect(parsed.fields['accountTier']).toMatch(/^Performance tier cannot be changed in place/);
  });

  it('refuses unknown fields, a TLS version below the baseline and malformed IP ranges', () => {
    const parsed = parseAccountChange({
      resourceVersion: '1',
      colour: 'red',
      minTlsVersion: 'TLS1_0',
      allowedIpRanges: ['10.0.0.0/33'],
    });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.fields).toMatchObject({
      colour: 'Unknown field',
      minTlsVersion: expect.stringContaining('does not allow older TLS'),
      allowedIpRanges: expect.stringContaining('CIDR'),
    });
  });

  it.each(['constructor', 'toString', '__proto__'])('refuses a field named like an inherited key (%j)', (key) => {
    // JSON.parse makes "__proto__" an own key, as a request body would.
    const parsed = parseAccountChange(JSON.parse(`{"resourceVersion":"1","${key}":"x"}`));
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(Object.hasOwn(parsed.fields, key) ? parsed.fields[key] : undefined).toBe('Unknown field');
  });

  it('refuses a body that is not an object', () => {
    const parsed = parseAccountChange(['x']);
    expect(parsed).toMatchObject({ success: false, message: 'Request body must be a JSON object' });
  });
});

describe('applying and describing a change', () => {
  it('changes only the fields named and diffs them in dialog order', () => {
    const next = applyChange(current, { minTlsVersion: 'TLS1_3', accessTier: 'Cool' });
    expect(next).toEqual({ ...current, minTlsVersion: 'TLS1_3', accessTier: 'Cool' });
    expect(diffSettings(current, next)).toEqual([
      { field: 'accessTier', label: 'Access tier', from: 'Hot', to: 'Cool' },
      { field: 'minTlsVersion', label: 'Minimum TLS version', from: 'TLS1_2', to: 'TLS1_3' },
    ]);
  });

  it('drops the firewall list when public access is turned off without naming the list', () => {
    const next = applyChange(current, { publicNetworkAccess: false });
    expect(next.allowedIpRanges).toEqual([]);
    expect(diffSettings(current, next).map((c) => c.field)).toEqual(['publicNetworkAccess', 'allowedIpRanges']);
  });

  it('builds the smallest request from an edited copy', () => {
    expect(changeRequest('7', current, { ...current, httpsOnly: false })).toEqual({
      resourceVersion: '7',
      httpsOnly: false,
    });
    expect(changeRequest('7', current, { ...current })).toEqual({ resourceVersion: '7' });
  });

  it('checks the rules that span the account and the change', () => {
    const account = { kind: 'StorageV2', hierarchicalNamespace: false, sftpEnabled: false, nfsv3Enabled: false };
    expect(checkChangedSettings({ ...current, publicNetworkAccess: false }, account)).toEqual({
      allowedIpRanges: 'Allowed IP ranges need public network access turned on',
    });
    expect(checkChangedSettings(current, { ...account, kind: 'BlockBlobStorage', tier: 'Premium' })).toHaveProperty(
      'accessTier',
    );
    expect(
      checkChangedSettings(current, { ...account, hierarchicalNamespace: true, nfsv3Enabled: true }),
    ).toHaveProperty('httpsOnly', expect.stringContaining('NFSv3'));
    expect(checkChangedSettings(current, account)).toEqual({});
  });
});
