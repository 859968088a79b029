// The wasm-backed Scene core: a handle to an AoiScene in linear memory and
// thin calls into assembly/aoi.ts. Batch inputs go through one WasmBuffer;
// events and query results are read straight out of the core's buffers.
import { WasmBuffer } from './memory.js';
import type { SceneBackend } from './scene.js';
import { wasmCore, type Core } from './wasm.js';

export class WasmSceneCore implements SceneBackend {
  private readonly core: Core;
  private readonly handle: number;
  private readonly input: WasmBuffer;

  constructor(readonly dimensions: number) {
    this.core = wasmCore();
    this.handle = this.core.exports.aoiCreate(dimensions);
    this.input = new WasmBuffer(this.core.exports, this.core.memory);
  }

  add(slot: number, id: number, x: number, y: number, z: number, rx: number, ry: number, rz: number, watcher: boolean): void {
    this.core.exports.aoiAdd(this.handle, slot, id, x, y, z, rx, ry, rz, watcher ? 1 : 0);
  }

  move(slot: number, x: number, y: number, z: number): void {
    this.core.exports.aoiMove(this.handle, slot, x, y, z);
  }

  remove(slot: number): void {
    this.core.exports.aoiRemove(this.handle, slot);
  }

  setRange(slot: number, rx: number, ry: number, rz: number, watcher: boolean): void {
    this.core.exports.aoiSetRange(this.handle, slot, rx, ry, rz, watcher ? 1 : 0);
  }

  moveMany(slots: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null): void {
    const n = slots.length;
    const [slotAt, xAt, yAt, zAt] = this.stage(n, 0, slots, xs, ys, zs);
    this.core.exports.aoiMoveMany(this.handle, slotAt, xAt, yAt, zAt, n);
  }

  addMany(slots: Int32Array, ids: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null, ranges: Float64Array): void {
    const n = slots.length;
    const [slotAt, xAt, yAt, zAt, idAt, rangeAt] = this.stage(n, 1, slots, xs, ys, zs, ids, ranges);
    this.core.exports.aoiAddMany(this.handle, slotAt, idAt, xAt, yAt, zAt, rangeAt, n);
  }

  /**
   * Copies a batch into the input buffer: doubles first (8-byte aligned), then
   * ints. Returns the addresses of slots, xs, ys, zs (0 when absent), ids, ranges.
   */
  private stage(
    n: number,
    extra: number,
    slots: Int32Array,
    xs: Float64Array,
    ys: Float64Array,
    zs: Float64Array | null,
    ids?: Int32Array,
    ranges?: Float64Array,
  ): number[] {
    const doubles = 2 + (zs === null ? 0 : 1) + extra;
    const ints = 1 + extra;
    this.input.reserve(n * (doubles * 8 + ints * 4));
    const base = this.input.ptr;
    let offset = 0;
    const putF64 = (values: Float64Array): number => {
      this.input.f64(n, offset).set(values.subarray(0, n));
      const at = base + offset;
      offset += n * 8;
      return at;
    };
    const putI32 = (values: Int32Array): number => {
      this.input.i32(n, offset).set(values.subarray(0, n));
      const at = base + offset;
      offset += n * 4;
      return at;
    };
    const xAt = putF64(xs);
    const yAt = putF64(ys);
    const zAt = zs === null ? 0 : putF64(zs);
    const rangeAt = ranges === undefined ? 0 : putF64(ranges);
    const slotAt = putI32(slots);
    const idAt = ids === undefined ? 0 : putI32(ids);
    return [slotAt, xAt, yAt, zAt, idAt, rangeAt];
  }

  position(slot: number): { x: number; y: number; z: number } {
    const at = (this.core.exports.aoiPositionOf(this.handle, slot) >>> 0) / 8;
    const f64 = this.core.memory.f64;
    return { x: f64[at], y: f64[at + 1], z: f64[at + 2] };
  }

  query(slot: number): number[] {
    return this.results(this.core.exports.aoiQuery(this.handle, slot));
  }

  watchers(slot: number): number[] {
    return this.results(this.core.exports.aoiWatchers(this.handle, slot));
  }

  queryBox(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number[] {
    return this.results(this.core.exports.aoiQueryBox(this.handle, minX, minY, minZ, maxX, maxY, maxZ));
  }

  private results(count: number): number[] {
    const at = (this.core.exports.aoiResultData(this.handle) >>> 0) / 4;
    return Array.from(this.core.memory.i32.subarray(at, at + count));
  }

  drain(): Int32Array {
    const exports = this.core.exports;
    const length = exports.aoiEventLength(this.handle);
    const at = (exports.aoiEventData(this.handle) >>> 0) / 4;
    const out = this.core.memory.i32.slice(at, at + length);
    exports.aoiEventReset(this.handle);
    return out;
  }

  /** Bytes of linear memory the scene holds, by capacity. */
  bytes(): number {
    return this.core.exports.aoiBytes(this.handle);
  }

  clear(): void {
    this.core.exports.aoiClear(this.handle);
  }

  dispose(): void {
    this.input.free();
    this.core.exports.aoiDestroy(this.handle);
  }
}
