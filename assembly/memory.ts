// Raw allocation for buffers the TypeScript side owns in linear memory
// (batch inputs, scratch space). Every module re-exports these three from its
// entry, each over its own memory. Structures keep their own state through
// the same allocator; nothing here is garbage collected.

export function alloc(bytes: usize): usize {
  return heap.alloc(bytes);
}

export function realloc(ptr: usize, bytes: usize): usize {
  return heap.realloc(ptr, bytes);
}

export function free(ptr: usize): void {
  heap.free(ptr);
}
