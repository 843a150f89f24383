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
import { CLUSTER_CALLS, EVENTS_NAMESPACE, type ClusterCall, type ClusterCallName } from './cluster-calls';
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

export interface ClusterClient {
  /** One chunk; pass the previous chunk's `continue` for the next. */
  listAccounts(continueToken?: string): Promise<ObjectList>;
  /** Resolves once the stream is open; rejects with a platform error or ResourceVersionExpiredError. */
  watchAccounts(resourceVersion: string, handlers: WatchHandlers): Promise<WatchStream>;
  getAccount(name: string): Promise<unknown>;
  createAccount(body: object): Promise<unknown>;
  dryRunCreateAccount(body: object): Promise<unknown>;
  annotateAccount(name: string, annotations: Record<string, string>): Promise<unknown>;
  deleteAccount(name: string): Promise<unknown>;
  changeAccount(name: string, patch: object): Promise<unknown>;
  dryRunChangeAccount(name: string, patch: object): Promise<unknown>;
  requestReconcile(name: string, annotations: Record<string, string>): Promise<unknown>;
  listResourceGroups(continueToken?: string): Promise<ObjectList>;
  watchResourceGroups(resourceVersion: string, handlers: WatchHandlers): Promise<WatchStream>;
  listAccountEvents(name: string, kind: string): Promise<CoreV1Event[]>;
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

export function createClusterClient(config: KubeConfig, timeoutMs = DEFAULT_CALL_TIMEOUT_MS): ClusterClient {
  const customObjects = config.makeApiClient(CustomObjectsApi);
  const core = config.makeApiClient(CoreV1Api);
  const watcher = new Watch(config);
  const options = deadline(timeoutMs);

  async function call<T>(
    name: ClusterCallName,
    subject: string | undefined,
    run: (call: ClusterCall) => Promise<T>,
  ): Promise<T> {
    const entry = CLUSTER_CALLS[name];
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
  const mergePatch = deadline(timeoutMs, [contentType(PatchStrategy.MergePatch)]);

  return {
    listAccounts: (continueToken) =>
      call('listAccounts', undefined, async (c) =>
        objectList(await customObjects.listClusterCustomObject(chunk(c, continueToken), options)),
      ),
    watchAccounts: (resourceVersion, handlers) =>
      openWatch(watcher, CLUSTER_CALLS.watchAccounts, resourceVersion, handlers, timeoutMs),
    getAccount: (name) =>
      call('getAccount', name, (c) => customObjects.getClusterCustomObject({ ...target(c), name }, options)),
    createAccount: (body) =>
      call('createAccount', nameOf(body), (c) =>
        customObjects.createClusterCustomObject({ ...target(c), body: withTraceparent(body) }, options),
      ),
    dryRunCreateAccount: (body) =>
      call('dryRunCreateAccount', nameOf(body), (c) =>
        customObjects.createClusterCustomObject({ ...target(c), body, dryRun: 'All' }, options),
      ),
    annotateAccount: (name, annotations) =>
      call('annotateAccount', name, (c) =>
        customObjects.patchClusterCustomObject(
          { ...target(c), name, body: withTraceparent({ metadata: { annotations } }) },
          deadline(timeoutMs, [contentType(PatchStrategy.MergePatch)]),
        ),
      ),
    changeAccount: (name, body) =>
      call('changeAccount', name, (c) =>
        customObjects.patchClusterCustomObject({ ...target(c), name, body: withTraceparent(body) }, mergePatch),
      ),
    dryRunChangeAccount: (name, body) =>
      call('dryRunChangeAccount', name, (c) =>
        customObjects.patchClusterCustomObject({ ...target(c), name, body, dryRun: 'All' }, mergePatch),
      ),
    requestReconcile: (name, annotations) =>
      call('requestReconcile', name, (c) =>
        customObjects.patchClusterCustomObject(
          { ...target(c), name, body: withTraceparent({ metadata: { annotations } }) },
          mergePatch,
        ),
      ),
    deleteAccount: (name) =>
      call('deleteAccount', name, (c) => customObjects.deleteClusterCustomObject({ ...target(c), name }, options)),
    listResourceGroups: (continueToken) =>
      call('listResourceGroups', undefined, async (c) =>
        objectList(await customObjects.listClusterCustomObject(chunk(c, continueToken), options)),
      ),
    watchResourceGroups: (resourceVersion, handlers) =>
      openWatch(watcher, CLUSTER_CALLS.watchResourceGroups, resourceVersion, handlers, timeoutMs),
    listAccountEvents: (name, kind) =>
      call('listAccountEvents', undefined, async (c) => {
        const list = await core.listNamespacedEvent(
          {
            namespace: c.namespace ?? EVENTS_NAMESPACE,
            fieldSelector: `involvedObject.name=${name},involvedObject.kind=${kind}`,
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
