// Indexed 4-ary min-heap of (key, value) pairs over typed arrays: the open
// list of the reference grid searches, the same design as
// assembly/gridmap/indexed-heap.ts. Each value is queued at most once and its
// position is tracked, so a better key moves its entry up (decrease-key)
// instead of queueing a duplicate.
export class IndexedHeap {
  private keys = new Float64Array(1024);
  private values = new Int32Array(1024);
  /** Per possible value: the entry's index while it is queued (stale otherwise). */
  private readonly positions: Int32Array;
  size = 0;

  /** A heap for values 0 .. slots - 1. */
  constructor(slots: number) {
    this.positions = new Int32Array(Math.max(slots, 1));
  }

  get empty(): boolean {
    return this.size === 0;
  }

  /** Key of the smallest entry; only valid when not empty. */
  get topKey(): number {
    return this.keys[0];
  }

  /** Value of the smallest entry; only valid when not empty. */
  get topValue(): number {
    return this.values[0];
  }

  clear(): void {
    this.size = 0;
  }

  /** Queues a value that is not queued. */
  push(key: number, value: number): void {
    if (this.size === this.keys.length) this.grow();
    this.siftUp(this.size++, key, value);
  }

  /** Lowers the key of a queued value; `key` must not exceed its current key. */
  decrease(key: number, value: number): void {
    this.siftUp(this.positions[value], key, value);
  }

  /** Removes the smallest entry and returns its value; the heap must not be empty. */
  pop(): number {
    const { keys, values, positions } = this;
    const top = values[0];
    const n = --this.size;
    if (n === 0) return top;
    const key = keys[n];
    const value = values[n];
    let i = 0;
    for (;;) {
      const first = 4 * i + 1;
      if (first >= n) break;
      let child = first;
      const last = Math.min(first + 4, n);
      for (let c = first + 1; c < last; c++) if (keys[c] < keys[child]) child = c;
      if (key <= keys[child]) break;
      keys[i] = keys[child];
      values[i] = values[child];
      positions[values[i]] = i;
      i = child;
    }
    keys[i] = key;
    values[i] = value;
    positions[value] = i;
    return top;
  }

  /** Places (key, value) at entry i or above: parents with larger keys move down. */
  private siftUp(i: number, key: number, value: number): void {
    const { keys, values, positions } = this;
    while (i > 0) {
      const parent = (i - 1) >> 2;
      if (keys[parent] <= key) break;
      keys[i] = keys[parent];
      values[i] = values[parent];
      positions[values[i]] = i;
      i = parent;
    }
    keys[i] = key;
    values[i] = value;
    positions[value] = i;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    const values = new Int32Array(this.values.length * 2);
    keys.set(this.keys);
    values.set(this.values);
    this.keys = keys;
    this.values = values;
  }
}
