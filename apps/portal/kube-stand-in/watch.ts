/**
 * Watch streams as kube-apiserver sends them: one JSON event per line ({"type","object"}), starting with
 * the current objects as ADDED when no resourceVersion is given (or sendInitialEvents asks), otherwise
 * replaying the changes after the given resourceVersion, then following live; a 410 Expired ERROR event
 * for a resourceVersion older than the history kept; BOOKMARK events when the client allows them.
 */
import type { ServerResponse } from 'node:http';
import { apiVersionOf, type ResourceDef } from './resources.js';
import { expired } from './status.js';
import type { ObjectStore, StoreChange } from './store.js';
import type { KubeObject } from './types.js';

export interface WatchPlan {
  def: ResourceDef;
  namespace?: string;
  /** Whether an object is in the watched selection (label and field selectors). */
  selects: (object: KubeObject) => boolean;
  /** Empty or "0": start with the current state; otherwise changes after this resourceVersion. */
  resourceVersion: string;
  sendInitialEvents: boolean;
  allowBookmarks: boolean;
  timeoutSeconds: number;
  /** What an event carries for an object: the object itself or a one-row Table. */
  encode: (object: KubeObject, first: boolean) => unknown;
  contentType: string;
}

type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

// kube-apiserver sends a bookmark about once a minute to watchers that allow them.
export const BOOKMARK_INTERVAL_MS = 60_000;

/** Lets a test hold watch events back (as a slow API server would) and then let them through in order. */
export class WatchGate {
  private held = false;
  private readonly waiting = new Set<() => void>();

  hold(on: boolean): void {
    this.held = on;
    if (on) return;
    for (const release of [...this.waiting]) release();
    this.waiting.clear();
  }

  /** Writes now, or when the gate opens. */
  pass(write: () => void): void {
    if (!this.held) write();
    else this.waiting.add(write);
  }
}
// Marks the bookmark that ends the initial events of a sendInitialEvents watch (the watch-list protocol).
const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/** What a change means to a watcher of a selection: an object can enter or leave it by being modified. */
function eventFor(change: StoreChange, selects: (object: KubeObject) => boolean): EventType | undefined {
  const now = selects(change.object);
  if (change.type !== 'MODIFIED') return now ? change.type : undefined;
  const before = change.previous ? selects(change.previous) : false;
  if (before && now) return 'MODIFIED';
  if (now) return 'ADDED';
  if (before) return 'DELETED';
  return undefined;
}

export function serveWatch(
  store: ObjectStore,
  plan: WatchPlan,
  res: ServerResponse,
  headers: Record<string, string>,
  { gate = new WatchGate(), bookmarkIntervalMs = BOOKMARK_INTERVAL_MS } = {},
): void {
  res.writeHead(200, { ...headers, 'Content-Type': plan.contentType, 'Cache-Control': 'no-cache, private' });
  // A client waits for the headers before it reads events; a quiet watch must not hold them back.
  res.flushHeaders();
  let first = true;
  const send = (type: string, object: unknown): void => {
    const line = `${JSON.stringify({ type, object })}\n`;
    gate.pass(() => {
      if (!res.destroyed) res.write(line);
    });
  };
  const sendObject = (type: EventType, object: KubeObject): void => {
    send(type, plan.encode(object, first));
    first = false;
  };
  const bookmark = (initialEventsEnd = false): void => {
    send('BOOKMARK', {
      kind: plan.def.kind,
      apiVersion: apiVersionOf(plan.def),
      metadata: {
        // The store is synchronous, so every change up to now has been sent: like kube-apiserver's watch
        // cache with etcd's progress notifications, a bookmark carries the cluster's current resourceVersion.
        resourceVersion: store.currentRevision(),
        ...(initialEventsEnd ? { annotations: { [INITIAL_EVENTS_END]: 'true' } } : {}),
      },
    });
  };
  const deliver = (change: StoreChange): void => {
    if (plan.namespace !== undefined && change.object.metadata.namespace !== plan.namespace) return;
    const type = eventFor(change, plan.selects);
    if (type) sendObject(type, change.object);
  };

  const fromCurrent = plan.resourceVersion === '' || plan.resourceVersion === '0' || plan.sendInitialEvents;
  const from = fromCurrent ? Number(store.currentRevision()) : Number(plan.resourceVersion);
  const followed = store.follow(plan.def, from, deliver);
  if (!followed) {
    send('ERROR', expired(from, store.oldestRevision(plan.def)).toStatus());
    gate.pass(() => res.end());
    return;
  }
  if (fromCurrent) {
    for (const object of store.list(plan.def, plan.namespace).filter(plan.selects)) sendObject('ADDED', object);
    if (plan.sendInitialEvents && plan.allowBookmarks) bookmark(true);
  }
  for (const change of followed.backlog) deliver(change);

  const bookmarks = plan.allowBookmarks ? setInterval(() => bookmark(), bookmarkIntervalMs) : undefined;
  const timeout = setTimeout(() => {
    // Like kube-apiserver, a watcher that allows bookmarks learns where to resume before the stream ends.
    if (plan.allowBookmarks) bookmark();
    gate.pass(() => res.end());
  }, plan.timeoutSeconds * 1000);
  res.on('close', () => {
    followed.stop();
    clearInterval(bookmarks);
    clearTimeout(timeout);
  });
}
