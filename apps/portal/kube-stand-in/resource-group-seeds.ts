/**
 * The resource groups a stand-in starts with: Crossplane ResourceGroups as the provider leaves them,
 * Ready with their Azure id, or still being created.
 */
import { randomUUID } from 'node:crypto';
import { CROSSPLANE_FINALIZER, setCondition } from './crossplane.js';
import { apiVersionOf, NAMESPACED_RESOURCE_GROUPS, RESOURCE_GROUPS } from './resources.js';
import type { ObjectStore } from './store.js';
import { kubeTime, type KubeObject } from './types.js';

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

export function seedResourceGroup(
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
