import type { AccountChange, FieldChange } from '@/lib/platform/account-change';
import type { OwnedFieldChange } from '@/lib/platform/owned-settings';
import type { RemediationAction } from '@/lib/platform/remediations';
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

export type { RemediationAction } from '@/lib/platform/remediations';

/** POST /api/platform/resources/remediate: `dryRun` is the review step's server check. */
export function remediateResource(
  name: string,
  body: { action: RemediationAction; resourceVersion?: string },
  options: { dryRun: boolean },
) {
  const query = `?name=${encodeURIComponent(name)}${options.dryRun ? '&dryRun=true' : ''}`;
  return call<{ item: StorageAccount; changes: OwnedFieldChange[] }>(`${RESOURCES}/remediate${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}
