// The wasm-backed Scene cores: a handle to a scene in the Scene module's
// linear memory (an ListsIndex of assembly/scene/lists.ts for the lists index,
// a GridIndex of assembly/scene/grid.ts for the grid) and thin calls into it;
// every call names the index (see assembly/scene/exports.ts). Batch inputs go
// through one WasmBuffer; events and query results are read straight out of
// the core's buffers.
import bytes from '../../build/scene.wasm.gz';
import { instantiate } from '../../build/scene.js';
import { WasmBuffer } from '../core/memory.js';
import { forgetOnCollect, freeOnCollect } from '../core/reclaim.js';
import type { QueryResults } from '../core/batch-results.js';
import type { SceneBackend } from './backend.js';
import { heldBefore, type CallRecord } from './recovery.js';
import { WasmModule, type CoreOf } from '../core/wasm.js';

/** The Scene's wasm module, built from assembly/scene/exports.ts. */
export const sceneModule = new WasmModule('scene', bytes, instantiate);

/** The index kinds, as assembly/scene/exports.ts reads them. */
const INDEX = { lists: 0, grid: 1 } as const;

const MAX_INT32 = 0x7fffffff;

export class WasmSceneCore implements SceneBackend {
  private readonly core: CoreOf<typeof sceneModule>;
  private readonly calls: CoreOf<typeof sceneModule>['exports'];
  private readonly index: number;
  private readonly handle: number;
  private readonly input: WasmBuffer;
  private movesReported = true;
  private limit = MAX_INT32;
  private quiet = false;
  private spare = false;

  /** A scene of `dimensions` in the wasm core: the lists index, or the grid with finest cells `cellSize` wide. */
  constructor(
    readonly dimensions: number,
    index: 'lists' | 'grid' = 'lists',
    cellSize = 1,
  ) {
    this.core = sceneModule.core();
    this.calls = this.core.exports;
    this.index = INDEX[index];
    this.handle = this.calls.sceneCreate(this.index, dimensions, cellSize);
    this.input = new WasmBuffer(this.core.exports, this.core.memory);
    const { calls, index: kind } = this;
    freeOnCollect(this, (handle) => calls.sceneDestroy(kind, handle), this.handle, [this.input]);
    this.calls.sceneSetEventLimit(this.index, this.handle, MAX_INT32);
  }

  /** Int32 entries the core's event buffer may hold. */
  get eventLimit(): number {
    return this.limit;
  }

  set eventLimit(limit: number) {
    this.limit = Math.min(limit, MAX_INT32);
    this.calls.sceneSetEventLimit(this.index, this.handle, this.limit);
  }

  get silent(): boolean {
    return this.quiet;
  }

  set silent(on: boolean) {
    this.quiet = on;
    this.calls.sceneSetSilent(this.index, this.handle, on ? 1 : 0);
  }

  get lean(): boolean {
    return this.spare;
  }

  set lean(on: boolean) {
    this.spare = on;
    this.calls.sceneSetLean(this.index, this.handle, on ? 1 : 0);
  }

  /** Nothing: every export that changes the scene marks the call's start inside the core. */
  beginCall(): void {}

  beforeCall(): CallRecord {
    const at = (this.calls.sceneEventData(this.index, this.handle) >>> 0) / 4;
    const events = this.core.memory.i32.slice(at, at + this.calls.sceneCallStart(this.index, this.handle));
    const journalAt = (this.calls.sceneJournalData(this.index, this.handle) >>> 0) / 4;
    const journal = this.core.memory.i32.slice(journalAt, journalAt + this.calls.sceneJournalLength(this.index, this.handle));
    return { events, held: heldBefore(this.heldPairs(), journal) };
  }

  /** Whether moves produce move events; off, the core skips writing them. */
  get moveEvents(): boolean {
    return this.movesReported;
  }

  set moveEvents(on: boolean) {
    this.movesReported = on;
    this.calls.sceneSetMoveEvents(this.index, this.handle, on ? 1 : 0);
  }

  add(slot: number, id: number, x: number, y: number, z: number, rx: number, ry: number, rz: number, watcher: boolean, round: boolean, layer: number, sees: number, margin: number): void {
    this.calls.sceneAdd(this.index, this.handle, slot, id, x, y, z, rx, ry, rz, watcher ? 1 : 0, round ? 1 : 0, layer, sees, margin);
  }

  setLayers(slot: number, layer: number, sees: number): void {
    this.calls.sceneSetLayers(this.index, this.handle, slot, layer, sees);
  }

  move(slot: number, x: number, y: number, z: number): void {
    this.calls.sceneMove(this.index, this.handle, slot, x, y, z);
  }

  remove(slot: number): void {
    this.calls.sceneRemove(this.index, this.handle, slot);
  }

  setRange(slot: number, rx: number, ry: number, rz: number, watcher: boolean, round: boolean, margin: number): void {
    this.calls.sceneSetRange(this.index, this.handle, slot, rx, ry, rz, watcher ? 1 : 0, round ? 1 : 0, margin);
  }

  heldPairs(): Int32Array {
    const count = this.calls.sceneHeldPairs(this.index, this.handle);
    const at = (this.calls.sceneResultData(this.index, this.handle) >>> 0) / 4;
    return this.core.memory.i32.slice(at, at + count);
  }

  hold(w: number, t: number): void {
    this.calls.sceneHold(this.index, this.handle, w, t);
  }

  moveMany(slots: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null): void {
    const n = slots.length;
    const [slotAt, xAt, yAt, zAt] = this.stage(n, 0, slots, xs, ys, zs);
    this.calls.sceneMoveMany(this.index, this.handle, slotAt, xAt, yAt, zAt, n);
  }

  addMany(slots: Int32Array, ids: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null, ranges: Float64Array): void {
    const n = slots.length;
    const [slotAt, xAt, yAt, zAt, idAt, rangeAt] = this.stage(n, 1, slots, xs, ys, zs, ids, ranges);
    this.calls.sceneAddMany(this.index, this.handle, slotAt, idAt, xAt, yAt, zAt, rangeAt, n);
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
    const at = (this.calls.scenePositionOf(this.index, this.handle, slot) >>> 0) / 8;
    const f64 = this.core.memory.f64;
    return { x: f64[at], y: f64[at + 1], z: f64[at + 2] };
  }

  positions(slots: Int32Array): Float64Array {
    const n = slots.length;
    this.input.reserve(4 * n);
    this.input.i32(n, 0).set(slots);
    const at = (this.calls.scenePositions(this.index, this.handle, this.input.ptr, n) >>> 0) / 8;
    return this.core.memory.f64.slice(at, at + 3 * n);
  }

  query(slot: number): number[] {
    return this.results(this.calls.sceneQuery(this.index, this.handle, slot));
  }

  watchers(slot: number): number[] {
    return this.results(this.calls.sceneWatchers(this.index, this.handle, slot));
  }

  queryBox(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number[] {
    return this.results(this.calls.sceneQueryBox(this.index, this.handle, minX, minY, minZ, maxX, maxY, maxZ));
  }

  nearest(x: number, y: number, z: number, k: number, maxDistance: number, filtered: boolean, mask: number): Int32Array {
    const count = this.calls.sceneNearest(this.index, this.handle, x, y, z, k, maxDistance, filtered ? 1 : 0, mask);
    const at = (this.calls.sceneResultData(this.index, this.handle) >>> 0) / 4;
    return this.core.memory.i32.slice(at, at + count);
  }

  nearestMany(xs: Float64Array, ys: Float64Array, count: number, k: number, maxDistance: number, filtered: boolean, mask: number): QueryResults {
    this.input.reserve(16 * count);
    this.input.f64(count).set(xs.subarray(0, count));
    this.input.f64(count, 8 * count).set(ys.subarray(0, count));
    const at = this.input.ptr;
    const total = this.calls.sceneNearestMany(this.index, this.handle, at, at + 8 * count, count, k, maxDistance, filtered ? 1 : 0, mask);
    return this.batchResults(count, total);
  }

  queryBoxMany(boxes: Float64Array, count: number): QueryResults {
    this.input.reserve(32 * count);
    this.input.f64(4 * count).set(boxes.subarray(0, 4 * count));
    const total = this.calls.sceneQueryBoxMany(this.index, this.handle, this.input.ptr, count);
    return this.batchResults(count, total);
  }

  /**
   * The last batch's answers: views of the module's batch lists, taken after
   * the call (memory may have grown), which the facade copies out before its
   * next call into the module.
   */
  private batchResults(count: number, total: number): QueryResults {
    const i32 = this.core.memory.i32;
    const offsets = (this.calls.sceneBatchOffsets() >>> 0) / 4;
    const ids = (this.calls.sceneBatchIds() >>> 0) / 4;
    return { offsets: i32.subarray(offsets, offsets + count + 1), ids: i32.subarray(ids, ids + total) };
  }

  private results(count: number): number[] {
    const at = (this.calls.sceneResultData(this.index, this.handle) >>> 0) / 4;
    return Array.from(this.core.memory.i32.subarray(at, at + count));
  }

  drain(): Int32Array {
    const length = this.calls.sceneEventLength(this.index, this.handle);
    const at = (this.calls.sceneEventData(this.index, this.handle) >>> 0) / 4;
    const out = this.core.memory.i32.slice(at, at + length);
    this.calls.sceneEventReset(this.index, this.handle);
    return out;
  }

  loggedIds(): { bound: number; events: number } {
    return { bound: this.calls.sceneEventIdBound(this.index, this.handle), events: this.calls.sceneEventLength(this.index, this.handle) / 3 };
  }

  foldLog(ids: number, elsewhere: Int32Array, moveEvents: boolean): Int32Array {
    this.input.reserve(4 * elsewhere.length);
    this.input.i32(elsewhere.length).set(elsewhere);
    const at = (this.calls.sceneFoldNet(this.index, this.handle, ids, this.input.ptr, elsewhere.length, moveEvents ? 1 : 0) >>> 0) / 4;
    return this.core.memory.i32.slice(at, at + this.calls.sceneNetLength());
  }

  dropEvents(): void {
    this.calls.sceneEventReset(this.index, this.handle);
  }

  /** Bytes of linear memory the scene holds, by capacity. */
  bytes(): number {
    return this.calls.sceneBytes(this.index, this.handle);
  }

  clear(): void {
    this.calls.sceneClear(this.index, this.handle);
  }

  dispose(): void {
    forgetOnCollect(this);
    this.input.free();
    this.calls.sceneDestroy(this.index, this.handle);
  }
}
