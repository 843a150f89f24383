/**
 * The portal's own view of platform resources. Components render these types only; raw
 * Kubernetes objects never leave src/server/ (see src/server/model/account-mapper.ts).
 */
export type { StorageAccountRequest, StorageAccountRequestInput, FieldErrors } from './storage-request';
import type { Classification } from './classification';
import type { OwnedSettings } from './owned-settings';

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

/** Whether Crossplane has the account as it was asked for, and why not. */
export interface SyncReport {
  inSync: boolean;
  /** One sentence per finding, for people. */
  reasons: string[];
  /** Settings (OwnedSettings keys) where Azure reports something other than the spec asks. */
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
  /**
   * What the spec asks for, in the one settings shape; a setting the spec does not state is left out.
   * The settings in effect (settingsInEffect) and those a change starts from (changeableSettings)
   * are derived from this and `reported` where they are needed, not held as copies.
   */
  desired: Partial<OwnedSettings>;
  /** What Azure reports for the same settings (empty until it has reported). */
  reported: Partial<OwnedSettings>;
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
