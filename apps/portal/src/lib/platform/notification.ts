/**
 * An in-app notification: an action a user started through the portal has completed (Ready and
 * Synced; for a delete, the account gone) or failed. The server keeps them per user
 * (src/server/live/notifications.ts) and sends them on the live event stream; the header's menu
 * lists them.
 */
export interface PortalNotification {
  id: string;
  account: string;
  action: string;
  outcome: 'completed' | 'failed';
  /** Crossplane's reason and message, for a failure. */
  reason?: string;
  at: string;
}
