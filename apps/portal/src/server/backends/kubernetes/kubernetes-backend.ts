import 'server-only';
import type { CoreV1Event } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import {
  ACCOUNT_KIND,
  buildAccountManifest,
  placedInScope,
  PORTAL_KEY_PREFIX,
  PORTAL_KEYS,
} from '@/lib/platform/account-manifest';
import { CLUSTER_SCOPE, namespaceNameProblem, type AccountScope } from '@/lib/platform/account-scope';
import type { PlatformEvent, ResourceGroup, StorageAccountRequest } from '@/lib/platform/types';
import { planChange, resyncAnnotations, staleVersion } from '../../model/account-change-plan';
import { toStorageAccount } from '../../model/account-mapper';
import type { AccountObject } from '../../model/account-object';
import type { PlatformBackend, RequestContext } from '../../model/backend';
import { withLastApplied } from '../../model/change-annotations';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../model/errors';
import type { ClusterCache } from './cluster-cache';
import type { AccountRef, ClusterClient } from './cluster-client';

/** Annotations that record who asked for a deletion, beside the ones create writes. */
const DELETION_KEYS = {
  requestId: `${PORTAL_KEY_PREFIX}/deletion-request-id`,
  requestedBy: PORTAL_KEYS.deletionRequestedBy,
  requestedBySubject: PORTAL_KEYS.deletionRequestedBySubject,
  requestedAt: `${PORTAL_KEY_PREFIX}/deletion-requested-at`,
} as const;

function isoTime(value: Date | string | undefined | null): string | undefined {
  if (value === undefined || value === null) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function toPlatformEvent(event: CoreV1Event): PlatformEvent {
  const last = isoTime(event.lastTimestamp) ?? isoTime(event.eventTime) ?? isoTime(event.metadata.creationTimestamp);
  const first = isoTime(event.firstTimestamp) ?? last;
  return {
    type: event.type ?? 'Normal',
    reason: event.reason ?? '',
    message: event.message ?? '',
    count: event.count ?? 1,
    ...(first ? { firstTimestamp: first } : {}),
    ...(last ? { lastTimestamp: last } : {}),
  };
}

/** Server-managed bookkeeping that only clutters the YAML view. */
function forDisplay(object: unknown): unknown {
  if (typeof object !== 'object' || object === null) return object;
  const { metadata, ...rest } = object as { metadata?: Record<string, unknown> };
  if (!metadata) return object;
  const { managedFields: _managedFields, ...visibleMetadata } = metadata;
  const { apiVersion, kind, ...body } = rest as Record<string, unknown>;
  // kubectl's order: apiVersion, kind, metadata, then spec and status.
  return { apiVersion, kind, metadata: visibleMetadata, ...body };
}

function manifestFor(request: StorageAccountRequest, context: RequestContext, scope: AccountScope) {
  return withLastApplied(
    buildAccountManifest(
      request,
      {
        requestId: context.requestId,
        requestedBy: context.requestedBy,
        requestedBySubject: context.principal.subject,
        requestedAt: new Date().toISOString(),
      },
      scope,
    ),
  );
}

/**
 * In namespaced scope an Account is created in the namespace of its application: one the labels
 * name, spelled as Kubernetes allows. Anything else is the request's fault, said before the cluster is asked.
 */
function checkedNamespace<T extends { metadata: { name?: string; namespace?: string } }>(
  manifest: T,
  scope: AccountScope,
): T {
  if (scope.kind === 'cluster') return manifest;
  const { namespace, name } = manifest.metadata;
  const problem =
    namespace === undefined
      ? `storage account${name ? ` "${name}"` : ''} names no application, so it has no namespace to live in`
      : namespaceNameProblem(namespace);
  if (problem)
    throw new InvalidRequestError(`The storage account cannot be placed: ${problem}`, {
      fields: { application: problem },
    });
  return manifest;
}

/** A manifest a remediation built (cluster-scoped); the backend places it in the account scope. */
type RemediationManifest = Record<string, unknown> & {
  apiVersion: string;
  metadata: { name?: string; namespace?: string; labels?: Record<string, string> };
  spec: object;
};

/** A DELETE answers the object (still there while finalizers run) or a Status (gone at once). */
function isObject(answer: unknown): boolean {
  const kind = (answer as { kind?: unknown } | null)?.kind;
  return typeof answer === 'object' && answer !== null && kind !== 'Status';
}

/**
 * The platform backend for a real cluster: Crossplane Account objects through the Kubernetes API.
 * Reads are answered by the process's watch-fed cache; writes go to the API server, and what it
 * answers is applied to the cache so this portal's next read shows it. Errors arrive already mapped
 * by the cluster client (or by the cache, which reports the cluster's errors the same way).
 */
export function createKubernetesBackend(
  client: ClusterClient,
  cache: ClusterCache,
  scope: AccountScope = CLUSTER_SCOPE,
): PlatformBackend {
  const written = (answer: unknown) => {
    cache.accounts.applyWrite(answer);
    return toStorageAccount(answer as AccountObject);
  };
  const newManifest = (request: StorageAccountRequest, context: RequestContext) =>
    checkedNamespace(manifestFor(request, context, scope), scope);
  /** Where the account lives: in namespaced scope the cache knows its namespace, or it does not exist. */
  const refOf = async (name: string): Promise<AccountRef> => {
    if (scope.kind === 'cluster') return { name };
    const account = await cache.accounts.get(name);
    if (!account?.namespace) throw new NotFoundError(`Storage account "${name}" not found`);
    return { name, namespace: account.namespace };
  };

  return {
    mode: 'kubernetes',

    list: () => cache.accounts.values(),

    async get(name) {
      const account = await cache.accounts.get(name);
      if (!account) throw new NotFoundError(`Storage account "${name}" not found`);
      return account;
    },

    async create(request, context) {
      return written(await client.createAccount(newManifest(request, context)));
    },

    async validate(request, context) {
      const manifest = newManifest(request, context);
      const answer = (await client.dryRunCreateAccount(manifest)) as AccountObject;
      return { item: toStorageAccount(answer), manifest };
    },

    async delete(name, context) {
      const ref = await refOf(name);
      // Annotate first so whoever looks at the object while it is Deleting sees who asked.
      cache.accounts.applyWrite(
        await client.annotateAccount(ref, {
          [DELETION_KEYS.requestId]: context.requestId,
          [DELETION_KEYS.requestedBy]: context.requestedBy,
          [DELETION_KEYS.requestedBySubject]: context.principal.subject,
          [DELETION_KEYS.requestedAt]: new Date().toISOString(),
        }),
      );
      const answer = await client.deleteAccount(ref);
      if (isObject(answer)) cache.accounts.applyWrite(answer);
      else cache.accounts.applyRemoval(name);
      return { name };
    },

    async change(name, change, context, { dryRun }) {
      const ref = await refOf(name);
      const object = (await client.getAccount(ref)) as AccountObject;
      const { patch, changes } = planChange(object, change, context);
      if (!patch) return { item: toStorageAccount(object), changes };
      try {
        if (dryRun)
          return { item: toStorageAccount((await client.dryRunChangeAccount(ref, patch)) as AccountObject), changes };
        return { item: written(await client.changeAccount(ref, patch)), changes };
      } catch (error) {
        // The object changed between our read and the patch: the API server's optimistic lock held.
        if (error instanceof ConflictError) throw staleVersion(name, change.resourceVersion);
        throw error;
      }
    },

    async resync(name, context) {
      return written(await client.requestReconcile(await refOf(name), resyncAnnotations(context)));
    },

    async writeAccount(write, { dryRun }) {
      if (write.kind === 'create') {
        const manifest = checkedNamespace(placedInScope(write.manifest as RemediationManifest, scope), scope);
        if (dryRun) return toStorageAccount((await client.dryRunCreateAccount(manifest)) as AccountObject);
        return written(await client.createAccount(manifest));
      }
      const ref = await refOf(write.name);
      try {
        if (dryRun) return toStorageAccount((await client.dryRunChangeAccount(ref, write.patch)) as AccountObject);
        return written(await client.changeAccount(ref, write.patch));
      } catch (error) {
        const version = (write.patch['metadata'] as { resourceVersion?: string } | undefined)?.resourceVersion;
        if (error instanceof ConflictError && version) throw staleVersion(write.name, version);
        throw error;
      }
    },

    async listResourceGroups() {
      // Only groups the provider reports Ready are offered: anything else cannot hold an account yet.
      return (await cache.resourceGroups.values())
        .filter((group): group is ResourceGroup => group !== undefined && group.ready)
        .sort((a, b) => a.name.localeCompare(b.name) || (a.namespace ?? '').localeCompare(b.namespace ?? ''));
    },

    async events(name) {
      const events = await client.listAccountEvents(await refOf(name), ACCOUNT_KIND);
      return events
        .map(toPlatformEvent)
        .sort(
          (a, b) =>
            (a.lastTimestamp ?? '').localeCompare(b.lastTimestamp ?? '') ||
            (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? ''),
        );
    },

    async manifestYaml(name) {
      return stringify(forDisplay(await client.getAccount(await refOf(name))));
    },
  };
}
