/** What the inventory page shows, as its URL's search parameters say. */
export interface InventoryView {
  q?: string;
  state?: string;
  /** A classification code against intent. */
  class?: string;
  /** One namespace's accounts (namespaced scope). */
  namespace?: string;
  /** The server's sort order ("name", "-age", ...); "name" is the default and left out of URLs. */
  sort?: string;
  cursor?: string;
}

export const DEFAULT_SORT = 'name';

/** The inventory page's URL for a view; the server reads the same parameters. */
export function inventoryHref(view: InventoryView): string {
  const params = new URLSearchParams();
  if (view.q) params.set('q', view.q);
  if (view.state) params.set('state', view.state);
  if (view.class) params.set('class', view.class);
  if (view.namespace) params.set('namespace', view.namespace);
  if (view.sort && view.sort !== DEFAULT_SORT) params.set('sort', view.sort);
  if (view.cursor) params.set('cursor', view.cursor);
  const search = params.toString();
  return search ? `/resources?${search}` : '/resources';
}
