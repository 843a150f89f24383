import 'server-only';
import type { AccountForProvider } from '@/lib/platform/account-manifest';

/** The parts of a Kubernetes Account object (storage.azure.upbound.io/v1beta1) the portal reads. */
export interface KubernetesCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface AccountObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    generateName?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
  };
  spec?: {
    forProvider?: Partial<AccountForProvider>;
    providerConfigRef?: { kind?: string; name: string };
    /** Crossplane's management policies; ["Observe"] only reads the external resource. */
    managementPolicies?: string[];
  };
  status?: {
    conditions?: KubernetesCondition[];
    atProvider?: Record<string, unknown>;
    /** The reconcile request (crossplane.io/reconcile-requested-at) Crossplane last handled. */
    lastHandledReconcileAt?: string;
  };
}
