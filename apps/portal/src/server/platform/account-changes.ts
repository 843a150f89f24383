import 'server-only';
import { parseAccountChange } from '@/lib/platform/account-change';
import type { StorageAccount } from '@/lib/platform/types';
import type { ChangeResult, RequestContext } from './backend';
import { authorize } from '../auth/guard';
import { InvalidRequestError } from './errors';
import { parseResourceName } from './resource-name';
import { getPlatformBackend } from './select-backend';

/** Changing an account in place and asking for a resync: validate input, then ask the backend. */

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
  // A requester may change only what it requested; the account says who that was.
  authorize(context.principal, 'change', await backend.get(name));
  return backend.change(name, parsed.change, context, options);
}

export function resyncStorageAccount(rawName: string | null, context: RequestContext): Promise<StorageAccount> {
  return getPlatformBackend().resync(parseResourceName(rawName), context);
}
