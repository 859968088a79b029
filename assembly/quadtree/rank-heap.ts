// Binary min-heap of (key: f64, tag: i32) entries ordered by key, then by
// tag: the queue of the QuadTree's best-first nearest search. The tag breaks
// ties, which makes the order of equally distant results (by id) part of the
// answer. Entries are 16 bytes, key and tag side by side.

const ENTRY: usize = 16;
const TAG: usize = 8;

@inline function before(key: f64, tag: i32, otherKey: f64, otherTag: i32): bool {
  return key < otherKey || (key == otherKey && tag < otherTag);
}

@inline function place(entries: usize, i: i32, key: f64, tag: i32): void {
  const e = entries + <usize>i * ENTRY;
  store<f64>(e, key);
  store<i32>(e, tag, TAG);
}

@unmanaged
export class RankHeap {
  entries: usize = 0;
  size: i32 = 0;
  capacity: i32 = 0;

  /** Key of the smallest entry; only valid when not empty. */
  @inline get topKey(): f64 {
    return load<f64>(this.entries);
  }

  /** Tag of the smallest entry; only valid when not empty. */
  @inline get topTag(): i32 {
    return load<i32>(this.entries, TAG);
  }

  push(key: f64, tag: i32): void {
    if (this.size == this.capacity) {
      this.capacity = max(64, this.capacity << 1);
      this.entries = this.entries == 0 ? heap.alloc(<usize>this.capacity * ENTRY) : heap.realloc(this.entries, <usize>this.capacity * ENTRY);
    }
    const entries = this.entries;
    let i = this.size++;
    // Sift up: move parents down until the new entry's place is found.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = entries + <usize>parent * ENTRY;
      const parentKey = load<f64>(p), parentTag = load<i32>(p, TAG);
      if (!before(key, tag, parentKey, parentTag)) break;
      place(entries, i, parentKey, parentTag);
      i = parent;
    }
    place(entries, i, key, tag);
  }

  /** Removes the smallest entry; the heap must not be empty. */
  pop(): void {
    const entries = this.entries;
    const n = --this.size;
    if (n == 0) return;
    const last = entries + <usize>n * ENTRY;
    const key = load<f64>(last), tag = load<i32>(last, TAG);
    let i = 0;
    // Sift down: move the smaller child up until the last entry's place is found.
    while (true) {
      let child = (i << 1) + 1;
      if (child >= n) break;
      let c = entries + <usize>child * ENTRY;
      let childKey = load<f64>(c), childTag = load<i32>(c, TAG);
      if (child + 1 < n) {
        const r = c + ENTRY;
        const rightKey = load<f64>(r), rightTag = load<i32>(r, TAG);
        if (before(rightKey, rightTag, childKey, childTag)) {
          child++;
          c = r;
          childKey = rightKey;
          childTag = rightTag;
        }
      }
      if (!before(childKey, childTag, key, tag)) break;
      place(entries, i, childKey, childTag);
      i = child;
    }
    place(entries, i, key, tag);
  }

  /**
   * Offers id at squared distance d <= bound to the k best this heap keeps,
   * keyed (-distance, -id) so that the worst is on top; returns the new
   * bound: the worst one's distance once k are held, else `bound`.
   */
  @inline offer(d: f64, id: i32, k: i32, bound: f64): f64 {
    if (this.size < k) {
      this.push(-d, -id);
      return this.size == k ? -this.topKey : bound;
    }
    if (d == bound && id > -this.topTag) return bound;
    // Nearer than the worst of the k best, or as near with a smaller id.
    this.pop();
    this.push(-d, -id);
    return -this.topKey;
  }

  /** Frees the entries (the heap object itself is the caller's). */
  free(): void {
    if (this.entries != 0) heap.free(this.entries);
    this.entries = 0;
    this.capacity = 0;
    this.size = 0;
  }
}
