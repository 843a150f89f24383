import 'server-only';
import {
  applyChange,
  checkChangedSettings,
  diffSettings,
  type AccountChange,
  type FieldChange,
} from '@/lib/platform/account-change';
import { forProviderFields, PORTAL_KEYS } from '@/lib/platform/account-manifest';
import {
  changeableSettings,
  settingsInEffect,
  type ChangeableSettings,
  type FixedCombination,
} from '@/lib/platform/owned-settings';
import type { StorageAccount } from '@/lib/platform/types';
import { toStorageAccount } from './account-mapper';
import type { AccountObject } from './account-object';
import type { RequestContext } from './backend';
import { CHANGE_KEYS, RECONCILE_REQUESTED_AT } from './change-annotations';
import { ConflictError, InvalidRequestError } from './errors';

/**
 * Turns a change request into the JSON merge patch (RFC 7386) for one Account object. The patch
 * carries metadata.resourceVersion, so the API server refuses it with 409 Conflict when the object
 * changed after the person read it, instead of silently overwriting that change.
 */

export interface AccountMergePatch {
  metadata: {
    resourceVersion: string;
    labels?: Record<string, string>;
    annotations: Record<string, string>;
  };
  spec?: { forProvider: Record<string, unknown> };
}

export interface ChangePlan {
  /** Undefined when the change changes nothing. */
  patch?: AccountMergePatch;
  changes: FieldChange[];
}

export function staleVersion(name: string, sent: string, current?: string): ConflictError {
  const versions = current ? ` (you sent version ${sent}; it is now at ${current})` : '';
  return new ConflictError(
    `Storage account "${name}" was changed by someone else after you loaded it${versions}. Reload it, review the change and apply it again.`,
  );
}

/** What the rules need to know about the parts of the account a change keeps. */
export function fixedCombination(account: StorageAccount): FixedCombination {
  const { desired } = account;
  const settings = settingsInEffect(desired, account.reported);
  return {
    ...(desired.kind ? { kind: desired.kind } : {}),
    ...(desired.tier ? { tier: desired.tier } : {}),
    ...(desired.replication ? { replication: desired.replication } : {}),
    hierarchicalNamespace: settings.hierarchicalNamespace,
    sftpEnabled: settings.sftpEnabled,
    nfsv3Enabled: settings.nfsv3Enabled,
  };
}

/** The settings a change starts from: the spec's, with the ownership the object's labels carry. */
export function currentSettings(account: StorageAccount): ChangeableSettings {
  return changeableSettings(account.desired, account);
}

export function planChange(object: AccountObject, change: AccountChange, context: RequestContext): ChangePlan {
  const name = object.metadata?.name ?? '';
  const version = object.metadata?.resourceVersion;
  if (version !== undefined && version !== change.resourceVersion) {
    throw staleVersion(name, change.resourceVersion, version);
  }
  if (object.metadata?.deletionTimestamp) {
    throw new ConflictError(`Storage account "${name}" is being deleted and can no longer be changed`);
  }
  const account = toStorageAccount(object);
  const { resourceVersion, ...requested } = change;
  const current = currentSettings(account);
  const next = applyChange(current, requested);
  const problems = checkChangedSettings(next, fixedCombination(account));
  if (Object.keys(problems).length > 0) {
    throw new InvalidRequestError('The change cannot be applied to this account', { fields: problems });
  }
  const changes = diffSettings(current, next);
  if (changes.length === 0) return { changes };

  const changed = new Set(changes.map((c) => c.field));
  // Public access and its IP ranges are one firewall on the object: either moves both.
  if (changed.has('publicNetworkAccess') || changed.has('allowedIpRanges')) {
    changed.add('publicNetworkAccess').add('allowedIpRanges');
  }
  const forProvider = forProviderFields(Object.fromEntries([...changed].map((field) => [field, next[field]])));
  const tags = (forProvider['tags'] ?? {}) as Record<string, string>;
  const labels: Record<string, string> = {};
  for (const [field, value] of Object.entries(tags))
    labels[PORTAL_KEYS[field as 'application' | 'environment']] = value;
  const existing = (object.spec?.forProvider ?? {}) as Record<string, unknown>;

  // What spec.forProvider will hold afterwards: recorded, so edits made elsewhere show as drift.
  const applied: Record<string, unknown> = { ...existing, ...forProvider };
  if (forProvider['networkRules'] === null) delete applied['networkRules'];
  if (forProvider['tags']) applied['tags'] = { ...(existing['tags'] as object | undefined), ...tags };

  return {
    changes,
    patch: {
      metadata: {
        resourceVersion,
        ...(Object.keys(labels).length > 0 ? { labels } : {}),
        annotations: {
          [CHANGE_KEYS.lastApplied]: JSON.stringify(applied),
          [CHANGE_KEYS.changedBy]: context.requestedBy,
          [CHANGE_KEYS.changedBySubject]: context.principal.subject,
          [CHANGE_KEYS.changedAt]: new Date().toISOString(),
          [CHANGE_KEYS.changeRequestId]: context.requestId,
        },
      },
      spec: { forProvider },
    },
  };
}

/** The object as it will be once the patch is applied (the mock's answer; no cluster involved). */
export function applyPlannedPatch(object: AccountObject, patch: AccountMergePatch): AccountObject {
  const forProvider = { ...object.spec?.forProvider, ...patch.spec?.forProvider } as Record<string, unknown>;
  if (forProvider['networkRules'] === null) delete forProvider['networkRules'];
  const tags = patch.spec?.forProvider['tags'] as Record<string, string> | undefined;
  if (tags) forProvider['tags'] = { ...object.spec?.forProvider?.tags, ...tags };
  return {
    ...object,
    metadata: {
      ...object.metadata,
      labels: { ...object.metadata?.labels, ...patch.metadata.labels },
      annotations: { ...object.metadata?.annotations, ...patch.metadata.annotations },
    },
    spec: { ...object.spec, forProvider },
  };
}

/** The annotations of a resync request: Crossplane's reconcile request, and who asked for it. */
export function resyncAnnotations(context: RequestContext): Record<string, string> {
  return {
    [RECONCILE_REQUESTED_AT]: new Date().toISOString(),
    [CHANGE_KEYS.resyncRequestedBy]: context.requestedBy,
    [CHANGE_KEYS.resyncRequestedBySubject]: context.principal.subject,
    [CHANGE_KEYS.resyncRequestId]: context.requestId,
  };
}
