import { MinHeap } from './graph/minheap';

// Tiny kernels that measure the boundary itself: the cost of one JS-to-wasm
// call and of a tight loop over a Float64Array in linear memory.

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
