/**
 * Cloud observation through the official SDK (@azure/arm-storage) and DefaultAzureCredential as it
 * comes, against the ARM stand-in: the credential takes its token from the stand-in's managed-identity
 * endpoint (IDENTITY_ENDPOINT / IDENTITY_HEADER), the list follows nextLink, an edit made in Azure is
 * observed and classifies as drifted, and a throttled ARM makes the observation unavailable. Each read
 * runs in a child process, because Node trusts the stand-in's authority only through
 * NODE_EXTRA_CA_CERTS, which it reads at start.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { armClientEnvironment } from '../kube-stand-in/index';
import { classify } from '../src/lib/platform/classification';
import type { OwnedSettings } from '../src/lib/platform/owned-settings';
import { startTestCluster, type TestCluster } from './kubernetes-harness';
import { armAccountRequest } from './stand-in-client';
import { STANDARD_INTENT } from './storage-fixtures';

// The first test of a file starts a cluster (and a child process or a database): slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const run = promisify(execFile);
const portalDir = fileURLToPath(new URL('..', import.meta.url));
let cluster: TestCluster;

interface Observed {
  status: string;
  reason?: string;
  accounts?: Record<string, { name: string; resourceGroup: string; settings: Partial<OwnedSettings> }>;
}

async function observeOnce(): Promise<Observed> {
  // Only what the credential and the observer read: no Azure variables of this machine leak in.
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    PATH: process.env['PATH'] ?? '',
    HOME: cluster.directory,
    ...armClientEnvironment(cluster.standIn, cluster.caPath),
  };
  const { stdout } = await run(
    process.execPath,
    ['--conditions=react-server', '--import', 'tsx', 'test/fixtures/observe-once.ts'],
    {
      cwd: portalDir,
      env,
      timeout: 60_000,
    },
  );
  return JSON.parse(stdout) as Observed;
}

const intent = STANDARD_INTENT;

beforeAll(async () => {
  cluster = await startTestCluster({ arm: { pageSize: 2 } });
  for (const name of ['stobservea', 'stobserveb', 'stobservec']) {
    const status = await armAccountRequest(cluster.standIn, 'PUT', 'rg-books-dev', name, {
      location: 'westeurope',
      kind: 'StorageV2',
      sku: { name: 'Standard_LRS' },
      tags: { application: 'webshop', environment: 'dev' },
      properties: {
        accessTier: 'Hot',
        minimumTlsVersion: 'TLS1_2',
        supportsHttpsTrafficOnly: true,
        publicNetworkAccess: 'Disabled',
        allowBlobPublicAccess: false,
        allowSharedKeyAccess: true,
        allowCrossTenantReplication: false,
        encryption: { requireInfrastructureEncryption: true },
      },
    });
    expect(status).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  await cluster?.dispose();
});

describe('cloud observation through Azure Resource Manager', () => {
  it('reads every page of the subscription with DefaultAzureCredential, in owned terms', async () => {
    const observed = await observeOnce();
    expect(observed.status).toBe('observed');
    expect(Object.keys(observed.accounts ?? {}).sort()).toEqual(['stobservea', 'stobserveb', 'stobservec']);
    expect(observed.accounts?.['stobservea']?.settings).toMatchObject({
      location: 'westeurope',
      resourceGroup: 'rg-books-dev',
      tier: 'Standard',
      replication: 'LRS',
      minTlsVersion: 'TLS1_2',
      publicNetworkAccess: false,
      infrastructureEncryption: true,
      application: 'webshop',
    });
    const armCalls = cluster.standIn.arm.requests().filter((r) => r.path.endsWith('/storageAccounts'));
    expect(armCalls.length).toBeGreaterThanOrEqual(2);
    expect(cluster.standIn.arm.requests().some((r) => r.path === '/msi/token' && r.status === 200)).toBe(true);
  });

  it('sees an edit made in Azure, which classifies as drifted naming the fields', async () => {
    const status = await armAccountRequest(cluster.standIn, 'PATCH', 'rg-books-dev', 'stobserveb', {
      properties: { publicNetworkAccess: 'Enabled', minimumTlsVersion: 'TLS1_0' },
    });
    expect(status).toBe(200);
    const observed = await observeOnce();
    const account = observed.accounts?.['stobserveb']?.settings;
    expect(account).toMatchObject({ publicNetworkAccess: true, minTlsVersion: 'TLS1_0' });
    const settled = { spec: intent, busy: false, observeOnly: false };
    expect(
      classify({ clusterAvailable: true, intent, cluster: settled, cloud: { status: 'observed', account } }),
    ).toEqual({
      code: 'drifted',
      fields: ['publicNetworkAccess', 'minTlsVersion'],
    });
  });

  it('is unavailable, never in sync, while ARM throttles with 429', async () => {
    cluster.standIn.arm.setFaults({ throttle: { retryAfterSeconds: 1 } });
    try {
      const observed = await observeOnce();
      expect(observed.status).toBe('unavailable');
      expect(observed.reason).toContain('429');
      const cluster = { spec: intent, busy: false, observeOnly: false };
      expect(classify({ clusterAvailable: true, intent, cluster, cloud: { status: 'unavailable' } }).code).toBe(
        'observation_unavailable',
      );
    } finally {
      cluster.standIn.arm.clearFaults();
    }
  });
});
