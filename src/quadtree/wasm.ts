// The wasm-backed QuadTree backend: a thin layer over assembly/quadtree/quadtree.ts.
// Results cross the boundary in bulk: the core writes ids into its output
// buffer in linear memory and this side copies them out in one slice.
import { WasmBuffer } from '../core/memory.js';
import { forgetOnCollect, freeOnCollect, type Freeable } from '../core/reclaim.js';
import { quadtreeModule, type QuadTreeCore } from './module.js';
import type { Box, QuadTreeBackend, QuadTreeMode, QuadTreeSettings, SegmentHits } from './backend.js';
import { WasmBatchQueries } from './wasm-batch.js';

export class WasmQuadTree implements QuadTreeBackend {
  private readonly core: QuadTreeCore;
  private readonly handle: number;
  private readonly batch: WasmBuffer;
  /** What the tree owns besides its record, freed with it if it is garbage-collected undisposed. */
  private readonly owned: Freeable[] = [];

  constructor(bounds: Box | null, capacity: number, maxLevels: number, mode: QuadTreeMode) {
    this.core = quadtreeModule.core();
    const [minX, minY, maxX, maxY] = bounds ?? [0, 0, 0, 0];
    this.handle = this.core.exports.qtCreate(minX, minY, maxX, maxY, bounds !== null, capacity, maxLevels, mode === 'split' ? 0 : 1);
    this.batch = new WasmBuffer(this.core.exports, this.core.memory);
    this.owned.push(this.batch);
    freeOnCollect(this, this.core.exports.qtDispose, this.handle, this.owned);
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

  insertMany(slots: Int32Array, ids: Int32Array, rects: Float64Array): void {
    const count = slots.length;
    this.batch.reserve(count * 40);
    this.batch.f64(count * 4).set(rects.subarray(0, count * 4));
    this.batch.i32(count, count * 32).set(slots);
    this.batch.i32(count, count * 36).set(ids);
    const base = this.batch.ptr;
    this.core.exports.qtInsertMany(this.handle, base + count * 32, base + count * 36, base, count);
  }

  updateMany(slots: Int32Array, rects: Float64Array): void {
    const count = slots.length;
    this.batch.reserve(count * 36);
    this.batch.f64(count * 4).set(rects.subarray(0, count * 4));
    this.batch.i32(count, count * 32).set(slots);
    this.core.exports.qtUpdateMany(this.handle, this.batch.ptr + count * 32, this.batch.ptr, count);
  }

  remove(slot: number): void {
    this.core.exports.qtRemove(this.handle, slot);
  }

  clear(): void {
    this.core.exports.qtClear(this.handle);
  }

  setBounds(bounds: Box | null): void {
    const [minX, minY, maxX, maxY] = bounds ?? [0, 0, 0, 0];
    this.core.exports.qtSetBounds(this.handle, minX, minY, maxX, maxY, bounds !== null);
  }

  setCapacity(capacity: number): void {
    this.core.exports.qtSetCapacity(this.handle, capacity);
  }

  query(minX: number, minY: number, maxX: number, maxY: number, limit = 0x7fffffff): Int32Array {
    return this.output(this.core.exports.qtQuery(this.handle, minX, minY, maxX, maxY, Math.min(limit, 0x7fffffff)));
  }

  pairs(): Int32Array {
    return this.output(this.core.exports.qtPairs(this.handle) * 2);
  }

  cells(): Float64Array {
    const count = this.core.exports.qtCells(this.handle);
    const start = this.core.exports.qtOutput(this.handle) >>> 3;
    return this.core.memory.f64.slice(start, start + count * 4);
  }

  nearest(x: number, y: number, k: number, maxSquared: number): Int32Array {
    return this.output(this.core.exports.qtNearest(this.handle, x, y, k, maxSquared));
  }

  within(x: number, y: number, r2: number): Int32Array {
    return this.output(this.core.exports.qtWithin(this.handle, x, y, r2));
  }

  segment(x0: number, y0: number, x1: number, y1: number, first: boolean): SegmentHits {
    const count = this.core.exports.qtSegment(this.handle, x0, y0, x1, y1, first);
    // Hit records are 16 bytes: the entry parameter (f64), then the id (i32).
    const start = this.core.exports.qtOutput(this.handle);
    const f64 = this.core.memory.f64, i32 = this.core.memory.i32;
    const ids = new Int32Array(count), ts = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      ts[i] = f64[(start >>> 3) + 2 * i];
      ids[i] = i32[(start >>> 2) + 4 * i + 2];
    }
    return { ids, ts };
  }

  rectsOf(slots: Int32Array): Float64Array {
    // The item table: ITEM_BYTES (40) per slot, the rect's four f64 first.
    const base = this.core.exports.qtItems(this.handle) >>> 3;
    const f64 = this.core.memory.f64;
    const out = new Float64Array(slots.length * 4);
    for (let i = 0; i < slots.length; i++) {
      const r = base + slots[i] * 5;
      out[i * 4] = f64[r];
      out[i * 4 + 1] = f64[r + 1];
      out[i * 4 + 2] = f64[r + 2];
      out[i * 4 + 3] = f64[r + 3];
    }
    return out;
  }

  settings(): QuadTreeSettings {
    this.core.exports.qtSettings(this.handle);
    const start = this.core.exports.qtOutput(this.handle) >>> 3;
    const [minX, minY, maxX, maxY, levels, bounded] = this.core.memory.f64.subarray(start, start + 6);
    return { bounds: bounded === 1 ? [minX, minY, maxX, maxY] : null, levels };
  }

  dispose(): void {
    forgetOnCollect(this);
    this.core.exports.qtDispose(this.handle);
    this.batch.free();
    this.batchQueries?.free();
  }

  // ---- batch searches (assembly/quadtree/batch.ts) ----

  private batchQueries: WasmBatchQueries | null = null;

  /** The batch forms of this tree's searches, made on first use. */
  get queries(): WasmBatchQueries {
    if (this.batchQueries !== null) return this.batchQueries;
    const e = this.core.exports, tree = this.handle;
    this.batchQueries = new WasmBatchQueries(this.core, {
      queryMany: (boxes, count) => e.qtQueryMany(tree, boxes, count),
      withinMany: (xs, ys, r2s, count) => e.qtWithinMany(tree, xs, ys, r2s, count),
      nearestMany: (xs, ys, count, k, maxSquared) => e.qtNearestMany(tree, xs, ys, count, k, maxSquared),
    });
    this.owned.push(this.batchQueries);
    return this.batchQueries;
  }

  /** Copies the first `count` ints of the core's output buffer (read after the call: memory may have grown). */
  private output(count: number): Int32Array {
    const start = this.core.exports.qtOutput(this.handle) >>> 2;
    return this.core.memory.i32.slice(start, start + count);
  }
}
