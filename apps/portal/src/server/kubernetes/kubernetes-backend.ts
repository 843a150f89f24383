import 'server-only';
import type { CoreV1Event } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { ACCOUNT_KIND, buildAccountManifest, PORTAL_KEY_PREFIX, PORTAL_KEYS } from '@/lib/platform/account-manifest';
import type { PlatformEvent, ResourceGroup, StorageAccountRequest } from '@/lib/platform/types';
import { planChange, resyncAnnotations, staleVersion } from '../platform/account-change-plan';
import { toStorageAccount } from '../platform/account-mapper';
import type { AccountObject } from '../platform/account-object';
import type { PlatformBackend, RequestContext } from '../platform/backend';
import { withLastApplied } from '../platform/change-annotations';
import { ConflictError } from '../platform/errors';
import type { ClusterClient } from './cluster-client';

/** Annotations that record who asked for a deletion, beside the ones create writes. */
export const DELETION_KEYS = {
  requestId: `${PORTAL_KEY_PREFIX}/deletion-request-id`,
  requestedBy: PORTAL_KEYS.deletionRequestedBy,
  requestedAt: `${PORTAL_KEY_PREFIX}/deletion-requested-at`,
} as const;

interface ResourceGroupObject {
  metadata?: { name?: string };
  spec?: { forProvider?: { location?: unknown } };
  status?: { conditions?: { type?: string; status?: string }[]; atProvider?: { location?: unknown } };
}

function isReady(object: ResourceGroupObject): boolean {
  return (object.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function toResourceGroup(object: ResourceGroupObject): ResourceGroup | undefined {
  const name = object.metadata?.name;
  if (!name) return undefined;
  const location = object.status?.atProvider?.location ?? object.spec?.forProvider?.location;
  return { name, ready: isReady(object), ...(typeof location === 'string' ? { location } : {}) };
}

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

function manifestFor(request: StorageAccountRequest, context: RequestContext) {
  return withLastApplied(
    buildAccountManifest(request, {
      requestId: context.requestId,
      requestedBy: context.requestedBy,
      requestedAt: new Date().toISOString(),
    }),
  );
}

/**
 * The platform backend for a real cluster: Crossplane Account objects through the Kubernetes API.
 * Errors arrive already mapped by the cluster client.
 */
export function createKubernetesBackend(client: ClusterClient): PlatformBackend {
  return {
    mode: 'kubernetes',

    async list() {
      const objects = (await client.listAccounts()) as AccountObject[];
      return objects.map(toStorageAccount);
    },

    async get(name) {
      return toStorageAccount((await client.getAccount(name)) as AccountObject);
    },

    async create(request, context) {
      return toStorageAccount((await client.createAccount(manifestFor(request, context))) as AccountObject);
    },

    async validate(request, context) {
      const manifest = manifestFor(request, context);
      const answer = (await client.dryRunCreateAccount(manifest)) as AccountObject;
      return { item: toStorageAccount(answer), manifest };
    },

    async delete(name, context) {
      // Annotate first so whoever looks at the object while it is Deleting sees who asked.
      await client.annotateAccount(name, {
        [DELETION_KEYS.requestId]: context.requestId,
        [DELETION_KEYS.requestedBy]: context.requestedBy,
        [DELETION_KEYS.requestedAt]: new Date().toISOString(),
      });
      await client.deleteAccount(name);
      return { name };
    },

    async change(name, change, context, { dryRun }) {
      const object = (await client.getAccount(name)) as AccountObject;
      const { patch, changes } = planChange(object, change, context);
      if (!patch) return { item: toStorageAccount(object), changes };
      try {
        const answer = dryRun ? await client.dryRunChangeAccount(name, patch) : await client.changeAccount(name, patch);
        return { item: toStorageAccount(answer as AccountObject), changes };
      } catch (error) {
        // The object changed between our read and the patch: the API server's optimistic lock held.
        if (error instanceof ConflictError) throw staleVersion(name, change.resourceVersion);
        throw error;
      }
    },

    async resync(name, context) {
      return toStorageAccount((await client.requestReconcile(name, resyncAnnotations(context))) as AccountObject);
    },

    async listResourceGroups() {
      const objects = (await client.listResourceGroups()) as ResourceGroupObject[];
      // Only groups the provider reports Ready are offered: anything else cannot hold an account yet.
      return objects
        .map(toResourceGroup)
        .filter((group): group is ResourceGroup => group !== undefined && group.ready)
        .sort((a, b) => a.name.localeCompare(b.name));
    },

    async events(name) {
      const events = await client.listAccountEvents(name, ACCOUNT_KIND);
      return events
        .map(toPlatformEvent)
        .sort(
          (a, b) =>
            (a.lastTimestamp ?? '').localeCompare(b.lastTimestamp ?? '') ||
            (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? ''),
        );
    },

    async manifestYaml(name) {
      return stringify(forDisplay(await client.getAccount(name)));
    },
  };
}
