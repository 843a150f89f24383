import 'server-only';

/**
 * One value per server process, made on first use. Next.js bundles pages and route handlers apart,
 * and each bundle runs its own copy of a module, so state kept at module level exists once per
 * bundle: work derived from the cluster cache (the inventory's read model: the classified
 * inventory, its sort orders, its counts) would be computed and held once for the pages and again
 * for the API.
 */
export function processWide<T>(name: string, create: () => T): T {
  const key = Symbol.for(`books-portal.${name}`);
  const holder = globalThis as typeof globalThis & Record<symbol, unknown>;
  if (!(key in holder)) holder[key] = create();
  return holder[key] as T;
}
