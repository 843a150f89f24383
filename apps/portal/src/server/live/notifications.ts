import 'server-only';
import { randomUUID } from 'node:crypto';
import type { PortalNotification } from '@/lib/platform/notification';
import type { StorageAccount } from '@/lib/platform/types';
import type { CollectionChange } from '../backends/kubernetes/watched-collection';
import { processWide } from '../runtime/process-wide';
import { accountFeed, type AccountFeed } from './account-feed';

/**
 * In-app notifications: when an action a user started through the portal completes (Ready and
 * Synced) or fails (Synced False, with Crossplane's reason), that user hears of it through the live
 * event stream, and the header lists the latest ones. Actions are remembered by this process (the
 * one that applied them), which also follows the cluster; a later action on the same account
 * replaces the earlier expectation.
 */

interface Expectation {
  subject: string;
  action: string;
  /** The version the portal's own write left: only a later version can tell the outcome. */
  afterVersion?: string;
}

/** How many notifications the header keeps per user. */
export const NOTIFICATIONS_KEPT = 20;

function newer(version: string | undefined, than: string | undefined): boolean {
  if (than === undefined) return true;
  if (version === undefined) return false;
  return /^\d+$/.test(version) && /^\d+$/.test(than) ? BigInt(version) > BigInt(than) : version !== than;
}

export class NotificationCenter {
  private readonly expected = new Map<string, Expectation>();
  private readonly kept = new Map<string, PortalNotification[]>();

  constructor(private readonly feed: AccountFeed) {}

  /** After the portal applied `action` on `account` for `subject`: tell them how it ends. */
  expect(account: string, subject: string, action: string, afterVersion?: string): void {
    this.expected.set(account, { subject, action, ...(afterVersion ? { afterVersion } : {}) });
  }

  /** The latest notifications of one user, newest first. */
  forUser(subject: string): PortalNotification[] {
    return [...(this.kept.get(subject) ?? [])];
  }

  hear(change: CollectionChange<StorageAccount>): void {
    if (change.kind === 'reset') return;
    const expectation = this.expected.get(change.name);
    if (!expectation) return;
    if (change.kind === 'removed') {
      if (expectation.action === 'delete') this.notify(change.name, expectation, 'completed');
      return;
    }
    const account = change.value;
    if (!newer(account.resourceVersion, expectation.afterVersion)) return;
    const synced = account.conditions.find((c) => c.type === 'Synced');
    const ready = account.conditions.find((c) => c.type === 'Ready');
    if (synced?.status === 'False') {
      const reason = [synced.reason, synced.message].filter(Boolean).join(': ');
      this.notify(change.name, expectation, 'failed', reason || 'Crossplane reports the account out of sync');
    } else if (expectation.action !== 'delete' && ready?.status === 'True' && synced?.status === 'True') {
      this.notify(change.name, expectation, 'completed');
    }
  }

  private notify(account: string, expectation: Expectation, outcome: PortalNotification['outcome'], reason?: string) {
    this.expected.delete(account);
    const notification: PortalNotification = {
      id: randomUUID(),
      account,
      action: expectation.action,
      outcome,
      ...(reason ? { reason } : {}),
      at: new Date().toISOString(),
    };
    const list = [notification, ...(this.kept.get(expectation.subject) ?? [])].slice(0, NOTIFICATIONS_KEPT);
    this.kept.set(expectation.subject, list);
    this.feed.publish({ event: 'notification', data: notification, to: expectation.subject });
  }
}

export function notificationCenter(): NotificationCenter {
  return processWide('notification-center', () => new NotificationCenter(accountFeed()));
}
