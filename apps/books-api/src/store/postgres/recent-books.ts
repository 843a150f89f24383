import type { Book } from '../book-store.js';
import { isoTimestamp, type BookRow } from './book-rows.js';

/** How many books RecentBooks keeps: a few pages' worth for each of many clients, about 2 MB. */
const RECENT_BOOKS = 4_096;

/**
 * The Book objects last answered, by id, so that a book read again unchanged is answered with the
 * same object. The response's JSON is remembered per Book object (serialization/book-json.ts):
 * without this, every read of a page would build new objects and serialise each. An object is reused only when every field of the row just read equals
 * it, so an answer is never older than its row; the oldest entries go first.
 */
export class RecentBooks {
  private readonly byId = new Map<string, { createdAt: string; book: Book }>();

  book(row: BookRow): Book {
    const known = this.byId.get(row.id);
    if (
      known !== undefined &&
      known.createdAt === row.created_at &&
      known.book.title === row.title &&
      known.book.author === row.author &&
      known.book.year === row.year
    ) {
      return known.book;
    }
    const book = {
      id: row.id,
      title: row.title,
      author: row.author,
      year: row.year,
      created_at: isoTimestamp(row.created_at),
    };
    if (known !== undefined) this.byId.delete(row.id);
    else if (this.byId.size >= RECENT_BOOKS) this.byId.delete(this.byId.keys().next().value as string);
    this.byId.set(row.id, { createdAt: row.created_at, book });
    return book;
  }
}
