import fp from 'fastify-plugin';
import type { Sql } from 'postgres';
import type { BookStore } from '../../store/book-store.js';
import { MemoryBookStore } from '../../store/memory-book-store.js';
import type { DatabaseSettings } from '../../store/postgres/connection.js';
import { openPostgresStore, type OpenedPostgresStore } from '../../store/postgres/open-postgres-store.js';
import { SEED_BOOKS } from '../../store/seed.js';

declare module 'fastify' {
  interface FastifyInstance {
    bookStore: BookStore;
    /** The opened PostgreSQL store when DATABASE_URL is set, for services sharing its database. */
    postgres: OpenedPostgresStore | null;
  }
}

export interface BookStoreOptions {
  /** A ready store (tests); otherwise PostgreSQL when `database` is set, else the seeded memory store. */
  store?: BookStore;
  database?: DatabaseSettings;
  /** Wraps each PostgreSQL pool: a span per statement when tracing is on. */
  instrumentSql?: (pool: Sql) => Sql;
}

export function createSeededStore(): MemoryBookStore {
  const store = new MemoryBookStore();
  for (const { id, ...book } of SEED_BOOKS) store.insert(id, book);
  return store;
}

export default fp<BookStoreOptions>(
  async (fastify, options) => {
    if (options.store !== undefined || options.database === undefined) {
      fastify.decorate('bookStore', options.store ?? createSeededStore());
      fastify.decorate('postgres', null);
      return;
    }
    // Migrations run in the background: the server listens (and answers 503) until they are done.
    const opened = openPostgresStore(options.database, fastify.log, {}, options.instrumentSql);
    fastify.decorate('bookStore', opened.store);
    fastify.decorate('postgres', opened);
    fastify.addHook('onClose', function closeBookStore() {
      return opened.close();
    });
  },
  { name: 'book-store' },
);
