/**
 * The portal's own view of platform resources. Components render these types only; raw
 * Kubernetes objects never leave src/server/ (see src/server/model/account-mapper.ts).
 */
export type { StorageAccountRequest, StorageAccountRequestInput, FieldErrors } from './storage-request';
import type { ChangeableSettings } from './account-change';
import type { Classification } from './classification';
import type { OwnedSettings } from './owned-settings';
export type { ChangeableSettings } from './account-change';

/** Derived from the Crossplane conditions and the deletion timestamp. */
export const ACCOUNT_STATES = ['Ready', 'Provisioning', 'Deleting', 'Failed', 'Unknown'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface StorageAccountSettings {
  publicNetworkAccess: boolean;
  allowedIpRanges: string[];
  hierarchicalNamespace: boolean;
  sftpEnabled: boolean;
  nfsv3Enabled: boolean;
  httpsOnly: boolean;
  sharedKeyAccess: boolean;
  minTlsVersion: string;
  allowNestedItemsToBePublic: boolean;
  crossTenantReplication: boolean;
  infrastructureEncryption: boolean;
}

/** What the cloud provider reports back (status.atProvider), when it has reported anything. */
export interface ObservedAccount {
  id?: string;
  primaryLocation?: string;
  secondaryLocation?: string;
  primaryBlobEndpoint?: string;
  primaryDfsEndpoint?: string;
  primaryFileEndpoint?: string;
  primaryWebEndpoint?: string;
}

/**
 * Settings as the spec asks for them or as Azure reports them, in the portal's words (the owned
 * settings); a side that does not state a setting leaves it out.
 */
export type AccountSpecView = Partial<OwnedSettings>;

/** Whether Crossplane has the account as it was asked for, and why not. */
export interface SyncReport {
  inSync: boolean;
  /** One sentence per finding, for people. */
  reasons: string[];
  /** Settings (AccountSpecView keys) where Azure reports something other than the spec asks. */
  differingFields: string[];
  /** spec.forProvider keys changed since the portal last applied a change (edited outside the portal). */
  changedOutsidePortal: string[];
  resyncRequestedAt?: string;
  resyncRequestedBy?: string;
  /** The last resync request Crossplane reports having handled. */
  resyncHandledAt?: string;
}

// Fields read back from the cluster are plain strings: the portal's own values (Environment,
// AccountKind, ...) are the usual ones, but an object made by other tools may hold any text.
export interface StorageAccount {
  name: string;
  /** The Account's namespace in namespaced scope (Crossplane v2); null in cluster scope and when it is not in the cluster. */
  namespace: string | null;
  uid?: string;
  application?: string;
  environment?: string;
  resourceGroup?: string;
  location?: string;
  kind?: string;
  tier?: string;
  replication?: string;
  /** Azure SKU name, e.g. Standard_LRS. */
  sku?: string;
  accessTier?: string;
  settings: StorageAccountSettings;
  state: AccountState;
  /** Why the state is what it is (reason: message of the deciding condition). */
  stateDetail?: string;
  conditions: Condition[];
  createdAt?: string;
  deletionRequestedAt?: string;
  /** Who requested the account, for people: an e-mail or a name (see Principal.identity). */
  requestedBy?: string;
  /** The requester's subject, which ownership compares; absent on accounts recorded before subjects were. */
  requestedBySubject?: string;
  /** Who asked for the deletion (the signed-in identity), once someone has. */
  deletionRequestedBy?: string;
  requestId?: string;
  /** Name of the account in Azure, when it differs from or is not yet known as the resource name. */
  externalName?: string;
  observed: ObservedAccount;
  /** The object's version as last read; a change must send it back (optimistic concurrency). */
  resourceVersion?: string;
  /** What the spec asks for. */
  desired: AccountSpecView;
  /** What Azure reports for the same settings (empty until it has reported). */
  reported: AccountSpecView;
  /** The settings that can change in place, as the spec holds them now. */
  changeable: ChangeableSettings;
  sync: SyncReport;
  lastChangedBy?: string;
  lastChangedAt?: string;
  /** managementPolicies ["Observe"]: Crossplane reads the Azure account and never changes it (adopted). */
  observeOnly?: boolean;
  /** Where the account stands against intent, the cluster and Azure (the inventory and detail reads). */
  classification?: Classification;
  /** Where this item comes from when there is no cluster object: the intent ledger or Azure alone. */
  source?: 'cluster' | 'ledger' | 'cloud';
}

export interface ResourceGroup {
  name: string;
  location?: string;
  ready: boolean;
  /** Namespaced scope (Crossplane v2): the namespace the group is in; it holds that namespace's accounts only. */
  namespace?: string;
}

export interface PlatformEvent {
  /** 'Normal' or 'Warning' from Kubernetes; kept open for event types added later. */
  type: string;
  reason: string;
  message: string;
  count: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
}

export type PlatformMode = 'mock' | 'kubernetes';
