/**
 * Which remediations an account's classification offers. Pure: the detail page shows the buttons,
 * the server decides again (and refuses with 409 or 403) whatever a client sends.
 */
import { hasRole, type Principal } from '../auth/permissions';
import type { StorageAccount } from './types';

export const REMEDIATION_ACTIONS = ['restore-intent', 'accept-cloud', 'recreate', 'adopt', 'manage'] as const;
export type RemediationAction = (typeof REMEDIATION_ACTIONS)[number];

export function offeredRemediations(
  account: StorageAccount,
  principal: Principal,
  hasIntent: boolean,
): RemediationAction[] {
  const code = account.classification?.code;
  const inCluster = account.source === undefined || account.source === 'cluster';
  const admin = hasRole(principal, 'admin');
  const offered: RemediationAction[] = [];
  switch (code) {
    case 'cluster_drift':
    case 'drifted':
      // A cluster object nobody asked for has no intent to restore: only accepting it applies.
      if (hasIntent) offered.push('restore-intent');
      offered.push('accept-cloud');
      break;
    case 'not_in_cluster':
      offered.push('recreate');
      break;
    case 'desired_only':
      offered.push(inCluster ? 'restore-intent' : 'recreate');
      break;
    case 'cloud_only':
      if (admin) offered.push('adopt');
      break;
    default:
      break;
  }
  if (admin && account.observeOnly && inCluster) offered.push('manage');
  return offered;
}
