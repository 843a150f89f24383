import 'server-only';
import { applyChange, diffSettings, parseAccountChange, withChange } from '@/lib/platform/account-change';
import { ownedChanges, ownedFromView } from '@/lib/platform/owned-settings';
import type { StorageAccount } from '@/lib/platform/types';
import type { ChangeResult, RequestContext } from '../model/backend';
import { authorize } from '../auth/guard';
import { currentSettings } from '../model/account-change-plan';
import { ownerOf } from '../model/ownership';
import { recordedAction } from './record-intent';
import { getIntentLedger } from '../backends/ledger/select-ledger';
import { InvalidRequestError } from '../model/errors';
import { parseResourceName } from '../model/resource-name';
import { getPlatformBackend } from '../backends/select-backend';

/** Changing an account in place and asking for a resync: validate input, record intent, then ask the backend. */

export async function changeStorageAccount(
  rawName: string | null,
  input: unknown,
  context: RequestContext,
  options: { dryRun: boolean },
): Promise<ChangeResult> {
  const name = parseResourceName(rawName);
  const parsed = parseAccountChange(input);
  if (!parsed.success) throw new InvalidRequestError(parsed.message, { fields: parsed.fields });
  const backend = getPlatformBackend();
  const [account, state] = await Promise.all([backend.get(name), getIntentLedger().desired(name)]);
  // A requester may change only what it owns: the ledger says whose it is.
  authorize(context.principal, 'change', ownerOf(state, account));
  const { resourceVersion: _version, ...requested } = parsed.change;
  const current = currentSettings(account);
  const changesSomething = diffSettings(current, applyChange(current, requested)).length > 0;
  // A dry run, or a change that changes nothing, never reaches Azure: nothing to record.
  if (options.dryRun || !changesSomething) return backend.change(name, parsed.change, context, options);
  // Intent moves from what was wanted before (the ledger, else what the cluster object asks for).
  const before = state?.desired ?? ownedFromView(account.desired);
  const desired = withChange(before, requested);
  return recordedAction(
    { account: name, action: 'change', desired, changes: ownedChanges(before, desired) },
    context,
    () => backend.change(name, parsed.change, context, options),
  );
}

/**
 * A resync changes no intent: it records the request with the desired state as it stands. Only
 * the account's owner (or an admin) may ask.
 */
export async function resyncStorageAccount(rawName: string | null, context: RequestContext): Promise<StorageAccount> {
  const name = parseResourceName(rawName);
  const backend = getPlatformBackend();
  const [account, state] = await Promise.all([backend.get(name), getIntentLedger().desired(name)]);
  authorize(context.principal, 'resync', ownerOf(state, account));
  const desired = state?.desired ?? null;
  return recordedAction({ account: name, action: 'resync', desired, changes: [] }, context, () =>
    backend.resync(name, context),
  );
}
