// An open-addressing hash table from pairs of int32 keys to dense indices
// 0, 1, 2, ... in the order the pairs were first seen. The event folds use it
// to number (watcher, target) pairs and watchers without a Map per event.

const EMPTY = -1;

export class PairTable {
  private keysA = new Int32Array(0);
  private keysB = new Int32Array(0);
  private values = new Int32Array(0);
  private mask = 0;
  /** Distinct pairs seen since the last reset. */
  size = 0;

  /** Empties the table, sized for up to `count` distinct pairs at a load of at most one half. */
  reset(count: number): void {
    let capacity = 16;
    while (capacity < count * 2) capacity *= 2;
    if (this.values.length !== capacity) {
      this.keysA = new Int32Array(capacity);
      this.keysB = new Int32Array(capacity);
      this.values = new Int32Array(capacity);
    }
    this.values.fill(EMPTY);
    this.mask = capacity - 1;
    this.size = 0;
  }

  /** The index of (a, b): the one it was given when first seen, or the next free one now. */
  indexOf(a: number, b: number): number {
    const mask = this.mask;
    let at = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ (b >>> 15), 0x85ebca77)) >>> 0;
    at = (at ^ (at >>> 16)) & mask;
    const values = this.values;
    for (;;) {
      const value = values[at];
      if (value === EMPTY) {
        this.keysA[at] = a;
        this.keysB[at] = b;
        values[at] = this.size;
        return this.size++;
      }
      if (this.keysA[at] === a && this.keysB[at] === b) return value;
      at = (at + 1) & mask;
    }
  }
}
