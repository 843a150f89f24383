import 'server-only';
import { changeableSettings, settingsInEffect } from '@/lib/platform/owned-settings';
import type { StorageAccount } from '@/lib/platform/types';

/**
 * An account as the portal's API answers with it: the model's account plus the two settings views
 * API clients have always read, `settings` (in effect: Azure's report, else the spec) and
 * `changeable` (what a PATCH starts from). Both are derived here, at the edge, from the one
 * settings shape, so no account in the cache holds them as copies.
 */
export function accountJson(account: StorageAccount) {
  return {
    ...account,
    settings: settingsInEffect(account.desired, account.reported),
    changeable: changeableSettings(account.desired, account),
  };
}
