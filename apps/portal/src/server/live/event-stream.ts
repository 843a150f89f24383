import 'server-only';
import type { AccountFeed, FeedEvent } from './account-feed';

/**
 * One server-sent event stream (text/event-stream) over the account feed: the events after the
 * client's Last-Event-ID (or a reload when they are gone), then every event as it happens, a
 * heartbeat comment so proxies keep the connection open, and the end of the stream when the
 * session behind it ends.
 */

/** Proxies commonly close a connection idle for 60 s; a comment every 15 s keeps it well inside that. */
export const HEARTBEAT_MS = 15_000;
/** How soon a signed-out session's streams close: the session is looked up again this often. */
export const SESSION_CHECK_MS = 5_000;
/** How long a browser waits before reconnecting a dropped stream (EventSource's retry field). */
const RETRY_MS = 1_000;

export interface EventStreamOptions {
  feed: AccountFeed;
  /** The signed-in user's subject: events meant for someone else (notifications) are left out. */
  subject: string;
  /** The Last-Event-ID header of a reconnect, else the page's own starting point (?since=). */
  resumeFrom: string | null;
  /** Whether the session that opened the stream is still signed in. */
  stillSignedIn: () => Promise<boolean>;
  /** Called once when the stream ends, whoever ends it. */
  onClose: () => void;
  /** The request's signal: aborted when the client goes away. */
  signal: AbortSignal;
  heartbeatMs?: number;
  sessionCheckMs?: number;
}

const encoder = new TextEncoder();

function frame(event: FeedEvent): string {
  return `id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

export function eventStreamResponse(options: EventStreamOptions): Response {
  const { feed } = options;
  let close: () => void = () => undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const timers: NodeJS.Timeout[] = [];
      let unsubscribe: () => void = () => undefined;
      close = () => {
        if (closed) return;
        closed = true;
        for (const timer of timers) clearInterval(timer);
        unsubscribe();
        options.signal.removeEventListener('abort', close);
        options.onClose();
        try {
          controller.close();
        } catch {
          // Already closed by the client going away.
        }
      };
      const forThisUser = (event: FeedEvent): boolean => event.to === undefined || event.to === options.subject;
      const send = (text: string): void => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      send(`retry: ${RETRY_MS}\n: stream open\n\n`);
      // Replay and subscription happen in one synchronous step, so no event falls between them.
      const resumeFrom = options.resumeFrom === null ? NaN : Number(options.resumeFrom);
      if (Number.isSafeInteger(resumeFrom)) {
        const replay = feed.since(resumeFrom);
        if ('reload' in replay) send(frame({ id: feed.latestId, event: 'reload', data: {} }));
        else for (const event of replay.events) if (forThisUser(event)) send(frame(event));
      }
      unsubscribe = feed.subscribe((event) => {
        if (forThisUser(event)) send(frame(event));
      });
      timers.push(setInterval(() => send(': heartbeat\n\n'), options.heartbeatMs ?? HEARTBEAT_MS));
      timers.push(
        setInterval(() => {
          options.stillSignedIn().then(
            (signedIn) => {
              if (signedIn) return;
              send('event: signed-out\ndata: {}\n\n');
              close();
            },
            () => undefined,
          );
        }, options.sessionCheckMs ?? SESSION_CHECK_MS),
      );
      options.signal.addEventListener('abort', close);
    },
    cancel() {
      close();
    },
  });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      // nginx buffers proxied answers unless told not to; an event must not wait in a buffer.
      'X-Accel-Buffering': 'no',
    },
  });
}
