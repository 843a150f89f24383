import 'server-only';
import { classify, type CloudSide, type ClusterSide } from '@/lib/platform/classification';
import type { OwnedSettings } from '@/lib/platform/owned-settings';
import type { ResourceGroup, StorageAccount } from '@/lib/platform/types';
import type { CloudAccount } from '../../backends/azure/cloud-account';
import type { CloudSnapshot } from '../../backends/azure/cloud-observer';
import { getCloudObserver } from '../../backends/azure/select-observer';
import { PlatformError } from '../../model/errors';
import { parseResourceName } from '../../model/resource-name';
import { getPlatformBackend } from '../../backends/select-backend';
import { processWide } from '../../runtime/process-wide';
import { SharedValues } from '../../runtime/shared-values';
import type { DesiredState } from '../../model/ledger';
import { withLedgerOwner } from '../../model/ownership';
import { getIntentLedger } from '../../backends/ledger/select-ledger';

/**
 * The inventory as the portal answers it: every cluster object, every account the ledger wants that
 * the cluster lacks, and every Azure account that looks like the portal's but nobody asked for, each
 * classified against intent. With the cluster unreachable it answers from the ledger alone.
 */

/** How the last read of Azure went, for the inventory's answer and the pages. */
export interface CloudStatus {
  status: CloudSnapshot['status'];
  observedAt?: string;
  reason?: string;
}

export interface Inventory {
  /** The same array until one of its inputs changes, so work derived from it can be kept per array. */
  items: readonly StorageAccount[];
  clusterAvailable: boolean;
  /** The last successful read of the cluster by this process. */
  observedAt?: string;
  cloud: CloudStatus;
}

// Pages and route handlers are bundled apart but share one process, and so this time.
const lastRead = (): { at?: string } => processWide('last-cluster-read', () => ({}));

function clusterReadNow(): string {
  const now = new Date().toISOString();
  lastRead().at = now;
  return now;
}

const lastClusterRead = (): string | undefined => lastRead().at;

// The cluster cache may throw errors made by another copy of the errors module (a separate bundle),
// which only PlatformError itself recognises: the status says which kind it is.
const statusOf = (error: unknown): number | undefined => (error instanceof PlatformError ? error.status : undefined);

function cloudStatus(snapshot: CloudSnapshot): CloudStatus {
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

function cloudAccountOf(snapshot: CloudSnapshot, name: string): CloudAccount | undefined {
  return snapshot.status === 'observed' ? snapshot.accounts.get(name.toLowerCase()) : undefined;
}

function cloudSide(snapshot: CloudSnapshot, name: string): CloudSide {
  if (snapshot.status === 'unconfigured') return { status: 'unconfigured' };
  if (snapshot.status === 'unavailable') return { status: 'unavailable' };
  const account = cloudAccountOf(snapshot, name);
  return account ? { status: 'observed', account: account.settings } : { status: 'observed' };
}

function clusterSide(account: StorageAccount): ClusterSide {
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

function fromIntent(
  state: Readonly<DesiredState>,
  extra: Partial<Omit<StorageAccount, 'namespace'>> = {},
): StorageAccount {
  return accountFromSettings(state.account, state.desired, 'ledger', {
    ...(state.owner ? { requestedBy: state.owner.display, requestedBySubject: state.owner.subject } : {}),
    stateDetail: 'No cluster object: this is the intent the portal recorded',
    ...extra,
  });
}

function fromCloud(cloud: CloudAccount): StorageAccount {
  return accountFromSettings(cloud.name, cloud.settings, 'cloud', {
    observed: { id: cloud.id },
    stateDetail: 'Only in Azure: no cluster object and no intent',
  });
}

/** An Azure account that looks like the portal's: its tags, or an approved resource group. */
function looksLikeOurs(cloud: CloudAccount, approvedGroups: ReadonlySet<string>): boolean {
  const tagged = cloud.tags['application'] !== undefined && cloud.tags['environment'] !== undefined;
  return tagged || approvedGroups.has(cloud.resourceGroup.toLowerCase());
}

const approvedGroupsOf = (groups: readonly ResourceGroup[]): ReadonlySet<string> =>
  new Set(groups.map((group) => group.name.toLowerCase()));

/**
 * The Azure account of this name if it is cloud_only material: observed, and tagged by the portal or
 * in a resource group the cluster approves. Any other account of the subscription is none of the
 * portal's business, on the inventory, the account page and in adoption alike.
 */
export async function unclaimedCloudAccount(snapshot: CloudSnapshot, name: string): Promise<CloudAccount | undefined> {
  const cloud = cloudAccountOf(snapshot, name);
  if (!cloud) return undefined;
  const groups = await getPlatformBackend().listResourceGroups();
  return looksLikeOurs(cloud, approvedGroupsOf(groups)) ? cloud : undefined;
}

// Most items of a large inventory fall in a few classes with the same fields: they share one instance.
const classifications = processWide('inventory.classifications', () => new SharedValues());

function classified(account: StorageAccount, classification: StorageAccount['classification']): StorageAccount {
  return { ...account, ...(classification ? { classification: classifications.share(classification) } : {}) };
}

function inSync(account: StorageAccount): StorageAccount {
  return { ...account, classification: { code: 'in_sync', fields: [] } };
}

/** Classifies cluster objects and adds what only the ledger or only Azure knows. */
export function classifyInventory(
  accounts: readonly StorageAccount[],
  groups: readonly ResourceGroup[],
  intents: ReadonlyMap<string, Readonly<DesiredState>>,
  snapshot: CloudSnapshot,
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
    items.push(classified({ ...withLedgerOwner(account, state), source: 'cluster' }, classification));
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
    items.push(classified(fromIntent(state), classification));
  }
  if (snapshot.status === 'observed') {
    const approved = approvedGroupsOf(groups);
    for (const [key, cloud] of snapshot.accounts) {
      if (seenInAzure.has(key) || !looksLikeOurs(cloud, approved)) continue;
      items.push(classified(fromCloud(cloud), { code: 'cloud_only', fields: [] }));
    }
  }
  return items.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Remembers the last result computed from some inputs, compared by identity: the cluster cache, the
 * ledger and the cloud observer hand out the same objects until something changes, so an unchanged
 * inventory is classified, and then sorted and counted, once rather than per view.
 */
function lastResult<Result>(): (inputs: readonly unknown[], compute: () => Result) => Result {
  let last: { inputs: readonly unknown[]; result: Result } | undefined;
  return (inputs, compute) => {
    if (last?.inputs.length === inputs.length && last.inputs.every((input, index) => input === inputs[index])) {
      return last.result;
    }
    const result = compute();
    last = { inputs, result };
    return result;
  };
}

// Kept per process, not per bundle: the pages and the API then share one classified inventory.
const clusterItems = processWide('inventory.cluster-items', () => lastResult<readonly StorageAccount[]>());
const ledgerItems = processWide('inventory.ledger-items', () => lastResult<readonly StorageAccount[]>());
const developmentItems = processWide('inventory.development-items', () => lastResult<readonly StorageAccount[]>());

/** Every inventory item, classified. */
export async function classifiedInventory(): Promise<Inventory> {
  const backend = getPlatformBackend();
  // Development mode answers as the specification says; it has no intent or Azure to compare.
  if (backend.mode === 'mock') {
    const accounts = await backend.list();
    return {
      items: developmentItems([accounts], () => Object.freeze(accounts.map(inSync))),
      clusterAvailable: true,
      cloud: { status: 'unconfigured' },
    };
  }
  const [intents, snapshot] = await Promise.all([getIntentLedger().desiredAll(), getCloudObserver().snapshot()]);
  try {
    const [accounts, groups] = await Promise.all([backend.list(), backend.listResourceGroups()]);
    const observedAt = clusterReadNow();
    return {
      // Resource groups come as a fresh array per read; only their names matter here.
      items: clusterItems([accounts, groups.map((group) => group.name).join('\n'), intents, snapshot], () =>
        Object.freeze(classifyInventory(accounts, groups, intents, snapshot)),
      ),
      clusterAvailable: true,
      observedAt,
      cloud: cloudStatus(snapshot),
    };
  } catch (error) {
    if (statusOf(error) !== 503) throw error;
    const last = lastClusterRead();
    return {
      items: ledgerItems([intents], () =>
        Object.freeze(
          [...intents.values()]
            .map((state) => classified(fromIntent(state), { code: 'cluster_unavailable', fields: [] }))
            .sort((a, b) => a.name.localeCompare(b.name)),
        ),
      ),
      clusterAvailable: false,
      ...(last ? { observedAt: last } : {}),
      cloud: cloudStatus(snapshot),
    };
  }
}

/**
 * One account, classified: the cluster object when there is one, else the ledger's intent, else an
 * Azure account that looks like the portal's. @throws NotFoundError when none of them knows it.
 */
export async function classifiedAccount(rawName: string): Promise<StorageAccount> {
  const name = parseResourceName(rawName);
  const backend = getPlatformBackend();
  if (backend.mode === 'mock') return inSync(await backend.get(name));
  const [state, snapshot] = await Promise.all([getIntentLedger().desired(name), getCloudObserver().snapshot()]);
  try {
    const account = await backend.get(name);
    clusterReadNow();
    const azureName = account.externalName ?? account.name;
    return classified(
      { ...withLedgerOwner(account, state), source: 'cluster' },
      classify({
        clusterAvailable: true,
        ...(state ? { intent: state.desired } : {}),
        cluster: clusterSide(account),
        cloud: cloudSide(snapshot, azureName),
      }),
    );
  } catch (error) {
    if (statusOf(error) === 503 && state) {
      return classified(fromIntent(state), { code: 'cluster_unavailable', fields: [] });
    }
    if (statusOf(error) !== 404) throw error;
    if (state) {
      return classified(
        fromIntent(state),
        classify({ clusterAvailable: true, intent: state.desired, cloud: cloudSide(snapshot, name) }),
      );
    }
    const cloud = await unclaimedCloudAccount(snapshot, name);
    if (cloud) return classified(fromCloud(cloud), { code: 'cloud_only', fields: [] });
    throw error;
  }
}

/** The owned settings of one account on each side, for the detail page's comparison. */
export interface IntentComparison {
  intent?: OwnedSettings;
  cluster?: Partial<OwnedSettings>;
  cloud?: Partial<OwnedSettings>;
  cloudStatus: CloudStatus;
}

export async function intentComparison(account: StorageAccount): Promise<IntentComparison> {
  const [state, snapshot] = await Promise.all([getIntentLedger().desired(account.name), getCloudObserver().snapshot()]);
  const cloud = cloudAccountOf(snapshot, account.externalName ?? account.name);
  return {
    ...(state ? { intent: state.desired } : {}),
    ...(account.source === 'cluster' ? { cluster: account.desired } : {}),
    ...(cloud ? { cloud: cloud.settings } : {}),
    cloudStatus: cloudStatus(snapshot),
  };
}
