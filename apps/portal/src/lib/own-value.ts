/**
 * A lookup of a value that came from outside (a query parameter, a request body's key, a field of
 * a cluster object) in a table of known values. Only the table's own keys count: `__proto__`,
 * `constructor` or `toString` are unknown values like any other, never something inherited from
 * Object.prototype.
 */
export function ownValue<V>(table: Readonly<Record<string, V>>, key: string | undefined | null): V | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Whether a value from outside is one of the table's own keys (see ownValue). */
export function isOwnKey<T extends object>(table: T, key: string): key is Extract<keyof T, string> {
  return Object.hasOwn(table, key);
}
