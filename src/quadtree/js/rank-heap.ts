// Binary min-heap of (key, tag) pairs ordered by key, then by tag: the queue
// of the QuadTree's best-first nearest search, the same design as
// assembly/quadtree/rank-heap.ts. The tag breaks ties, which is what makes the order
// of equally distant results (by id) part of the answer.
export class RankHeap {
  private keys = new Float64Array(64);
  private tags = new Int32Array(64);
  size = 0;

  /** Key of the smallest entry; only valid when not empty. */
  get topKey(): number {
    return this.keys[0];
  }

  /** Tag of the smallest entry; only valid when not empty. */
  get topTag(): number {
    return this.tags[0];
  }

  clear(): void {
    this.size = 0;
  }

  push(key: number, tag: number): void {
    if (this.size === this.keys.length) this.grow();
    const keys = this.keys, tags = this.tags;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] < key || (keys[parent] === key && tags[parent] <= tag)) break;
      keys[i] = keys[parent];
      tags[i] = tags[parent];
      i = parent;
    }
    keys[i] = key;
    tags[i] = tag;
  }

  /** Removes the smallest entry; the heap must not be empty. */
  pop(): void {
    const keys = this.keys, tags = this.tags;
    const n = --this.size;
    if (n === 0) return;
    const key = keys[n], tag = tags[n];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      const right = child + 1;
      if (right < n && (keys[right] < keys[child] || (keys[right] === keys[child] && tags[right] < tags[child]))) child = right;
      if (key < keys[child] || (key === keys[child] && tag <= tags[child])) break;
      keys[i] = keys[child];
      tags[i] = tags[child];
      i = child;
    }
    keys[i] = key;
    tags[i] = tag;
  }

  /**
   * Offers id at squared distance d <= bound to the k best this heap keeps,
   * keyed (-distance, -id) so that the worst is on top; returns the new
   * bound: the worst one's distance once k are held, else `bound`.
   */
  offer(d: number, id: number, k: number, bound: number): number {
    if (this.size < k) {
      this.push(-d, -id);
      return this.size === k ? -this.topKey : bound;
    }
    if (d === bound && id > -this.topTag) return bound;
    // Nearer than the worst of the k best, or as near with a smaller id.
    this.pop();
    this.push(-d, -id);
    return -this.topKey;
  }

  /** The ids of the k best, nearest first (they come off the heap worst first), emptying it. */
  drainNearestFirst(): Int32Array {
    const out = new Int32Array(this.size);
    for (let i = out.length - 1; i >= 0; i--) {
      out[i] = -this.topTag;
      this.pop();
    }
    return out;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    const tags = new Int32Array(this.tags.length * 2);
    keys.set(this.keys);
    tags.set(this.tags);
    this.keys = keys;
    this.tags = tags;
  }
}
