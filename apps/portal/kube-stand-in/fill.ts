/**
 * Many Ready storage accounts at once, for scale tests and the portal benchmark: objects shaped as the
 * portal creates them (its labels and tags) and as the simulated provider leaves them once Azure has
 * created them, written straight into the store (each still a change a watch sees).
 */
import { randomUUID } from 'node:crypto';
import type { SimulatedCrossplane } from './crossplane.js';
import { ACCOUNTS, apiVersionOf } from './resources.js';
import type { ObjectStore } from './store.js';
import { kubeTime, type KubeObject } from './types.js';

export interface FillOptions {
  count: number;
  /** Names are the prefix and a zero-padded number; lower-case letters and digits, as Azure requires. */
  prefix?: string;
  /** Ready resource groups to spread the accounts over. */
  resourceGroups: readonly { name: string; location: string }[];
}

export const MAX_FILL = 100_000;
const APPLICATIONS = ['books', 'webshop', 'payments', 'search', 'reports', 'billing', 'media', 'identity', 'ledger'];
const ENVIRONMENTS = ['dev', 'test', 'prod'];
const REPLICATION = ['LRS', 'ZRS', 'GRS'];

function account(name: string, index: number, group: { name: string; location: string }, created: Date): KubeObject {
  const application = `${APPLICATIONS[index % APPLICATIONS.length] ?? 'books'}${Math.floor(index / 90) % 40}`;
  const environment = ENVIRONMENTS[index % ENVIRONMENTS.length] ?? 'dev';
  return {
    apiVersion: apiVersionOf(ACCOUNTS),
    kind: ACCOUNTS.kind,
    metadata: {
      name,
      uid: randomUUID(),
      generation: 1,
      creationTimestamp: kubeTime(created),
      labels: {
        'app.kubernetes.io/managed-by': 'platform-portal',
        'platform-portal/application': application,
        'platform-portal/environment': environment,
      },
      annotations: {
        'platform-portal/requested-by': 'bench@example.test',
        'platform-portal/requested-at': kubeTime(created),
        'platform-portal/request-id': randomUUID(),
      },
    },
    spec: {
      forProvider: {
        location: group.location,
        resourceGroupName: group.name,
        accountKind: 'StorageV2',
        accountTier: 'Standard',
        accountReplicationType: REPLICATION[index % REPLICATION.length] ?? 'LRS',
        accessTier: 'Hot',
        isHnsEnabled: false,
        sftpEnabled: false,
        nfsv3Enabled: false,
        publicNetworkAccessEnabled: false,
        sharedAccessKeyEnabled: true,
        httpsTrafficOnlyEnabled: true,
        minTlsVersion: 'TLS1_2',
        allowNestedItemsToBePublic: false,
        crossTenantReplicationEnabled: false,
        infrastructureEncryptionEnabled: true,
        tags: { application, environment, 'managed-by': 'crossplane' },
      },
      managementPolicies: ['*'],
      deletionPolicy: 'Delete',
    },
  };
}

/** Adds up to `count` accounts whose names are not taken yet; answers how many it added. */
export function fillAccounts(store: ObjectStore, crossplane: SimulatedCrossplane, options: FillOptions): number {
  const prefix = options.prefix ?? 'stfill';
  const groups = options.resourceGroups;
  if (groups.length === 0) throw new Error('no ready resource group to place accounts in');
  const width = Math.max(5, String(options.count).length);
  const now = Date.now();
  let added = 0;
  for (let index = 0; index < options.count; index += 1) {
    const name = `${prefix}${String(index).padStart(width, '0')}`;
    if (store.get(ACCOUNTS, name)) continue;
    const group = groups[index % groups.length] ?? groups[0];
    if (!group) continue;
    // Spread over the last days, so sorting by age means something.
    const created = new Date(now - index * 37_000);
    store.put(ACCOUNTS, crossplane.provisioned(ACCOUNTS, account(name, index, group, created)));
    added += 1;
  }
  return added;
}
