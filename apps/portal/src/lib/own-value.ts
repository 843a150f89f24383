/**
 * A lookup of a value that came from outside (a query parameter, a request body's key, a field of
 * a cluster object) in a table of known values. Only the table's own keys count: `__proto__`,
 * `constructor` or `toString` are unknown values like any other, never something inherited from
 * Object.prototype.
 */
export function ownValue<V>(table: Readonly<Record<string, V>>, key: string | undefined | null): V | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}
