import 'server-only';
import { type AccountManifest, PORTAL_KEYS } from '@/lib/platform/account-manifest';

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
  changedBySubject: `${PORTAL_DOMAIN}/last-changed-by-subject`,
  changedAt: `${PORTAL_DOMAIN}/last-changed-at`,
  changeRequestId: `${PORTAL_DOMAIN}/last-change-request-id`,
  resyncRequestedBy: `${PORTAL_DOMAIN}/resync-requested-by`,
  resyncRequestedBySubject: `${PORTAL_DOMAIN}/resync-requested-by-subject`,
  resyncRequestId: `${PORTAL_DOMAIN}/resync-request-id`,
} as const;

/**
 * The manifest to create, carrying its spec.forProvider as the last applied request, so an edit
 * made elsewhere shows as drift from the account's first day, not only after a change in the portal.
 */
export function withLastApplied(manifest: AccountManifest): AccountManifest {
  return {
    ...manifest,
    metadata: {
      ...manifest.metadata,
      annotations: {
        ...manifest.metadata.annotations,
        [CHANGE_KEYS.lastApplied]: JSON.stringify(manifest.spec.forProvider),
      },
    },
  };
}
