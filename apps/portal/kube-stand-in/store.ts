/**
 * The stand-in's etcd: objects per resource, one cluster-wide resourceVersion counter, copies in and out
 * so no caller can change a stored object behind the store's back, and a bounded history of changes that
 * watches replay from a resourceVersion and then follow live.
 */
import type { ResourceDef } from './resources.js';
import type { KubeObject } from './types.js';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreChange {
  type: ChangeType;
  /** The resourceVersion this change was written at. */
  revision: number;
  /** The object after the change; for DELETED, its last state with the deletion's resourceVersion. */
  object: KubeObject;
  /** The object before a MODIFIED change, so a filtered watch can tell an object left its selection. */
  previous?: KubeObject;
}

export type ChangeListener = (change: StoreChange) => void;

/** How many changes per resource a watch can still replay; older resourceVersions get 410 Gone. */
const HISTORY_LIMIT = 1000;

function keyOf(def: ResourceDef): string {
  return `${def.plural}.${def.group}`;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

interface Collection {
  items: Map<string, KubeObject>;
  history: StoreChange[];
  /** The newest revision no longer in history: a watch from before it has missed changes. */
  compactedRevision: number;
  listeners: Set<ChangeListener>;
}

export class ObjectStore {
  private revision = 1000;
  private readonly collections = new Map<string, Collection>();

  private collection(def: ResourceDef): Collection {
    let collection = this.collections.get(keyOf(def));
    if (!collection) {
      collection = { items: new Map(), history: [], compactedRevision: this.revision, listeners: new Set() };
      this.collections.set(keyOf(def), collection);
    }
    return collection;
  }

  currentRevision(): string {
    return String(this.revision);
  }

  private nextRevision(): number {
    this.revision += 1;
    return this.revision;
  }

  get(def: ResourceDef, name: string, namespace?: string): KubeObject | undefined {
    const found = this.collection(def).items.get(objectKey(namespace, name));
    return found ? structuredClone(found) : undefined;
  }

  /** Items in key order, as etcd lists them. */
  list(def: ResourceDef, namespace?: string): KubeObject[] {
    return [...this.collection(def).items.entries()]
      .filter(([, o]) => namespace === undefined || o.metadata.namespace === namespace)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, o]) => structuredClone(o));
  }

  /** Writes the object with a fresh resourceVersion and returns the stored copy. */
  put(def: ResourceDef, object: KubeObject): KubeObject {
    const collection = this.collection(def);
    const key = objectKey(object.metadata.namespace, object.metadata.name ?? '');
    const previous = collection.items.get(key);
    const revision = this.nextRevision();
    const stored = structuredClone(object);
    stored.metadata.resourceVersion = String(revision);
    collection.items.set(key, stored);
    this.publish(collection, {
      type: previous ? 'MODIFIED' : 'ADDED',
      revision,
      object: stored,
      ...(previous ? { previous } : {}),
    });
    return structuredClone(stored);
  }

  remove(def: ResourceDef, name: string, namespace?: string): boolean {
    const collection = this.collection(def);
    const key = objectKey(namespace, name);
    const removed = collection.items.get(key);
    if (!removed) return false;
    collection.items.delete(key);
    const revision = this.nextRevision();
    const last = structuredClone(removed);
    last.metadata.resourceVersion = String(revision);
    this.publish(collection, { type: 'DELETED', revision, object: last });
    return true;
  }

  /**
   * Changes after `revision`, then every later change as it happens, with nothing missed or repeated
   * in between (the store is synchronous). Undefined when `revision` is older than the history kept.
   */
  follow(
    def: ResourceDef,
    revision: number,
    listener: ChangeListener,
  ): { backlog: StoreChange[]; stop: () => void } | undefined {
    const collection = this.collection(def);
    if (revision < collection.compactedRevision) return undefined;
    const backlog = collection.history.filter((c) => c.revision > revision).map((c) => structuredClone(c));
    collection.listeners.add(listener);
    return { backlog, stop: () => collection.listeners.delete(listener) };
  }

  /** Forgets the change history, as etcd compaction does: a watch from any earlier resourceVersion gets 410 Gone. */
  compact(): void {
    for (const collection of this.collections.values()) {
      collection.history = [];
      collection.compactedRevision = this.revision;
    }
  }

  /** The oldest resourceVersion a watch can still start from, for the 410 Gone message. */
  oldestRevision(def: ResourceDef): number {
    return this.collection(def).compactedRevision;
  }

  private publish(collection: Collection, change: StoreChange): void {
    collection.history.push(change);
    if (collection.history.length > HISTORY_LIMIT) {
      const dropped = collection.history.shift();
      if (dropped) collection.compactedRevision = dropped.revision;
    }
    for (const listener of collection.listeners) listener(structuredClone(change));
  }
}
