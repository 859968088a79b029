// The wasm-backed Scene cores: a handle to a scene in linear memory (an
// AoiScene of assembly/scene/lists.ts for the lists index, a GridScene of
// assembly/scene/grid.ts for the grid) and thin calls into it. Batch inputs go
// through one WasmBuffer; events and query results are read straight out of
// the core's buffers.
import { WasmBuffer } from '../core/memory.js';
import type { SceneBackend } from './backend.js';
import { heldBefore, type CallRecord } from './recovery.js';
import { wasmCore, type Core, type CoreExports } from '../core/wasm.js';

/** The calls one wasm scene core answers; the lists and the grid export the same set under their own names. */
interface SceneCalls {
  create(dimensions: number, cellSize: number): number;
  destroy(handle: number): void;
  add(handle: number, slot: number, id: number, x: number, y: number, z: number, rx: number, ry: number, rz: number, watcher: number, round: number, layer: number, sees: number, margin: number): void;
  setLayers(handle: number, slot: number, layer: number, sees: number): void;
  move(handle: number, slot: number, x: number, y: number, z: number): void;
  remove(handle: number, slot: number): void;
  setRange(handle: number, slot: number, rx: number, ry: number, rz: number, watcher: number, round: number, margin: number): void;
  heldPairs(handle: number): number;
  hold(handle: number, w: number, t: number): void;
  moveMany(handle: number, slots: number, xs: number, ys: number, zs: number, count: number): void;
  addMany(handle: number, slots: number, ids: number, xs: number, ys: number, zs: number, ranges: number, count: number): void;
  eventLength(handle: number): number;
  eventData(handle: number): number;
  eventReset(handle: number): void;
  setMoveEvents(handle: number, on: number): void;
  setEventLimit(handle: number, limit: number): void;
  setSilent(handle: number, on: number): void;
  setLean(handle: number, on: number): void;
  callStart(handle: number): number;
  journalLength(handle: number): number;
  journalData(handle: number): number;
  query(handle: number, slot: number): number;
  watchers(handle: number, slot: number): number;
  queryBox(handle: number, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number;
  nearest(handle: number, x: number, y: number, z: number, k: number, maxDistance: number, filtered: number, mask: number): number;
  resultData(handle: number): number;
  positionOf(handle: number, slot: number): number;
  positions(handle: number, slots: number, count: number): number;
  clear(handle: number): void;
  bytes(handle: number): number;
}

function listsCalls(e: CoreExports): SceneCalls {
  return {
    create: (dimensions) => e.aoiCreate(dimensions),
    destroy: e.aoiDestroy,
    add: e.aoiAdd,
    move: e.aoiMove,
    remove: e.aoiRemove,
    setRange: e.aoiSetRange,
    setLayers: e.aoiSetLayers,
    heldPairs: e.aoiHeldPairs,
    hold: e.aoiHold,
    moveMany: e.aoiMoveMany,
    addMany: e.aoiAddMany,
    eventLength: e.aoiEventLength,
    eventData: e.aoiEventData,
    eventReset: e.aoiEventReset,
    setMoveEvents: e.aoiSetMoveEvents,
    setEventLimit: e.aoiSetEventLimit,
    setSilent: e.aoiSetSilent,
    setLean: e.aoiSetLean,
    callStart: e.aoiCallStart,
    journalLength: e.aoiJournalLength,
    journalData: e.aoiJournalData,
    query: e.aoiQuery,
    watchers: e.aoiWatchers,
    queryBox: e.aoiQueryBox,
    nearest: e.aoiNearest,
    resultData: e.aoiResultData,
    positionOf: e.aoiPositionOf,
    positions: e.aoiPositions,
    clear: e.aoiClear,
    bytes: e.aoiBytes,
  };
}

function gridCalls(e: CoreExports): SceneCalls {
  return {
    create: e.aoiGridCreate,
    destroy: e.aoiGridDestroy,
    add: e.aoiGridAdd,
    move: e.aoiGridMove,
    remove: e.aoiGridRemove,
    setRange: e.aoiGridSetRange,
    setLayers: e.aoiGridSetLayers,
    heldPairs: e.aoiGridHeldPairs,
    hold: e.aoiGridHold,
    moveMany: e.aoiGridMoveMany,
    addMany: e.aoiGridAddMany,
    eventLength: e.aoiGridEventLength,
    eventData: e.aoiGridEventData,
    eventReset: e.aoiGridEventReset,
    setMoveEvents: e.aoiGridSetMoveEvents,
    setEventLimit: e.aoiGridSetEventLimit,
    setSilent: e.aoiGridSetSilent,
    // The grid refills its cells without re-cutting anything.
    setLean: () => {},
    callStart: e.aoiGridCallStart,
    journalLength: e.aoiGridJournalLength,
    journalData: e.aoiGridJournalData,
    query: e.aoiGridQuery,
    watchers: e.aoiGridWatchers,
    queryBox: e.aoiGridQueryBox,
    nearest: e.aoiGridNearest,
    resultData: e.aoiGridResultData,
    positionOf: e.aoiGridPositionOf,
    positions: e.aoiGridPositions,
    clear: e.aoiGridClear,
    bytes: e.aoiGridBytes,
  };
}

const MAX_INT32 = 0x7fffffff;

export class WasmSceneCore implements SceneBackend {
  private readonly core: Core;
  private readonly calls: SceneCalls;
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
    this.core = wasmCore();
    this.calls = index === 'grid' ? gridCalls(this.core.exports) : listsCalls(this.core.exports);
    this.handle = this.calls.create(dimensions, cellSize);
    this.input = new WasmBuffer(this.core.exports, this.core.memory);
    this.calls.setEventLimit(this.handle, MAX_INT32);
  }

  /** Int32 entries the core's event buffer may hold. */
  get eventLimit(): number {
    return this.limit;
  }

  set eventLimit(limit: number) {
    this.limit = Math.min(limit, MAX_INT32);
    this.calls.setEventLimit(this.handle, this.limit);
  }

  get silent(): boolean {
    return this.quiet;
  }

  set silent(on: boolean) {
    this.quiet = on;
    this.calls.setSilent(this.handle, on ? 1 : 0);
  }

  get lean(): boolean {
    return this.spare;
  }

  set lean(on: boolean) {
    this.spare = on;
    this.calls.setLean(this.handle, on ? 1 : 0);
  }

  /** Nothing: every export that changes the scene marks the call's start inside the core. */
  beginCall(): void {}

  beforeCall(): CallRecord {
    const at = (this.calls.eventData(this.handle) >>> 0) / 4;
    const events = this.core.memory.i32.slice(at, at + this.calls.callStart(this.handle));
    const journalAt = (this.calls.journalData(this.handle) >>> 0) / 4;
    const journal = this.core.memory.i32.slice(journalAt, journalAt + this.calls.journalLength(this.handle));
    return { events, held: heldBefore(this.heldPairs(), journal) };
  }

  /** Whether moves produce move events; off, the core skips writing them. */
  get moveEvents(): boolean {
    return this.movesReported;
  }

  set moveEvents(on: boolean) {
    this.movesReported = on;
    this.calls.setMoveEvents(this.handle, on ? 1 : 0);
  }

  add(slot: number, id: number, x: number, y: number, z: number, rx: number, ry: number, rz: number, watcher: boolean, round: boolean, layer: number, sees: number, margin: number): void {
    this.calls.add(this.handle, slot, id, x, y, z, rx, ry, rz, watcher ? 1 : 0, round ? 1 : 0, layer, sees, margin);
  }

  setLayers(slot: number, layer: number, sees: number): void {
    this.calls.setLayers(this.handle, slot, layer, sees);
  }

  move(slot: number, x: number, y: number, z: number): void {
    this.calls.move(this.handle, slot, x, y, z);
  }

  remove(slot: number): void {
    this.calls.remove(this.handle, slot);
  }

  setRange(slot: number, rx: number, ry: number, rz: number, watcher: boolean, round: boolean, margin: number): void {
    this.calls.setRange(this.handle, slot, rx, ry, rz, watcher ? 1 : 0, round ? 1 : 0, margin);
  }

  heldPairs(): Int32Array {
    const count = this.calls.heldPairs(this.handle);
    const at = (this.calls.resultData(this.handle) >>> 0) / 4;
    return this.core.memory.i32.slice(at, at + count);
  }

  hold(w: number, t: number): void {
    this.calls.hold(this.handle, w, t);
  }

  moveMany(slots: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null): void {
    const n = slots.length;
    const [slotAt, xAt, yAt, zAt] = this.stage(n, 0, slots, xs, ys, zs);
    this.calls.moveMany(this.handle, slotAt, xAt, yAt, zAt, n);
  }

  addMany(slots: Int32Array, ids: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null, ranges: Float64Array): void {
    const n = slots.length;
    const [slotAt, xAt, yAt, zAt, idAt, rangeAt] = this.stage(n, 1, slots, xs, ys, zs, ids, ranges);
    this.calls.addMany(this.handle, slotAt, idAt, xAt, yAt, zAt, rangeAt, n);
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
    const at = (this.calls.positionOf(this.handle, slot) >>> 0) / 8;
    const f64 = this.core.memory.f64;
    return { x: f64[at], y: f64[at + 1], z: f64[at + 2] };
  }

  positions(slots: Int32Array): Float64Array {
    const n = slots.length;
    this.input.reserve(4 * n);
    this.input.i32(n, 0).set(slots);
    const at = (this.calls.positions(this.handle, this.input.ptr, n) >>> 0) / 8;
    return this.core.memory.f64.slice(at, at + 3 * n);
  }

  query(slot: number): number[] {
    return this.results(this.calls.query(this.handle, slot));
  }

  watchers(slot: number): number[] {
    return this.results(this.calls.watchers(this.handle, slot));
  }

  queryBox(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number[] {
    return this.results(this.calls.queryBox(this.handle, minX, minY, minZ, maxX, maxY, maxZ));
  }

  nearest(x: number, y: number, z: number, k: number, maxDistance: number, filtered: boolean, mask: number): Int32Array {
    const count = this.calls.nearest(this.handle, x, y, z, k, maxDistance, filtered ? 1 : 0, mask);
    const at = (this.calls.resultData(this.handle) >>> 0) / 4;
    return this.core.memory.i32.slice(at, at + count);
  }

  private results(count: number): number[] {
    const at = (this.calls.resultData(this.handle) >>> 0) / 4;
    return Array.from(this.core.memory.i32.subarray(at, at + count));
  }

  drain(): Int32Array {
    const length = this.calls.eventLength(this.handle);
    const at = (this.calls.eventData(this.handle) >>> 0) / 4;
    const out = this.core.memory.i32.slice(at, at + length);
    this.calls.eventReset(this.handle);
    return out;
  }

  /** Bytes of linear memory the scene holds, by capacity. */
  bytes(): number {
    return this.calls.bytes(this.handle);
  }

  clear(): void {
    this.calls.clear(this.handle);
  }

  dispose(): void {
    this.input.free();
    this.calls.destroy(this.handle);
  }
}
