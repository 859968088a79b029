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
