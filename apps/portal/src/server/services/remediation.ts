import 'server-only';
import { z } from '@/lib/zod';
import { hasRole } from '@/lib/auth/permissions';
import {
  ACCOUNT_API_VERSION,
  ACCOUNT_KIND,
  forProviderOf,
  MANAGED_BY_PORTAL,
  PORTAL_KEYS,
} from '@/lib/platform/account-manifest';
import { fieldsDifferingFromIntent } from '@/lib/platform/classification';
import type { Actor, IntentAction } from '@/lib/platform/intent';
import { ownedChanges, ownedFromView, type OwnedFieldChange, type OwnedSettings } from '@/lib/platform/owned-settings';
import type { StorageAccount } from '@/lib/platform/types';
import { authorize } from '../auth/guard';
import { getCloudObserver } from '../backends/azure/select-observer';
import type { AccountWrite, RequestContext } from '../model/backend';
import { CHANGE_KEYS, RECONCILE_REQUESTED_AT } from '../model/change-annotations';
import { ConflictError, ForbiddenError, InvalidRequestError, NotFoundError, PlatformError } from '../model/errors';
import { staleVersion } from '../model/account-change-plan';
import { parseResourceName } from '../model/resource-name';
import { getPlatformBackend } from '../backends/select-backend';
import { ownerOf } from '../model/ownership';
import { actorOf, recordedAction } from './record-intent';
import { unclaimedCloudAccount } from './inventory/inventory';
import { getIntentLedger } from '../backends/ledger/select-ledger';

import {
  REMEDIATION_ACTIONS as REMEDIATIONS,
  type RemediationAction as Remediation,
} from '@/lib/platform/remediations';

const bodySchema = z.strictObject(
  {
    action: z.enum(REMEDIATIONS, { error: `action must be one of: ${REMEDIATIONS.join(', ')}` }),
    resourceVersion: z.string({ error: 'resourceVersion must be a string' }).trim().min(1).optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Unknown field' : 'Request body must be a JSON object') },
);

/** The cluster side of a remediation: a merge patch of the existing object, or a new object. */
export type ClusterWrite = AccountWrite;

export interface RemediationPlan {
  action: Remediation;
  /** The desired state after the action (recorded in the ledger). */
  desired: OwnedSettings;
  /** What the action changes, field by field (on the cluster object, or in intent for accept-cloud). */
  changes: OwnedFieldChange[];
  write: ClusterWrite;
}

export interface RemediationResult {
  item: StorageAccount;
  changes: OwnedFieldChange[];
  /** The object or merge patch sent (or, for a dry run, that would be sent). */
  write: ClusterWrite;
}

function ownershipLabels(desired: OwnedSettings): Record<string, string> {
  return {
    [PORTAL_KEYS.managedBy]: MANAGED_BY_PORTAL,
    ...(desired.application ? { [PORTAL_KEYS.application]: desired.application } : {}),
    ...(desired.environment ? { [PORTAL_KEYS.environment]: desired.environment } : {}),
  };
}

/** Who owns the account, on the object for people and kubectl; nothing when the ledger does not know. */
function ownerAnnotations(owner: Actor | undefined): Record<string, string> {
  return owner ? { [PORTAL_KEYS.requestedBy]: owner.display, [PORTAL_KEYS.requestedBySubject]: owner.subject } : {};
}

/** Who did this remediation: recorded apart from the owner, whom it never changes. */
function provenance(action: IntentAction, context: RequestContext): Record<string, string> {
  const now = new Date().toISOString();
  return {
    [CHANGE_KEYS.changedBy]: context.requestedBy,
    [CHANGE_KEYS.changedBySubject]: context.principal.subject,
    [CHANGE_KEYS.changedAt]: now,
    [CHANGE_KEYS.changeRequestId]: context.requestId,
    [`${PORTAL_KEYS.requestId.split('/')[0]}/last-remediation`]: action,
    // Crossplane reconciles now, so Azure gets the spec back even when the spec itself does not move.
    [RECONCILE_REQUESTED_AT]: now,
  };
}

/** The spec patch that makes the cluster object ask for `desired` again. */
function applyDesired(
  name: string,
  resourceVersion: string | undefined,
  desired: OwnedSettings,
  action: IntentAction,
  context: RequestContext,
  owner: Actor | undefined,
  extraSpec: Record<string, unknown> = {},
): ClusterWrite {
  // null removes the firewall in a merge patch; the settings' own rules replace it when they have one.
  const forProvider = { networkRules: null, ...forProviderOf(desired) };
  return {
    kind: 'patch',
    name,
    patch: {
      metadata: {
        ...(resourceVersion ? { resourceVersion } : {}),
        labels: ownershipLabels(desired),
        annotations: {
          ...ownerAnnotations(owner),
          ...provenance(action, context),
          [CHANGE_KEYS.lastApplied]: JSON.stringify(forProvider),
        },
      },
      spec: { ...extraSpec, forProvider },
    },
  };
}

function newAccount(
  name: string,
  externalName: string,
  desired: OwnedSettings,
  action: IntentAction,
  context: RequestContext,
  observeOnly: boolean,
  owner: Actor | undefined,
): ClusterWrite {
  const forProvider = forProviderOf(desired);
  return {
    kind: 'create',
    manifest: {
      apiVersion: ACCOUNT_API_VERSION,
      kind: ACCOUNT_KIND,
      metadata: {
        name,
        labels: ownershipLabels(desired),
        annotations: {
          // Crossplane takes over the Azure account of this name instead of creating one.
          [PORTAL_KEYS.externalName]: externalName,
          [PORTAL_KEYS.requestId]: context.requestId,
          ...ownerAnnotations(owner),
          [PORTAL_KEYS.requestedAt]: new Date().toISOString(),
          [CHANGE_KEYS.changedBy]: context.requestedBy,
          [CHANGE_KEYS.changedBySubject]: context.principal.subject,
          [CHANGE_KEYS.changeRequestId]: context.requestId,
          [`${PORTAL_KEYS.requestId.split('/')[0]}/last-remediation`]: action,
        },
      },
      spec: observeOnly
        ? // Observe only: Crossplane reads the account and never writes; the spec names where to look.
          {
            managementPolicies: ['Observe'],
            forProvider: { location: desired.location, resourceGroupName: desired.resourceGroup },
          }
        : { forProvider },
    },
  };
}

interface Situation {
  name: string;
  intent?: OwnedSettings;
  /** The ledger's owner of the account, kept by every remediation but adopt. */
  owner?: Actor;
  account?: StorageAccount;
  cloud?: Partial<OwnedSettings>;
}

/** What only admins may do, in the words of the refusal. */
const ADMIN_ONLY: Partial<Record<Remediation, string>> = {
  adopt: 'Adopting an account',
  manage: 'Moving an account to full management',
};

/** @throws ForbiddenError (403) when the action is for admins and the caller is not one. */
function requireAdmin(action: Remediation, context: RequestContext): void {
  const what = ADMIN_ONLY[action];
  if (what === undefined || hasRole(context.principal, 'admin')) return;
  throw new ForbiddenError(
    `${what} needs the admin role; you are signed in as ${context.principal.identity} with the ${context.principal.role} role`,
  );
}

const missing = (name: string, action: Remediation, why: string) =>
  new ConflictError(`"${action}" does not apply to storage account "${name}": ${why}`);

/** Decides what the action does in this situation, or why it does not apply (409). */
export function planRemediation(
  action: Remediation,
  situation: Situation,
  resourceVersion: string | undefined,
  context: RequestContext,
): RemediationPlan {
  const { name, intent, account, cloud, owner } = situation;
  switch (action) {
    case 'restore-intent': {
      if (!intent) throw missing(name, action, 'the portal has no intent for it; accept what is there instead');
      if (!account) throw missing(name, action, 'it has no cluster object; recreate it instead');
      const fields = fieldsDifferingFromIntent(intent, account.desired);
      const changes = ownedChanges(account.desired, intent).filter((c) => fields.includes(c.field));
      return {
        action,
        desired: intent,
        changes,
        write: applyDesired(name, resourceVersion, intent, action, context, owner),
      };
    }
    case 'accept-cloud': {
      if (!account) throw missing(name, action, 'it has no cluster object to apply the values to');
      // What Azure holds: observed through ARM when the portal observes Azure, else as the provider reports it.
      const source = cloud ?? (Object.keys(account.reported).length > 0 ? account.reported : account.desired);
      const desired = { ...(intent ?? ownedFromView(source)), ...source };
      const changes = ownedChanges(intent, desired);
      return { action, desired, changes, write: applyDesired(name, resourceVersion, desired, action, context, owner) };
    }
    case 'recreate': {
      if (!intent) throw missing(name, action, 'the portal has no intent for it');
      if (account) throw missing(name, action, 'its cluster object exists; restore the intent instead');
      return {
        action,
        desired: intent,
        changes: ownedChanges(undefined, intent),
        write: newAccount(name, name, intent, action, context, false, owner),
      };
    }
    case 'adopt': {
      requireAdmin(action, context);
      if (intent || account) throw missing(name, action, 'it is already known to the portal or the cluster');
      if (!cloud)
        throw missing(
          name,
          action,
          'the portal does not see it in Azure (cloud observation is off or has not found it)',
        );
      const desired = ownedFromView(cloud);
      return {
        action,
        desired,
        changes: ownedChanges(undefined, desired),
        // The adopting admin becomes the owner, as the ledger records.
        write: newAccount(name, name, desired, action, context, true, actorOf(context.principal)),
      };
    }
    case 'manage': {
      requireAdmin(action, context);
      if (!account?.observeOnly) throw missing(name, action, 'it is not an adopted, observe-only account');
      if (!intent) throw missing(name, action, 'the portal has no intent for it');
      return {
        action,
        desired: intent,
        changes: ownedChanges(undefined, intent),
        write: applyDesired(name, resourceVersion, intent, action, context, owner, { managementPolicies: ['*'] }),
      };
    }
  }
}

/**
 * POST /api/platform/resources/remediate: plans the action, then either has the cluster dry-run it
 * (the review step) or records the intent and applies it. A stale resourceVersion is a 409.
 */
export async function remediate(
  rawName: string | null,
  input: unknown,
  context: RequestContext,
  options: { dryRun: boolean },
): Promise<RemediationResult> {
  const name = parseResourceName(rawName);
  const parsed = bodySchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? '');
    throw new InvalidRequestError(
      issue?.message ?? 'The remediation request is invalid',
      field ? { fields: { [field]: issue?.message ?? '' } } : undefined,
    );
  }
  const { action, resourceVersion } = parsed.data;
  // Refused by role before anything is looked up: whether the account exists is no answer to that.
  requireAdmin(action, context);
  const backend = getPlatformBackend();
  const [state, snapshot] = await Promise.all([getIntentLedger().desired(name), getCloudObserver().snapshot()]);
  let account: StorageAccount | undefined;
  try {
    account = await backend.get(name);
  } catch (error) {
    if (!(error instanceof PlatformError && error.status === 404)) throw error;
  }
  // Without a cluster object or intent, only an account that looks like the portal's is one to adopt.
  const cloud =
    account || state
      ? snapshot.status === 'observed'
        ? snapshot.accounts.get((account?.externalName ?? name).toLowerCase())?.settings
        : undefined
      : (await unclaimedCloudAccount(snapshot, name))?.settings;
  if (!account && !state && !cloud) throw new NotFoundError(`Storage account "${name}" was not found`);
  // A requester remediates what it owns, by the ledger's record; admins anything (adopt and manage check admin themselves).
  authorize(context.principal, 'change', ownerOf(state, account));
  if (resourceVersion && account?.resourceVersion && resourceVersion !== account.resourceVersion) {
    throw staleVersion(name, resourceVersion, account.resourceVersion);
  }
  const plan = planRemediation(
    action,
    {
      name,
      ...(state ? { intent: state.desired } : {}),
      ...(state?.owner ? { owner: state.owner } : {}),
      ...(account ? { account } : {}),
      ...(cloud ? { cloud } : {}),
    },
    resourceVersion ?? account?.resourceVersion,
    context,
  );
  const apply = () => backend.writeAccount(plan.write, { dryRun: options.dryRun });
  const item = options.dryRun
    ? await apply()
    : await recordedAction({ account: name, action, desired: plan.desired, changes: plan.changes }, context, apply);
  return { item, changes: plan.changes, write: plan.write };
}
