import type { Slice } from './book-store.js';

/** Pages kept at most; about a megabyte of books. */
const MAX_PAGES = 256;

/**
 * Pages a store answered, by skip and limit, so a page read again while nothing changed is the
 * same Slice object, marked shared (sharedPage in book-store.ts): frozen, and its JSON remembered
 * with it, so a repeated read costs a lookup instead of building and encoding the page again. The
 * store decides when a page is still valid: the memory store clears the memo on every write; the
 * PostgreSQL store keeps each page with the database snapshot it was read under
 * (postgres/snapshot-page-cache.ts).
 */
export class PageMemo<T = Slice> {
  /** By limit (1–100), then by skip. */
  readonly #byLimit = new Map<number, Map<number, T>>();
  #size = 0;

  get(skip: number, limit: number): T | undefined {
    return this.#byLimit.get(limit)?.get(skip);
  }

  set(skip: number, limit: number, page: T): void {
    let bySkip = this.#byLimit.get(limit);
    if (bySkip?.has(skip)) {
      bySkip.set(skip, page);
      return;
    }
    // Many different pages (a crawl): start over rather than grow.
    if (this.#size >= MAX_PAGES) {
      this.clear();
      bySkip = undefined;
    }
    if (bySkip === undefined) {
      bySkip = new Map();
      this.#byLimit.set(limit, bySkip);
    }
    bySkip.set(skip, page);
    this.#size += 1;
  }

  delete(skip: number, limit: number): void {
    if (this.#byLimit.get(limit)?.delete(skip)) this.#size -= 1;
  }

  clear(): void {
    if (this.#size === 0) return;
    this.#byLimit.clear();
    this.#size = 0;
  }
}
