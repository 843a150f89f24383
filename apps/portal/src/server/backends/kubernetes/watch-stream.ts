import 'server-only';
import type { Watch } from '@kubernetes/client-node';
import type { PlatformError } from '../../model/errors';
import type { ClusterCall } from './cluster-calls';
import { mapClusterError } from './cluster-errors';

/**
 * One watch request on a cluster-scoped collection through client-node's Watch class, with what
 * that class leaves out: bookmarks are asked for, the server ends the stream after a randomised
 * timeout (as client-go's reflector asks), opening has a deadline, the Watch's own 30 s inactivity
 * abort counts as the stream ending, and failures arrive as the portal's platform errors. The cache (cluster-cache.ts) decides what to do when a stream ends.
 */

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchHandlers {
  onEvent(type: WatchEventType, object: unknown): void;
  /** The open stream ended: without an error when the server closed it (its timeout, or a dropped connection). */
  onEnd(error?: PlatformError): void;
}

export interface WatchStream {
  /** Closes the stream; onEnd is not called for it. */
  stop(): void;
}

/** The resourceVersion asked for is older than the history the API server keeps: list again. */
export class ResourceVersionExpiredError extends Error {
  override name = 'ResourceVersionExpiredError';
}

// client-go's reflector asks for a server-side timeout between these two, so watches of many clients
// do not all end at once.
const MIN_WATCH_SECONDS = 300;
const MAX_WATCH_SECONDS = 600;

function watchTimeoutSeconds(): number {
  return MIN_WATCH_SECONDS + Math.floor(Math.random() * (MAX_WATCH_SECONDS - MIN_WATCH_SECONDS));
}

const WATCH_EVENT_TYPES = new Set<string>(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** The Watch class reports a refused watch as an Error with statusCode and no body. */
function watchError(error: unknown, call: ClusterCall): PlatformError | ResourceVersionExpiredError {
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  if (statusCode === 410) return new ResourceVersionExpiredError('The resourceVersion is too old', { cause: error });
  if (typeof statusCode === 'number') {
    return mapClusterError(Object.assign(new Error(`HTTP ${statusCode}`), { code: statusCode, body: '' }), call);
  }
  return mapClusterError(error, call);
}

export function openWatch(
  watcher: Watch,
  call: ClusterCall,
  resourceVersion: string,
  handlers: WatchHandlers,
  openTimeoutMs: number,
): Promise<WatchStream> {
  const path = `/apis/${call.group}/${call.version}/${call.resource}`;
  const query = { allowWatchBookmarks: true, resourceVersion, timeoutSeconds: watchTimeoutSeconds() };
  return new Promise((resolve, reject) => {
    let opened = false;
    let ended = false;
    const timer = setTimeout(() => {
      ended = true;
      const timeout = Object.assign(new Error('The watch was not answered in time'), { name: 'AbortError' });
      reject(mapClusterError(timeout, call));
    }, openTimeoutMs);

    const done = (error: unknown): void => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      // client-node's Watch aborts a stream that has carried nothing for 30 s with a TimeoutError.
      // Once open, that is a quiet stream ending, like the server's own timeout: the cache watches
      // again from the last resourceVersion. Before it opened, it is a cluster that did not answer.
      const quietStreamEnded = opened && (error as { name?: unknown } | null)?.name === 'TimeoutError';
      const mapped = error && !quietStreamEnded ? watchError(error, call) : undefined;
      if (!opened) {
        reject(mapped ?? mapClusterError(Object.assign(new Error('socket hang up'), { type: 'system' }), call));
        return;
      }
      if (mapped instanceof ResourceVersionExpiredError) {
        handlers.onEvent('ERROR', { kind: 'Status', code: 410, reason: 'Expired' });
        handlers.onEnd();
      } else {
        handlers.onEnd(mapped);
      }
    };
    const onLine = (type: string, object: unknown): void => {
      if (!ended && WATCH_EVENT_TYPES.has(type)) handlers.onEvent(type as WatchEventType, object);
    };

    watcher.watch(path, query, onLine, done).then(
      (controller) => {
        if (ended) {
          // Timed out while opening, or refused (done already rejected): make sure nothing stays open.
          controller.abort();
          return;
        }
        opened = true;
        clearTimeout(timer);
        resolve({
          stop: () => {
            ended = true;
            controller.abort();
          },
        });
      },
      (error: unknown) => done(error),
    );
  });
}
