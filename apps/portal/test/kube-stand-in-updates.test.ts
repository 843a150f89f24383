/**
 * The stand-in's simulated provider after create: a spec change is applied to Azure and reported
 * back, a merge patch carrying a stale resourceVersion is a 409, and Crossplane's reconcile-request
 * annotation makes the provider reconcile and record the handled request, as crossplane-runtime does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestCluster, type TestCluster } from './kubernetes-harness';
import { standInRequest } from './stand-in-client';

const PATH = '/apis/storage.azure.upbound.io/v1beta1/accounts';
let cluster: TestCluster;

interface Account {
  metadata: { name: string; resourceVersion: string; annotations?: Record<string, string> };
  spec: { forProvider: Record<string, unknown> };
  status?: {
    atProvider?: Record<string, unknown>;
    lastHandledReconcileAt?: string;
    conditions?: { type: string; status: string }[];
  };
}

function api(method: string, path: string, body?: unknown, contentType = 'application/json') {
  return standInRequest<Account & { reason?: string }>(cluster.standIn, method, path, body, contentType);
}

const mergePatch = (name: string, body: unknown) =>
  api('PATCH', `${PATH}/${name}`, body, 'application/merge-patch+json');

async function readyAccount(name: string): Promise<Account> {
  const created = await api('POST', PATH, {
    apiVersion: 'storage.azure.upbound.io/v1beta1',
    kind: 'Account',
    metadata: { name },
    spec: {
      forProvider: {
        location: 'westeurope',
        resourceGroupName: 'rg-books-dev',
        accountTier: 'Standard',
        accountReplicationType: 'LRS',
        accessTier: 'Hot',
      },
    },
  });
  expect(created.status).toBe(201);
  return eventually(async () => {
    const { body } = await api('GET', `${PATH}/${name}`);
    return body.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? body : undefined;
  }, `${name} to become Ready`);
}

beforeAll(async () => {
  cluster = await startTestCluster();
});

afterAll(async () => {
  await cluster.dispose();
});

describe('Kubernetes stand-in: changes after create', () => {
  it('applies a spec change to the simulated Azure account and reports it in atProvider', async () => {
    const account = await readyAccount('stupdate01');
    expect(account.status?.atProvider?.['accessTier']).toBe('Hot');
    const patched = await mergePatch('stupdate01', { spec: { forProvider: { accessTier: 'Cool' } } });
    expect(patched.status).toBe(200);
    await eventually(async () => {
      const { body } = await api('GET', `${PATH}/stupdate01`);
      return body.status?.atProvider?.['accessTier'] === 'Cool' ? body : undefined;
    }, 'Azure to report the new access tier');
    expect(cluster.standIn.events().some((e) => e['reason'] === 'UpdatedExternalResource')).toBe(true);
  });

  it('refuses a merge patch whose resourceVersion is stale with 409 Conflict', async () => {
    const account = await readyAccount('stupdate02');
    const first = await mergePatch('stupdate02', {
      metadata: { resourceVersion: account.metadata.resourceVersion, labels: { team: 'a' } },
    });
    expect(first.status).toBe(200);
    const second = await mergePatch('stupdate02', {
      metadata: { resourceVersion: account.metadata.resourceVersion, labels: { team: 'b' } },
    });
    expect(second.status).toBe(409);
    expect(second.body.reason).toBe('Conflict');
  });

  it('reconciles on a new reconcile-request annotation and records the handled value', async () => {
    await readyAccount('stupdate03');
    const token = '2026-01-01T00:00:00.000Z';
    const patched = await mergePatch('stupdate03', {
      metadata: { annotations: { 'crossplane.io/reconcile-requested-at': token } },
    });
    expect(patched.status).toBe(200);
    const handled = await eventually(async () => {
      const { body } = await api('GET', `${PATH}/stupdate03`);
      return body.status?.lastHandledReconcileAt === token ? body : undefined;
    }, 'the reconcile request to be handled');
    expect(handled.status?.conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'Synced', status: 'True' })]),
    );
  });
});
