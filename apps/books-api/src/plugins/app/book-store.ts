import fp from 'fastify-plugin';
import type { BookStore } from '../../store/book-store.js';
import { MemoryBookStore } from '../../store/memory-book-store.js';
import { SEED_BOOKS } from '../../store/seed.js';

declare module 'fastify' {
  interface FastifyInstance {
    bookStore: BookStore;
  }
}

export interface BookStoreOptions {
  /** A ready store (tests); by default an in-memory store seeded with the contract's books. */
  store?: BookStore;
}

export function createSeededStore(): MemoryBookStore {
  const store = new MemoryBookStore();
  for (const { id, ...book } of SEED_BOOKS) store.insert(id, book);
  return store;
}

export default fp<BookStoreOptions>(
  async (fastify, options) => {
    fastify.decorate('bookStore', options.store ?? createSeededStore());
  },
  { name: 'book-store' },
);
