import { describe, expect, it } from 'vitest';
import { classify, countByClass, fieldsDifferingFromIntent, type ClassificationInput } from './classification';
import type { OwnedSettings } from './owned-settings';
import { STANDARD_INTENT } from '../../../test/storage-fixtures';

const intent = STANDARD_INTENT;

const settled = { spec: intent, busy: false, observeOnly: false };
const observed = (account?: Partial<OwnedSettings>) => ({
  status: 'observed' as const,
  ...(account ? { account } : {}),
});
const input = (overrides: Partial<ClassificationInput>): ClassificationInput => ({
  clusterAvailable: true,
  intent,
  cluster: settled,
  cloud: { status: 'unconfigured' },
  ...overrides,
});

describe('classify', () => {
  it('is in sync when cluster object and Azure hold the intent', () => {
    expect(classify(input({}))).toEqual({ code: 'in_sync', fields: [] });
    expect(classify(input({ cloud: observed(intent) }))).toEqual({ code: 'in_sync', fields: [] });
  });

  it('says cluster_unavailable for everything while the cluster cannot be read', () => {
    expect(classify(input({ clusterAvailable: false })).code).toBe('cluster_unavailable');
    expect(classify(input({ clusterAvailable: false, intent: undefined, cluster: undefined })).code).toBe(
      'cluster_unavailable',
    );
  });

  it('is pending while Crossplane is at work, whatever Azure says', () => {
    const busy = { ...settled, busy: true };
    expect(classify(input({ cluster: busy, cloud: observed({ ...intent, minTlsVersion: 'TLS1_0' }) })).code).toBe(
      'pending',
    );
  });

  it('names the fields of a cluster object that no longer asks for the intent', () => {
    const edited = { ...settled, spec: { ...intent, publicNetworkAccess: true, minTlsVersion: 'TLS1_0' } };
    expect(classify(input({ cluster: edited, cloud: observed(intent) }))).toEqual({
      code: 'cluster_drift',
      fields: ['publicNetworkAccess', 'minTlsVersion'],
    });
  });

  it('names the fields Azure holds differently from the intent', () => {
    const cloud = observed({ ...intent, publicNetworkAccess: true, allowedIpRanges: ['203.0.113.7'] });
    expect(classify(input({ cloud }))).toEqual({ code: 'drifted', fields: ['publicNetworkAccess', 'allowedIpRanges'] });
  });

  it('ignores fields one side leaves out, and the order of IP rules', () => {
    const { accessTier: _tier, ...withoutTier } = intent;
    const lateInitialised = { ...settled, spec: { ...intent, allowedIpRanges: ['b', 'a'] } };
    expect(
      classify(input({ intent: { ...withoutTier, allowedIpRanges: ['a', 'b'] }, cluster: lateInitialised })).code,
    ).toBe('in_sync');
    expect(classify(input({ cloud: observed({ location: 'westeurope' }) })).code).toBe('in_sync');
  });

  it('never reads as in sync when Azure could not be read', () => {
    expect(classify(input({ cloud: { status: 'unavailable' } }))).toEqual({
      code: 'observation_unavailable',
      fields: [],
    });
  });

  it('tells an intent whose cluster object is gone from one Azure never had', () => {
    expect(classify(input({ cluster: undefined })).code).toBe('not_in_cluster');
    expect(classify(input({ cluster: undefined, cloud: observed(intent) })).code).toBe('not_in_cluster');
    expect(classify(input({ cluster: undefined, cloud: { status: 'unavailable' } })).code).toBe('not_in_cluster');
    expect(classify(input({ cluster: undefined, cloud: observed() })).code).toBe('desired_only');
    expect(classify(input({ cloud: observed() })).code).toBe('desired_only');
  });

  it('calls an Azure account without intent or cluster object cloud_only', () => {
    expect(classify(input({ intent: undefined, cluster: undefined, cloud: observed(intent) })).code).toBe('cloud_only');
  });

  it('never calls a cluster object nobody asked for in sync: every setting it states is unrequested', () => {
    const kubectlMade = { ...settled, spec: { location: 'westeurope', minTlsVersion: 'TLS1_0' } };
    expect(classify(input({ intent: undefined, cluster: kubectlMade }))).toEqual({
      code: 'cluster_drift',
      fields: ['location', 'minTlsVersion'],
    });
  });

  it('compares an adopted, observe-only account with Azure, not with its empty spec', () => {
    const adopted = { spec: { location: 'westeurope' }, busy: false, observeOnly: true };
    expect(classify(input({ cluster: adopted, cloud: observed(intent) })).code).toBe('in_sync');
    expect(classify(input({ cluster: adopted, cloud: observed({ ...intent, sharedKeyAccess: false }) }))).toEqual({
      code: 'drifted',
      fields: ['sharedKeyAccess'],
    });
  });

  it('compares only fields both sides state', () => {
    expect(fieldsDifferingFromIntent({ minTlsVersion: 'TLS1_2' }, { httpsOnly: false })).toEqual([]);
  });

  it('counts every class, zero included', () => {
    const counts = countByClass([
      { classification: { code: 'in_sync', fields: [] } },
      { classification: { code: 'drifted', fields: ['httpsOnly'] } },
      { classification: { code: 'in_sync', fields: [] } },
    ]);
    expect(counts).toMatchObject({ in_sync: 2, drifted: 1, cloud_only: 0, cluster_unavailable: 0 });
    expect(Object.keys(counts)).toHaveLength(9);
  });
});
