import 'server-only';
import type { StorageAccount } from '@/lib/platform/types';
import type { WatchedCollection } from '../backends/kubernetes/watched-collection';
import { accountFeed } from './account-feed';
import { notificationCenter } from './notifications';

/** Feeds the live stream and the notifications from the cache's accounts; answers how to stop. */
export function followAccounts(accounts: WatchedCollection<StorageAccount>): () => void {
  const unfollow = accountFeed().follow(accounts);
  const center = notificationCenter();
  const unsubscribe = accounts.subscribe((change) => center.hear(change));
  return () => {
    unfollow();
    unsubscribe();
  };
}

/**
 * After an action was applied: the person who started it hears how it ends. `result` is what the
 * action answered; an account in it names the (perhaps generated) account and the version written.
 */
export function expectOutcome(account: string, subject: string, action: string, result: unknown): void {
  const answered = (result as { item?: unknown } | null)?.item ?? result;
  const written = answered as { name?: unknown; resourceVersion?: unknown } | null;
  const name = typeof written?.name === 'string' && written.name ? written.name : account;
  if (!name) return;
  const version = typeof written?.resourceVersion === 'string' ? written.resourceVersion : undefined;
  // A create or delete ends in a state the write never shows; a change's write may look settled.
  notificationCenter().expect(name, subject, action, action === 'create' || action === 'delete' ? undefined : version);
}
