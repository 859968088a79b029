// Views into the core's linear memory, and buffers the TypeScript side owns
// there. memory.grow detaches every existing view (a stale one silently reads
// undefined), so views are only ever taken through LinearMemory, which
// rebuilds them whenever the underlying ArrayBuffer changed.

/** Typed views over a WebAssembly.Memory that stay valid across growth. */
export class LinearMemory {
  private buffer: ArrayBuffer;
  private u8View!: Uint8Array;
  private i32View!: Int32Array;
  private u32View!: Uint32Array;
  private f64View!: Float64Array;

  constructor(readonly memory: WebAssembly.Memory) {
    this.buffer = memory.buffer;
    this.rebuild();
  }

  /** Bytes of linear memory in use by the module (grows, never shrinks). */
  get byteLength(): number {
    return this.memory.buffer.byteLength;
  }

  get u8(): Uint8Array {
    if (this.memory.buffer !== this.buffer) this.rebuild();
    return this.u8View;
  }

  get i32(): Int32Array {
    if (this.memory.buffer !== this.buffer) this.rebuild();
    return this.i32View;
  }

  get u32(): Uint32Array {
    if (this.memory.buffer !== this.buffer) this.rebuild();
    return this.u32View;
  }

  get f64(): Float64Array {
    if (this.memory.buffer !== this.buffer) this.rebuild();
    return this.f64View;
  }

  private rebuild(): void {
    this.buffer = this.memory.buffer;
    this.u8View = new Uint8Array(this.buffer);
    this.i32View = new Int32Array(this.buffer);
    this.u32View = new Uint32Array(this.buffer);
    this.f64View = new Float64Array(this.buffer);
  }
}

interface Allocator {
  alloc(bytes: number): number;
  realloc(ptr: number, bytes: number): number;
  free(ptr: number): void;
}

/**
 * A byte buffer in linear memory owned by the TypeScript side, for batch
 * inputs handed to the core in one call. It grows by doubling and keeps its
 * contents; `ptr` may change on growth, so read it after `reserve`.
 */
export class WasmBuffer {
  private pointer = 0;
  private capacity = 0;

  constructor(
    private readonly allocator: Allocator,
    private readonly memory: LinearMemory,
  ) {}

  /** Start of the buffer in linear memory, 8-byte aligned. */
  get ptr(): number {
    return this.pointer;
  }

  /** Bytes available without growing. */
  get byteCapacity(): number {
    return this.capacity;
  }

  /** Makes room for at least `bytes` bytes, keeping the contents. */
  reserve(bytes: number): void {
    if (bytes <= this.capacity) return;
    const next = Math.max(bytes, this.capacity * 2, 64);
    this.pointer = this.pointer === 0 ? this.allocator.alloc(next) : this.allocator.realloc(this.pointer, next);
    this.capacity = next;
  }

  /** A Float64Array over `count` doubles starting `offsetBytes` into the buffer. */
  f64(count: number, offsetBytes = 0): Float64Array {
    return new Float64Array(this.memory.u8.buffer, this.pointer + offsetBytes, count);
  }

  /** An Int32Array over `count` ints starting `offsetBytes` into the buffer. */
  i32(count: number, offsetBytes = 0): Int32Array {
    return new Int32Array(this.memory.u8.buffer, this.pointer + offsetBytes, count);
  }

  /** Returns the memory to the core's allocator. */
  free(): void {
    if (this.pointer !== 0) this.allocator.free(this.pointer);
    this.pointer = 0;
    this.capacity = 0;
  }
}
