/**
 * The browser tab's one connection to the live event stream (GET /api/platform/events), shared by
 * every leaf that listens (the page's LiveUpdates, the header's notifications), so a tab holds one
 * of the user's few streams however many leaves listen. Opened by the first listener and closed
 * with the last; EventSource reconnects by itself and resumes with Last-Event-ID.
 */

type Handler = (data: unknown) => void;

const EVENT_TYPES = ['account', 'reload', 'notification', 'signed-out', 'open', 'error'] as const;
export type LiveEventType = (typeof EVENT_TYPES)[number];

let source: EventSource | undefined;
const handlers = new Map<LiveEventType, Set<Handler>>();

function dispatch(type: LiveEventType, event: Event): void {
  let data: unknown = {};
  if (event instanceof MessageEvent && typeof event.data === 'string') {
    try {
      data = JSON.parse(event.data);
    } catch {
      data = {};
    }
  }
  for (const handler of handlers.get(type) ?? []) handler(data);
}

function open(since: number): EventSource {
  const opened = new EventSource(`/api/platform/events?since=${since}`);
  for (const type of EVENT_TYPES) opened.addEventListener(type, (event) => dispatch(type, event));
  // The session ended: reconnecting would only be refused.
  opened.addEventListener('signed-out', () => opened.close());
  return opened;
}

/**
 * Listens for one type of event; `since` is the stream position the caller's page was rendered at,
 * used when this listener opens the connection. Answers how to stop listening.
 */
export function listenLive(since: number, type: LiveEventType, handler: Handler): () => void {
  source ??= open(since);
  const set = handlers.get(type) ?? new Set<Handler>();
  set.add(handler);
  handlers.set(type, set);
  return () => {
    set.delete(handler);
    if ([...handlers.values()].every((listeners) => listeners.size === 0)) {
      source?.close();
      source = undefined;
    }
  };
}
