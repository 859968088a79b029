// The wasm-backed StaticQuadTree backend: the block lives in linear memory
// (assembly/quadtree/static.ts builds and searches it); saving copies it
// out and restoring copies it in, in one memcpy each.
import { WasmBuffer } from '../core/memory.js';
import { forgetOnCollect, freeOnCollect } from '../core/reclaim.js';
import { quadtreeModule, type QuadTreeCore as Core } from './module.js';
import { checkBlock } from './static-format.js';
import type { StaticCore } from './backend.js';
import { WasmBatchQueries } from './wasm-batch.js';

export class WasmStaticTree implements StaticCore {
  readonly size: number;
  readonly byteLength: number;
  /** The batch forms of this tree's searches. */
  readonly batch: WasmBatchQueries;
  private readonly core: Core;
  private readonly block: number;

  private constructor(core: Core, block: number, length: number, size: number) {
    this.core = core;
    this.block = block;
    this.byteLength = length;
    this.size = size;
    const e = core.exports;
    this.batch = new WasmBatchQueries(core, {
      queryMany: (boxes, count) => e.sqtQueryMany(block, boxes, count),
      withinMany: (xs, ys, r2s, count) => e.sqtWithinMany(block, xs, ys, r2s, count),
      nearestMany: (xs, ys, count, k, maxSquared) => e.sqtNearestMany(block, xs, ys, count, k, maxSquared),
    });
    freeOnCollect(this, e.sqtFree, block, [this.batch]);
  }

  /** Builds the tree of items ids[i] with rects rects[4i..4i+3] (checked by the caller). */
  static build(ids: Int32Array, rects: Float64Array): WasmStaticTree {
    const core = quadtreeModule.core();
    const n = ids.length;
    const input = new WasmBuffer(core.exports, core.memory);
    try {
      input.reserve(n * 36 + 8);
      input.f64(n * 4).set(rects.subarray(0, n * 4));
      input.i32(n, n * 32).set(ids);
      const block = core.exports.sqtBuild(input.ptr + n * 32, input.ptr, n);
      return new WasmStaticTree(core, block, core.memory.u32[(block >>> 2) + 2], n);
    } finally {
      input.free();
    }
  }

  /**
   * Copies bytes into linear memory and checks them there (checkBlock, the
   * body checked by the core); throws as checkBlock, with nothing kept.
   */
  static adopt(bytes: Uint8Array): WasmStaticTree {
    const core = quadtreeModule.core();
    const block = core.exports.alloc(bytes.length);
    let n: number;
    try {
      core.memory.u8.set(bytes, block);
      const inPlace = (b: Uint8Array): Uint32Array => new Uint32Array(core.memory.u8.buffer, block, b.length >> 2);
      n = checkBlock(bytes, inPlace, () => core.exports.sqtVerify(block, bytes.length)).n;
    } catch (error) {
      core.exports.free(block);
      throw error;
    }
    return new WasmStaticTree(core, block, bytes.length, n);
  }

  bytes(): Uint8Array {
    return this.core.memory.u8.slice(this.block, this.block + this.byteLength);
  }

  query(minX: number, minY: number, maxX: number, maxY: number): Int32Array {
    return this.output(this.core.exports.sqtQuery(this.block, minX, minY, maxX, maxY));
  }

  within(x: number, y: number, r2: number): Int32Array {
    return this.output(this.core.exports.sqtWithin(this.block, x, y, r2));
  }

  nearest(x: number, y: number, k: number, maxSquared: number): Int32Array {
    return this.output(this.core.exports.sqtNearest(this.block, x, y, k, maxSquared));
  }

  dispose(): void {
    forgetOnCollect(this);
    this.core.exports.sqtFree(this.block);
    this.batch.free();
  }

  /** The first count ids of the results buffer (read after the call: memory may have grown). */
  private output(count: number): Int32Array {
    const start = this.core.exports.qbIds() >>> 2;
    return this.core.memory.i32.slice(start, start + count);
  }
}
