import 'server-only';
import { parseAccountChange } from '@/lib/platform/account-change';
import type { StorageAccount } from '@/lib/platform/types';
import type { ChangeResult, RequestContext } from './backend';
import { InvalidRequestError } from './errors';
import { parseResourceName } from './resource-name';
import { getPlatformBackend } from './select-backend';

/** Changing an account in place and asking for a resync: validate input, then ask the backend. */

export function changeStorageAccount(
  rawName: string | null,
  input: unknown,
  context: RequestContext,
  options: { dryRun: boolean },
): Promise<ChangeResult> {
  const name = parseResourceName(rawName);
  const parsed = parseAccountChange(input);
  if (!parsed.success) throw new InvalidRequestError(parsed.message, { fields: parsed.fields });
  return getPlatformBackend().change(name, parsed.change, context, options);
}

export function resyncStorageAccount(rawName: string | null, context: RequestContext): Promise<StorageAccount> {
  return getPlatformBackend().resync(parseResourceName(rawName), context);
}
