import 'server-only';

/**
 * One shared, frozen instance per distinct value. The accounts of one platform mostly hold the same
 * settings, conditions and drift report (a few templates, one fleet), so when the cluster cache
 * keeps equal parts of their records once, its memory follows the number of distinct values rather
 * than the number of accounts. Values are compared by their JSON; instances are held weakly, and a
 * value no cached record refers to any more is forgotten.
 */
export class SharedValues {
  private readonly known = new Map<string, WeakRef<object>>();
  private readonly forget = new FinalizationRegistry<string>((key) => {
    if (this.known.get(key)?.deref() === undefined) this.known.delete(key);
  });

  /** The shared instance equal to `value`; `value` itself, frozen, when it is the first of its kind. */
  share<T extends object>(value: T): T {
    const key = JSON.stringify(value);
    const known = this.known.get(key)?.deref();
    if (known) return known as T;
    deepFreeze(value);
    this.known.set(key, new WeakRef(value));
    this.forget.register(value, key);
    return value;
  }

  /** Distinct values held, for tests. */
  get size(): number {
    return this.known.size;
  }
}

// Shared instances are read by every record that holds them: none may change under another.
function deepFreeze(value: object): void {
  for (const field of Object.values(value as Record<string, unknown>)) {
    if (typeof field === 'object' && field !== null && !Object.isFrozen(field)) deepFreeze(field);
  }
  Object.freeze(value);
}
