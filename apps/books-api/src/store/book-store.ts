import type { BookCreate, BookResponse, BookUpdate } from '../schemas/book.js';

export type Book = BookResponse;

/** A value now (the in-memory store) or later (a networked store); callers always await. */
export type Awaitable<T> = T | Promise<T>;

export interface Slice {
  items: Book[];
  /** Number of books (or matches) across all pages. */
  total: number;
}

/**
 * Where books live. Stores never see the request or the reply; they take and return
 * plain values. Ids are lower-case hyphenated UUIDs (routes normalise them first).
 */
export interface BookStore {
  /** The page at `skip`, at most `limit` books, in insertion order. */
  list(skip: number, limit: number): Awaitable<Slice>;
  /** Books whose title or author contains `query`, case-insensitively, in insertion order. */
  search(query: string, skip: number, limit: number): Awaitable<Slice>;
  get(id: string): Awaitable<Book | undefined>;
  create(input: BookCreate): Awaitable<Book>;
  /** Changes only the fields present in `changes`; undefined when the id is unknown. */
  update(id: string, changes: BookUpdate): Awaitable<Book | undefined>;
  /** false when the id is unknown. */
  delete(id: string): Awaitable<boolean>;
  count(): Awaitable<number>;
  /** A uniformly random current book, undefined when the store is empty. */
  randomBook(): Awaitable<Book | undefined>;
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

/** Thrown by a store that cannot hold some text the API accepts (PostgreSQL text cannot hold U+0000). */
export class UnstorableTextError extends Error {
  constructor(readonly field: string) {
    super(`The ${field} contains a character this store cannot hold (U+0000)`);
    this.name = 'UnstorableTextError';
  }
}
