/**
 * A Kubernetes API server stand-in with simulated Crossplane reconciliation, and an Azure Resource
 * Manager stand-in on the same simulated Azure, for tests and demos.
 */
export { startStandIn, DEFAULT_TIMING } from './server.js';
export type { StandIn, StandInOptions } from './server.js';
export { DEFAULT_RESOURCE_GROUPS } from './resource-group-seeds.js';
export type { SeedResourceGroup } from './resource-group-seeds.js';
export type { RecordedRequest } from './request-log.js';
export type { DenyingPolicy, Faults, ForbiddenRule, UnreachableMode } from './faults.js';
export type { ReconcileTiming } from './crossplane.js';
export type { KubeObject, Condition } from './types.js';
export { kubeconfigYaml, writeKubeconfig } from './kubeconfig.js';
export { armClientEnvironment } from './arm-client-environment.js';
export type { ArmStandIn, ArmFaults, ArmRequest } from './arm.js';
export type { ArmStorageAccount, SimulatedAzure } from './azure.js';
