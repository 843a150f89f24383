/**
 * A trigram index over the case-folded title and author of every book (see search-fold.ts),
 * so a search over a large collection looks only at books that contain every trigram of
 * the query instead of scanning them all. It gives exactly the answer of the naive scan
 * (`title.includes(q) || author.includes(q)` on folded text, in insertion order)
 * because every candidate is checked against the book's current text.
 *
 * Books are named by their slot: the store's insertion-ordered position, so ascending slots
 * are insertion order. The index keeps each book's search key: its folded title and
 * author in one string (one string instead of two plus a wrapper object per book). A posting list holds the slots whose key contains one trigram,
 * delta-encoded as varints (one or two bytes a posting instead of eight for a JS array), which
 * keeps a million books' index small. Appends (creates) go to the end of the encoded bytes.
 *
 * Writes that are not appends stay cheap by being lazy:
 * - removing a trigram from a slot (delete, or an update that drops it) leaves the posting
 *   in place and counts it as stale; a stale posting is never reported, because candidates
 *   are checked against the store's current text;
 * - adding a trigram to an older slot (an update) goes to a small sorted side list that is
 *   merged into the encoded bytes once it grows.
 * A list whose stale postings outnumber its live ones is rewritten without them, so
 * garbage stays bounded and the cost is amortised over the writes that made it.
 * `live` (postings + side list - stale) stays the exact number of slots whose text contains
 * the trigram, which answers the total of a three-character query without a scan.
 */

import { searchFold } from './search-fold.js';

/**
 * A book's search key: one character holding the length of the folded title, then the
 * folded title, then the folded author. See `keyMatches`.
 */
type SearchKey = string;

/** The current key of a slot; undefined for a deleted book. */
type KeyOfSlot = (slot: number) => SearchKey | undefined;

function searchKey(title: string, author: string): SearchKey {
  const titleKey = searchFold(title);
  // Titles are validated to the schema's maxLength before they get here (folding at most triples
  // that); this only guards the encoding.
  if (titleKey.length > 0xffff) throw new RangeError('title too long to index');
  return String.fromCharCode(titleKey.length) + titleKey + searchFold(author);
}

/** Where the author starts in a key. */
function authorStart(key: SearchKey): number {
  return 1 + key.charCodeAt(0);
}

/** Whether the title or the author of `key` contains `needle`; a match may not span both. */
function keyMatches(key: SearchKey, needle: string): boolean {
  const titleEnd = authorStart(key);
  for (let at = key.indexOf(needle, 1); at !== -1; at = key.indexOf(needle, at + 1)) {
    if (at + needle.length <= titleEnd || at >= titleEnd) return true;
  }
  return false;
}

type GramKey = number | string;

/** Side lists are folded into the encoded bytes when longer than this plus 1/16 of the list. */
const SIDE_LIST_BASE = 32;
/** Lists this short are never rewritten for staleness: it would not repay the work. */
const SMALL_LIST = 16;
/** Intersect with another list only when it is at most this many times the driving list. */
const FILTER_RATIO = 16;
const MAX_FILTERS = 3;

class PostingList {
  bytes: Uint8Array = new Uint8Array(8);
  byteLength = 0;
  /** Postings in `bytes`. */
  count = 0;
  /** Last slot in `bytes`; -1 when empty. */
  last = -1;
  /** Sorted slots added out of order; may repeat a slot that is in `bytes` as a stale posting. */
  side: number[] = [];
  stale = 0;

  constructor(readonly gram: string) {}

  get size(): number {
    return this.count + this.side.length;
  }

  get live(): number {
    return this.count + this.side.length - this.stale;
  }

  add(slot: number): void {
    const sideLast = this.side.length === 0 ? -1 : (this.side[this.side.length - 1] ?? -1);
    if (slot > this.last && slot > sideLast) {
      this.append(slot);
      return;
    }
    this.side.splice(upperBound(this.side, slot), 0, slot);
    if (this.side.length > SIDE_LIST_BASE + (this.count >> 4)) this.rewrite(undefined);
  }

  /** Appends a slot larger than every slot in `bytes`. */
  append(slot: number): void {
    if (this.byteLength + 5 > this.bytes.length) {
      const grown = new Uint8Array(Math.max(16, Math.ceil(this.bytes.length * 1.5) + 5));
      grown.set(this.bytes.subarray(0, this.byteLength));
      this.bytes = grown;
    }
    let delta = slot - this.last;
    while (delta >= 0x80) {
      this.bytes[this.byteLength++] = (delta & 0x7f) | 0x80;
      delta >>>= 7;
    }
    this.bytes[this.byteLength++] = delta;
    this.last = slot;
    this.count += 1;
  }

  markStale(keyOf: KeyOfSlot): void {
    this.stale += 1;
    if (this.stale > SMALL_LIST && this.stale * 2 > this.size) this.rewrite(keyOf);
  }

  /**
   * Re-encodes the list from its merged, de-duplicated stream. Given `keyOf`, it also drops
   * every slot whose current key lacks the trigram, leaving no stale postings; without it,
   * it only folds the side list in, and the live count stays what it was.
   */
  private rewrite(keyOf: KeyOfSlot | undefined): void {
    const wasLive = this.live;
    const kept: number[] = [];
    const cursor = new PostingCursor(this);
    for (let slot = cursor.next(); slot !== -1; slot = cursor.next()) {
      const key = keyOf?.(slot);
      if (keyOf === undefined || (key !== undefined && keyMatches(key, this.gram))) kept.push(slot);
    }
    this.bytes = new Uint8Array(Math.max(8, kept.length + (kept.length >> 2)));
    this.byteLength = 0;
    this.count = 0;
    this.last = -1;
    this.side = [];
    for (const slot of kept) this.append(slot);
    this.stale = keyOf === undefined ? kept.length - wasLive : 0;
  }
}

const NOT_STARTED = -2;

/** Walks a posting list in ascending order, merging the side list and skipping repeats. */
class PostingCursor {
  private offset = 0;
  private value = -1;
  private sideIndex = 0;
  private pending: number;
  /** The slot last returned; -1 at the end. */
  private current = NOT_STARTED;

  constructor(private readonly list: PostingList) {
    this.pending = this.decode();
  }

  private decode(): number {
    const { bytes, byteLength } = this.list;
    if (this.offset >= byteLength) return -1;
    let delta = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[this.offset++] ?? 0;
      // Slots are below 2^31, so the bits fit a 32-bit integer.
      delta |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    this.value += delta;
    return this.value;
  }

  /** The next slot, or -1 at the end. */
  next(): number {
    for (;;) {
      const side = this.list.side[this.sideIndex] ?? -1;
      let slot: number;
      if (this.pending !== -1 && (side === -1 || this.pending <= side)) {
        slot = this.pending;
        this.pending = this.decode();
      } else if (side !== -1) {
        slot = side;
        this.sideIndex += 1;
      } else {
        this.current = -1;
        return -1;
      }
      if (slot !== this.current) {
        this.current = slot;
        return slot;
      }
    }
  }

  /** The first slot >= target, or -1 at the end. */
  seek(target: number): number {
    let slot = this.current === NOT_STARTED ? this.next() : this.current;
    while (slot !== -1 && slot < target) slot = this.next();
    return slot;
  }
}

/** Index of the first element of an ascending array greater than `value`. */
function upperBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((sorted[mid] ?? 0) <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Trigram keys: three UTF-16 code units packed into a small integer when each is below
 * 1024 (Latin, Greek, Cyrillic ...), which keeps Map lookups on integers; other text uses
 * the three characters as a string key.
 */
function gramKey(text: string, at: number): GramKey {
  const a = text.charCodeAt(at);
  const b = text.charCodeAt(at + 1);
  const c = text.charCodeAt(at + 2);
  if (a < 1024 && b < 1024 && c < 1024) return (a << 20) | (b << 10) | c;
  return text.slice(at, at + 3);
}

/** Adds the distinct trigrams of `text[start, end)` to `into`, each with where it first occurs. */
function addGrams(text: string, start: number, end: number, into: Map<GramKey, number>): void {
  for (let at = start; at + 3 <= end; at++) {
    const key = gramKey(text, at);
    if (!into.has(key)) into.set(key, at);
  }
}

/** Distinct trigrams of a book's key (of its title and of its author, never across). */
function gramsOf(key: SearchKey): Map<GramKey, number> {
  const grams = new Map<GramKey, number>();
  const titleEnd = authorStart(key);
  addGrams(key, 1, titleEnd, grams);
  addGrams(key, titleEnd, key.length, grams);
  return grams;
}

interface SlotPage {
  /** Slots of the matches on the requested page, ascending (insertion order). */
  slots: number[];
  /** All matches. */
  total: number;
}

/** Queries shorter than this have no trigram and are answered by a scan of the keys. */
const MIN_INDEXED_QUERY = 3;

export class SearchIndex {
  private keys: (SearchKey | undefined)[] = [];
  private lists = new Map<GramKey, PostingList>();
  /** The highest slot `add` has indexed; -1 when none. */
  private highestSlot = -1;
  private readonly keyOf: KeyOfSlot = (slot) => this.keys[slot];

  /** Indexes a new book; slots must be added in ascending order to stay appends. */
  add(slot: number, title: string, author: string): void {
    const key = searchKey(title, author);
    this.keys[slot] = key;
    if (slot <= this.highestSlot) {
      for (const [gram, at] of gramsOf(key)) this.listFor(gram, key, at).add(slot);
      return;
    }
    // The usual case (every create): a slot above all others is an append to every list of
    // its trigrams, and a trigram seen earlier in this key already ends its list with this
    // slot, which deduplicates without gramsOf's Map: that Map, its growth and the entries
    // of its iteration would be garbage on every create.
    this.highestSlot = slot;
    const titleEnd = authorStart(key);
    this.appendGrams(slot, key, 1, titleEnd);
    this.appendGrams(slot, key, titleEnd, key.length);
  }

  /** Re-indexes a book whose title or author may have changed. */
  update(slot: number, title: string, author: string): void {
    const before = this.keys[slot];
    const after = searchKey(title, author);
    if (before === after) return;
    this.keys[slot] = after;
    const old = before === undefined ? new Map<GramKey, number>() : gramsOf(before);
    const next = gramsOf(after);
    for (const gram of old.keys()) if (!next.has(gram)) this.lists.get(gram)?.markStale(this.keyOf);
    for (const [gram, at] of next) if (!old.has(gram)) this.listFor(gram, after, at).add(slot);
  }

  /** Forgets a deleted book. */
  remove(slot: number): void {
    const before = this.keys[slot];
    if (before === undefined) return;
    this.keys[slot] = undefined;
    for (const gram of gramsOf(before).keys()) this.lists.get(gram)?.markStale(this.keyOf);
  }

  /** Drops everything, e.g. before re-adding all books when the store renumbers its slots. */
  clear(): void {
    this.keys = [];
    this.lists = new Map();
    this.highestSlot = -1;
  }

  /**
   * The page of slots whose title or author contains `query` once both are folded, in
   * insertion order, and the number of all matches.
   */
  search(query: string, skip: number, limit: number): SlotPage {
    const needle = searchFold(query);
    if (needle.length < MIN_INDEXED_QUERY) return this.scan(needle, skip, limit);
    const lists: PostingList[] = [];
    const grams = new Map<GramKey, number>();
    addGrams(needle, 0, needle.length, grams);
    for (const gram of grams.keys()) {
      const list = this.lists.get(gram);
      if (list === undefined || list.live === 0) return { slots: [], total: 0 };
      lists.push(list);
    }
    lists.sort((a, b) => a.size - b.size);
    const [driver, ...others] = lists;
    if (driver === undefined) return { slots: [], total: 0 };

    // A three-character needle is one trigram: its live count is the exact total, and only
    // the requested page needs to be walked.
    const exactTotal = needle.length === MIN_INDEXED_QUERY ? driver.live : undefined;
    const stopAt = exactTotal === undefined ? Number.POSITIVE_INFINITY : skip + limit;
    const filters = others
      .filter((list) => list.size <= driver.size * FILTER_RATIO)
      .slice(0, MAX_FILTERS)
      .map((list) => new PostingCursor(list));

    const slots: number[] = [];
    let total = 0;
    const cursor = new PostingCursor(driver);
    candidates: for (let slot = cursor.next(); slot !== -1 && total < stopAt; slot = cursor.next()) {
      for (const filter of filters) {
        const found = filter.seek(slot);
        if (found === -1) break candidates;
        if (found !== slot) continue candidates;
      }
      const key = this.keys[slot];
      if (key === undefined || !keyMatches(key, needle)) continue;
      if (total >= skip && slots.length < limit) slots.push(slot);
      total += 1;
    }
    return { slots, total: exactTotal ?? total };
  }

  /** Every book checked in turn: for needles too short to have a trigram. */
  private scan(needle: string, skip: number, limit: number): SlotPage {
    const slots: number[] = [];
    let total = 0;
    const { keys } = this;
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot];
      if (key === undefined || !keyMatches(key, needle)) continue;
      if (total >= skip && slots.length < limit) slots.push(slot);
      total += 1;
    }
    return { slots, total };
  }

  /** Appends `slot`, above every slot indexed, to the list of each trigram of `key[start, end)`. */
  private appendGrams(slot: number, key: SearchKey, start: number, end: number): void {
    for (let at = start; at + 3 <= end; at++) {
      const list = this.listFor(gramKey(key, at), key, at);
      if (list.last !== slot) list.append(slot);
    }
  }

  private listFor(gram: GramKey, key: SearchKey, at: number): PostingList {
    let list = this.lists.get(gram);
    if (list === undefined) {
      list = new PostingList(key.slice(at, at + 3));
      this.lists.set(gram, list);
    }
    return list;
  }
}
