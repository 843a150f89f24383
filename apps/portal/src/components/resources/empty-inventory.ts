import type { PlatformMode } from '@/lib/platform/types';

/**
 * Development mode answers every list with nothing (the specification's "Development mode"), so
 * "No storage accounts yet" would be wrong right after a create that succeeded. It says why instead.
 */
export const DEVELOPMENT_MODE_EMPTY_INVENTORY =
  'Development mode stores nothing, so this list stays empty, even after a create succeeds. Connect a cluster to see real storage accounts.';

export const EMPTY_INVENTORY = 'No storage accounts yet.';

export function emptyInventoryMessage(mode: PlatformMode): string {
  return mode === 'mock' ? DEVELOPMENT_MODE_EMPTY_INVENTORY : EMPTY_INVENTORY;
}
