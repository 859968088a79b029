// An open-addressing hash table from pairs of int32 keys to dense indices
// 0, 1, 2, ... in the order the pairs were first seen. The event folds use it
// to number (watcher, target) pairs and watchers without a Map per event. A
// bucket is three adjacent int32s (value, a, b), so a probe reads one cache
// line; the table starts small and doubles at half load, so it costs what
// the distinct pairs need, not what the events number.

const EMPTY = -1;
const MIN_BUCKETS = 1024;

/** Numbers pairs of int32 keys densely, in the order first seen. */
export class PairTable {
  private buckets = new Int32Array(MIN_BUCKETS * 3).fill(EMPTY);
  private mask = MIN_BUCKETS - 1;
  /** Distinct pairs seen since the last reset. */
  size = 0;

  /** Empties the table. */
  reset(): void {
    if (this.size > 0) this.buckets.fill(EMPTY);
    this.size = 0;
  }

  /** The index of (a, b): the one it was given when first seen, or the next free one now. */
  indexOf(a: number, b: number): number {
    const found = this.find(a, b);
    if (found !== EMPTY) return found;
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    this.place(a, b, this.size);
    return this.size++;
  }

  /** The index of (a, b), or -1 when it has not been seen since the last reset. */
  find(a: number, b: number): number {
    const mask = this.mask;
    const buckets = this.buckets;
    for (let at = bucketOf(a, b, mask); ; at = (at + 1) & mask) {
      const i = at * 3;
      const value = buckets[i];
      if (value === EMPTY) return EMPTY;
      if (buckets[i + 1] === a && buckets[i + 2] === b) return value;
    }
  }

  private place(a: number, b: number, value: number): void {
    const mask = this.mask;
    const buckets = this.buckets;
    let at = bucketOf(a, b, mask);
    while (buckets[at * 3] !== EMPTY) at = (at + 1) & mask;
    buckets[at * 3] = value;
    buckets[at * 3 + 1] = a;
    buckets[at * 3 + 2] = b;
  }

  private grow(): void {
    const old = this.buckets;
    this.buckets = new Int32Array(old.length * 2).fill(EMPTY);
    this.mask = (this.mask + 1) * 2 - 1;
    for (let i = 0; i < old.length; i += 3) if (old[i] !== EMPTY) this.place(old[i + 1], old[i + 2], old[i]);
  }
}

function bucketOf(a: number, b: number, mask: number): number {
  const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ (b >>> 15), 0x85ebca77);
  return (h ^ (h >>> 16)) & mask;
}
