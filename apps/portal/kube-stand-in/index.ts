/** A Kubernetes API server stand-in with simulated Crossplane reconciliation, for tests and demos. */
export { startStandIn, DEFAULT_RESOURCE_GROUPS, DEFAULT_TIMING } from './server.js';
export type { StandIn, StandInOptions, SeedResourceGroup, RecordedRequest } from './server.js';
export type { DenyingPolicy, Faults, ForbiddenRule, UnreachableMode } from './faults.js';
export type { ReconcileTiming } from './crossplane.js';
export type { KubeObject, Condition } from './types.js';
export { kubeconfigYaml, writeKubeconfig } from './kubeconfig.js';
