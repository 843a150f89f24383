/**
 * Where the portal's Accounts live (PORTAL_ACCOUNT_SCOPE). Cluster scope is Crossplane v1's
 * cluster-scoped `storage.azure.upbound.io` Account; namespaced scope is Crossplane v2's
 * `storage.azure.m.upbound.io` Account in the namespace of its application, which references a
 * ClusterProviderConfig. Shared by the server, which builds what it sends, and the workflow's preview.
 */

export type AccountScope =
  | { kind: 'cluster' }
  | {
      kind: 'namespaced';
      /** PORTAL_NAMESPACE_TEMPLATE: the namespace name, with {application} and {environment} filled in. */
      namespaceTemplate: string;
      /** PORTAL_PROVIDER_CONFIG: the ClusterProviderConfig every Account references. */
      providerConfig: string;
    };

export const CLUSTER_SCOPE: AccountScope = { kind: 'cluster' };

export const DEFAULT_NAMESPACE_TEMPLATE = '{application}';
export const DEFAULT_PROVIDER_CONFIG = 'default';
export const NAMESPACE_PLACEHOLDERS = ['{application}', '{environment}'] as const;

/** RFC 1123 label, as Kubernetes requires of a namespace name. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const MAX_NAMESPACE_LENGTH = 63;

/** Why this is not a namespace name, or undefined when it is one. */
export function namespaceNameProblem(namespace: string): string | undefined {
  if (namespace.length > MAX_NAMESPACE_LENGTH) {
    return `namespace "${namespace.slice(0, MAX_NAMESPACE_LENGTH)}…" is longer than ${MAX_NAMESPACE_LENGTH} characters`;
  }
  if (!DNS_LABEL.test(namespace)) {
    return `"${namespace}" is not a namespace name (lower-case letters, digits and hyphens, starting and ending with a letter or digit)`;
  }
  return undefined;
}

/** The namespace an application's accounts live in; undefined in cluster scope. */
export function accountNamespace(
  scope: AccountScope,
  owner: { application: string; environment: string },
): string | undefined {
  if (scope.kind === 'cluster') return undefined;
  return scope.namespaceTemplate
    .replaceAll('{application}', owner.application)
    .replaceAll('{environment}', owner.environment);
}
