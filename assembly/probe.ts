// The probe module (build/probe.wasm): tiny kernels for the tests and the
// boundary benchmark, never part of the package. They measure the boundary
// itself (one JS-to-wasm call, a tight loop over a Float64Array in linear
// memory) and run the wasm priority queues against sorts and the reference
// heaps.
import { MinHeap } from './graph/minheap';
import { IndexedHeap } from './gridmap/indexed-heap';

export { alloc, realloc, free } from './memory';

export function probeNoop(x: i32): i32 {
  return x + 1;
}

export function probeSum(ptr: usize, count: i32): f64 {
  let sum = 0.0;
  for (let i = 0; i < count; i++) {
    sum += load<f64>(ptr + (<usize>i << 3));
  }
  return sum;
}

// Fills count doubles with a running value; used to prove data survives growth.
export function probeFill(ptr: usize, count: i32, start: f64): void {
  for (let i = 0; i < count; i++) {
    store<f64>(ptr + (<usize>i << 3), start + <f64>i);
  }
}

// Pushes count keys from linear memory through a MinHeap and writes them back
// in pop order: lets tests check the heap against a sort.
export function probeHeapSort(ptr: usize, count: i32): void {
  const queue = new MinHeap(4);
  for (let i = 0; i < count; i++) queue.push(load<f64>(ptr + (<usize>i << 3)), i);
  for (let i = 0; i < count; i++) {
    const key = queue.topKey;
    queue.pop();
    store<f64>(ptr + (<usize>i << 3), key);
  }
  queue.dispose();
}

/**
 * Runs `count` operations on a fresh IndexedHeap over `slots` values, for the
 * heap's tests: each operation is three f64 at ptr (kind, key, value); kind 0
 * pushes, 1 decreases, 2 pops and overwrites the key and value with the
 * popped entry's.
 */
export function probeIndexedHeap(ptr: usize, count: i32, slots: i32): void {
  const queue = new IndexedHeap(slots);
  for (let i = 0; i < count; i++) {
    const at = ptr + <usize>i * 24;
    const kind = <i32>load<f64>(at);
    if (kind == 0) queue.push(load<f64>(at, 8), <i32>load<f64>(at, 16));
    else if (kind == 1) queue.decrease(load<f64>(at, 8), <i32>load<f64>(at, 16));
    else {
      store<f64>(at, queue.topKey, 8);
      store<f64>(at, <f64>queue.pop(), 16);
    }
  }
  queue.dispose();
}
