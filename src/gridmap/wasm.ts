// The wasm-backed GridMap backend: a handle to a Grid record in the core's
// linear memory. One crossing per call; a path comes back as a block in linear
// memory ([count: i32, pad, cost: f64, x0, y0, ...]) read once.
import type { GridBackend, GridPath } from './backend.js';
import { WasmBuffer } from '../core/memory.js';
import { forgetOnCollect, freeOnCollect } from '../core/reclaim.js';
import bytes from '../../build/gridmap.wasm.gz';
import { instantiate } from '../../build/gridmap.js';
import { WasmModule, type CoreOf } from '../core/wasm.js';

/** The GridMap's wasm module, built from assembly/gridmap/exports.ts. */
export const gridmapModule = new WasmModule('gridmap', bytes, instantiate);

export class WasmGrid implements GridBackend {
  private readonly core: CoreOf<typeof gridmapModule>;
  private readonly handle: number;

  constructor(width: number, height: number) {
    this.core = gridmapModule.core();
    this.handle = this.core.exports.gridCreate(width, height);
    freeOnCollect(this, this.core.exports.gridDispose, this.handle);
  }

  setWalkable(x: number, y: number, walkable: boolean): void {
    this.core.exports.gridSetWalkable(this.handle, x, y, walkable ? 1 : 0);
  }

  isWalkable(x: number, y: number): boolean {
    return this.core.exports.gridIsWalkable(this.handle, x, y) !== 0;
  }

  loadWalkable(cells: Uint8Array): void {
    const buffer = new WasmBuffer(this.core.exports, this.core.memory);
    buffer.reserve(cells.length);
    this.core.memory.u8.set(cells, buffer.ptr);
    this.core.exports.gridLoadWalkable(this.handle, buffer.ptr);
    buffer.free();
  }

  loadCosts(costs: Float64Array): void {
    const buffer = new WasmBuffer(this.core.exports, this.core.memory);
    buffer.reserve(costs.byteLength);
    this.core.memory.f64.set(costs, buffer.ptr >>> 3);
    this.core.exports.gridLoadCosts(this.handle, buffer.ptr);
    buffer.free();
  }

  setCost(x: number, y: number, cost: number): void {
    this.core.exports.gridSetCost(this.handle, x, y, cost);
  }

  getCost(x: number, y: number): number {
    return this.core.exports.gridGetCost(this.handle, x, y);
  }

  findPath(
    sx: number, sy: number, tx: number, ty: number, diagonal: number, algorithm: number, budget: number, smooth: boolean,
  ): GridPath | null {
    // The block's address comes back as an i32: >>> 0 reads it unsigned.
    const block = this.core.exports.gridFindPath(this.handle, sx, sy, tx, ty, diagonal, algorithm, budget, smooth ? 1 : 0) >>> 0;
    if (block === 0) return null;
    const i32 = this.core.memory.i32;
    const count = i32[block >>> 2];
    const cost = this.core.memory.f64[(block + 8) >>> 3];
    const path = new Array<[number, number]>(count);
    for (let i = 0, at = (block + 16) >>> 2; i < count; i++, at += 2) path[i] = [i32[at], i32[at + 1]];
    if (budget === 0) return { path, cost };
    return { path, cost, complete: i32[(block + 4) >>> 2] === 0 };
  }

  dispose(): void {
    forgetOnCollect(this);
    this.core.exports.gridDispose(this.handle);
  }
}
