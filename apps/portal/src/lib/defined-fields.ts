/**
 * The record without its undefined fields, built as a new object rather than by deleting from one:
 * V8 turns an object that loses a property into a hash table several times its size, and a record
 * whose optional fields are spread in conditionally gets a hidden class of its own. Records built
 * here from the same fields share one.
 */
export function definedFields<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}
