import 'server-only';
import { classify } from '@/lib/platform/classification';
import type { OwnedSettings } from '@/lib/platform/owned-settings';
import type { StorageAccount } from '@/lib/platform/types';
import type { CloudAccount } from '../../backends/azure/cloud-account';
import type { CloudSnapshot } from '../../backends/azure/cloud-observer';
import { getCloudObserver } from '../../backends/azure/select-observer';
import { PlatformError } from '../../model/errors';
import { parseResourceName } from '../../model/resource-name';
import { getPlatformBackend } from '../../backends/select-backend';
import { withLedgerOwner } from '../../model/ownership';
import { getIntentLedger } from '../../backends/ledger/select-ledger';
import {
  approvedGroupsOf,
  classified,
  classifyInventory,
  classifyLedgerOnly,
  cloudAccountOf,
  cloudSide,
  cloudStatus,
  clusterSide,
  fromCloud,
  fromIntent,
  inSync,
  looksLikeOurs,
  type CloudStatus,
} from './inventory-classification';
import {
  lastClusterRead,
  noteClusterRead,
  readModelOf,
  sharedClassification,
  type InventoryReadModel,
} from './read-model';

/**
 * The inventory as the portal answers it, read from the cluster cache, the ledger and the cloud
 * observer and classified against intent (inventory-classification.ts); with the cluster unreachable
 * it answers from the ledger alone. The whole inventory comes as its read model (read-model.ts).
 */

export interface Inventory {
  /** The same read model until one of its inputs changes, so work derived from it is done once per version. */
  readModel: InventoryReadModel;
  clusterAvailable: boolean;
  /** The last successful read of the cluster by this process. */
  observedAt?: string;
  cloud: CloudStatus;
}

// The cluster cache may throw errors made by another copy of the errors module (a separate bundle),
// which only PlatformError itself recognises: the status says which kind it is.
const statusOf = (error: unknown): number | undefined => (error instanceof PlatformError ? error.status : undefined);

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

/** Every inventory item, classified, as the read model of what the sources hold now. */
export async function classifiedInventory(): Promise<Inventory> {
  const backend = getPlatformBackend();
  if (backend.mode === 'mock') {
    const accounts = await backend.list();
    return {
      readModel: readModelOf(['development', accounts], () => accounts.map(inSync)),
      clusterAvailable: true,
      cloud: { status: 'unconfigured' },
    };
  }
  const [intents, snapshot] = await Promise.all([getIntentLedger().desiredAll(), getCloudObserver().snapshot()]);
  try {
    const [accounts, groups] = await Promise.all([backend.list(), backend.listResourceGroups()]);
    const observedAt = noteClusterRead();
    // Resource groups come as a fresh array per read; only their names matter here.
    const groupNames = groups.map((group) => group.name).join('\n');
    return {
      readModel: readModelOf(['cluster', accounts, groupNames, intents, snapshot], () =>
        classifyInventory(accounts, groups, intents, snapshot, sharedClassification),
      ),
      clusterAvailable: true,
      observedAt,
      cloud: cloudStatus(snapshot),
    };
  } catch (error) {
    if (statusOf(error) !== 503) throw error;
    const last = lastClusterRead();
    return {
      readModel: readModelOf(['ledger', intents], () => classifyLedgerOnly(intents, sharedClassification)),
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
    noteClusterRead();
    const azureName = account.externalName ?? account.name;
    return classified(
      { ...withLedgerOwner(account, state), source: 'cluster' },
      classify({
        clusterAvailable: true,
        ...(state ? { intent: state.desired } : {}),
        cluster: clusterSide(account),
        cloud: cloudSide(snapshot, azureName),
      }),
      sharedClassification,
    );
  } catch (error) {
    if (statusOf(error) === 503 && state) {
      return classified(fromIntent(state), { code: 'cluster_unavailable', fields: [] }, sharedClassification);
    }
    if (statusOf(error) !== 404) throw error;
    if (state) {
      return classified(
        fromIntent(state),
        classify({ clusterAvailable: true, intent: state.desired, cloud: cloudSide(snapshot, name) }),
        sharedClassification,
      );
    }
    const cloud = await unclaimedCloudAccount(snapshot, name);
    if (cloud) return classified(fromCloud(cloud), { code: 'cloud_only', fields: [] }, sharedClassification);
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
