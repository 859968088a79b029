// Batch queries on the wasm core: the inputs copied into linear memory once,
// one call that runs every query, the answers read from the core's shared
// results buffer (assembly/quadtree/results.ts).
import { WasmBuffer } from '../core/memory.js';
import type { QuadTreeCore as Core } from './module.js';
import { deliver, type BatchQueries, type QueryResults } from './batch.js';

/** The three batch kernels of one structure, bound to it; each returns the total number of ids. */
export interface BatchKernels {
  queryMany(boxes: number, count: number): number;
  withinMany(xs: number, ys: number, r2s: number, count: number): number;
  nearestMany(xs: number, ys: number, count: number, k: number, maxSquared: number): number;
}

export class WasmBatchQueries implements BatchQueries {
  private readonly input: WasmBuffer;

  constructor(
    private readonly core: Core,
    private readonly kernels: BatchKernels,
  ) {
    this.input = new WasmBuffer(core.exports, core.memory);
  }

  queryMany(boxes: Float64Array, count: number, into: QueryResults | undefined): QueryResults {
    this.input.reserve(count * 32);
    this.input.f64(count * 4).set(boxes.subarray(0, count * 4));
    this.kernels.queryMany(this.input.ptr, count);
    return this.results(count, into);
  }

  withinMany(xs: Float64Array, ys: Float64Array, r2s: Float64Array, count: number, into: QueryResults | undefined): QueryResults {
    const base = this.stagePoints(xs, ys, count, 24);
    this.input.f64(count, count * 16).set(r2s.subarray(0, count));
    this.kernels.withinMany(base, base + count * 8, base + count * 16, count);
    return this.results(count, into);
  }

  nearestMany(xs: Float64Array, ys: Float64Array, count: number, k: number, maxSquared: number, into: QueryResults | undefined): QueryResults {
    const base = this.stagePoints(xs, ys, count, 16);
    this.kernels.nearestMany(base, base + count * 8, count, k, maxSquared);
    return this.results(count, into);
  }

  /** Frees the input buffer. */
  free(): void {
    this.input.free();
  }

  /** Copies xs then ys into the input buffer (reserving bytesPerQuery each); returns its start. */
  private stagePoints(xs: Float64Array, ys: Float64Array, count: number, bytesPerQuery: number): number {
    this.input.reserve(count * bytesPerQuery);
    this.input.f64(count).set(xs.subarray(0, count));
    this.input.f64(count, count * 8).set(ys.subarray(0, count));
    return this.input.ptr;
  }

  /** The answers of the last batch call, read from the results buffer (views taken after the call: memory may have grown). */
  private results(count: number, into: QueryResults | undefined): QueryResults {
    const i32 = this.core.memory.i32;
    const offsets = i32.subarray(this.core.exports.qbOffsets() >>> 2, (this.core.exports.qbOffsets() >>> 2) + count + 1);
    const start = this.core.exports.qbIds() >>> 2;
    return deliver(offsets, i32.subarray(start, start + offsets[count]), count, into);
  }
}
