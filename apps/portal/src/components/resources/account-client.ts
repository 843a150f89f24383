import type { AccountChange, FieldChange } from '@/lib/platform/account-change';
import type { StorageAccount } from '@/lib/platform/types';
import { call } from './platform-client';

/** Browser-side calls that change an existing account or ask for a resync. */

const RESOURCES = '/api/platform/resources';

export function changeResource(name: string, change: AccountChange, options: { dryRun: boolean }) {
  const query = `?name=${encodeURIComponent(name)}${options.dryRun ? '&dryRun=true' : ''}`;
  return call<{ item: StorageAccount; changes: FieldChange[] }>(`${RESOURCES}${query}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(change),
  });
}

export function resyncResource(name: string) {
  return call<{ item: StorageAccount }>(`${RESOURCES}/resync?name=${encodeURIComponent(name)}`, { method: 'POST' });
}
