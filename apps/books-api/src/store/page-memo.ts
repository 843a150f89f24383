import type { Slice } from './book-store.js';

/** Pages kept between two writes; a write forgets them all. About a megabyte at most. */
const MAX_PAGES = 256;

/**
 * The pages a store answered since its last write, by skip and limit, so a page read again
 * before anything changed is the same Slice object: its JSON is then cached with it
 * (serialization/book-json.ts), and a repeated read costs a lookup instead of building and
 * encoding the page again, about a tenth of the list route's CPU. The store calls clear() on
 * every write, so a page handed out is never older than the store. A Slice handed out is
 * shared: nobody may change it.
 */
export class PageMemo {
  /** By limit (1–100), then by skip. */
  readonly #byLimit = new Map<number, Map<number, Slice>>();
  #size = 0;

  get(skip: number, limit: number): Slice | undefined {
    return this.#byLimit.get(limit)?.get(skip);
  }

  set(skip: number, limit: number, page: Slice): void {
    // Many different pages between two writes (a crawl): start over rather than grow.
    if (this.#size >= MAX_PAGES) this.clear();
    let bySkip = this.#byLimit.get(limit);
    if (bySkip === undefined) {
      bySkip = new Map();
      this.#byLimit.set(limit, bySkip);
    }
    bySkip.set(skip, page);
    this.#size += 1;
  }

  clear(): void {
    if (this.#size === 0) return;
    this.#byLimit.clear();
    this.#size = 0;
  }
}
