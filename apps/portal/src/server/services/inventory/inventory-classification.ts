import 'server-only';
import { classify, type Classification, type CloudSide, type ClusterSide } from '@/lib/platform/classification';
import type { OwnedSettings } from '@/lib/platform/owned-settings';
import type { ResourceGroup, StorageAccount } from '@/lib/platform/types';
import type { CloudAccount } from '../../backends/azure/cloud-account';
import type { CloudSnapshot } from '../../backends/azure/cloud-observer';
import type { DesiredState } from '../../model/ledger';
import { withLedgerOwner } from '../../model/ownership';

/**
 * The inventory's items from what the portal holds: every cluster object, every account the ledger
 * wants that the cluster lacks, and every Azure account that looks like the portal's but nobody asked
 * for, each classified against intent. No I/O: the callers read the cluster, the ledger and Azure.
 */

/** How the last read of Azure went, for the inventory's answer and the pages. */
export interface CloudStatus {
  status: CloudSnapshot['status'];
  observedAt?: string;
  reason?: string;
}

/** The one instance of a classification equal to the one given (the read model's, held across versions). */
export type ShareClassification = (classification: Classification) => Classification;

export function cloudStatus(snapshot: CloudSnapshot): CloudStatus {
  switch (snapshot.status) {
    case 'unconfigured':
      return { status: 'unconfigured' };
    case 'observed':
      return { status: 'observed', observedAt: snapshot.observedAt };
    case 'unavailable':
      return {
        status: 'unavailable',
        reason: snapshot.reason,
        ...(snapshot.lastObservedAt ? { observedAt: snapshot.lastObservedAt } : {}),
      };
  }
}

export function cloudAccountOf(snapshot: CloudSnapshot, name: string): CloudAccount | undefined {
  return snapshot.status === 'observed' ? snapshot.accounts.get(name.toLowerCase()) : undefined;
}

export function cloudSide(snapshot: CloudSnapshot, name: string): CloudSide {
  if (snapshot.status === 'unconfigured') return { status: 'unconfigured' };
  if (snapshot.status === 'unavailable') return { status: 'unavailable' };
  const account = cloudAccountOf(snapshot, name);
  return account ? { status: 'observed', account: account.settings } : { status: 'observed' };
}

export function clusterSide(account: StorageAccount): ClusterSide {
  return {
    spec: account.desired,
    // Crossplane is at work until Ready, and while Azure still reports other values than the spec.
    busy: account.state !== 'Ready' || account.sync.differingFields.length > 0,
    observeOnly: account.observeOnly ?? false,
  };
}

/** An account the portal knows only as intent (or only from Azure), in the shape every page reads. */
function accountFromSettings(
  name: string,
  settings: Partial<OwnedSettings>,
  source: 'ledger' | 'cloud',
  extra: Partial<Omit<StorageAccount, 'namespace'>> = {},
): StorageAccount {
  const sku = settings.tier && settings.replication ? `${settings.tier}_${settings.replication}` : undefined;
  const optional: Partial<StorageAccount> = {
    application: settings.application,
    environment: settings.environment,
    resourceGroup: settings.resourceGroup,
    location: settings.location,
    kind: settings.kind,
    tier: settings.tier,
    replication: settings.replication,
    sku,
    accessTier: settings.accessTier,
  };
  const account: StorageAccount = {
    name,
    // Not in the cluster, so in no namespace.
    namespace: null,
    state: 'Unknown',
    conditions: [],
    observed: {},
    desired: source === 'ledger' ? { ...settings } : {},
    reported: source === 'cloud' ? { ...settings } : {},
    sync: { inSync: false, reasons: [], differingFields: [], changedOutsidePortal: [] },
    source,
    ...extra,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) (account as unknown as Record<string, unknown>)[key] = value;
  }
  return account;
}

export function fromIntent(
  state: Readonly<DesiredState>,
  extra: Partial<Omit<StorageAccount, 'namespace'>> = {},
): StorageAccount {
  return accountFromSettings(state.account, state.desired, 'ledger', {
    ...(state.owner ? { requestedBy: state.owner.display, requestedBySubject: state.owner.subject } : {}),
    stateDetail: 'No cluster object: this is the intent the portal recorded',
    ...extra,
  });
}

export function fromCloud(cloud: CloudAccount): StorageAccount {
  return accountFromSettings(cloud.name, cloud.settings, 'cloud', {
    observed: { id: cloud.id },
    stateDetail: 'Only in Azure: no cluster object and no intent',
  });
}

/** An Azure account that looks like the portal's: its tags, or an approved resource group. */
export function looksLikeOurs(cloud: CloudAccount, approvedGroups: ReadonlySet<string>): boolean {
  const tagged = cloud.tags['application'] !== undefined && cloud.tags['environment'] !== undefined;
  return tagged || approvedGroups.has(cloud.resourceGroup.toLowerCase());
}

export const approvedGroupsOf = (groups: readonly ResourceGroup[]): ReadonlySet<string> =>
  new Set(groups.map((group) => group.name.toLowerCase()));

/** Development mode answers as the specification says; it has no intent or Azure to compare. */
export function inSync(account: StorageAccount): StorageAccount {
  return { ...account, classification: { code: 'in_sync', fields: [] } };
}

export function classified(
  account: StorageAccount,
  classification: StorageAccount['classification'],
  share: ShareClassification,
): StorageAccount {
  return { ...account, ...(classification ? { classification: share(classification) } : {}) };
}

const byName = (a: StorageAccount, b: StorageAccount) => a.name.localeCompare(b.name);

/** Classifies cluster objects and adds what only the ledger or only Azure knows. */
export function classifyInventory(
  accounts: readonly StorageAccount[],
  groups: readonly ResourceGroup[],
  intents: ReadonlyMap<string, Readonly<DesiredState>>,
  snapshot: CloudSnapshot,
  share: ShareClassification,
): StorageAccount[] {
  const items: StorageAccount[] = [];
  const seenInAzure = new Set<string>();
  for (const account of accounts) {
    const azureName = account.externalName ?? account.name;
    seenInAzure.add(azureName.toLowerCase());
    const state = intents.get(account.name);
    const intent = state?.desired;
    const classification = classify({
      clusterAvailable: true,
      ...(intent ? { intent } : {}),
      cluster: clusterSide(account),
      cloud: cloudSide(snapshot, azureName),
    });
    items.push(classified({ ...withLedgerOwner(account, state), source: 'cluster' }, classification, share));
  }
  const inCluster = new Set(accounts.map((account) => account.name));
  for (const [name, state] of intents) {
    if (inCluster.has(name)) continue;
    seenInAzure.add(name.toLowerCase());
    const classification = classify({
      clusterAvailable: true,
      intent: state.desired,
      cloud: cloudSide(snapshot, name),
    });
    items.push(classified(fromIntent(state), classification, share));
  }
  if (snapshot.status === 'observed') {
    const approved = approvedGroupsOf(groups);
    for (const [key, cloud] of snapshot.accounts) {
      if (seenInAzure.has(key) || !looksLikeOurs(cloud, approved)) continue;
      items.push(classified(fromCloud(cloud), { code: 'cloud_only', fields: [] }, share));
    }
  }
  return items.sort(byName);
}

/** The inventory while the cluster cannot be read: the ledger's intent, every item cluster_unavailable. */
export function classifyLedgerOnly(
  intents: ReadonlyMap<string, Readonly<DesiredState>>,
  share: ShareClassification,
): StorageAccount[] {
  return [...intents.values()]
    .map((state) => classified(fromIntent(state), { code: 'cluster_unavailable', fields: [] }, share))
    .sort(byName);
}
