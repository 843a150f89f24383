import { randomUUID } from 'node:crypto';
import type { BookCreate, BookUpdate } from '../schemas/book.js';
import { sharedPage, type Book, type BookStore, type Slice } from './book-store.js';
import { FenwickTree } from './fenwick-tree.js';
import { PageMemo } from './page-memo.js';
import { SearchIndex } from './search-index.js';
import { ShardedMap } from './sharded-map.js';

interface MemoryBookStoreOptions {
  now?: () => Date;
  newId?: () => string;
  random?: () => number;
}

/**
 * In-memory store. Books sit in insertion-ordered slots; a delete leaves a tombstone
 * (undefined) so the order of the rest never changes. A map of ids (sharded, so that its
 * growth never rehashes the whole collection at once) gives O(1) get, update and delete; a Fenwick tree over "slot is live" finds the first book of a page in
 * O(log n), so a page costs O(log n + limit) and never copies the collection.
 * Tombstones are compacted away once they outnumber the live books.
 */
export class MemoryBookStore implements BookStore {
  private slots: (Book | undefined)[] = [];
  private live = new FenwickTree();
  private readonly slotById = new ShardedMap<number>();
  /** Trigram index over the books' case-folded title and author, kept in step with every write. */
  private readonly index = new SearchIndex();
  /** Pages answered since the last write; every write clears it. */
  private readonly pages = new PageMemo();
  private readonly now: () => Date;
  private readonly newId: () => string;
  private readonly random: () => number;

  constructor(options: MemoryBookStoreOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? newCompactId;
    this.random = options.random ?? Math.random;
  }

  /** Adds a book with a given id (seeding); the id must be lower-case hyphenated. */
  insert(id: string, input: BookCreate): Book {
    if (this.slotById.has(id)) throw new Error(`duplicate book id ${id}`);
    this.pages.clear();
    const book: Book = {
      id,
      title: input.title,
      author: input.author,
      year: input.year,
      created_at: this.now().toISOString(),
    };
    this.slotById.set(id, this.slots.length);
    this.index.add(this.slots.length, book.title, book.author);
    this.slots.push(book);
    this.live.push(1);
    return book;
  }

  async create(input: BookCreate): Promise<Book> {
    return this.insert(this.newId(), input);
  }

  async get(id: string): Promise<Book | undefined> {
    const slot = this.slotById.get(id);
    return slot === undefined ? undefined : this.slots[slot];
  }

  async update(id: string, changes: BookUpdate): Promise<Book | undefined> {
    const slot = this.slotById.get(id);
    const current = slot === undefined ? undefined : this.slots[slot];
    if (slot === undefined || current === undefined) return undefined;
    this.pages.clear();
    // A new object, so a response being serialised from the old one is unaffected.
    const book: Book = {
      ...current,
      ...(changes.title !== undefined && { title: changes.title }),
      ...(changes.author !== undefined && { author: changes.author }),
      ...(changes.year !== undefined && { year: changes.year }),
    };
    this.slots[slot] = book;
    this.index.update(slot, book.title, book.author);
    return book;
  }

  async delete(id: string): Promise<boolean> {
    const slot = this.slotById.get(id);
    if (slot === undefined) return false;
    this.pages.clear();
    this.slotById.delete(id);
    this.slots[slot] = undefined;
    this.index.remove(slot);
    this.live.add(slot, -1);
    if (this.slots.length - this.slotById.size > this.slotById.size) this.compact();
    return true;
  }

  async count(): Promise<number> {
    return this.slotById.size;
  }

  async list(skip: number, limit: number): Promise<Slice> {
    const known = this.pages.get(skip, limit);
    if (known !== undefined) return known;
    const page = sharedPage(this.readPage(skip, limit));
    this.pages.set(skip, limit, page);
    return page;
  }

  async search(query: string, skip: number, limit: number): Promise<Slice> {
    const page = this.index.search(query, skip, limit);
    return { items: page.slots.flatMap((slot) => this.slots[slot] ?? []), total: page.total };
  }

  async randomBook(): Promise<Book | undefined> {
    const total = this.slotById.size;
    if (total === 0) return undefined;
    const slot = this.live.findKth(Math.floor(this.random() * total));
    return this.slots[slot];
  }

  private readPage(skip: number, limit: number): Slice {
    const total = this.slotById.size;
    const items: Book[] = [];
    if (skip >= total) return { items, total };
    let rank = skip;
    let slot = this.live.findKth(rank);
    while (slot !== -1 && items.length < limit) {
      const current = this.slots[slot];
      if (current === undefined) {
        // Jump over a run of tombstones instead of walking it.
        slot = this.live.findKth(rank);
        continue;
      }
      items.push(current);
      rank += 1;
      slot = slot + 1 < this.slots.length ? slot + 1 : -1;
    }
    return { items, total };
  }

  private compact(): void {
    const books = this.slots.filter((book): book is Book => book !== undefined);
    this.slots = books;
    this.live = new FenwickTree();
    this.index.clear();
    books.forEach((book, index) => {
      this.slotById.set(book.id, index);
      this.live.push(1);
      this.index.add(index, book.title, book.author);
    });
  }
}

/**
 * A random UUID stored compactly. randomUUID() builds its text by concatenation, which V8
 * keeps as a tree of string pieces until the text is read; reading one character flattens it
 * in place to a single flat string several times smaller. Ids live as long as their books, so
 * at a million books the difference is a large part of the heap.
 */
function newCompactId(): string {
  const id = randomUUID();
  id.charCodeAt(0);
  return id;
}
