// Binary min-heap of (key: f64, value: i32) pairs in linear memory, the
// priority queue of Dijkstra and A*. It allows duplicates: a search pushes a
// vertex again when its key improves and skips stale entries on pop, which is
// cheaper than a decrease-key index.

@unmanaged
export class MinHeap {
  keys: usize = 0;
  values: usize = 0;
  size: i32 = 0;
  capacity: i32 = 0;

  constructor(capacity: i32) {
    this.reserve(max(capacity, 16));
  }

  @inline get empty(): bool {
    return this.size == 0;
  }

  /** Key of the smallest entry; only valid when not empty. */
  @inline get topKey(): f64 {
    return load<f64>(this.keys);
  }

  /** Value of the smallest entry; only valid when not empty. */
  @inline get topValue(): i32 {
    return load<i32>(this.values);
  }

  clear(): void {
    this.size = 0;
  }

  push(key: f64, value: i32): void {
    if (this.size == this.capacity) this.reserve(this.capacity << 1);
    let i = this.size++;
    const keys = this.keys;
    const values = this.values;
    // Sift up: move parents down until the new key's place is found.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const parentKey = load<f64>(keys + (<usize>parent << 3));
      if (parentKey <= key) break;
      store<f64>(keys + (<usize>i << 3), parentKey);
      store<i32>(values + (<usize>i << 2), load<i32>(values + (<usize>parent << 2)));
      i = parent;
    }
    store<f64>(keys + (<usize>i << 3), key);
    store<i32>(values + (<usize>i << 2), value);
  }

  /** Removes the smallest entry and returns its value; the heap must not be empty. */
  pop(): i32 {
    const keys = this.keys;
    const values = this.values;
    const top = load<i32>(values);
    const n = --this.size;
    if (n == 0) return top;
    const key = load<f64>(keys + (<usize>n << 3));
    const value = load<i32>(values + (<usize>n << 2));
    let i = 0;
    // Sift down: move the smaller child up until the last entry's place is found.
    while (true) {
      let child = (i << 1) + 1;
      if (child >= n) break;
      let childKey = load<f64>(keys + (<usize>child << 3));
      if (child + 1 < n) {
        const rightKey = load<f64>(keys + (<usize>(child + 1) << 3));
        if (rightKey < childKey) {
          child++;
          childKey = rightKey;
        }
      }
      if (key <= childKey) break;
      store<f64>(keys + (<usize>i << 3), childKey);
      store<i32>(values + (<usize>i << 2), load<i32>(values + (<usize>child << 2)));
      i = child;
    }
    store<f64>(keys + (<usize>i << 3), key);
    store<i32>(values + (<usize>i << 2), value);
    return top;
  }

  /** Frees the entry arrays and the heap itself. */
  dispose(): void {
    heap.free(this.keys);
    heap.free(this.values);
    heap.free(changetype<usize>(this));
  }

  private reserve(capacity: i32): void {
    this.keys = this.keys == 0 ? heap.alloc(<usize>capacity << 3) : heap.realloc(this.keys, <usize>capacity << 3);
    this.values = this.values == 0 ? heap.alloc(<usize>capacity << 2) : heap.realloc(this.values, <usize>capacity << 2);
    this.capacity = capacity;
  }
}
