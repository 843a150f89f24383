import 'server-only';
import type { Principal } from '@/lib/auth/permissions';
import type { AccountChange, FieldChange } from '@/lib/platform/account-change';
import type { AccountManifest } from '@/lib/platform/account-manifest';
import type {
  PlatformEvent,
  PlatformMode,
  ResourceGroup,
  StorageAccount,
  StorageAccountRequest,
} from '@/lib/platform/types';

/** What a remediation writes: a merge patch of an existing Account, or a whole new one. */
export type AccountWrite =
  | { kind: 'patch'; name: string; patch: Record<string, unknown> }
  | { kind: 'create'; manifest: Record<string, unknown> };

/** Who is asking and under which request id; written onto what the backend creates or deletes. */
export interface RequestContext {
  requestId: string;
  /** principal.identity, recorded as requested-by / deletion-requested-by beside principal.subject. */
  requestedBy: string;
  principal: Principal;
}

export interface DryRunResult {
  /** The object the platform would create, as it answered the dry run. */
  item: StorageAccount;
  /** The manifest that was (or would be) sent. */
  manifest: AccountManifest;
}

export interface ChangeResult {
  /** The account as the change leaves it (for a dry run: as the cluster says it would). */
  item: StorageAccount;
  /** What the change changes; empty when it changes nothing. */
  changes: FieldChange[];
}

/**
 * Everything the portal asks of the platform. Implementations: the mock backend (development
 * mode) and the Kubernetes backend (src/server/backends/kubernetes/). Methods throw the errors of
 * ./errors.ts; they never return raw cluster objects.
 */
export interface PlatformBackend {
  readonly mode: PlatformMode;
  /** Every account; the same array until something changes (callers may memoise on it). */
  list(): Promise<readonly StorageAccount[]>;
  /** @throws NotFoundError */
  get(name: string): Promise<StorageAccount>;
  /** @throws ConflictError when the name exists, InvalidRequestError when the platform rejects it */
  create(request: StorageAccountRequest, context: RequestContext): Promise<StorageAccount>;
  /** Server-side dry run: nothing is created. */
  validate(request: StorageAccountRequest, context: RequestContext): Promise<DryRunResult>;
  /** Starts deletion; the resource may linger in state Deleting. @throws NotFoundError */
  delete(name: string, context: RequestContext): Promise<{ name: string }>;
  /**
   * Changes settings that can change in place, only if the object is still at change.resourceVersion.
   * @throws NotFoundError, ConflictError (stale version), InvalidRequestError
   */
  change(
    name: string,
    change: AccountChange,
    context: RequestContext,
    options: { dryRun: boolean },
  ): Promise<ChangeResult>;
  /** Asks Crossplane to reconcile the account now, recording who asked. @throws NotFoundError */
  resync(name: string, context: RequestContext): Promise<StorageAccount>;
  /**
   * A remediation's cluster side: a merge patch of an Account (carrying its resourceVersion) or a new
   * Account built by the portal from intent; with dryRun the cluster only checks it.
   * @throws ConflictError (stale version, name taken), NotFoundError, InvalidRequestError
   */
  writeAccount(write: AccountWrite, options: { dryRun: boolean }): Promise<StorageAccount>;
  /** Resource groups a storage account may be placed in. */
  listResourceGroups(): Promise<ResourceGroup[]>;
  /** Events about one resource, oldest first. */
  events(name: string): Promise<PlatformEvent[]>;
  /** The resource as the platform holds it, as YAML. @throws NotFoundError */
  manifestYaml(name: string): Promise<string>;
}
