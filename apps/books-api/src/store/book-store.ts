import type { BookCreate, BookResponse, BookUpdate } from '../schemas/book.js';

/**
 * A stored book. Read-only: a store hands out the same object until the book changes (and
 * then a new object), and the serialiser remembers its JSON by that object
 * (serialization/book-json.ts), so nobody may change one in place.
 */
export type Book = Readonly<BookResponse>;

export interface Slice {
  readonly items: readonly Book[];
  /** Number of books (or matches) across all pages. */
  readonly total: number;
}

/**
 * Marks a page the store will hand out again while it is unchanged (its page memo): frozen, so
 * nobody changes what later readers get, and so the serialiser may remember its JSON with it
 * (serialization/book-json.ts). A page made for one answer (a search) is not marked.
 */
export function sharedPage(page: Slice): Slice {
  Object.freeze(page.items);
  return Object.freeze(page);
}

/**
 * Where books live. Stores never see the request or the reply; they take and return
 * plain values, always through a promise (the memory store's are already settled), so a
 * route awaits every call and a networked store replaces the memory store without touching
 * them. Ids are lower-case hyphenated UUIDs (routes normalise them first).
 */
export interface BookStore {
  /** The page at `skip`, at most `limit` books, in insertion order. */
  list(skip: number, limit: number): Promise<Slice>;
  /** Books whose title or author contains `query`, case-insensitively, in insertion order. */
  search(query: string, skip: number, limit: number): Promise<Slice>;
  get(id: string): Promise<Book | undefined>;
  create(input: BookCreate): Promise<Book>;
  /** Changes only the fields present in `changes`; undefined when the id is unknown. */
  update(id: string, changes: BookUpdate): Promise<Book | undefined>;
  /** false when the id is unknown. */
  delete(id: string): Promise<boolean>;
  count(): Promise<number>;
  /** A uniformly random current book, undefined when the store is empty. */
  randomBook(): Promise<Book | undefined>;
}

/**
 * Thrown by a networked store when its backend cannot answer now (down, restarting, too slow).
 * The request fails with 503 and a later one may succeed; the cause is only logged.
 */
export class StoreUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('The book store is unavailable', { cause });
    this.name = 'StoreUnavailableError';
  }
}

/**
 * The store has not reached its database yet since the start (it is connecting, or applying
 * migrations). Answered like StoreUnavailableError, but expected: readiness probes ask exactly
 * this while a replica starts, so it is no warning.
 */
export class StoreNotReadyError extends StoreUnavailableError {
  constructor() {
    super();
    this.name = 'StoreNotReadyError';
  }
}

/** Thrown by a store that cannot hold some text the API accepts (PostgreSQL text cannot hold U+0000). */
export class UnstorableTextError extends Error {
  constructor(readonly field: string) {
    super(`The ${field} contains a character this store cannot hold (U+0000)`);
    this.name = 'UnstorableTextError';
  }
}
