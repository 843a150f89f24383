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
import { CROSSPLANE_FINALIZER, setCondition, SimulatedCrossplane, type ReconcileTiming } from './crossplane.js';
import { startArmStandIn, type ArmStandIn } from './arm.js';
import { SimulatedAzure } from './azure.js';
import { createCertificateAuthority } from './certificates.js';
import { EventRecorder } from './events.js';
import { fillAccounts, MAX_FILL } from './fill.js';
import { noFaults, type DenyingPolicy, type Faults, type ForbiddenRule, type UnreachableMode } from './faults.js';
import { kubeconfigYaml, writeKubeconfig } from './kubeconfig.js';
import { ensureNamespace, SYSTEM_NAMESPACES } from './namespaces.js';
import {
  ACCOUNTS,
  apiVersionOf,
  EVENTS,
  NAMESPACED_ACCOUNTS,
  NAMESPACED_RESOURCE_GROUPS,
  NAMESPACES,
  RESOURCE_GROUPS,
  resourceGroupsBeside,
  type ResourceDef,
} from './resources.js';
import { entityTooLarge, StatusError, unauthorized } from './status.js';
import { ObjectStore } from './store.js';
import { kubeTime, type KubeObject, type Verb } from './types.js';
import { isRecord } from './validation.js';
import { serveWatch, WatchGate } from './watch.js';

export interface SeedResourceGroup {
  name: string;
  location: string;
  ready: boolean;
}

export const DEFAULT_RESOURCE_GROUPS: readonly SeedResourceGroup[] = [
  { name: 'rg-books-dev', location: 'westeurope', ready: true },
  { name: 'rg-books-prod', location: 'westeurope', ready: true },
  { name: 'rg-platform-shared', location: 'northeurope', ready: true },
  { name: 'rg-sandbox-pending', location: 'eastus', ready: false },
];

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

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  status: number;
  verb?: Verb;
  resource?: string;
  /** The W3C trace context the caller sent, if any (the portal's traces). */
  traceparent?: string;
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

const MAX_BODY_BYTES = 3 * 1024 * 1024;
const CONTROL_PREFIX = '/__stand-in/';
const HEALTH_PATHS = new Set(['/healthz', '/livez', '/readyz']);
// What the system:public-info-viewer role lets anyone read on a real cluster.
const ANONYMOUS_PATHS = new Set([...HEALTH_PATHS, '/version']);

function seedResourceGroup(
  store: ObjectStore,
  seed: SeedResourceGroup,
  subscriptionId: string,
  namespace?: string,
): void {
  const def = namespace === undefined ? RESOURCE_GROUPS : NAMESPACED_RESOURCE_GROUPS;
  const group: KubeObject = {
    apiVersion: apiVersionOf(def),
    kind: def.kind,
    metadata: {
      name: seed.name,
      ...(namespace === undefined ? {} : { namespace }),
      uid: randomUUID(),
      generation: 1,
      creationTimestamp: kubeTime(),
      finalizers: [CROSSPLANE_FINALIZER],
      annotations: { 'crossplane.io/external-name': seed.name },
      labels: { 'platform-portal/approved': 'true' },
    },
    spec: { forProvider: { location: seed.location }, managementPolicies: ['*'], deletionPolicy: 'Delete' },
  };
  if (seed.ready) {
    setCondition(group, 'Synced', 'True', 'ReconcileSuccess');
    setCondition(group, 'Ready', 'True', 'Available');
    group.status = {
      ...group.status,
      atProvider: { id: `/subscriptions/${subscriptionId}/resourceGroups/${seed.name}`, location: seed.location },
    };
  } else {
    setCondition(group, 'Synced', 'True', 'ReconcileSuccess');
    setCondition(group, 'Ready', 'False', 'Creating');
  }
  store.put(def, group);
}

const ACCOUNT_DEFS: readonly ResourceDef[] = [ACCOUNTS, NAMESPACED_ACCOUNTS];

function isDenyingPolicy(value: unknown): value is DenyingPolicy {
  return isRecord(value) && typeof value['policy'] === 'string' && typeof value['message'] === 'string';
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw entityTooLarge(MAX_BODY_BYTES);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  extra: { contentType?: string; warnings?: string[] } = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': extra.contentType ?? (typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json'),
    'Content-Length': Buffer.byteLength(text),
    'Audit-Id': randomUUID(),
    'Cache-Control': 'no-cache, private',
    ...(extra.warnings ? { Warning: extra.warnings.map((w) => `299 - ${JSON.stringify(w)}`) } : {}),
  });
  res.end(text);
}

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

  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.slice(CONTROL_PREFIX.length).split('/').filter(Boolean);
    const body = req.method === 'PUT' || req.method === 'POST' ? (await readBody(req)).toString('utf8') : '';
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : {};
    } catch {
      return send(res, 400, { error: 'control body must be JSON' });
    }
    const input = isRecord(json) ? json : {};
    const [topic, name] = path;
    if (topic === 'state' && req.method === 'GET') {
      return send(res, 200, { faults, failures: crossplane.injectedFailures(), accounts: allAccounts().length });
    }
    if (topic === 'requests' && req.method === 'GET') return send(res, 200, { items: requests });
    if (topic === 'requests' && req.method === 'DELETE') {
      requests.length = 0;
      return send(res, 200, { items: requests });
    }
    if (topic === 'accounts' && req.method === 'POST') {
      const count = input['count'];
      const prefix = input['prefix'];
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_FILL) {
        return send(res, 400, { error: `count must be a whole number from 1 to ${MAX_FILL}` });
      }
      if (prefix !== undefined && (typeof prefix !== 'string' || !/^[a-z][a-z0-9]{0,12}$/.test(prefix))) {
        return send(res, 400, {
          error: 'prefix must be 1 to 13 lower-case letters and digits, starting with a letter',
        });
      }
      const added = fill(count, prefix);
      return send(res, 200, { added, accounts: allAccounts().length });
    }
    if (topic === 'history' && name === 'compact' && req.method === 'POST') {
      store.compact();
      return send(res, 200, { resourceVersion: store.currentRevision() });
    }
    if (topic === 'watches' && name === 'drop' && req.method === 'POST') {
      return send(res, 200, { dropped: dropWatches() });
    }
    if (topic === 'reset' && req.method === 'POST') {
      reset();
      return send(res, 200, { accounts: 0, azureAccounts: azure.list().length });
    }
    if (topic === 'faults' && req.method === 'DELETE') {
      faults = noFaults();
      return send(res, 200, { faults });
    }
    if (topic === 'faults' && req.method === 'PUT') {
      if (input['unreachable'] === 'refuse') {
        return send(res, 400, {
          error: 'unreachable "refuse" closes this control API too; use "reset" here or the programmatic handle',
        });
      }
      const forbiddenRule = input['forbidden'];
      faults = {
        forbidden:
          isRecord(forbiddenRule) && Array.isArray(forbiddenRule['verbs'])
            ? (forbiddenRule as unknown as ForbiddenRule)
            : forbiddenRule === null
              ? null
              : faults.forbidden,
        unreachable:
          input['unreachable'] === 'reset'
            ? 'reset'
            : input['unreachable'] === null || input['unreachable'] === false
              ? null
              : faults.unreachable,
        conflictOnCreate:
          typeof input['conflictOnCreate'] === 'boolean' ? input['conflictOnCreate'] : faults.conflictOnCreate,
        denyingPolicy: isDenyingPolicy(input['denyingPolicy'])
          ? input['denyingPolicy']
          : input['denyingPolicy'] === null
            ? null
            : faults.denyingPolicy,
      };
      return send(res, 200, { faults });
    }
    if (topic === 'failures' && req.method === 'PUT' && name) {
      const message = typeof input['message'] === 'string' && input['message'] ? input['message'] : 'injected failure';
      crossplane.injectFailure(decodeURIComponent(name), message);
      return send(res, 200, { failures: crossplane.injectedFailures() });
    }
    if (topic === 'failures' && req.method === 'DELETE') {
      crossplane.clearFailure(name ? decodeURIComponent(name) : undefined);
      return send(res, 200, { failures: crossplane.injectedFailures() });
    }
    send(res, 404, { error: 'unknown control route' });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (url.pathname.startsWith(CONTROL_PREFIX)) return control(req, res, url);
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
