import 'server-only';
import type { StorageAccount } from '@/lib/platform/types';
import type { CollectionChange, WatchedCollection } from '../backends/kubernetes/watched-collection';
import { processWide } from '../runtime/process-wide';

/**
 * The process's feed of account changes for the live event stream (GET /api/platform/events): fed
 * by the watch-fed cluster cache, one event per changed account, numbered in order. A bounded
 * replay buffer lets a reconnecting browser resume from its Last-Event-ID; one that missed more
 * than the buffer holds, or whose id is from another process, is told to reload its view.
 */

/** What a page needs to know to update itself: which account changed and how it stands now. */
export interface AccountChange {
  type: 'changed' | 'deleted';
  name: string;
  /** The account's namespace in Crossplane v2 mode; null for cluster-scoped accounts. */
  namespace: string | null;
  state?: StorageAccount['state'];
  resourceVersion?: string;
}

/** An event; one with `to` is for that user's streams only (a notification). */
export type FeedEvent = { id: number; to?: string } & (
  | { event: 'account'; data: AccountChange }
  | { event: 'reload'; data: object }
  | { event: 'notification'; data: object }
);

export type Replay = { events: FeedEvent[] } | { reload: true };

/** How many events a reconnecting stream can still resume from. */
export const REPLAY_LIMIT = 2000;

export class AccountFeed {
  // Ids start at the process's start time in milliseconds, so an id from an earlier process is
  // older than every id here and asks for a reload, and ids only ever grow.
  private lastId: number;
  private readonly firstId: number;
  private readonly buffer: FeedEvent[] = [];
  private readonly listeners = new Set<(event: FeedEvent) => void>();

  constructor(startId = Date.now()) {
    this.firstId = startId;
    this.lastId = startId;
  }

  get latestId(): number {
    return this.lastId;
  }

  publish(event: Omit<FeedEvent, 'id'>): void {
    this.lastId += 1;
    const numbered = { ...event, id: this.lastId } as FeedEvent;
    this.buffer.push(numbered);
    if (this.buffer.length > REPLAY_LIMIT) this.buffer.shift();
    for (const listener of this.listeners) listener(numbered);
  }

  /** The events after `lastEventId`, or reload when they are no longer (or never were) all here. */
  since(lastEventId: number): Replay {
    if (lastEventId === this.lastId) return { events: [] };
    const oldest = this.buffer[0]?.id ?? this.lastId + 1;
    const resumable = lastEventId >= this.firstId && lastEventId < this.lastId && lastEventId >= oldest - 1;
    if (!resumable) return { reload: true };
    return { events: this.buffer.filter((event) => event.id > lastEventId) };
  }

  subscribe(listener: (event: FeedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Publishes every change of the cache's accounts; answers how to stop. */
  follow(accounts: WatchedCollection<StorageAccount>): () => void {
    return accounts.subscribe((change) => this.publish(toFeedEvent(change)));
  }
}

function toFeedEvent(change: CollectionChange<StorageAccount>): Omit<FeedEvent, 'id'> {
  switch (change.kind) {
    case 'reset':
      // A (re-)list replaced the whole collection: pages show it again rather than hear every object.
      return { event: 'reload', data: {} };
    case 'removed':
      return { event: 'account', data: { type: 'deleted', name: change.name, namespace: null } };
    case 'set':
      return {
        event: 'account',
        data: {
          type: 'changed',
          name: change.name,
          namespace: null,
          state: change.value.state,
          ...(change.value.resourceVersion ? { resourceVersion: change.value.resourceVersion } : {}),
        },
      };
  }
}

/** The process's one feed (Next.js may load this module once per bundle). */
export function accountFeed(): AccountFeed {
  return processWide('account-feed', () => new AccountFeed());
}
