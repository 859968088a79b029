// Indexed 4-ary min-heap of (key: f64, value: i32) pairs in linear memory,
// the open list of the grid searches. Each value (a cell) is in the heap at
// most once and its position is tracked, so a better key for a queued cell
// moves the entry up (decrease-key) instead of queueing a duplicate: pops
// never meet stale entries and the heap stays as small as the open set.
// Four children per entry halve the depth of a binary heap, and their keys
// share a cache line, so a pop reads about half as many lines.

@unmanaged
export class IndexedHeap {
  keys: usize = 0;
  values: usize = 0;
  /** i32 per possible value: the entry's index while it is queued (stale otherwise). */
  positions: usize = 0;
  size: i32 = 0;
  capacity: i32 = 0;

  /** A heap for values 0 .. slots - 1. */
  constructor(slots: i32) {
    this.positions = heap.alloc(<usize>max(slots, 1) << 2);
    this.reserve(1024);
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

  /** Queues a value that is not queued. */
  push(key: f64, value: i32): void {
    if (this.size == this.capacity) this.reserve(this.capacity << 1);
    this.siftUp(this.size++, key, value);
  }

  /** Lowers the key of a queued value; `key` must not exceed its current key. */
  decrease(key: f64, value: i32): void {
    this.siftUp(load<i32>(this.positions + (<usize>value << 2)), key, value);
  }

  /** Removes the smallest entry and returns its value; the heap must not be empty. */
  pop(): i32 {
    const keys = this.keys;
    const values = this.values;
    const positions = this.positions;
    const top = load<i32>(values);
    const n = --this.size;
    if (n == 0) return top;
    const key = load<f64>(keys + (<usize>n << 3));
    const value = load<i32>(values + (<usize>n << 2));
    let i = 0;
    // Sift down: move the smallest child up until the last entry's place is found.
    while (true) {
      const first = (i << 2) + 1;
      if (first >= n) break;
      let child = first;
      let childKey = load<f64>(keys + (<usize>first << 3));
      const last = min(first + 4, n);
      for (let c = first + 1; c < last; c++) {
        const k = load<f64>(keys + (<usize>c << 3));
        if (k < childKey) {
          child = c;
          childKey = k;
        }
      }
      if (key <= childKey) break;
      const moved = load<i32>(values + (<usize>child << 2));
      store<f64>(keys + (<usize>i << 3), childKey);
      store<i32>(values + (<usize>i << 2), moved);
      store<i32>(positions + (<usize>moved << 2), i);
      i = child;
    }
    store<f64>(keys + (<usize>i << 3), key);
    store<i32>(values + (<usize>i << 2), value);
    store<i32>(positions + (<usize>value << 2), i);
    return top;
  }

  /** Frees the arrays and the heap itself. */
  dispose(): void {
    heap.free(this.keys);
    heap.free(this.values);
    heap.free(this.positions);
    heap.free(changetype<usize>(this));
  }

  /** Places (key, value) at entry i or above: parents with larger keys move down. */
  @inline private siftUp(i: i32, key: f64, value: i32): void {
    const keys = this.keys;
    const values = this.values;
    const positions = this.positions;
    while (i > 0) {
      const parent = (i - 1) >> 2;
      const parentKey = load<f64>(keys + (<usize>parent << 3));
      if (parentKey <= key) break;
      const moved = load<i32>(values + (<usize>parent << 2));
      store<f64>(keys + (<usize>i << 3), parentKey);
      store<i32>(values + (<usize>i << 2), moved);
      store<i32>(positions + (<usize>moved << 2), i);
      i = parent;
    }
    store<f64>(keys + (<usize>i << 3), key);
    store<i32>(values + (<usize>i << 2), value);
    store<i32>(positions + (<usize>value << 2), i);
  }

  private reserve(capacity: i32): void {
    this.keys = this.keys == 0 ? heap.alloc(<usize>capacity << 3) : heap.realloc(this.keys, <usize>capacity << 3);
    this.values = this.values == 0 ? heap.alloc(<usize>capacity << 2) : heap.realloc(this.values, <usize>capacity << 2);
    this.capacity = capacity;
  }
}
