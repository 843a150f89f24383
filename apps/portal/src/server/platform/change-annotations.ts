import 'server-only';
import { PORTAL_KEYS } from '@/lib/platform/account-manifest';

/** The domain of the portal's own labels and annotations, taken from the keys create writes. */
const PORTAL_DOMAIN = PORTAL_KEYS.requestedBy.slice(0, PORTAL_KEYS.requestedBy.indexOf('/'));

/**
 * Crossplane's standard "reconcile now" request (crossplane-runtime 2.3+): a change of its value
 * makes the managed reconciler run at once, and it records the handled value in
 * status.lastHandledReconcileAt. On older providers the annotation change itself is an update
 * event the provider's watch sees, which also triggers a reconcile.
 */
export const RECONCILE_REQUESTED_AT = 'crossplane.io/reconcile-requested-at';

/** Annotations the portal writes when it changes an account or asks for a resync. */
export const CHANGE_KEYS = {
  /** spec.forProvider as the portal last applied it (JSON), to notice edits made elsewhere. */
  lastApplied: `${PORTAL_DOMAIN}/last-applied-for-provider`,
  changedBy: `${PORTAL_DOMAIN}/last-changed-by`,
  changedAt: `${PORTAL_DOMAIN}/last-changed-at`,
  changeRequestId: `${PORTAL_DOMAIN}/last-change-request-id`,
  resyncRequestedBy: `${PORTAL_DOMAIN}/resync-requested-by`,
  resyncRequestId: `${PORTAL_DOMAIN}/resync-request-id`,
} as const;
