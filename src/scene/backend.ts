// The contract between the Scene facade and its cores: what every core (the
// lists and grid indexes, on the wasm and js backends) provides, in slots
// (dense indices the facade hands out) rather than user ids, and the values a
// core assumes when the facade passes none.
import type { CallRecord } from './recovery.js';

import type { QueryResults } from '../core/batch-results.js';

/** The spatial index a Scene keeps: cross-linked sorted lists, or a uniform cell grid. */
export type SceneIndex = 'lists' | 'grid';

/** The masks of an entity added without any: layer 1, every layer seen. */
export const DEFAULT_LAYER = 1;
export const DEFAULT_SEES = -1;

/** The operations both cores provide, on slots (dense indices) rather than ids. */
export interface SceneBackend {
  /**
   * `round`: the range is a circle (sphere) of radius rx (= ry = rz), else a
   * box. `margin`: hysteresis (0 for markers): a visible pair stays visible
   * while the target is within the range grown by it (rx + margin, ...).
   */
  add(slot: number, id: number, x: number, y: number, z: number, rx: number, ry: number, rz: number, watcher: boolean, round: boolean, layer: number, sees: number, margin: number): void;
  /** New masks for slot, as int32. */
  setLayers(slot: number, layer: number, sees: number): void;
  move(slot: number, x: number, y: number, z: number): void;
  remove(slot: number): void;
  setRange(slot: number, rx: number, ry: number, rz: number, watcher: boolean, round: boolean, margin: number): void;
  /** The pairs visible only thanks to a margin (target outside the watcher's plain range), as slots [w0, t0, w1, t1, ...]. */
  heldPairs(): Int32Array;
  /** Makes pair (w, t) visible, with an enter event, when the masks meet and t is inside w's grown range; otherwise nothing. */
  hold(w: number, t: number): void;
  moveMany(slots: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null): void;
  addMany(slots: Int32Array, ids: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null, ranges: Float64Array): void;
  position(slot: number): { x: number; y: number; z: number };
  /** x, y, z of each slot, in order, from one call into the core. */
  positions(slots: Int32Array): Float64Array;
  query(slot: number): number[];
  watchers(slot: number): number[];
  queryBox(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number[];
  /** Ids of the k (at most the scene's size) entities nearest to (x, y, z), by squared distance then id; `filtered`: only layers meeting mask. */
  nearest(x: number, y: number, z: number, k: number, maxDistance: number, filtered: boolean, mask: number): Int32Array;
  /**
   * Many 2-D nearest searches in one call (the wasm core, to cross once):
   * query q's answer, as {@link nearest}'s, is ids[offsets[q] .. offsets[q + 1]).
   * The arrays may be views of the core's memory, valid until its next call.
   * Cores without it are asked query by query.
   */
  nearestMany?(xs: Float64Array, ys: Float64Array, count: number, k: number, maxDistance: number, filtered: boolean, mask: number): QueryResults;
  /** Many 2-D box searches (boxes flat [minX, minY, maxX, maxY, ...], z unbounded) in one call; each answer unsorted; arrays as nearestMany's. */
  queryBoxMany?(boxes: Float64Array, count: number): QueryResults;
  drain(): Int32Array;
  /** The OR of the ids in the event log (at least the largest, below twice it) and its events, read where the log lies. Cores without it give 'net' scenes the log to fold. */
  loggedIds?(): { bound: number; events: number };
  /**
   * The event log folded as NetView's dense fold folds it, where the log
   * lies, which keeps it: ids below `ids`; `elsewhere`, the ids that stand
   * elsewhere than at the last drain; moveEvents false, no move.
   */
  foldLog?(ids: number, elsewhere: Int32Array, moveEvents: boolean): Int32Array;
  /** Forgets the event log without reading it (after a drain that folded it where it lies). */
  dropEvents?(): void;
  /** Whether moves produce move events (default true); off, the core's emission loops skip them. */
  moveEvents: boolean;
  /**
   * Int32 entries (three per event) the core's event log may hold: an event
   * past it ends the call by throwing EventLimitReached (src/core/limits.ts),
   * leaving the core part way through; the facade then rebuilds it.
   */
  eventLimit: number;
  /** While true the core writes no event (a snapshot or a recovery loading entities). */
  silent: boolean;
  /**
   * While true (a recovery refilling the core after a failed call), clear
   * and the adds that follow ask for as little new memory as they can: the
   * lists index keeps its bands' cut and adds one by one, without re-cutting
   * or renumbering. Cores with nothing to spare ignore it.
   */
  lean: boolean;
  /** Marks the start of a call made from the facade (the wasm cores mark each call themselves, so theirs does nothing). */
  beginCall(): void;
  /** After a call failed part way: the events logged before it and the held pairs as they were (see recovery.ts). */
  beforeCall(): CallRecord;
  clear(): void;
  dispose?(): void;
  /** Bytes of wasm linear memory held (wasm cores only). */
  bytes?(): number;
}
