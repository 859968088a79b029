// Binary min-heap of (key, value) pairs over typed arrays: the priority queue
// of the reference Dijkstra and A*, the same design as assembly/graph/minheap.ts
// (duplicates allowed; searches skip stale entries on pop).
export class MinHeap {
  private keys: Float64Array;
  private values: Int32Array;
  size = 0;

  constructor(capacity = 16) {
    this.keys = new Float64Array(Math.max(capacity, 16));
    this.values = new Int32Array(Math.max(capacity, 16));
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

  push(key: number, value: number): void {
    if (this.size === this.keys.length) this.grow();
    const keys = this.keys;
    const values = this.values;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] <= key) break;
      keys[i] = keys[parent];
      values[i] = values[parent];
      i = parent;
    }
    keys[i] = key;
    values[i] = value;
  }

  /** Removes the smallest entry and returns its value; the heap must not be empty. */
  pop(): number {
    const keys = this.keys;
    const values = this.values;
    const top = values[0];
    const n = --this.size;
    if (n === 0) return top;
    const key = keys[n];
    const value = values[n];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && keys[child + 1] < keys[child]) child++;
      if (key <= keys[child]) break;
      keys[i] = keys[child];
      values[i] = values[child];
      i = child;
    }
    keys[i] = key;
    values[i] = value;
    return top;
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
