/**
 * A trigram index over the lower-cased title and author of every book, so a search over
 * a large collection looks only at books that contain every trigram of the query instead
 * of scanning them all. It gives exactly the answer of the naive scan
 * (`title.includes(q) || author.includes(q)` on lower-cased text, in insertion order)
 * because every candidate is checked against the book's current text.
 *
 * Books are named by their slot: the store's insertion-ordered position, so ascending slots
 * are insertion order. A posting list holds the slots whose text contains one trigram,
 * delta-encoded as varints (about 1-2 bytes a posting instead of 8 for a JS array), which
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

/** The lower-cased text of a book, as the store keeps it. */
export interface IndexedText {
  readonly titleKey: string;
  readonly authorKey: string;
}

/** The store's current text of a slot; undefined for a deleted book. */
export type TextOfSlot = (slot: number) => IndexedText | undefined;

export interface SlotPage {
  /** Slots of the matches on the requested page, ascending (insertion order). */
  slots: number[];
  /** All matches. */
  total: number;
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

  markStale(textOf: TextOfSlot): void {
    this.stale += 1;
    if (this.stale > SMALL_LIST && this.stale * 2 > this.size) this.rewrite(textOf);
  }

  /**
   * Re-encodes the list from its merged, de-duplicated stream. Given `textOf`, it also drops
   * every slot whose current text lacks the trigram, leaving no stale postings; without it,
   * it only folds the side list in, and the live count stays what it was.
   */
  private rewrite(textOf: TextOfSlot | undefined): void {
    const wasLive = this.live;
    const kept: number[] = [];
    const cursor = new PostingCursor(this);
    for (let slot = cursor.next(); slot !== -1; slot = cursor.next()) {
      if (textOf === undefined || containsGram(textOf(slot), this.gram)) kept.push(slot);
    }
    this.bytes = new Uint8Array(Math.max(8, kept.length + (kept.length >> 2)));
    this.byteLength = 0;
    this.count = 0;
    this.last = -1;
    this.side = [];
    for (const slot of kept) this.append(slot);
    this.stale = textOf === undefined ? kept.length - wasLive : 0;
  }
}

function containsGram(text: IndexedText | undefined, gram: string): boolean {
  return text !== undefined && (text.titleKey.includes(gram) || text.authorKey.includes(gram));
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

/**
 * Adds the distinct trigrams of `text` to `into`, each with where it first occurs:
 * `tag + position`, so one map can hold the trigrams of the title and of the author.
 */
function addGrams(text: string, into: Map<GramKey, number>, tag: number): void {
  for (let at = 0; at + 3 <= text.length; at++) {
    const key = gramKey(text, at);
    if (!into.has(key)) into.set(key, tag + at);
  }
}

/** Tags author positions in a trigram map; titles are at most a few hundred characters. */
const AUTHOR_TAG = 1 << 20;

function gramAt(text: IndexedText, tagged: number): string {
  return tagged >= AUTHOR_TAG
    ? text.authorKey.slice(tagged - AUTHOR_TAG, tagged - AUTHOR_TAG + 3)
    : text.titleKey.slice(tagged, tagged + 3);
}

export const MIN_INDEXED_QUERY = 3;

export class SearchIndex {
  private lists = new Map<GramKey, PostingList>();

  /** @param textOf the store's current text of a slot, used to check candidates. */
  constructor(private readonly textOf: TextOfSlot) {}

  /** Indexes a new book; slots must be added in ascending order to stay appends. */
  add(slot: number, text: IndexedText): void {
    for (const [key, tagged] of this.gramsOf(text)) this.listFor(key, text, tagged).add(slot);
  }

  /** Re-indexes a book whose text changed from `before` to `after`. Call after the store holds `after`. */
  update(slot: number, before: IndexedText, after: IndexedText): void {
    if (before.titleKey === after.titleKey && before.authorKey === after.authorKey) return;
    const old = this.gramsOf(before);
    const next = this.gramsOf(after);
    for (const key of old.keys()) if (!next.has(key)) this.lists.get(key)?.markStale(this.textOf);
    for (const [key, tagged] of next) if (!old.has(key)) this.listFor(key, after, tagged).add(slot);
  }

  /** Forgets a deleted book. Call after the store has removed it. */
  remove(text: IndexedText): void {
    for (const key of this.gramsOf(text).keys()) this.lists.get(key)?.markStale(this.textOf);
  }

  /** Drops everything, e.g. before re-adding all books when the store renumbers its slots. */
  clear(): void {
    this.lists = new Map();
  }

  /**
   * The page of slots whose text contains `needle` (already lower-cased), and the number of
   * all matches; undefined when the needle is shorter than a trigram and a scan must answer.
   */
  search(needle: string, skip: number, limit: number): SlotPage | undefined {
    if (needle.length < MIN_INDEXED_QUERY) return undefined;
    const lists: PostingList[] = [];
    const grams = new Map<GramKey, number>();
    addGrams(needle, grams, 0);
    for (const key of grams.keys()) {
      const list = this.lists.get(key);
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
      const text = this.textOf(slot);
      if (text === undefined || !(text.titleKey.includes(needle) || text.authorKey.includes(needle))) continue;
      if (total >= skip && slots.length < limit) slots.push(slot);
      total += 1;
    }
    return { slots, total: exactTotal ?? total };
  }

  /** Distinct trigrams of a book's text, each with its tagged position (see `addGrams`). */
  private gramsOf(text: IndexedText): Map<GramKey, number> {
    const grams = new Map<GramKey, number>();
    addGrams(text.titleKey, grams, 0);
    addGrams(text.authorKey, grams, AUTHOR_TAG);
    return grams;
  }

  private listFor(key: GramKey, text: IndexedText, tagged: number): PostingList {
    let list = this.lists.get(key);
    if (list === undefined) {
      list = new PostingList(gramAt(text, tagged));
      this.lists.set(key, list);
    }
    return list;
  }
}
