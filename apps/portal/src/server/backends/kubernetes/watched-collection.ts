import 'server-only';
import { PlatformError, PlatformUnavailableError } from '../../model/errors';
import type { CollectionHealth, CollectionOptions } from './collection-options';
import { nameOf, olderThan, statusCode, versionOf } from './object-fields';
import { ResourceVersionExpiredError, type WatchEventType, type WatchHandlers, type WatchStream } from './watch-stream';

/**
 * One cluster collection kept in memory the way client-go's reflector keeps it: list once, then
 * watch from the list's resourceVersion (with bookmarks, so a reconnect resumes where it stopped),
 * list again only when the API server says that version has expired (410 Gone), and reconnect
 * with exponential backoff when the cluster cannot be reached. Reads are answered from memory;
 * while the collection is not synced, or its last attempt to reach the cluster failed, a read
 * waits for the next attempt and then throws its error, so callers see the same platform errors
 * a direct call would give.
 */

interface Entry<T> {
  value: T;
  resourceVersion: string;
}

const DEFAULT_BACKOFF = { initialMs: 250, maxMs: 30_000 };
// kube-apiserver ends a watch at the timeoutSeconds asked for (at most 600); a stream still open well
// after that is a connection that died without saying so.
const DEFAULT_MAX_STREAM_MS = 11 * 60 * 1000;
// A watch that ends sooner than this after opening counts as a failure for the backoff, so a server
// that accepts and closes at once is not hammered.
const SHORT_STREAM_MS = 1000;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** One change of a collection, as a listener hears it; `reset` after a (re-)list replaced everything. */
export type CollectionChange<T> =
  { kind: 'set'; name: string; value: T } | { kind: 'removed'; name: string } | { kind: 'reset' };

export class WatchedCollection<T> {
  private readonly listeners = new Set<(change: CollectionChange<T>) => void>();
  private readonly entries = new Map<string, Entry<T>>();
  /** Versions this portal wrote itself, newer than what the watch has delivered for the name. */
  private readonly ownWrites = new Map<string, string>();
  private readonly options: CollectionOptions<T>;
  private readonly backoff: { initialMs: number; maxMs: number };
  private resourceVersion = '';
  private synced = false;
  private failure: PlatformError | undefined;
  private failureAt: Date | undefined;
  private lastSyncAt: Date | undefined;
  private lastEventAt: Date | undefined;
  private reconnects = 0;
  private relists = 0;
  private lists = 0;
  private running = false;
  private stream: WatchStream | undefined;
  private streamTimer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  /** A stream is open (between a stream's end and the next opening, reads wait for the outcome). */
  private streaming = false;
  /** Resolved (and replaced) whenever an attempt to list or open a watch settles. */
  private attemptSettled = deferred();
  private snapshotCache: readonly T[] | undefined;
  /** Bumped on every change, so callers can memoise work derived from the values. */
  private revision = 0;

  private readonly keyOf: (object: unknown) => string | undefined;

  constructor(options: CollectionOptions<T>) {
    this.options = options;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.keyOf = options.keyOf ?? nameOf;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.run();
  }

  stop(): void {
    this.running = false;
    this.streaming = false;
    this.closeStream();
    this.wake?.();
  }

  /** Every value, once the collection serves; otherwise waits for the cluster and throws its error. */
  async values(): Promise<readonly T[]> {
    await this.ready();
    this.snapshotCache ??= Object.freeze([...this.entries.values()].map((entry) => entry.value));
    return this.snapshotCache;
  }

  /** One value by name, or undefined when the cluster has no such object. */
  async get(name: string): Promise<T | undefined> {
    await this.ready();
    return this.entries.get(name)?.value;
  }

  /** Hears every change from now on (the live event stream); answers how to stop. */
  subscribe(listener: (change: CollectionChange<T>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(change: CollectionChange<T>): void {
    for (const listener of this.listeners) listener(change);
  }

  /** Changes whenever the values change. */
  get version(): number {
    return this.revision;
  }

  /** Read-your-writes: an object this portal just wrote, as the API server answered it. */
  applyWrite(object: unknown): void {
    const name = this.keyOf(object);
    if (!name) return;
    const version = versionOf(object);
    const known = this.entries.get(name);
    if (known && olderThan(version, known.resourceVersion)) return;
    this.set(name, object);
    if (version) this.ownWrites.set(name, version);
  }

  /** Read-your-writes for a deletion that removed the object at once (no finalizers). */
  applyRemoval(name: string): void {
    const known = this.entries.get(name);
    if (known?.resourceVersion) this.ownWrites.set(name, known.resourceVersion);
    this.remove(name);
  }

  health(): CollectionHealth {
    return {
      synced: this.synced,
      failing: this.failure !== undefined,
      objects: this.entries.size,
      resourceVersion: this.resourceVersion,
      reconnects: this.reconnects,
      relists: this.relists,
      ...(this.lastSyncAt ? { lastSyncAt: this.lastSyncAt.toISOString() } : {}),
      ...(this.lastEventAt ? { lastEventAt: this.lastEventAt.toISOString() } : {}),
      ...(this.failure ? { lastError: this.failure.message } : {}),
      ...(this.failureAt ? { lastErrorAt: this.failureAt.toISOString() } : {}),
    };
  }

  private serving(): boolean {
    return this.synced && this.streaming && this.failure === undefined;
  }

  private async ready(): Promise<void> {
    if (this.serving()) return;
    this.start();
    // Not serving: try the cluster now rather than after the backoff, and answer with the outcome.
    this.wake?.();
    const timeout = new Promise<'timeout'>((resolve) => {
      setTimeout(() => resolve('timeout'), this.options.readTimeoutMs).unref();
    });
    const outcome = await Promise.race([this.attemptSettled.promise, timeout]);
    if (this.serving()) return;
    if (this.failure) throw this.failure;
    if (outcome === 'timeout') {
      throw new PlatformUnavailableError(
        `The platform cluster is unreachable (no answer in time); could not list ${this.options.name}. Try again shortly.`,
      );
    }
    // An attempt settled without a verdict (e.g. the first list is still running): wait for the next.
    return this.ready();
  }

  private settle(): void {
    const settled = this.attemptSettled;
    this.attemptSettled = deferred();
    settled.resolve();
  }

  private fail(error: unknown, during: string): void {
    this.failure =
      error instanceof PlatformError
        ? error
        : new PlatformUnavailableError(`The platform cluster could not be read; could not ${during}`, {
            cause: error,
          });
    this.failureAt = new Date();
    this.options.logger.warn(
      { collection: this.options.name, err: error, resourceVersion: this.resourceVersion },
      `cluster cache: could not ${during}`,
    );
  }

  private async run(): Promise<void> {
    let delay = this.backoff.initialMs;
    while (this.running) {
      try {
        if (this.resourceVersion === '') await this.list();
        const opened = Date.now();
        const ended = await this.follow();
        if (!this.running) break;
        this.reconnects += 1;
        if (ended.expired) {
          this.options.logger.info(
            { collection: this.options.name, resourceVersion: this.resourceVersion },
            'cluster cache: resourceVersion expired (410 Gone), listing again',
          );
          this.resourceVersion = '';
        }
        // A stream that breaks is a dropped connection: the next attempt to open one says whether the
        // cluster is still there, and reads wait for it.
        if (ended.error) {
          this.options.logger.info(
            { collection: this.options.name, err: ended.error, resourceVersion: this.resourceVersion },
            'cluster cache: watch connection lost, resuming',
          );
        }
        if (Date.now() - opened < SHORT_STREAM_MS) {
          await this.sleep(delay);
          delay = Math.min(delay * 2, this.backoff.maxMs);
        } else {
          delay = this.backoff.initialMs;
        }
      } catch (error) {
        if (!this.running) break;
        if (error instanceof ResourceVersionExpiredError) {
          this.resourceVersion = '';
          this.settle();
          continue;
        }
        this.fail(error, this.resourceVersion === '' ? `list ${this.options.name}` : `watch ${this.options.name}`);
        this.settle();
        await this.sleep(delay);
        delay = Math.min(delay * 2, this.backoff.maxMs);
      }
    }
  }

  private async list(): Promise<void> {
    const started = Date.now();
    const fresh = new Map<string, Entry<T>>();
    let chunk = await this.options.source.list();
    // Every chunk of a Kubernetes list comes from the first one's snapshot: the watch follows from it.
    // (Where a server answers later chunks from a newer state, the watch replays what changed since.)
    const list = { resourceVersion: chunk.resourceVersion };
    let chunks = 1;
    for (;;) {
      for (const object of chunk.items) {
        const name = this.keyOf(object);
        if (name) fresh.set(name, { value: this.options.map(object), resourceVersion: versionOf(object) });
      }
      if (chunk.continue === undefined) break;
      chunk = await this.options.source.list(chunk.continue);
      chunks += 1;
    }
    this.entries.clear();
    for (const [name, entry] of fresh) this.entries.set(name, entry);
    this.ownWrites.clear();
    this.changed();
    this.tell({ kind: 'reset' });
    this.resourceVersion = list.resourceVersion;
    if (this.lists > 0) this.relists += 1;
    this.lists += 1;
    this.synced = true;
    this.lastSyncAt = new Date();
    this.options.logger.info(
      {
        collection: this.options.name,
        objects: this.entries.size,
        chunks,
        resourceVersion: list.resourceVersion,
        durationMs: Date.now() - started,
      },
      'cluster cache: listed',
    );
  }

  /** Opens a watch from the current resourceVersion and resolves when it ends. */
  private follow(): Promise<{ expired: boolean; error?: PlatformError }> {
    return new Promise((resolve, reject) => {
      let expired = false;
      const handlers: WatchHandlers = {
        onEvent: (type, object) => {
          if (type === 'ERROR') {
            if (statusCode(object) === 410) expired = true;
            return;
          }
          this.event(type, object);
        },
        onEnd: (error) => {
          this.streaming = false;
          this.closeStream();
          resolve({ expired, ...(error ? { error } : {}) });
        },
      };
      this.options.source.watch(this.resourceVersion, handlers).then((stream) => {
        if (!this.running) {
          stream.stop();
          resolve({ expired: false });
          return;
        }
        this.stream = stream;
        this.streamTimer = setTimeout(() => handlers.onEnd(), this.options.maxStreamMs ?? DEFAULT_MAX_STREAM_MS);
        this.streamTimer.unref();
        if (this.failure) {
          this.options.logger.info(
            { collection: this.options.name, resourceVersion: this.resourceVersion },
            'cluster cache: watching again',
          );
        }
        this.failure = undefined;
        this.streaming = true;
        this.settle();
      }, reject);
    });
  }

  private event(type: Exclude<WatchEventType, 'ERROR'>, object: unknown): void {
    this.lastEventAt = new Date();
    const version = versionOf(object);
    if (version) this.resourceVersion = version;
    if (type === 'BOOKMARK') return;
    const name = this.keyOf(object);
    if (!name) return;
    const own = this.ownWrites.get(name);
    if (own !== undefined) {
      // The watch has not yet caught up with what this portal wrote: keep the newer copy.
      if (olderThan(version, own)) return;
      this.ownWrites.delete(name);
    }
    if (type === 'DELETED') this.remove(name);
    else this.set(name, object);
  }

  private set(name: string, object: unknown): void {
    const value = this.options.map(object);
    this.entries.set(name, { value, resourceVersion: versionOf(object) });
    this.changed();
    this.tell({ kind: 'set', name, value });
  }

  private remove(name: string): void {
    if (!this.entries.delete(name)) return;
    this.changed();
    this.tell({ kind: 'removed', name });
  }

  private changed(): void {
    this.revision += 1;
    this.snapshotCache = undefined;
  }

  private closeStream(): void {
    clearTimeout(this.streamTimer);
    this.streamTimer = undefined;
    this.stream?.stop();
    this.stream = undefined;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }
}
