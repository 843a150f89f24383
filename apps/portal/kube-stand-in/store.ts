/**
 * The stand-in's etcd: objects per resource, one cluster-wide resourceVersion counter, copies in and out
 * so no caller can change a stored object behind the store's back.
 */
import type { ResourceDef } from './resources.js';
import type { KubeObject } from './types.js';

function keyOf(def: ResourceDef): string {
  return `${def.plural}.${def.group}`;
}

function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export class ObjectStore {
  private revision = 1000;
  private readonly collections = new Map<string, Map<string, KubeObject>>();

  private collection(def: ResourceDef): Map<string, KubeObject> {
    let items = this.collections.get(keyOf(def));
    if (!items) {
      items = new Map();
      this.collections.set(keyOf(def), items);
    }
    return items;
  }

  currentRevision(): string {
    return String(this.revision);
  }

  nextRevision(): string {
    this.revision += 1;
    return String(this.revision);
  }

  get(def: ResourceDef, name: string, namespace?: string): KubeObject | undefined {
    const found = this.collection(def).get(objectKey(namespace, name));
    return found ? structuredClone(found) : undefined;
  }

  /** Items in key order, as etcd lists them. */
  list(def: ResourceDef, namespace?: string): KubeObject[] {
    return [...this.collection(def).entries()]
      .filter(([, o]) => namespace === undefined || o.metadata.namespace === namespace)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, o]) => structuredClone(o));
  }

  /** Writes the object with a fresh resourceVersion and returns the stored copy. */
  put(def: ResourceDef, object: KubeObject): KubeObject {
    const stored = structuredClone(object);
    stored.metadata.resourceVersion = this.nextRevision();
    this.collection(def).set(objectKey(stored.metadata.namespace, stored.metadata.name ?? ''), stored);
    return structuredClone(stored);
  }

  remove(def: ResourceDef, name: string, namespace?: string): boolean {
    const removed = this.collection(def).delete(objectKey(namespace, name));
    if (removed) this.nextRevision();
    return removed;
  }

  clear(def: ResourceDef): void {
    this.collection(def).clear();
  }
}
