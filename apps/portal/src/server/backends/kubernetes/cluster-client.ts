import 'server-only';
import {
  CoreV1Api,
  CustomObjectsApi,
  Observable,
  PatchStrategy,
  type ConfigurationOptions,
  type CoreV1Event,
  type KubeConfig,
  type ObservableMiddleware,
  type RequestContext,
  type ResponseContext,
  Watch,
} from '@kubernetes/client-node';
import { CLUSTER_SCOPE, type AccountScope } from '@/lib/platform/account-scope';
import {
  type CLUSTER_CALLS,
  clusterCalls,
  EVENTS_NAMESPACE,
  type ClusterCall,
  type ClusterCallName,
} from './cluster-calls';
import { mapClusterError } from './cluster-errors';
import { openWatch, type WatchHandlers, type WatchStream } from './watch-stream';
import { withTraceparent } from '../../telemetry/trace-context';

/** How long one call may take before the cluster counts as unreachable. */
export const DEFAULT_CALL_TIMEOUT_MS = 10_000;

/**
 * The portal's only door to the Kubernetes API: one method per entry of CLUSTER_CALLS (the type
 * below insists on it), each with a deadline and with errors already mapped to platform errors.
 * Objects come back raw; the backend maps them to the portal's types.
 */
/** One chunk of a LIST answer: its objects, the list's resourceVersion and, if more follow, the token for them. */
export interface ObjectList {
  items: unknown[];
  resourceVersion: string;
  continue?: string;
}

/**
 * Objects per LIST chunk, as client-go's pager and kubectl ask for: a cluster of many thousand
 * accounts then never arrives as one answer that must be held, as text and parsed, all at once.
 */
export const LIST_CHUNK = 500;

/** One Account: its name, and in namespaced scope its namespace (which a call about it needs). */
export interface AccountRef {
  name: string;
  namespace?: string | undefined;
}

/**
 * Lists and watches span the cluster (every namespace, in namespaced scope); a call about one
 * Account acts where it lives: a create in the namespace its manifest names, the rest in the ref's.
 */
export interface ClusterClient {
  /** One chunk; pass the previous chunk's `continue` for the next. */
  listAccounts(continueToken?: string): Promise<ObjectList>;
  /** Resolves once the stream is open; rejects with a platform error or ResourceVersionExpiredError. */
  watchAccounts(resourceVersion: string, handlers: WatchHandlers): Promise<WatchStream>;
  getAccount(ref: AccountRef): Promise<unknown>;
  createAccount(body: object): Promise<unknown>;
  dryRunCreateAccount(body: object): Promise<unknown>;
  annotateAccount(ref: AccountRef, annotations: Record<string, string>): Promise<unknown>;
  deleteAccount(ref: AccountRef): Promise<unknown>;
  changeAccount(ref: AccountRef, patch: object): Promise<unknown>;
  dryRunChangeAccount(ref: AccountRef, patch: object): Promise<unknown>;
  requestReconcile(ref: AccountRef, annotations: Record<string, string>): Promise<unknown>;
  listResourceGroups(continueToken?: string): Promise<ObjectList>;
  watchResourceGroups(resourceVersion: string, handlers: WatchHandlers): Promise<WatchStream>;
  listAccountEvents(ref: AccountRef, kind: string): Promise<CoreV1Event[]>;
}

// Compile-time check that the client and the table name the same calls, no more and no fewer.
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : never;
const clientMatchesTable: SameKeys<ClusterClient, typeof CLUSTER_CALLS> = true;
void clientMatchesTable;

/** Aborts a call that has not been answered in time (the client has no deadline of its own). */
function deadline(timeoutMs: number, extra: ObservableMiddleware[] = []): ConfigurationOptions<ObservableMiddleware> {
  const timeout: ObservableMiddleware = {
    pre: (context: RequestContext) => {
      context.setSignal(AbortSignal.timeout(timeoutMs));
      return new Observable(Promise.resolve(context));
    },
    post: (response: ResponseContext) => new Observable(Promise.resolve(response)),
  };
  return { middleware: [timeout, ...extra], middlewareMergeStrategy: 'append' };
}

function contentType(value: string): ObservableMiddleware {
  return {
    pre: (context: RequestContext) => {
      context.setHeaderParam('Content-Type', value);
      return new Observable(Promise.resolve(context));
    },
    post: (response: ResponseContext) => new Observable(Promise.resolve(response)),
  };
}

function objectList(list: unknown): ObjectList {
  const body = typeof list === 'object' && list !== null ? (list as { items?: unknown; metadata?: unknown }) : {};
  const metadata = body.metadata as { resourceVersion?: unknown; continue?: unknown } | undefined;
  return {
    items: Array.isArray(body.items) ? body.items : [],
    resourceVersion: typeof metadata?.resourceVersion === 'string' ? metadata.resourceVersion : '',
    ...(typeof metadata?.continue === 'string' && metadata.continue !== '' ? { continue: metadata.continue } : {}),
  };
}

/** The calls about one Account, which differ by scope in where the object lives. */
interface OneAccount {
  get(c: ClusterCall, ref: AccountRef): Promise<unknown>;
  create(c: ClusterCall, body: object, dryRun?: 'All'): Promise<unknown>;
  patch(c: ClusterCall, ref: AccountRef, body: object, dryRun?: 'All'): Promise<unknown>;
  delete(c: ClusterCall, ref: AccountRef): Promise<unknown>;
}

export function createClusterClient(
  config: KubeConfig,
  scope: AccountScope = CLUSTER_SCOPE,
  timeoutMs = DEFAULT_CALL_TIMEOUT_MS,
): ClusterClient {
  const customObjects = config.makeApiClient(CustomObjectsApi);
  const core = config.makeApiClient(CoreV1Api);
  const watcher = new Watch(config);
  const options = deadline(timeoutMs);
  const mergePatch = deadline(timeoutMs, [contentType(PatchStrategy.MergePatch)]);
  const calls = clusterCalls(scope);
  const namespaced = scope.kind === 'namespaced';

  async function call<T>(name: ClusterCallName, subject: string | undefined, run: (call: ClusterCall) => Promise<T>) {
    const entry = calls[name];
    try {
      return await run(entry);
    } catch (error) {
      throw mapClusterError(error, entry, subject === undefined ? {} : { name: subject });
    }
  }
  const target = ({ group, version, resource }: ClusterCall) => ({ group, version, plural: resource });
  const chunk = (c: ClusterCall, continueToken: string | undefined) => ({
    ...target(c),
    limit: LIST_CHUNK,
    ...(continueToken === undefined ? {} : { _continue: continueToken }),
  });
  /** Where a call about one Account goes: its namespace in namespaced scope, nowhere in cluster scope. */
  const namespaceOf = (ref: AccountRef): string => {
    if (ref.namespace) return ref.namespace;
    throw new Error(`the namespace of storage account "${ref.name}" is not known`);
  };

  /** Reads, creates, patches or deletes one cluster-scoped Account. */
  const clusterAccount: OneAccount = {
    get: (c, ref) => customObjects.getClusterCustomObject({ ...target(c), name: ref.name }, options),
    create: (c, body, dryRun) =>
      customObjects.createClusterCustomObject({ ...target(c), body, ...(dryRun ? { dryRun } : {}) }, options),
    patch: (c, ref, body, dryRun) =>
      customObjects.patchClusterCustomObject(
        { ...target(c), name: ref.name, body, ...(dryRun ? { dryRun } : {}) },
        mergePatch,
      ),
    delete: (c, ref) => customObjects.deleteClusterCustomObject({ ...target(c), name: ref.name }, options),
  };
  /** The same in the Account's namespace (Crossplane v2), which every call about it must name. */
  const namespacedAccount: OneAccount = {
    get: (c, ref) =>
      customObjects.getNamespacedCustomObject({ ...target(c), namespace: namespaceOf(ref), name: ref.name }, options),
    create: (c, body, dryRun) =>
      customObjects.createNamespacedCustomObject(
        {
          ...target(c),
          namespace: namespaceOf({ name: nameOf(body) ?? '', namespace: namespaceIn(body) }),
          body,
          ...(dryRun ? { dryRun } : {}),
        },
        options,
      ),
    patch: (c, ref, body, dryRun) =>
      customObjects.patchNamespacedCustomObject(
        { ...target(c), namespace: namespaceOf(ref), name: ref.name, body, ...(dryRun ? { dryRun } : {}) },
        mergePatch,
      ),
    delete: (c, ref) =>
      customObjects.deleteNamespacedCustomObject(
        { ...target(c), namespace: namespaceOf(ref), name: ref.name },
        options,
      ),
  };
  const one = namespaced ? namespacedAccount : clusterAccount;

  return {
    listAccounts: (continueToken) =>
      call('listAccounts', undefined, async (c) =>
        objectList(await customObjects.listClusterCustomObject(chunk(c, continueToken), options)),
      ),
    watchAccounts: (resourceVersion, handlers) =>
      openWatch(watcher, calls.watchAccounts, resourceVersion, handlers, timeoutMs),
    getAccount: (ref) => call('getAccount', ref.name, (c) => one.get(c, ref)),
    createAccount: (body) => call('createAccount', nameOf(body), (c) => one.create(c, withTraceparent(body))),
    dryRunCreateAccount: (body) => call('dryRunCreateAccount', nameOf(body), (c) => one.create(c, body, 'All')),
    annotateAccount: (ref, annotations) =>
      call('annotateAccount', ref.name, (c) => one.patch(c, ref, withTraceparent({ metadata: { annotations } }))),
    changeAccount: (ref, body) => call('changeAccount', ref.name, (c) => one.patch(c, ref, withTraceparent(body))),
    dryRunChangeAccount: (ref, body) => call('dryRunChangeAccount', ref.name, (c) => one.patch(c, ref, body, 'All')),
    requestReconcile: (ref, annotations) =>
      call('requestReconcile', ref.name, (c) => one.patch(c, ref, withTraceparent({ metadata: { annotations } }))),
    deleteAccount: (ref) => call('deleteAccount', ref.name, (c) => one.delete(c, ref)),
    listResourceGroups: (continueToken) =>
      call('listResourceGroups', undefined, async (c) =>
        objectList(await customObjects.listClusterCustomObject(chunk(c, continueToken), options)),
      ),
    watchResourceGroups: (resourceVersion, handlers) =>
      openWatch(watcher, calls.watchResourceGroups, resourceVersion, handlers, timeoutMs),
    listAccountEvents: (ref, kind) =>
      call('listAccountEvents', undefined, async (c) => {
        const list = await core.listNamespacedEvent(
          {
            // A cluster-scoped object's events are in the table's namespace; a namespaced one's in its own.
            namespace: namespaced ? namespaceOf(ref) : (c.namespace ?? EVENTS_NAMESPACE),
            fieldSelector: `involvedObject.name=${ref.name},involvedObject.kind=${kind}`,
          },
          options,
        );
        return list.items;
      }),
  };
}

function nameOf(body: object): string | undefined {
  const metadata = (body as { metadata?: { name?: unknown } }).metadata;
  return typeof metadata?.name === 'string' ? metadata.name : undefined;
}

function namespaceIn(body: object): string | undefined {
  const metadata = (body as { metadata?: { namespace?: unknown } }).metadata;
  return typeof metadata?.namespace === 'string' ? metadata.namespace : undefined;
}
