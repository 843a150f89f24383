/**
 * A simulated Crossplane provider (upjet-based provider-azure) reconciling the stand-in's managed
 * resources: it adds its finalizer and external-name, reports Synced and Ready as Crossplane does,
 * emits the events Crossplane emits, fails the way Azure would for a bad name or a missing resource
 * group, and finishes deletion after a delay. Failures can also be injected per object.
 *
 * Storage accounts live in the simulated Azure the ARM stand-in serves: the provider writes the spec
 * there when it creates or updates one, reads status.atProvider back from it, and deletes it there
 * (unless the deletion policy is Orphan). With managementPolicies ["Observe"] it only reads: an
 * account that exists is reported, one that does not is an observe failure, and Azure is never written.
 */
import { atProviderFromArm, type SimulatedAzure } from './azure.js';
import type { EventRecorder } from './events.js';
import { ACCOUNTS, isAccountDef, NAMESPACED_ACCOUNTS, type ResourceDef } from './resources.js';
import type { ObjectStore } from './store.js';
import { kubeTime, type Condition, type ConditionStatus, type KubeObject } from './types.js';
import { isRecord } from './validation.js';

export const CROSSPLANE_FINALIZER = 'finalizer.managedresource.crossplane.io';
const EXTERNAL_NAME = 'crossplane.io/external-name';
const CREATE_PENDING = 'crossplane.io/external-create-pending';
const CREATE_SUCCEEDED = 'crossplane.io/external-create-succeeded';
/** crossplane-runtime 2.3+: a new value asks for a reconcile now; the handled value lands in status. */
export const RECONCILE_REQUESTED_AT = 'crossplane.io/reconcile-requested-at';
const AZURE_ACCOUNT_NAME = /^[a-z0-9]{3,24}$/;

export interface ReconcileTiming {
  /** From a create or delete request to the provider's first reaction (Synced, events). */
  syncedDelayMs: number;
  /** From the provider's create request to the external resource being available (Ready=True). */
  readyDelayMs: number;
  /** From Ready=False Deleting to the finalizer being removed and the object gone. */
  deleteDelayMs: number;
  /** Back-off between retries of a failing reconcile. */
  retryDelayMs: number;
}

export interface CrossplaneOptions {
  timing: ReconcileTiming;
  subscriptionId: string;
  /**
   * Whether a ResourceGroup of this name exists beside the account: cluster-wide for a cluster-scoped
   * Account, in the Account's namespace for a namespaced one (Crossplane v2).
   */
  resourceGroupExists: (name: string, accountDef: ResourceDef, namespace: string | undefined) => boolean;
  /** The simulated Azure the provider creates, updates, reads and deletes storage accounts in. */
  azure: SimulatedAzure;
}

/** Only Observe: Crossplane reads the external resource and never creates, changes or deletes it. */
export function observesOnly(object: KubeObject): boolean {
  const policies = object.spec?.['managementPolicies'];
  if (!Array.isArray(policies)) return false;
  return !policies.some((policy) => ['*', 'Create', 'Update', 'Delete', 'LateInitialize'].includes(String(policy)));
}

function conditionsOf(object: KubeObject): Condition[] {
  const status = (object.status ??= {});
  if (!Array.isArray(status['conditions'])) status['conditions'] = [];
  return status['conditions'] as Condition[];
}

export function conditionOf(object: KubeObject, type: string): Condition | undefined {
  const conditions = object.status?.['conditions'];
  return Array.isArray(conditions) ? (conditions as Condition[]).find((c) => c.type === type) : undefined;
}

/** Sets a condition; like Crossplane, lastTransitionTime only moves when the status changes. */
export function setCondition(
  object: KubeObject,
  type: string,
  status: ConditionStatus,
  reason: string,
  message?: string,
): void {
  const conditions = conditionsOf(object);
  const previous = conditions.find((c) => c.type === type);
  const next: Condition = {
    type,
    status,
    reason,
    ...(message ? { message } : {}),
    lastTransitionTime: previous && previous.status === status ? previous.lastTransitionTime : kubeTime(),
    observedGeneration: object.metadata.generation ?? 1,
  };
  if (previous) conditions.splice(conditions.indexOf(previous), 1, next);
  else conditions.push(next);
}

/** A spec value as text, or the fallback when it is not a string (the provider would reject it). */
function textOf(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function forProviderOf(object: KubeObject): Record<string, unknown> {
  const forProvider = object.spec?.['forProvider'];
  return isRecord(forProvider) ? forProvider : {};
}

function externalNameOf(object: KubeObject): string {
  return object.metadata.annotations?.[EXTERNAL_NAME] ?? object.metadata.name ?? '';
}

export class SimulatedCrossplane {
  private readonly failures = new Map<string, string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** When the external resource of an object being deleted is gone, by object key. */
  private readonly deletionDue = new Map<string, number>();
  private stopped = false;

  constructor(
    private readonly store: ObjectStore,
    private readonly recorder: EventRecorder,
    private readonly options: CrossplaneOptions,
  ) {}

  created(def: ResourceDef, name: string, namespace?: string): void {
    this.schedule(this.options.timing.syncedDelayMs, () => this.reconcile(def, name, namespace));
  }

  /** An update event the provider's watch would see (a spec change or a new reconcile request). */
  changed(def: ResourceDef, name: string, namespace?: string): void {
    this.schedule(this.options.timing.syncedDelayMs, () => this.reconcile(def, name, namespace));
  }

  deletionRequested(def: ResourceDef, name: string, namespace?: string): void {
    this.schedule(this.options.timing.syncedDelayMs, () => this.reconcile(def, name, namespace));
  }

  /** Makes every reconcile of the named object (or of every object, for "*") fail with this message. */
  injectFailure(name: string, message: string): void {
    this.failures.set(name, message);
    this.reconcileAll();
  }

  clearFailure(name?: string): void {
    if (name === undefined) this.failures.clear();
    else this.failures.delete(name);
    this.reconcileAll();
  }

  /** The object as this provider leaves it once Azure has created it, for seeding many at once. */
  provisioned(def: ResourceDef, object: KubeObject): KubeObject {
    const name = object.metadata.name ?? '';
    const now = kubeTime();
    object.metadata.finalizers = [CROSSPLANE_FINALIZER];
    object.metadata.annotations = {
      [EXTERNAL_NAME]: name,
      ...object.metadata.annotations,
      [CREATE_PENDING]: now,
      [CREATE_SUCCEEDED]: now,
    };
    setCondition(object, 'Synced', 'True', 'ReconcileSuccess');
    setCondition(object, 'Ready', 'True', 'Available');
    object.status = { ...object.status, atProvider: this.observe(def, object) };
    return object;
  }

  injectedFailures(): Record<string, string> {
    return Object.fromEntries(this.failures);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private reconcileAll(): void {
    for (const def of [ACCOUNTS, NAMESPACED_ACCOUNTS]) {
      for (const object of this.store.list(def)) {
        const { name, namespace } = object.metadata;
        if (name) this.schedule(0, () => this.reconcile(def, name, namespace));
      }
    }
  }

  private schedule(delayMs: number, step: () => void): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped) step();
    }, delayMs);
    this.timers.add(timer);
  }

  private reconcile(def: ResourceDef, name: string, namespace?: string): void {
    const object = this.store.get(def, name, namespace);
    if (!object) return;
    if (object.metadata.deletionTimestamp) {
      this.reconcileDeletion(def, object);
      return;
    }
    const metadata = object.metadata;
    metadata.finalizers = [...new Set([...(metadata.finalizers ?? []), CROSSPLANE_FINALIZER])];
    metadata.annotations = { [EXTERNAL_NAME]: name, ...metadata.annotations };
    if (isAccountDef(def) && observesOnly(object)) {
      this.observeOnly(def, object);
      return;
    }
    // An account Azure already holds under the external name is taken over, not created again.
    const existsInAzure = isAccountDef(def) && this.options.azure.get(externalNameOf(object)) !== undefined;
    const alreadyCreated = metadata.annotations[CREATE_SUCCEEDED] !== undefined || existsInAzure;

    const failure = this.failureFor(def, object);
    if (failure) {
      const phase = alreadyCreated ? 'observe' : 'create';
      setCondition(object, 'Synced', 'False', 'ReconcileError', `${phase} failed: ${failure}`);
      if (!alreadyCreated) setCondition(object, 'Ready', 'False', 'Creating');
      const stored = this.store.put(def, object);
      this.recorder.record(
        def,
        stored,
        'Warning',
        alreadyCreated ? 'CannotObserveExternalResource' : 'CannotCreateExternalResource',
        failure,
      );
      this.schedule(this.options.timing.retryDelayMs, () => this.reconcile(def, name, namespace));
      return;
    }

    if (!alreadyCreated) {
      const now = kubeTime();
      metadata.annotations[CREATE_PENDING] = now;
      metadata.annotations[CREATE_SUCCEEDED] = now;
      setCondition(object, 'Synced', 'True', 'ReconcileSuccess');
      setCondition(object, 'Ready', 'False', 'Creating');
      const stored = this.store.put(def, object);
      this.recorder.record(
        def,
        stored,
        'Normal',
        'CreatedExternalResource',
        'Successfully requested creation of external resource',
      );
      this.schedule(this.options.timing.readyDelayMs, () => this.reconcile(def, name, namespace));
      return;
    }

    const ready = conditionOf(object, 'Ready');
    const synced = conditionOf(object, 'Synced');
    const observed = isAccountDef(def) ? this.applyToAzure(object) : this.observe(def, object);
    const azureMatchesSpec = JSON.stringify(object.status?.['atProvider']) === JSON.stringify(observed);
    const requested = metadata.annotations[RECONCILE_REQUESTED_AT];
    const requestHandled = requested === undefined || object.status?.['lastHandledReconcileAt'] === requested;
    if (ready?.status === 'True' && synced?.status === 'True' && azureMatchesSpec && requestHandled) return;
    // A spec change of an existing account is an update in Azure, which then reports the new values.
    const updated = ready?.status === 'True' && !azureMatchesSpec;
    setCondition(object, 'Synced', 'True', 'ReconcileSuccess');
    setCondition(object, 'Ready', 'True', 'Available');
    object.status = {
      ...object.status,
      atProvider: observed,
      ...(requested === undefined ? {} : { lastHandledReconcileAt: requested }),
    };
    const stored = this.store.put(def, object);
    if (updated) {
      this.recorder.record(
        def,
        stored,
        'Normal',
        'UpdatedExternalResource',
        'Successfully requested update of external resource',
      );
    }
  }

  private reconcileDeletion(def: ResourceDef, object: KubeObject): void {
    const name = object.metadata.name ?? '';
    const namespace = object.metadata.namespace;
    const key = `${def.plural}.${def.group}/${namespace ?? ''}/${name}`;
    if (conditionOf(object, 'Ready')?.reason !== 'Deleting') {
      setCondition(object, 'Ready', 'False', 'Deleting');
      setCondition(object, 'Synced', 'True', 'ReconcileSuccess');
      const stored = this.store.put(def, object);
      this.recorder.record(
        def,
        stored,
        'Normal',
        'DeletedExternalResource',
        'Successfully requested deletion of external resource',
      );
      this.deletionDue.set(key, Date.now() + this.options.timing.deleteDelayMs);
      this.schedule(this.options.timing.deleteDelayMs, () => this.reconcile(def, name, namespace));
      return;
    }
    // A reconcile queued earlier (say, for Ready) must not cut Azure's deletion time short; a timer that
    // fires a little early looks again when the time is up.
    const remainingMs = (this.deletionDue.get(key) ?? 0) - Date.now();
    if (remainingMs > 0) {
      this.schedule(remainingMs, () => this.reconcile(def, name, namespace));
      return;
    }
    this.deletionDue.delete(key);
    const orphan = object.spec?.['deletionPolicy'] === 'Orphan' || observesOnly(object);
    if (isAccountDef(def) && !orphan) this.options.azure.delete(externalNameOf(object));
    // The external resource is gone: drop the finalizer, and the API server removes the object.
    const finalizers = (object.metadata.finalizers ?? []).filter((f) => f !== CROSSPLANE_FINALIZER);
    if (finalizers.length === 0) {
      this.store.remove(def, name, namespace);
    } else {
      object.metadata.finalizers = finalizers;
      this.store.put(def, object);
    }
  }

  /** What Azure (through the provider) would refuse, or an injected failure. */
  private failureFor(def: ResourceDef, object: KubeObject): string | undefined {
    const name = object.metadata.name ?? '';
    const injected = this.failures.get(name) ?? this.failures.get('*');
    if (injected) return injected;
    if (!isAccountDef(def)) return undefined;
    const params = forProviderOf(object);
    const resourceGroup = params['resourceGroupName'];
    const accountName = externalNameOf(object);
    const prefix = `async create failed: failed to create the resource: [{0 creating Storage Account (Subscription: "${this.options.subscriptionId}" Resource Group Name: "${textOf(resourceGroup, '')}" Storage Account Name: "${accountName}")`;
    if (typeof resourceGroup !== 'string' || resourceGroup.length === 0) {
      return 'async create failed: failed to create the resource: [{0 Missing required argument: The argument "resource_group_name" is required, but no definition was found.  []}]';
    }
    if (!AZURE_ACCOUNT_NAME.test(accountName)) {
      return `${prefix}: performing Create: unexpected status 400 (400 Bad Request) with error: AccountNameInvalid: ${accountName} is not a valid storage account name. Storage account name must be between 3 and 24 characters in length and use numbers and lower-case letters only.  []}]`;
    }
    if (!this.options.resourceGroupExists(resourceGroup, def, object.metadata.namespace)) {
      return `${prefix}: performing Create: unexpected status 404 (404 Not Found) with error: ResourceGroupNotFound: Resource group '${resourceGroup}' could not be found.  []}]`;
    }
    return undefined;
  }

  /**
   * Creates or updates the storage account in Azure from the spec, as the provider does when the
   * external resource differs from it, and answers what Azure then reports.
   */
  private applyToAzure(object: KubeObject): Record<string, unknown> {
    const params = Object.fromEntries(
      Object.entries(forProviderOf(object)).filter(([key]) => !key.endsWith('Ref') && !key.endsWith('Selector')),
    );
    return atProviderFromArm(this.options.azure.apply(externalNameOf(object), params));
  }

  /** managementPolicies ["Observe"]: report what Azure holds, write nothing anywhere but status. */
  private observeOnly(def: ResourceDef, object: KubeObject): void {
    const name = object.metadata.name ?? '';
    const namespace = object.metadata.namespace;
    const externalName = externalNameOf(object);
    const account = this.options.azure.get(externalName);
    if (!account) {
      const message = `observe failed: cannot observe external resource: storage account "${externalName}" was not found in subscription ${this.options.subscriptionId}`;
      setCondition(object, 'Synced', 'False', 'ReconcileError', message);
      setCondition(object, 'Ready', 'False', 'Unavailable');
      const stored = this.store.put(def, object);
      this.recorder.record(def, stored, 'Warning', 'CannotObserveExternalResource', message);
      this.schedule(this.options.timing.retryDelayMs, () => this.reconcile(def, name, namespace));
      return;
    }
    const observed = atProviderFromArm(account);
    const requested = object.metadata.annotations?.[RECONCILE_REQUESTED_AT];
    const unchanged =
      JSON.stringify(object.status?.['atProvider']) === JSON.stringify(observed) &&
      conditionOf(object, 'Ready')?.status === 'True' &&
      conditionOf(object, 'Synced')?.status === 'True' &&
      (requested === undefined || object.status?.['lastHandledReconcileAt'] === requested);
    if (unchanged) return;
    setCondition(object, 'Synced', 'True', 'ReconcileSuccess');
    setCondition(object, 'Ready', 'True', 'Available');
    object.status = {
      ...object.status,
      atProvider: observed,
      ...(requested === undefined ? {} : { lastHandledReconcileAt: requested }),
    };
    this.store.put(def, object);
  }

  /** status.atProvider of a resource other than a storage account (a ResourceGroup) once it exists. */
  private observe(_def: ResourceDef, object: KubeObject): Record<string, unknown> {
    const params = Object.fromEntries(
      Object.entries(forProviderOf(object)).filter(([key]) => !key.endsWith('Ref') && !key.endsWith('Selector')),
    );
    return { ...params, id: `/subscriptions/${this.options.subscriptionId}/resourceGroups/${externalNameOf(object)}` };
  }
}
