/**
 * The stand-in's control API under /__stand-in/ (a prefix no kube-apiserver serves): what a test or
 * a demo in another process uses to switch faults, inject provider failures, fill or reset the
 * cluster, read the request log and disturb watches.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimulatedAzure } from './azure.js';
import type { SimulatedCrossplane } from './crossplane.js';
import { noFaults, type DenyingPolicy, type Faults, type ForbiddenRule } from './faults.js';
import { MAX_FILL } from './fill.js';
import { readBody, send } from './http-io.js';
import type { RecordedRequest } from './request-log.js';
import type { ObjectStore } from './store.js';
import { isRecord } from './validation.js';

export const CONTROL_PREFIX = '/__stand-in/';

/** The parts of a running stand-in the control API reads and changes. */
export interface ControlledStandIn {
  faults(): Faults;
  setFaults(faults: Faults): void;
  store: ObjectStore;
  crossplane: SimulatedCrossplane;
  azure: SimulatedAzure;
  /** The request log itself, which a DELETE empties. */
  requests: RecordedRequest[];
  accountCount(): number;
  fill(count: number, prefix?: string): number;
  dropWatches(): number;
  reset(): void;
}

function isDenyingPolicy(value: unknown): value is DenyingPolicy {
  return isRecord(value) && typeof value['policy'] === 'string' && typeof value['message'] === 'string';
}

/** A PUT's faults: each field the body names replaces the current one (null clears it), the rest stay. */
function faultsAfter(input: Record<string, unknown>, faults: Faults): Faults {
  const forbiddenRule = input['forbidden'];
  return {
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
}

export async function serveControl(
  standIn: ControlledStandIn,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const { crossplane, requests } = standIn;
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
    return send(res, 200, {
      faults: standIn.faults(),
      failures: crossplane.injectedFailures(),
      accounts: standIn.accountCount(),
    });
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
    const added = standIn.fill(count, prefix);
    return send(res, 200, { added, accounts: standIn.accountCount() });
  }
  if (topic === 'history' && name === 'compact' && req.method === 'POST') {
    standIn.store.compact();
    return send(res, 200, { resourceVersion: standIn.store.currentRevision() });
  }
  if (topic === 'watches' && name === 'drop' && req.method === 'POST') {
    return send(res, 200, { dropped: standIn.dropWatches() });
  }
  if (topic === 'reset' && req.method === 'POST') {
    standIn.reset();
    return send(res, 200, { accounts: 0, azureAccounts: standIn.azure.list().length });
  }
  if (topic === 'faults' && req.method === 'DELETE') {
    standIn.setFaults(noFaults());
    return send(res, 200, { faults: standIn.faults() });
  }
  if (topic === 'faults' && req.method === 'PUT') {
    if (input['unreachable'] === 'refuse') {
      return send(res, 400, {
        error: 'unreachable "refuse" closes this control API too; use "reset" here or the programmatic handle',
      });
    }
    standIn.setFaults(faultsAfter(input, standIn.faults()));
    return send(res, 200, { faults: standIn.faults() });
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
