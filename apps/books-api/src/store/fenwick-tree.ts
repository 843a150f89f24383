/**
 * A Fenwick (binary indexed) tree of small non-negative counts that grows at the end.
 * The store keeps one count per slot (1 = a live book, 0 = a tombstone), so
 * "which slot holds the k-th live book" is answered in O(log n).
 */
export class FenwickTree {
  /** 1-based: tree[i] is the sum of the counts in (i - lowbit(i), i]. tree[0] is unused. */
  private readonly tree: number[] = [0];

  get size(): number {
    return this.tree.length - 1;
  }

  /** Appends a slot with the given count, in O(log n). */
  push(count: number): void {
    const index = this.tree.length;
    const lowbit = index & -index;
    this.tree.push(count + this.prefixSum(index - 1) - this.prefixSum(index - lowbit));
  }

  /** Adds `delta` to the count of slot `slot` (0-based). */
  add(slot: number, delta: number): void {
    for (let i = slot + 1; i < this.tree.length; i += i & -i) this.tree[i]! += delta;
  }

  /** Sum of the counts of slots 0 .. count-1. */
  prefixSum(count: number): number {
    let sum = 0;
    for (let i = count; i > 0; i -= i & -i) sum += this.tree[i]!;
    return sum;
  }

  /**
   * The 0-based slot holding the k-th unit (k is 0-based), i.e. the smallest slot s with
   * prefixSum(s + 1) > k; -1 when the total is not larger than k.
   */
  findKth(k: number): number {
    const n = this.size;
    let position = 0;
    let remaining = k;
    let step = 1;
    while (step * 2 <= n) step *= 2;
    for (; step > 0; step >>= 1) {
      const next = position + step;
      if (next <= n && this.tree[next]! <= remaining) {
        position = next;
        remaining -= this.tree[next]!;
      }
    }
    return position < n ? position : -1;
  }
}
