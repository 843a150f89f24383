/**
 * The stand-in's HTTPS server: TLS with a certificate authority made at start, bearer-token
 * authentication, the Kubernetes API, the fault switches and a small control API under /__stand-in/
 * (a prefix no kube-apiserver serves).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Duplex } from 'node:stream';
import { randomBytes, randomUUID } from 'node:crypto';
import { KubeApi } from './api.js';
import { SimulatedCrossplane, type ReconcileTiming } from './crossplane.js';
import { startArmStandIn, type ArmStandIn } from './arm.js';
import { SimulatedAzure } from './azure.js';
import { createCertificateAuthority } from './certificates.js';
import { CONTROL_PREFIX, serveControl, type ControlledStandIn } from './control-api.js';
import { EventRecorder } from './events.js';
import { fillAccounts } from './fill.js';
import { noFaults, type DenyingPolicy, type Faults, type ForbiddenRule, type UnreachableMode } from './faults.js';
import { readBody, send } from './http-io.js';
import { kubeconfigYaml, writeKubeconfig } from './kubeconfig.js';
import { ensureNamespace, SYSTEM_NAMESPACES } from './namespaces.js';
import type { RecordedRequest } from './request-log.js';
import { DEFAULT_RESOURCE_GROUPS, seedResourceGroup, type SeedResourceGroup } from './resource-group-seeds.js';
import {
  ACCOUNTS,
  EVENTS,
  NAMESPACED_ACCOUNTS,
  NAMESPACED_RESOURCE_GROUPS,
  NAMESPACES,
  RESOURCE_GROUPS,
  resourceGroupsBeside,
  type ResourceDef,
} from './resources.js';
import { StatusError, unauthorized } from './status.js';
import { ObjectStore } from './store.js';
import type { KubeObject, Verb } from './types.js';
import { serveWatch, WatchGate } from './watch.js';

export const DEFAULT_TIMING: ReconcileTiming = {
  syncedDelayMs: 500,
  readyDelayMs: 5000,
  deleteDelayMs: 4000,
  retryDelayMs: 3000,
};

export interface StandInOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The bearer token clients must send; random when absent. */
  token?: string;
  /** The user named in Forbidden messages, as the API server names the authenticated subject. */
  user?: string;
  timing?: Partial<ReconcileTiming>;
  subscriptionId?: string;
  resourceGroups?: readonly SeedResourceGroup[];
  /**
   * Team namespaces made at start (Crossplane v2): each gets a namespaced copy of every seeded
   * resource group, so namespaced Accounts there can use them.
   */
  teamNamespaces?: readonly string[];
  /** How often open watches that allow bookmarks get one; kube-apiserver's minute by default. */
  bookmarkIntervalMs?: number;
  /** The ARM stand-in served beside the Kubernetes API, on the same simulated Azure. */
  arm?: { port?: number; token?: string; pageSize?: number };
  log?: (line: string) => void;
}

export interface StandIn {
  /** https://host:port */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly user: string;
  /** PEM of the certificate authority that signed both serving certificates; the kubeconfig carries it. */
  readonly certificateAuthority: string;
  /** The simulated Azure the provider writes to and the ARM stand-in serves. */
  readonly azure: SimulatedAzure;
  /** Azure Resource Manager for storage accounts, over https with the same authority. */
  readonly arm: ArmStandIn;
  /** Loses every Account, as a cluster rebuilt from nothing would; Azure keeps its accounts. */
  reset(): void;
  kubeconfig(): string;
  writeKubeconfig(path: string): void;
  forbid(rule: ForbiddenRule): void;
  denyByPolicy(policy: DenyingPolicy | null): void;
  setConflictOnCreate(on: boolean): void;
  setUnreachable(mode: UnreachableMode | null): Promise<void>;
  clearFaults(): Promise<void>;
  faults(): Faults;
  injectFailure(name: string, message: string): void;
  clearFailure(name?: string): void;
  /** Cluster-scoped Accounts, then namespaced (Crossplane v2) ones. */
  accounts(): KubeObject[];
  resourceGroups(): KubeObject[];
  namespaces(): string[];
  /** Makes the namespace unless it exists (a platform team's step; the portal never does it). */
  createNamespace(name: string): void;
  events(): KubeObject[];
  requests(): RecordedRequest[];
  /** Adds `count` Ready accounts named prefix + number (those not there yet); answers how many it added. */
  fillAccounts(count: number, prefix?: string): number;
  /** Forgets the watch history: resuming a watch from an earlier resourceVersion gets 410 Gone. */
  compactHistory(): void;
  /** Ends every open watch connection abruptly, as a lost connection would. */
  dropWatches(): number;
  /** Holds watch events back (true) and then sends them in order (false), as a slow API server would. */
  holdWatches(on: boolean): void;
  close(): Promise<void>;
}

const HEALTH_PATHS = new Set(['/healthz', '/livez', '/readyz']);
// What the system:public-info-viewer role lets anyone read on a real cluster.
const ANONYMOUS_PATHS = new Set([...HEALTH_PATHS, '/version']);

const ACCOUNT_DEFS: readonly ResourceDef[] = [ACCOUNTS, NAMESPACED_ACCOUNTS];

export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(24).toString('base64url');
  const user = options.user ?? 'system:serviceaccount:platform:books-portal';
  const subscriptionId = options.subscriptionId ?? '00000000-0000-4000-8000-000000000000';
  const timing: ReconcileTiming = { ...DEFAULT_TIMING, ...options.timing };
  const log = options.log ?? (() => undefined);

  const store = new ObjectStore();
  const recorder = new EventRecorder(store);
  let faults = noFaults();
  const azure = new SimulatedAzure(subscriptionId);
  const crossplane = new SimulatedCrossplane(store, recorder, {
    timing,
    subscriptionId,
    resourceGroupExists: (name, accountDef, namespace) =>
      store.get(resourceGroupsBeside(accountDef), name, namespace) !== undefined,
    azure,
  });
  const reset = (): void => {
    for (const def of ACCOUNT_DEFS) {
      for (const account of store.list(def)) store.remove(def, account.metadata.name ?? '', account.metadata.namespace);
    }
  };
  const allAccounts = () => ACCOUNT_DEFS.flatMap((def) => store.list(def));
  const seeds = options.resourceGroups ?? DEFAULT_RESOURCE_GROUPS;
  for (const name of SYSTEM_NAMESPACES) ensureNamespace(store, name);
  for (const seed of seeds) seedResourceGroup(store, seed, subscriptionId);
  for (const namespace of options.teamNamespaces ?? []) {
    ensureNamespace(store, namespace);
    for (const seed of seeds) seedResourceGroup(store, seed, subscriptionId, namespace);
  }
  const api = new KubeApi(store, crossplane, () => faults, user);
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Duplex>();
  const watches = new Set<ServerResponse>();
  const gate = new WatchGate();
  const readyGroups = () =>
    store
      .list(RESOURCE_GROUPS)
      .filter((group) =>
        (group.status?.['conditions'] as { type: string; status: string }[] | undefined)?.some(
          (c) => c.type === 'Ready' && c.status === 'True',
        ),
      )
      .map((group) => ({
        name: group.metadata.name ?? '',
        location: (group.spec?.['forProvider'] as { location?: string } | undefined)?.location ?? 'westeurope',
      }));
  const fill = (count: number, prefix?: string) =>
    fillAccounts(store, crossplane, { count, resourceGroups: readyGroups(), ...(prefix ? { prefix } : {}) });
  const dropWatches = (): number => {
    const open = [...watches];
    for (const res of open) res.socket?.destroy();
    watches.clear();
    return open.length;
  };

  const controlled: ControlledStandIn = {
    faults: () => faults,
    setFaults: (next) => {
      faults = next;
    },
    store,
    crossplane,
    azure,
    requests,
    accountCount: () => allAccounts().length,
    fill,
    dropWatches,
    reset,
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (url.pathname.startsWith(CONTROL_PREFIX)) return serveControl(controlled, req, res, url);
    if (faults.unreachable) {
      req.socket.destroy();
      return;
    }
    const method = req.method ?? 'GET';
    const record = (status: number, verb?: Verb, resource?: string): void => {
      requests.push({
        method,
        path: url.pathname,
        query: url.search,
        status,
        ...(verb ? { verb } : {}),
        ...(resource ? { resource } : {}),
        ...(typeof req.headers.traceparent === 'string' ? { traceparent: req.headers.traceparent } : {}),
      });
      log(`${method} ${url.pathname}${url.search} ${status}`);
    };
    if (HEALTH_PATHS.has(url.pathname) && method === 'GET') {
      record(200);
      return send(res, 200, 'ok');
    }
    try {
      const anonymous = ANONYMOUS_PATHS.has(url.pathname) && method === 'GET';
      if (!anonymous && req.headers.authorization !== `Bearer ${token}`) throw unauthorized();
      const answer = await api.handle({
        method,
        segments: url.pathname.split('/').filter(Boolean).map(decodeURIComponent),
        query: url.searchParams,
        contentType: req.headers['content-type'] ?? '',
        accept: req.headers.accept ?? '',
        readBody: () => readBody(req),
        serverAddress: req.headers.host ?? `${host}:${port}`,
      });
      record(answer.status, answer.verb, answer.resource);
      if (answer.watch) {
        watches.add(res);
        res.on('close', () => watches.delete(res));
        return serveWatch(
          store,
          answer.watch,
          res,
          { 'Audit-Id': randomUUID() },
          {
            gate,
            ...(options.bookmarkIntervalMs ? { bookmarkIntervalMs: options.bookmarkIntervalMs } : {}),
          },
        );
      }
      send(res, answer.status, answer.body, {
        ...(answer.contentType ? { contentType: answer.contentType } : {}),
        ...(answer.warnings ? { warnings: answer.warnings } : {}),
      });
    } catch (error) {
      if (!(error instanceof StatusError)) log(`stand-in bug on ${method} ${url.pathname}: ${String(error)}`);
      const status =
        error instanceof StatusError ? error : new StatusError(500, 'InternalError', 'Internal error occurred');
      record(status.code);
      send(res, status.code, status.toStatus());
    }
  }

  const authority = await createCertificateAuthority();
  const tls = await authority.issue([host], 'kube-apiserver');
  const arm = await startArmStandIn({
    azure,
    authority,
    host,
    ...(options.arm?.port === undefined ? {} : { port: options.arm.port }),
    ...(options.arm?.token === undefined ? {} : { token: options.arm.token }),
    ...(options.arm?.pageSize === undefined ? {} : { pageSize: options.arm.pageSize }),
    log: (line) => log(`[arm] ${line}`),
  });
  const server: Server = createServer({ cert: tls.certificate, key: tls.privateKey }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`stand-in could not answer: ${String(error)}`);
      if (!res.headersSent) send(res, 500, { error: 'stand-in failure' });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const listen = (onPort: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(onPort, host, () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : onPort);
      });
    });
  const stopListening = (): Promise<void> =>
    new Promise((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });

  const port = await listen(options.port ?? 0);
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const target = { url, token, certificateAuthority: tls.certificateAuthority };

  return {
    url,
    port,
    token,
    user,
    certificateAuthority: tls.certificateAuthority,
    azure,
    arm,
    reset,
    kubeconfig: () => kubeconfigYaml(target),
    writeKubeconfig: (path) => writeKubeconfig(path, target),
    forbid: (rule) => {
      faults = { ...faults, forbidden: rule };
    },
    denyByPolicy: (policy) => {
      faults = { ...faults, denyingPolicy: policy };
    },
    setConflictOnCreate: (on) => {
      faults = { ...faults, conflictOnCreate: on };
    },
    async setUnreachable(mode) {
      const previous = faults.unreachable;
      faults = { ...faults, unreachable: mode };
      if (mode === 'refuse' && previous !== 'refuse') await stopListening();
      if (mode !== 'refuse' && previous === 'refuse') await listen(port);
      if (mode === 'reset') for (const socket of sockets) socket.destroy();
    },
    async clearFaults() {
      const wasRefusing = faults.unreachable === 'refuse';
      faults = noFaults();
      if (wasRefusing) await listen(port);
    },
    faults: () => structuredClone(faults),
    injectFailure: (name, message) => crossplane.injectFailure(name, message),
    clearFailure: (name) => crossplane.clearFailure(name),
    accounts: allAccounts,
    resourceGroups: () => [...store.list(RESOURCE_GROUPS), ...store.list(NAMESPACED_RESOURCE_GROUPS)],
    namespaces: () => store.list(NAMESPACES).map((namespace) => namespace.metadata.name ?? ''),
    createNamespace: (name) => {
      ensureNamespace(store, name);
    },
    events: () => store.list(EVENTS),
    requests: () => [...requests],
    fillAccounts: fill,
    compactHistory: () => store.compact(),
    dropWatches,
    holdWatches: (on) => gate.hold(on),
    async close() {
      crossplane.stop();
      await Promise.all([stopListening(), arm.close()]);
    },
  };
}
