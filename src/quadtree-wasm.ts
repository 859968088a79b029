// The wasm-backed QuadTree backend: a thin layer over assembly/quadtree.ts.
// Results cross the boundary in bulk: the core writes ids into its output
// buffer in linear memory and this side copies them out in one slice.
import { wasmCore, type Core } from './wasm.js';
import type { QuadTreeCore, QuadTreeMode } from './reference/quadtree.js';

export class WasmQuadTree implements QuadTreeCore {
  private readonly core: Core;
  private readonly handle: number;

  constructor(minX: number, minY: number, maxX: number, maxY: number, capacity: number, maxLevels: number, mode: QuadTreeMode) {
    this.core = wasmCore();
    this.handle = this.core.exports.qtCreate(minX, minY, maxX, maxY, capacity, maxLevels, mode === 'split' ? 0 : 1);
  }

  get levels(): number {
    return this.core.exports.qtLevels(this.handle);
  }

  get bytes(): number {
    return this.core.exports.qtBytes(this.handle);
  }

  insert(slot: number, id: number, minX: number, minY: number, maxX: number, maxY: number): void {
    this.core.exports.qtInsert(this.handle, slot, id, minX, minY, maxX, maxY);
  }

  update(slot: number, minX: number, minY: number, maxX: number, maxY: number): void {
    this.core.exports.qtUpdate(this.handle, slot, minX, minY, maxX, maxY);
  }

  remove(slot: number): void {
    this.core.exports.qtRemove(this.handle, slot);
  }

  clear(): void {
    this.core.exports.qtClear(this.handle);
  }

  setBounds(minX: number, minY: number, maxX: number, maxY: number): void {
    this.core.exports.qtSetBounds(this.handle, minX, minY, maxX, maxY);
  }

  setCapacity(capacity: number): void {
    this.core.exports.qtSetCapacity(this.handle, capacity);
  }

  query(minX: number, minY: number, maxX: number, maxY: number): Int32Array {
    return this.output(this.core.exports.qtQuery(this.handle, minX, minY, maxX, maxY));
  }

  pairs(): Int32Array {
    return this.output(this.core.exports.qtPairs(this.handle) * 2);
  }

  dispose(): void {
    this.core.exports.qtDispose(this.handle);
  }

  /** Copies the first `count` ints of the core's output buffer (read after the call: memory may have grown). */
  private output(count: number): Int32Array {
    const start = this.core.exports.qtOutput(this.handle) >>> 2;
    return this.core.memory.i32.slice(start, start + count);
  }
}
