import 'server-only';

/**
 * The few fields of a raw Kubernetes object (or a watch's Status) the watch-fed cache reads, read
 * defensively: the cluster's answers are untyped JSON.
 */

export function nameOf(object: unknown): string | undefined {
  const name = (object as { metadata?: { name?: unknown } } | null)?.metadata?.name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** "namespace/name" for a namespaced object, the name alone for a cluster-scoped one. */
export function namespacedKey(object: unknown): string | undefined {
  const name = nameOf(object);
  const namespace = (object as { metadata?: { namespace?: unknown } } | null)?.metadata?.namespace;
  return name && typeof namespace === 'string' && namespace !== '' ? `${namespace}/${name}` : name;
}

export function versionOf(object: unknown): string {
  const version = (object as { metadata?: { resourceVersion?: unknown } } | null)?.metadata?.resourceVersion;
  return typeof version === 'string' ? version : '';
}

/**
 * Whether `candidate` is older than `known`. resourceVersions are opaque to clients in general, but
 * every API server in practice writes etcd revisions (decimal integers); anything else compares as
 * not older, so the watch stays authoritative.
 */
export function olderThan(candidate: string, known: string): boolean {
  if (!/^\d+$/.test(candidate) || !/^\d+$/.test(known)) return false;
  return BigInt(candidate) < BigInt(known);
}

/** What a watch's ERROR event carries: a Status, 410 when the resourceVersion expired. */
export function statusCode(object: unknown): number | undefined {
  const code = (object as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}
