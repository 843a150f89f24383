import 'server-only';
import type { Logger } from 'pino';
import type { ObjectList } from './cluster-client';
import type { WatchHandlers, WatchStream } from './watch-stream';

/** What a watched collection (watched-collection.ts) reads from, how it is set up, and the health it reports. */

export interface CollectionSource {
  /** One chunk of the list; the next with the previous chunk's `continue`. */
  list(continueToken?: string): Promise<ObjectList>;
  watch(resourceVersion: string, handlers: WatchHandlers): Promise<WatchStream>;
}

export interface CollectionHealth {
  /** A list has succeeded and the collection follows the cluster. */
  synced: boolean;
  /** The last attempt to list or watch failed; reads answer its error until the next succeeds. */
  failing: boolean;
  objects: number;
  resourceVersion: string;
  lastSyncAt?: string;
  lastEventAt?: string;
  /** Watches opened again after one ended (server timeout, dropped connection, failure). */
  reconnects: number;
  /** Lists after the first: a resourceVersion expired (410 Gone) or the cache was started again. */
  relists: number;
  lastError?: string;
  lastErrorAt?: string;
}

export interface CollectionOptions<T> {
  /** For logs and the settings page ("accounts", "resource groups"). */
  name: string;
  source: CollectionSource;
  /** Turns a raw object into what reads return; called once per object version. */
  map: (object: unknown) => T;
  logger: Logger;
  /** How long a read waits for the cluster while the collection is not serving. */
  readTimeoutMs: number;
  backoff?: { initialMs: number; maxMs: number };
  /** A stream is ended and reopened if it has been open this long (a half-open connection says nothing). */
  maxStreamMs?: number;
  /**
   * What an object is found by: its name unless given. ResourceGroups of Crossplane v2 share names
   * across namespaces, so they are kept by namespace and name (namespacedKey).
   */
  keyOf?: (object: unknown) => string | undefined;
}
