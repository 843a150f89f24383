/** Shards of a ShardedMap: one per value of two hexadecimal digits. */
const SHARDS = 256;

/** The value of a hexadecimal digit (0-9, a-f, A-F); something in 0-15 or beyond for other characters. */
function hexDigit(code: number): number {
  return (code & 15) + 9 * (code >> 6);
}

/**
 * A Map from string keys split into 256 Maps by the first two characters of the key.
 *
 * A V8 Map doubles its table when it fills and rehashes every entry into the new one, all at
 * once, inside the `set` that crossed the line. The memory store's map of book ids grows with
 * every create, so one create in a while paid for the whole collection, every request waiting
 * behind it, and that pause grows with the collection. Split, each shard doubles at 1/256 of
 * that size, so the largest rehash stays short even at a million books.
 *
 * The keys are random UUIDs, whose first two hexadecimal digits pick the shard; any other
 * string works too, only less evenly spread.
 */
export class ShardedMap<V> {
  private readonly shards: Map<string, V>[] = Array.from({ length: SHARDS }, () => new Map<string, V>());
  private size_ = 0;

  get size(): number {
    return this.size_;
  }

  get(key: string): V | undefined {
    return this.shardOf(key).get(key);
  }

  has(key: string): boolean {
    return this.shardOf(key).has(key);
  }

  set(key: string, value: V): void {
    const shard = this.shardOf(key);
    const before = shard.size;
    shard.set(key, value);
    this.size_ += shard.size - before;
  }

  delete(key: string): boolean {
    if (!this.shardOf(key).delete(key)) return false;
    this.size_ -= 1;
    return true;
  }

  private shardOf(key: string): Map<string, V> {
    // The first two characters as hexadecimal digits: an even spread over the 256 shards for
    // UUIDs. Other characters land somewhere too, and charCodeAt past the end is NaN, which
    // `&` reads as 0.
    return this.shards[((hexDigit(key.charCodeAt(0)) << 4) + hexDigit(key.charCodeAt(1))) & (SHARDS - 1)]!;
  }
}
