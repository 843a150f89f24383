/**
 * core/v1 namespaces as the stand-in serves them: seeded at start, created by kubectl or a test,
 * never deleted. A namespaced object can only be created in a namespace that exists; the API server
 * answers 404 `namespaces "<n>" not found` otherwise, and so does the stand-in.
 */
import { randomUUID } from 'node:crypto';
import { NAMESPACES } from './resources.js';
import { badRequest, invalid, notFound } from './status.js';
import type { ObjectStore } from './store.js';
import { kubeTime, type KubeObject } from './types.js';
import { isRecord, validateObjectName } from './validation.js';

/** The namespaces every cluster has from its first minute. */
export const SYSTEM_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'] as const;

/** RFC 1123 label, as namespace names must be. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The team namespaces the sandbox and the command line seed unless STAND_IN_TEAM_NAMESPACES names others. */
export const DEFAULT_TEAM_NAMESPACES = ['webshop', 'payments', 'books'] as const;

/** STAND_IN_TEAM_NAMESPACES: comma-separated namespace names; empty for none. */
export function teamNamespacesFrom(raw: string | undefined): string[] {
  if (raw === undefined) return [...DEFAULT_TEAM_NAMESPACES];
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const bad = names.find((name) => !DNS_LABEL.test(name) || name.length > 63);
  if (bad !== undefined) throw new Error(`STAND_IN_TEAM_NAMESPACES: "${bad}" is not a namespace name`);
  return names;
}

export function namespaceObject(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: randomUUID(),
      creationTimestamp: kubeTime(),
      labels: { 'kubernetes.io/metadata.name': name },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

/** Adds the namespace unless it is there; answers the stored object. */
export function ensureNamespace(store: ObjectStore, name: string): KubeObject {
  return store.get(NAMESPACES, name) ?? store.put(NAMESPACES, namespaceObject(name));
}

/** Throws the API server's 404 for a write into a namespace that does not exist. */
export function requireNamespace(store: ObjectStore, name: string): void {
  if (!store.get(NAMESPACES, name)) throw notFound(NAMESPACES, name);
}

/** The Namespace a create body asks for, checked as the API server checks its name. */
export function namespaceFromBody(raw: string): KubeObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest('the object provided is unrecognized (must be of type Namespace)');
  }
  const metadata = isRecord(parsed) && isRecord(parsed['metadata']) ? parsed['metadata'] : {};
  const name = typeof metadata['name'] === 'string' ? metadata['name'] : '';
  if (!name) {
    throw invalid(NAMESPACES, '', [{ type: 'FieldValueRequired', field: 'metadata.name', detail: 'name is required' }]);
  }
  const errors = validateObjectName(name);
  if (!DNS_LABEL.test(name) || name.length > 63) {
    errors.push({
      type: 'FieldValueInvalid',
      field: 'metadata.name',
      value: name,
      detail: "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'",
    });
  }
  if (errors.length > 0) throw invalid(NAMESPACES, name, errors);
  const object = namespaceObject(name);
  const labels = isRecord(metadata['labels']) ? (metadata['labels'] as Record<string, string>) : {};
  object.metadata.labels = { ...labels, ...object.metadata.labels };
  return object;
}
