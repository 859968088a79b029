// The growing id output the TypeScript searches of StaticQuadTree write into.

/** Growing id output of one search. */
export class Found {
  ids = new Int32Array(64);
  count = 0;

  push(id: number): void {
    if (this.count === this.ids.length) {
      const grown = new Int32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.count++] = id;
  }

  /** Appends ids[lo, hi). */
  pushRange(ids: Int32Array, lo: number, hi: number): void {
    while (this.count + hi - lo > this.ids.length) {
      const grown = new Int32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids.set(ids.subarray(lo, hi), this.count);
    this.count += hi - lo;
  }

  take(): Int32Array {
    const out = this.ids.slice(0, this.count);
    this.count = 0;
    return out;
  }
}
