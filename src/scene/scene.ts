// Scene: area of interest by cross-linked sorted lists or a cell grid. This
// facade validates every input, owns the id <-> slot mapping, and delegates
// to a core (scene-cores.ts picks it: wasm or the TypeScript reference, for
// either index).
// Both cores receive only valid, already-translated input, so they reject
// identically and a rejected call changes nothing.
import { SpatialError } from '../core/errors.js';
import { INSPECT, summary, keepName } from '../core/inspect.js';
import { CORE } from '../core/internals.js';
import { checkLimit, EventLimitReached, limits, memoryGuarded, outOfMemory } from '../core/limits.js';
import { DEFAULT_LAYER, DEFAULT_SEES, type SceneBackend, type SceneIndex } from './backend.js';
import { createSceneCore, resolveIndex, resolveCellSize } from './cores.js';
import { groupByWatcher, type GroupedEvents } from './grouped.js';
import { compactLog, NetView } from './net.js';
import { CIRCLE, MARKER, SceneShapes } from './shapes.js';
import { entityArrays, readSceneSnapshot, writeSceneSnapshot, type SceneSnapshot } from './snapshot.js';
import { SlotTable } from '../core/slot-table.js';
import { checkInto, deliver, Gather, noResults, readBoxes, readPoints, type QueryResults } from '../core/batch-results.js';
import type { FromBufferOptions } from '../core/snapshot-bytes.js';
import {
  checkAlive,
  checkArrayLike,
  checkCount,
  checkFinite,
  checkId,
  checkMask,
  checkMaxDistance,
  checkOptions,
  checkRange,
  checkRect,
  copyIds,
  copyNumbers,
  CopyRoom,
  shown,
} from '../core/validate.js';
import { resolveBackend, type Backend } from '../core/wasm.js';

/**
 * A view range: a square (cube) half-extent, per-axis half-extents, a circle
 * (a sphere in 3-D) of `radius`, or null for a marker that watches nothing.
 */
export type AoiRange =
  | number
  | { x: number; y: number; z?: number }
  | {
      /** The circle's (in 3-D the sphere's) radius, >= 0: T is inside when dx² + dy² (+ dz²) <= radius². */
      radius: number;
    }
  | null;

/** One visibility fact: `watcher` starts seeing, stops seeing, or sees a move of `target`. */
export interface AoiEvent {
  /** 'enter': watcher starts seeing target; 'leave': stops seeing it; 'move': target moved and watcher saw it before and after. */
  type: 'enter' | 'leave' | 'move';
  /** The entity whose view changed. */
  watcher: number;
  /** The entity seen. */
  target: number;
}

/** Options of the {@link Scene} constructor. */
export interface SceneOptions {
  /** 'wasm' (default, needs init()) or 'js' (the TypeScript reference). */
  backend?: Backend;
  /** 2 (default) or 3. */
  dimensions?: 2 | 3;
  /** Half-extent used when add is called without a range (default 2). */
  defaultRange?: number;
  /**
   * 'grid' (default: hashed cells, the faster and smaller index on every
   * measured world) or 'lists' (sorted lists per axis); the same events and
   * answers either way. See docs/scene-index.md.
   */
  index?: SceneIndex;
  /** The grid index's finest cell side, > 0 (default: defaultRange, or 1 when that is 0); the lists ignore it. */
  cellSize?: number;
  /**
   * 'log' (default): a drain reports every event in the order it happened.
   * 'net': a drain reports, per (watcher, target) pair, only the change since
   * the last drain (see {@link Scene.drain}).
   */
  events?: SceneEventMode;
  /** false: moves produce no move events at all (enter and leave only); default true. */
  moveEvents?: boolean;
  /**
   * The most events the scene holds between drains, an integer from 1 to
   * 16,777,216 (the default). A call whose events would pass it is refused
   * whole (LIMIT_EXCEEDED) and changes nothing; see docs/limits.md.
   */
  maxPendingEvents?: number;
}

/** Options of {@link Scene.nearest} and {@link Scene.nearest3}. */
export interface NearestOptions {
  /** Only entities at distance <= maxDistance count (closed); a number >= 0, default Infinity. */
  maxDistance?: number;
  /** Only entities whose layer mask shares a bit with this 32-bit mask count; default: every entity. */
  layer?: number;
}

/** Options of {@link Scene.nearestMany}: those of {@link Scene.nearest}, and arrays to write the answers into. */
export interface SceneNearestManyOptions extends NearestOptions {
  /** Arrays to write the answers into instead of fresh ones (see {@link QueryResults}). */
  into?: QueryResults;
}

/** Options of {@link Scene.add} and {@link Scene.add3}: the entity's layer masks and hysteresis margin. */
export interface AddOptions {
  /** The layers the entity is on, a 32-bit mask (default 1): W sees it only if W's `sees` shares a bit with it. */
  layer?: number;
  /** The layers the entity sees, a 32-bit mask (default -1, every bit): it sees T only if this shares a bit with T's `layer`. */
  sees?: number;
  /** Hysteresis, a finite number >= 0 (default 0); see {@link SetRangeOptions.margin}. */
  margin?: number;
}

/** Options of {@link Scene.setRange}. */
export interface SetRangeOptions {
  /**
   * Hysteresis, a finite number >= 0; omitted, the entity keeps its margin.
   * The entity starts seeing T when T is inside its range, and stops only
   * when T is outside its range grown by the margin: each half-extent + margin
   * for a box (outside on any axis), radius + margin for a circle.
   */
  margin?: number;
}

/** What a Scene's drains report: every event in order ('log') or each pair's net change ('net'). */
export type SceneEventMode = 'log' | 'net';

/** Every key a SceneOptions object may have. */
const SCENE_OPTION_KEYS = ['backend', 'dimensions', 'defaultRange', 'index', 'cellSize', 'events', 'moveEvents', 'maxPendingEvents'];
/** Every key a NearestOptions object may have. */
const NEAREST_OPTION_KEYS = ['maxDistance', 'layer'];
/** Every key a SceneNearestManyOptions object may have. */
const NEAREST_MANY_OPTION_KEYS = ['maxDistance', 'layer', 'into'];
/** Every key a FromBufferOptions object may have. */
const FROM_BUFFER_OPTION_KEYS = ['backend'];

/** Every key an AddOptions object may have. */
const ADD_OPTION_KEYS = ['layer', 'sees', 'margin'];
/** Every key a SetRangeOptions object may have. */
const SET_RANGE_OPTION_KEYS = ['margin'];

/** The one key of a circle range. */
const RADIUS_KEYS = ['radius'];
/** The keys a box range may have (z is ignored in 2-D). */
const BOX_KEYS = ['x', 'y', 'z'];

/** Event names by type code: ENTER, LEAVE, MOVE of event-codes.ts in turn. */
const EVENT_TYPES: ReadonlyArray<AoiEvent['type']> = ['enter', 'leave', 'move'];

const ascending = (a: number, b: number): number => a - b;

/** Where addMany and moveMany copy their arrays (see CopyRoom): shared by every scene, since no batch runs inside another. */
const batchRooms = { ids: new CopyRoom(), xs: new CopyRoom(), ys: new CopyRoom(), zs: new CopyRoom(), ranges: new CopyRoom() };

/**
 * A set of entities in 2-D or 3-D space, each with its own view box, that
 * reports who starts seeing, stops seeing and sees moving whom.
 *
 * Any call that needs memory the host will not give throws OUT_OF_MEMORY
 * and leaves the scene as it was, pending events included; the sizes a
 * scene stays within are in docs/limits.md.
 *
 * @example
 * ```ts
 * import { init, Scene } from 'spatialkit';
 * await init();
 *
 * const scene = new Scene({ defaultRange: 50 });  // the grid index, on wasm
 * scene.add(1, 0, 0);                             // sees 50 units each way
 * scene.add(2, 30, 10, { radius: 40 });           // a circle of radius 40
 * scene.add(3, 45, 0, null);                      // a marker: seen, sees nothing
 * scene.query(1);                                 // -> [2, 3]
 * scene.watchers(3);                              // -> [1, 2]
 * scene.drain().length;                           // -> 4: the enter events so far
 * scene.move(3, 200, 0);
 * scene.drain();                                  // -> [{ type: 'leave', watcher: 1, target: 3 },
 *                                                 //     { type: 'leave', watcher: 2, target: 3 }] in any order
 * scene.dispose();                                // frees its wasm memory now
 * ```
 */
export class Scene {
  static {
    keepName(this, 'Scene');
  }

  /** 2 or 3. */
  readonly dimensions: 2 | 3;
  /** Which core runs this scene. */
  readonly backend: Backend;
  /** Half-extent given to entities added without a range. */
  readonly defaultRange: number;
  /** The index this scene keeps: 'lists' or 'grid'. */
  readonly index: SceneIndex;
  /** What drains report: 'log' (every event, in order) or 'net' (each pair's change since the last drain). */
  readonly events: SceneEventMode;
  /** Whether moves produce move events. */
  readonly moveEvents: boolean;
  /** The most events the scene holds between drains. */
  readonly maxPendingEvents: number;
  /** The net fold, in 'net' mode. */
  private readonly net: NetView | null;
  /** Events taken from the core and not yet drained (pendingLength and a drainInto that did not fit leave them here). */
  private taken: Int32Array | null = null;
  /** In 'net' mode, the fold of `taken`, kept until new events arrive (folding a fold would lose first-event order). */
  private folded: Int32Array | null = null;
  /** Replaced by a rebuilt one when a call fails part way (see recover). */
  private core: SceneBackend;
  /** The most entities the index holds. */
  private readonly maxEntities: number;
  /** The grid's cell side as resolved (kept for snapshots; the lists ignore it). */
  private readonly cellSize: number;
  /** Every entity's position, range and masks by slot, for snapshots, recoveries and the net view's moves. */
  private readonly shapes = new SceneShapes();
  private readonly slots = new SlotTable();
  private readonly freeSlots: number[] = [];
  private nextSlot = 1; // slot 0 holds the lists' head and tail
  private disposed = false;
  private batchSlots = new Int32Array(64);

  /**
   * Creates an empty scene. On the default wasm backend, await init() first
   * (NOT_INITIALIZED otherwise); `backend: 'js'` needs no init(). Unknown
   * option keys throw INVALID_ARGUMENT.
   */
  constructor(options: SceneOptions = {}) {
    checkOptions('Scene', options, SCENE_OPTION_KEYS);
    this.backend = resolveBackend(options.backend);
    const dimensions = options.dimensions ?? 2;
    if (dimensions !== 2 && dimensions !== 3) {
      throw new SpatialError('INVALID_ARGUMENT', `dimensions must be 2 or 3, got ${String(dimensions)}`);
    }
    this.dimensions = dimensions;
    const defaultRange = options.defaultRange ?? 2;
    checkRange('defaultRange', defaultRange);
    this.defaultRange = defaultRange;
    this.index = resolveIndex(options.index);
    const cellSize = resolveCellSize(options.cellSize, defaultRange);
    const events = options.events === undefined ? 'log' : options.events;
    if (events !== 'log' && events !== 'net') {
      throw new SpatialError('INVALID_ARGUMENT', `events must be 'log' or 'net', got ${String(events)}`);
    }
    const moveEvents = options.moveEvents === undefined ? true : options.moveEvents;
    if (typeof moveEvents !== 'boolean') {
      throw new SpatialError('INVALID_ARGUMENT', `moveEvents must be true or false, got ${String(moveEvents)}`);
    }
    const maxPendingEvents = options.maxPendingEvents ?? limits.pendingEvents;
    if (!Number.isInteger(maxPendingEvents) || maxPendingEvents < 1 || maxPendingEvents > limits.pendingEvents) {
      throw new SpatialError('INVALID_ARGUMENT', `maxPendingEvents must be an integer in [1, ${limits.pendingEvents}], got ${String(maxPendingEvents)}`);
    }
    this.events = events;
    this.moveEvents = moveEvents;
    this.maxPendingEvents = maxPendingEvents;
    this.maxEntities = this.index === 'grid' ? limits.sceneGridEntities : limits.sceneListsEntities;
    this.net = events === 'net' ? new NetView(moveEvents, this.shapes) : null;
    this.cellSize = cellSize;
    this.core = this.newCore();
  }

  /** An empty core for this scene's backend, index and options. */
  private newCore(): SceneBackend {
    const core = createSceneCore(this.backend, this.index, this.dimensions, this.cellSize);
    if (!this.moveEvents) core.moveEvents = false;
    core.eventLimit = this.maxPendingEvents * 3;
    return core;
  }

  /** @internal The core that runs this object's algorithm: the test hook of src/core/internals.ts. */
  get [CORE](): SceneBackend {
    return this.core;
  }

  /** @internal What console.log and util.inspect print in Node: the class name and a summary, not the arrays inside. */
  [INSPECT](): string {
    if (this.disposed) return summary('Scene', 'disposed');
    return summary('Scene', { size: this.slots.size, dimensions: this.dimensions, index: this.index, backend: this.backend });
  }

  /** Number of entities in the scene. */
  get size(): number {
    this.alive();
    return this.slots.size;
  }

  /**
   * Bytes of wasm linear memory this scene holds (arrays by capacity, watcher
   * lists, event buffer); 0 for the js backend.
   */
  get memoryBytes(): number {
    this.alive();
    return this.core.bytes?.() ?? 0;
  }

  /**
   * Adds entity id at (x, y) (z = 0 in a 3-D scene) with its view range
   * (default: defaultRange; null: a marker) and its layer masks (options).
   * LIMIT_EXCEEDED, changing nothing, when the scene holds its most entities
   * or the call's events would pass maxPendingEvents (docs/limits.md).
   */
  add(id: number, x: number, y: number, range?: AoiRange, options?: AddOptions): void {
    this.insert(id, x, y, 0, range, false, options);
  }

  /** Adds entity id at (x, y, z) to a 3-D scene; range is a cube half-extent, {x, y, z}, {radius} (a sphere) or null; options as for add. */
  add3(id: number, x: number, y: number, z: number, range?: AoiRange, options?: AddOptions): void {
    this.alive();
    if (this.dimensions !== 3) this.fail('INVALID_ARGUMENT', 'add3 needs a 3-D scene');
    this.insert(id, x, y, z, range, true, options);
  }

  /**
   * Changes id's masks: the layers it is on and the layers it sees (32-bit
   * integers; any other value throws INVALID_ARGUMENT). Every pair with id
   * as watcher or as target whose visibility changes gets an enter or a leave;
   * LIMIT_EXCEEDED, changing nothing, when those would pass maxPendingEvents.
   */
  setLayers(id: number, layer: number, sees: number): void {
    this.alive();
    const slot = this.slotOf(id);
    const [l, s] = [checkMask('layer', layer), checkMask('sees', sees)];
    this.changing(() => this.core.setLayers(slot, l, s));
    this.shapes.setLayers(slot, l, s);
  }

  /**
   * Moves entity id to (x, y[, z]); z is required in 3-D scenes and ignored
   * in 2-D ones. LIMIT_EXCEEDED, changing nothing, when the move's events
   * would pass maxPendingEvents.
   */
  move(id: number, x: number, y: number, z?: number): void {
    this.alive();
    const slot = this.slotOf(id);
    checkFinite('x', x);
    checkFinite('y', y);
    const zz = this.zOf(z);
    this.changing(() => this.core.move(slot, x, y, zz));
    this.net?.moving(slot);
    this.shapes.place(slot, x, y, zz);
  }

  /**
   * Removes entity id: every watcher of it and everything it saw get a leave.
   * Returns false, changing nothing, when id is not in the scene.
   * LIMIT_EXCEEDED, changing nothing, when the leaves would pass maxPendingEvents.
   */
  remove(id: number): boolean {
    this.alive();
    const slot = this.slots.get(id);
    if (slot === undefined) {
      checkId(id);
      return false;
    }
    this.changing(() => this.core.remove(slot));
    this.net?.removing(id, slot);
    this.slots.delete(id);
    this.freeSlots.push(slot);
    return true;
  }

  /**
   * Changes what id sees, and its margin when `options.margin` is given (else
   * it keeps its margin); only id's own view produces enter / leave events. A
   * pair id sees stays seen while the target is inside the new range grown by
   * the margin; a pair it does not see starts only inside the new range.
   * LIMIT_EXCEEDED, changing nothing, when the events would pass maxPendingEvents.
   */
  setRange(id: number, range: AoiRange, options?: SetRangeOptions): void {
    this.alive();
    const slot = this.slotOf(id);
    checkOptions('setRange', options, SET_RANGE_OPTION_KEYS);
    const margin = options?.margin === undefined ? this.shapes.margin(slot) : checkMargin(options.margin);
    const [rx, ry, rz, watcher, round] = this.parseRange(range);
    this.changing(() => this.core.setRange(slot, rx, ry, rz, watcher, round, watcher ? margin : 0));
    this.shapes.setRange(slot, rx, ry, rz, watcher, round, margin);
  }

  /**
   * Makes watcher see target as though it had seen it all along, so that a
   * pair held only by watcher's margin carries over from another scene (a
   * neighbouring region's, say): when the masks meet and target is inside
   * watcher's range grown by its margin, and watcher does not see it yet,
   * the pair becomes visible with an enter event; otherwise nothing changes.
   * LIMIT_EXCEEDED when that event would pass maxPendingEvents.
   */
  hold(watcher: number, target: number): void {
    this.alive();
    const [w, t] = [this.slotOf(watcher), this.slotOf(target)];
    this.changing(() => this.core.hold(w, t));
  }

  /** True when id is in the scene. */
  has(id: number): boolean {
    this.alive();
    return this.slots.has(id);
  }

  /** Position of id; z is 0 in 2-D scenes. */
  position(id: number): { x: number; y: number; z: number } {
    this.alive();
    const slot = this.slotOf(id);
    return { x: this.shapes.coordinate(slot, 0), y: this.shapes.coordinate(slot, 1), z: this.shapes.coordinate(slot, 2) };
  }

  /** Ids that id sees now, ascending. */
  query(id: number): number[] {
    this.alive();
    const slot = this.slotOf(id);
    return this.reading(() => this.core.query(slot).sort(ascending));
  }

  /** Ids that see id now, ascending. */
  watchers(id: number): number[] {
    this.alive();
    const slot = this.slotOf(id);
    return this.reading(() => this.core.watchers(slot).sort(ascending));
  }

  /**
   * Ids positioned inside the closed box, ascending; the z bounds default to
   * unbounded (minZ may be -Infinity, maxZ Infinity). Throws INVALID_NUMBER
   * for a bound that is not a number as described, INVALID_RECT for min > max.
   */
  queryBox(minX: number, minY: number, maxX: number, maxY: number, minZ = -Infinity, maxZ = Infinity): number[] {
    this.alive();
    checkRect(minX, minY, maxX, maxY);
    checkZBound('minZ', minZ, Infinity);
    checkZBound('maxZ', maxZ, -Infinity);
    if (minZ > maxZ) this.fail('INVALID_RECT', `minZ ${minZ} > maxZ ${maxZ}`);
    return this.reading(() => this.core.queryBox(minX, minY, minZ, maxX, maxY, maxZ).sort(ascending));
  }

  /**
   * The ids of the k entities nearest to (x, y) in a 2-D scene, nearest
   * first; entities at equal distance come by id, ascending. An entity's
   * distance is that from the point to its position, whatever its range;
   * distances are compared squared (dx * dx + dy * dy, in double precision),
   * as QuadTree.nearest does. With `maxDistance`, only entities at distance
   * <= maxDistance count (closed), so the answer may hold fewer than k ids;
   * with `layer`, only entities whose layer mask shares a bit with it. A
   * fresh Int32Array the caller owns, from one call into the core.
   * Throws INVALID_ARGUMENT (3-D scene, k not an integer >= 0, unknown
   * option key, layer not a 32-bit integer), INVALID_NUMBER (a non-finite
   * coordinate, a NaN maxDistance), NEGATIVE_RANGE (negative maxDistance).
   */
  nearest(x: number, y: number, k: number, options?: NearestOptions): Int32Array {
    this.alive();
    if (this.dimensions !== 2) this.fail('INVALID_ARGUMENT', 'nearest needs a 2-D scene; use nearest3 in 3-D');
    return this.findNearest('Scene.nearest', x, y, 0, k, options);
  }

  /** {@link nearest} in a 3-D scene, from (x, y, z), with dz * dz in the distance; INVALID_ARGUMENT in a 2-D scene. */
  nearest3(x: number, y: number, z: number, k: number, options?: NearestOptions): Int32Array {
    this.alive();
    if (this.dimensions !== 3) this.fail('INVALID_ARGUMENT', 'nearest3 needs a 3-D scene; use nearest in 2-D');
    checkFinite('z', z);
    return this.findNearest('Scene.nearest3', x, y, z, k, options);
  }

  /**
   * Many {@link nearest} searches in one call (one crossing into wasm), in a
   * 2-D scene: search q is from (xs[q], ys[q]), and its ids, nearest first,
   * are `ids.subarray(offsets[q], offsets[q + 1])` of the result, in fresh
   * arrays or in `options.into` (see {@link QueryResults}). Throws as
   * {@link nearest} does, and INVALID_ARGUMENT for xs and ys of different
   * lengths or an `into` too small; a rejected call writes nothing.
   *
   * @example
   * ```ts
   * import { init, Scene } from 'spatialkit';
   * await init();
   *
   * const scene = new Scene({ defaultRange: 10 });
   * scene.addMany([1, 2, 3], [0, 5, 40], [0, 0, 0]);
   * const { offsets, ids } = scene.nearestMany([1, 39], [0, 0], 1);
   * [...ids.subarray(offsets[0], offsets[1])]; // -> [1]
   * [...ids.subarray(offsets[1], offsets[2])]; // -> [3]
   * ```
   */
  nearestMany(xs: ArrayLike<number>, ys: ArrayLike<number>, k: number, options?: SceneNearestManyOptions): QueryResults {
    this.alive();
    if (this.dimensions !== 2) this.fail('INVALID_ARGUMENT', 'nearestMany needs a 2-D scene; use nearest3 in 3-D');
    const [px, py] = readPoints(xs, ys);
    const count = px.length;
    const [most, maxDistance, filtered, mask] = this.readNearest('Scene.nearestMany', k, options, NEAREST_MANY_OPTION_KEYS);
    const into = checkInto(options?.into);
    if (most === 0 || count === 0) return noResults(count, into);
    const core = this.core;
    const found = this.reading(() => {
      if (core.nearestMany !== undefined) return core.nearestMany(px, py, count, most, maxDistance, filtered, mask);
      const out = new Gather(count);
      for (let q = 0; q < count; q++) out.add(q, core.nearest(px[q], py[q], 0, most, maxDistance, filtered, mask));
      return out.gathered(count);
    });
    return deliver(found.offsets, found.ids, count, into);
  }

  /**
   * Many {@link queryBox} searches in one call (one crossing into wasm):
   * boxes flat as [minX, minY, maxX, maxY, ...], z unbounded; box q's ids,
   * ascending, are `ids.subarray(offsets[q], offsets[q + 1])` of the result,
   * in fresh arrays or in `into` (see {@link QueryResults}). Throws
   * INVALID_ARGUMENT (a length not a multiple of four, an `into` too
   * small), INVALID_NUMBER or INVALID_RECT as {@link queryBox} does; a
   * rejected call writes nothing.
   */
  queryBoxMany(boxes: ArrayLike<number>, into?: QueryResults): QueryResults {
    this.alive();
    const flat = readBoxes(boxes);
    const count = flat.length / 4;
    const checked = checkInto(into);
    const core = this.core;
    const found = this.reading(() => {
      if (core.queryBoxMany !== undefined) return core.queryBoxMany(flat, count);
      const out = new Gather(count);
      for (let q = 0; q < count; q++) out.add(q, Int32Array.from(core.queryBox(flat[4 * q], flat[4 * q + 1], -Infinity, flat[4 * q + 2], flat[4 * q + 3], Infinity)));
      return out.gathered(count);
    });
    for (let q = 0; q < count; q++) found.ids.subarray(found.offsets[q], found.offsets[q + 1]).sort();
    return deliver(found.offsets, found.ids, count, checked);
  }

  /** Every id in the scene, ascending (a fresh array, like query, watchers and queryBox). */
  ids(): number[] {
    this.alive();
    return Array.from(Int32Array.from(this.slots.keys()).sort());
  }

  /**
   * The events since the last drain, then forgets them.
   *
   * In 'log' mode (the default) events are listed in the order they happened:
   * calls in the order they were made, a batch's entries in array order, so
   * the events of any one (watcher, target) pair are that pair's history in
   * order and applying a drain front to back leaves the right state. (Within
   * one call a pair has at most one event; the order among the pairs of one
   * call is unspecified.)
   *
   * In 'net' mode a drain holds at most one event per pair: enter if the
   * pair was not visible at the last drain and is now, leave for the reverse,
   * move if it was visible at both and the target stands elsewhere than at
   * the last drain; nothing otherwise (a pair that flipped and flipped back,
   * an entity added and removed in between). A net drain is sorted by
   * watcher, ascending, and a watcher's pairs are in the order of their first
   * event since the last drain. With moveEvents false, no move is reported in
   * either mode.
   */
  drain(): AoiEvent[] {
    const flat = this.drainArray();
    const events: AoiEvent[] = new Array(flat.length / 3);
    for (let k = 0, i = 0; i < flat.length; k++, i += 3) {
      events[k] = { type: EVENT_TYPES[flat[i]], watcher: flat[i + 1], target: flat[i + 2] };
    }
    return events;
  }

  /** The same events as drain, flat: [type, watcher, target, ...] with type ENTER (0), LEAVE (1), MOVE (2). */
  drainArray(): Int32Array {
    this.alive();
    const out = this.pending(true);
    this.forget();
    return out;
  }

  /**
   * The same events as drainArray, grouped by watcher: `watchers` ascending,
   * `events` sorted by watcher (each watcher's events in drain order), and
   * watchers[g]'s events at events.subarray(offsets[g], offsets[g + 1]).
   * Fresh arrays the caller owns.
   */
  drainGrouped(): GroupedEvents {
    this.alive();
    const grouped = groupByWatcher(this.pending(true));
    this.forget();
    return grouped;
  }

  /**
   * The number of Int32 entries (three per event) the next drain holds: the
   * room drainInto needs. Asking changes nothing a drain reports.
   */
  get pendingLength(): number {
    this.alive();
    return this.pending().length;
  }

  /**
   * Drains the events of drainArray into buffer from index offset (default 0)
   * and returns how many entries it wrote (pendingLength, three per event).
   * When they do not fit, it throws INVALID_ARGUMENT and drains nothing, so
   * a caller may size its buffer by pendingLength and call again.
   * INVALID_ARGUMENT also for a buffer that is not an Int32Array or whose
   * buffer is detached (transferred), even with nothing pending, and for an
   * offset that is not an integer in [0, buffer.length].
   */
  drainInto(buffer: Int32Array, offset = 0): number {
    this.alive();
    if (!(buffer instanceof Int32Array)) this.fail('INVALID_ARGUMENT', 'drainInto needs an Int32Array');
    if (isDetached(buffer)) this.fail('INVALID_ARGUMENT', 'drainInto needs an Int32Array whose buffer is not detached (transferred)');
    if (!Number.isInteger(offset) || offset < 0 || offset > buffer.length) {
      this.fail('INVALID_ARGUMENT', `offset must be an integer in [0, ${buffer.length}], got ${String(offset)}`);
    }
    const events = this.pending(true);
    if (events.length > buffer.length - offset) {
      this.fail('INVALID_ARGUMENT', `drainInto needs ${events.length} entries from offset ${offset}, the buffer has ${buffer.length - offset}`);
    }
    buffer.set(events, offset);
    this.forget();
    return events.length;
  }

  /**
   * What the next drain reports: the core's new events joined to those held,
   * folded in 'net' mode. `draining`: a drain that forgets them next unless
   * it throws, so a core may fold its log where it lies, keeping it until
   * forget drops it (the fold is not kept: new events could not join it).
   */
  private pending(draining = false): Int32Array {
    if (draining && this.net !== null && this.taken === null) {
      const net = this.net;
      const folded = this.reading(() => net.foldInCore(this.core, (id) => this.slots.get(id)));
      if (folded !== null) return folded;
    }
    this.keep(this.reading(() => this.core.drain()));
    this.taken ??= new Int32Array(0);
    if (this.net === null) return this.taken;
    return (this.folded ??= this.net.fold(this.taken, (id) => this.slots.get(id)));
  }

  /** Forgets the events just drained; in 'net' mode, what is visible now becomes what the next drain compares against. */
  private forget(): void {
    // Nothing taken out of the core: the log was folded where it lies, and is still there.
    if (this.taken === null) this.core.dropEvents?.();
    this.taken = null;
    this.folded = null;
    this.net?.drained();
    this.limitEvents();
  }

  /** Appends events the core logged (before a failed call, or drained from it) to those held for the next drain. */
  private keep(events: Int32Array): void {
    if (events.length !== 0) {
      if (this.taken === null || this.taken.length === 0) {
        this.taken = events;
      } else {
        const joined = new Int32Array(this.taken.length + events.length);
        joined.set(this.taken);
        joined.set(events, this.taken.length);
        this.taken = joined;
      }
      this.folded = null;
    }
    this.limitEvents();
  }

  /** Lets the core log as many events as maxPendingEvents leaves beside those held here. */
  private limitEvents(): void {
    const limit = 3 * this.maxPendingEvents - (this.taken?.length ?? 0);
    if (this.core.eventLimit !== limit) this.core.eventLimit = limit;
  }

  /**
   * Runs a call on the core whole or not at all: should it fail part way,
   * recover puts the scene back as it was and throws, or (in 'net' mode,
   * having folded what is pending) lets the call be tried once more.
   */
  private changing(call: () => void): void {
    for (let attempt = 0; ; attempt++) {
      this.core.beginCall();
      try {
        call();
        return;
      } catch (error) {
        this.recover(error, attempt);
      }
    }
  }

  /**
   * Puts the scene back as it was before a call that failed part way, then
   * throws: LIMIT_EXCEEDED when an event would have passed maxPendingEvents,
   * OUT_OF_MEMORY when memory ran out; anything else goes on as it came. The
   * core is emptied and refilled lean (keeping the room its arrays have and
   * the shape of its index, so that the scene as it was fits in the memory
   * it held) with every entity as this facade last saw it (position, range,
   * masks, margin) and the pairs held before the call, writing no event; the events logged before the call join those
   * the next drain reports. In 'net' mode, an event limit on a first attempt
   * first folds what is pending down to the first and last event of each
   * pair (what a net drain reads): when that makes room this returns, and
   * the caller tries the call once more.
   */
  private recover(error: unknown, attempt: number): void {
    try {
      const record = this.core.beforeCall();
      this.core.drain();
      this.core.lean = true;
      this.core.clear();
      this.reload(record.held);
      this.core.lean = false;
      this.keep(record.events);
    } catch (failure) {
      // Not even the scene as it was fits any more: it cannot be kept.
      this.dispose();
      throw new SpatialError('OUT_OF_MEMORY', `this Scene ran out of memory and could not be rebuilt (${String(failure)}); it is disposed`);
    }
    const limited = error instanceof EventLimitReached;
    if (limited && this.net !== null && attempt === 0 && this.taken !== null) {
      const pending = this.taken.length;
      this.taken = compactLog(this.taken);
      this.folded = null;
      this.limitEvents();
      if (this.taken.length < pending) return;
    }
    if (limited) {
      throw new SpatialError(
        'LIMIT_EXCEEDED',
        `the call would leave more than ${this.maxPendingEvents} events pending (maxPendingEvents); nothing changed: drain more often, or use events: 'net'`,
      );
    }
    throw outOfMemory(error, 'this Scene') ?? error;
  }

  /** Loads every entity into the empty core as this facade has it, then the held pairs, writing no event. */
  private reload(held: Int32Array): void {
    const core = this.core;
    const n = this.slots.size;
    const ids = Int32Array.from(this.slots.keys());
    const slots = ids.map((id) => this.slots.get(id)!);
    const axis = (a: number): Float64Array => Float64Array.from(slots, (slot) => this.shapes.coordinate(slot, a));
    const shapes = this.shapes;
    core.silent = true;
    core.addMany(slots, ids, axis(0), axis(1), this.dimensions === 3 ? axis(2) : null, Float64Array.from(slots, (slot) => shapes.halfExtent(slot, 0)));
    // addMany gave square boxes without margin: the other ranges and the masks, then the margins.
    const rangeOf = (slot: number): [number, number, number, boolean, boolean] => {
      const kind = shapes.kind(slot);
      return [shapes.halfExtent(slot, 0), shapes.halfExtent(slot, 1), shapes.halfExtent(slot, 2), kind !== MARKER, kind === CIRCLE];
    };
    for (let k = 0; k < n; k++) {
      const slot = slots[k];
      const [rx, ry, rz, watcher, round] = rangeOf(slot);
      if (!watcher || round || ry !== rx || (this.dimensions === 3 && rz !== rx)) core.setRange(slot, rx, ry, rz, watcher, round, 0);
      if (shapes.layer(slot) !== DEFAULT_LAYER || shapes.seen(slot) !== DEFAULT_SEES) core.setLayers(slot, shapes.layer(slot), shapes.seen(slot));
    }
    for (let k = 0; k < n; k++) {
      const [rx, ry, rz, watcher, round] = rangeOf(slots[k]);
      if (watcher && shapes.margin(slots[k]) !== 0) core.setRange(slots[k], rx, ry, rz, watcher, round, shapes.margin(slots[k]));
    }
    for (let k = 0; k < held.length; k += 2) core.hold(held[k], held[k + 1]);
    core.silent = false;
  }

  /**
   * Moves ids[k] to (xs[k], ys[k][, zs[k]]) in array order, with the events of
   * as many move calls, in one crossing. The arrays may be plain arrays or
   * typed arrays of any kind, all of one length; zs is required in a 3-D
   * scene and ignored in a 2-D one. Rejected whole, before anything moves, if
   * any entry is invalid (INVALID_ARGUMENT for a non-array or a length
   * mismatch, INVALID_ID / UNKNOWN_ID, INVALID_NUMBER for an entry that is not
   * a finite number), and with LIMIT_EXCEEDED when its events would pass
   * maxPendingEvents.
   *
   * @example
   * ```ts
   * import { init, Scene } from 'spatialkit';
   * await init();
   *
   * const scene = new Scene({ defaultRange: 10 });
   * const ids = Int32Array.from({ length: 1000 }, (_, i) => i);
   * const xs = Float64Array.from(ids, (i) => i * 20);      // 20 apart: nobody sees anybody
   * scene.addMany(ids, xs, new Float64Array(1000));
   * scene.moveMany(ids, xs.map((x) => x + 5), new Float64Array(1000)); // one call for the whole tick
   * scene.drainArray().length;                             // -> 0
   * scene.position(999);                                   // -> { x: 19985, y: 0, z: 0 }
   * ```
   */
  moveMany(ids: ArrayLike<number>, xs: ArrayLike<number>, ys: ArrayLike<number>, zs?: ArrayLike<number>): void {
    this.alive();
    const [batchIds, x, y, z] = this.readBatch(ids, xs, ys, zs);
    const n = batchIds.length;
    const slots = this.batch(n);
    for (let k = 0; k < n; k++) slots[k] = this.slotOf(batchIds[k]);
    const moved = slots.subarray(0, n);
    this.changing(() => this.core.moveMany(moved, x, y, z));
    this.net?.movingMany(moved);
    this.shapes.placeMany(moved, x, y, z);
  }

  /**
   * Adds ids[k] at (xs[k], ys[k][, zs[k]]) with square half-extent ranges[k]
   * (defaultRange when omitted), with the events of as many add calls, in one
   * crossing. The arrays may be plain arrays or typed arrays of any kind, all
   * of one length; zs is required in a 3-D scene and ignored in a 2-D one.
   * Rejected whole, before anything changes, if any entry is
   * invalid (as {@link moveMany}, plus DUPLICATE_ID and NEGATIVE_RANGE), and
   * with LIMIT_EXCEEDED when the batch would pass the scene's most entities
   * or its events maxPendingEvents (docs/limits.md).
   */
  addMany(ids: ArrayLike<number>, xs: ArrayLike<number>, ys: ArrayLike<number>, zs?: ArrayLike<number>, ranges?: ArrayLike<number>): void {
    this.alive();
    const [batchIds, x, y, z] = this.readBatch(ids, xs, ys, zs);
    const n = batchIds.length;
    const r = ranges === undefined ? new Float64Array(n).fill(this.defaultRange) : copyNumbers('ranges', ranges, n, 'ranges', batchRooms.ranges);
    checkLimit(`the number of entities (${this.index} index)`, this.slots.size + n, this.maxEntities);
    const fresh = new Set<number>();
    for (let k = 0; k < n; k++) {
      const id = batchIds[k];
      if (this.slots.has(id) || fresh.has(id)) this.fail('DUPLICATE_ID', `entity ${id} is already in the scene (addMany entry ${k})`);
      fresh.add(id);
    }
    const slots = this.batch(n).subarray(0, n);
    for (let k = 0; k < n; k++) slots[k] = this.freeSlot(k);
    this.changing(() => this.core.addMany(slots, batchIds, x, y, z, r));
    for (let k = 0; k < n; k++) {
      this.takeSlot();
      this.slots.set(batchIds[k], slots[k]);
      this.net?.added(slots[k], batchIds[k]);
      this.shapes.place(slots[k], x[k], y[k], z === null ? 0 : z[k]);
      this.shapes.setRange(slots[k], r[k], r[k], r[k], true, false, 0);
      this.shapes.setLayers(slots[k], DEFAULT_LAYER, DEFAULT_SEES);
    }
  }

  /**
   * The scene as bytes that {@link Scene.fromBuffer} turns back into an
   * equal scene: its options (dimensions, defaultRange, index, cellSize,
   * events, moveEvents) and every entity's id, position, range and layer
   * masks and margin, and the pairs seen only thanks to a margin (they
   * depend on history). Undrained events are not part of a snapshot. Entities are written
   * by id, so scenes with the same options and entities give the same bytes,
   * whatever their history and whichever backend holds them. The format is
   * versioned and checksummed.
   */
  toBuffer(): Uint8Array {
    this.alive();
    const ids = Int32Array.from(this.slots.keys()).sort();
    const n = ids.length;
    const s: SceneSnapshot = {
      dimensions: this.dimensions,
      index: this.index,
      events: this.events,
      moveEvents: this.moveEvents,
      defaultRange: this.defaultRange,
      cellSize: this.cellSize,
      ids,
      ...entityArrays(n),
    };
    const slots = ids.map((id) => this.slots.get(id)!);
    for (let i = 0; i < n; i++) for (let axis = 0; axis < 3; axis++) s.positions[3 * i + axis] = this.shapes.coordinate(slots[i], axis);
    for (let i = 0; i < n; i++) {
      const slot = slots[i];
      s.kinds[i] = this.shapes.kind(slot);
      for (let axis = 0; axis < 3; axis++) s.halfExtents[3 * i + axis] = this.shapes.halfExtent(slot, axis);
      s.layers[i] = this.shapes.layer(slot);
      s.sees[i] = this.shapes.seen(slot);
      s.margins[i] = this.shapes.margin(slot);
    }
    s.held = this.heldIds();
    return writeSceneSnapshot(s);
  }

  /** The pairs visible only thanks to a margin, as ids [w, t, ...], ascending by watcher then target. */
  private heldIds(): Int32Array {
    const slots = this.core.heldPairs();
    if (slots.length === 0) return slots;
    const idOf = new Map<number, number>();
    for (const id of this.slots.keys()) idOf.set(this.slots.get(id)!, id);
    const pairs: Array<[number, number]> = [];
    for (let k = 0; k < slots.length; k += 2) pairs.push([idOf.get(slots[k])!, idOf.get(slots[k + 1])!]);
    pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return Int32Array.from(pairs.flat());
  }

  /**
   * A scene restored from {@link toBuffer}'s bytes, written by either backend
   * and either index: the same options (the index as written) and entities,
   * so the same answers to query, watchers, queryBox, nearest and ids, and
   * the same events from every later operation. Restoring produces no
   * events: the first drain reports only what happens after fromBuffer
   * (undrained events of the scene that was written are not in the bytes).
   * `options.backend` picks the backend (default 'wasm'). Throws
   * INVALID_SNAPSHOT for bytes that are not a whole, intact snapshot of this
   * format version or that describe an impossible scene (duplicate ids, a
   * non-finite position, a negative range, unknown flags); INVALID_ARGUMENT
   * for something other than a Uint8Array, a bad backend or an unknown
   * option key.
   */
  static fromBuffer(bytes: Uint8Array, options?: FromBufferOptions): Scene {
    checkOptions('Scene.fromBuffer', options, FROM_BUFFER_OPTION_KEYS);
    const backend = resolveBackend(options?.backend);
    const s = readSceneSnapshot(bytes);
    const { dimensions, defaultRange, index, cellSize, events, moveEvents } = s;
    let scene: Scene;
    try {
      scene = new Scene({ backend, dimensions, defaultRange, index, cellSize, events, moveEvents });
    } catch (error) {
      throw invalidSnapshot(error);
    }
    try {
      scene.restore(s);
    } catch (error) {
      scene.dispose();
      throw invalidSnapshot(error);
    }
    return scene;
  }

  /**
   * Adds a snapshot's entities to this empty scene: one batch of square
   * boxes, then the ranges and masks that differ from those, then the
   * margins (what is visible then is what the plain ranges hold), then the
   * held pairs, then a drain that forgets the add events (and, in 'net'
   * mode, makes what is visible the baseline of the next drain). A held pair
   * the scene cannot hold (outside the grown range, masks that do not meet,
   * inside the plain range) is an invalid snapshot.
   */
  private restore(s: SceneSnapshot): void {
    this.core.silent = true;
    const n = s.ids.length;
    const axis = (a: number): Float64Array => Float64Array.from({ length: n }, (_, i) => s.positions[3 * i + a]);
    const squares = Float64Array.from({ length: n }, (_, i) => s.halfExtents[3 * i]);
    this.addMany(s.ids, axis(0), axis(1), this.dimensions === 3 ? axis(2) : undefined, squares);
    // A square box is what addMany gave: only other ranges are set again.
    for (let i = 0; i < n; i++) {
      const range = rangeIn(s, i);
      if (typeof range !== 'number') this.setRange(s.ids[i], range);
      if (s.layers[i] !== DEFAULT_LAYER || s.sees[i] !== DEFAULT_SEES) this.setLayers(s.ids[i], s.layers[i], s.sees[i]);
    }
    for (let i = 0; i < n; i++) {
      if (s.margins[i] !== 0) this.setRange(s.ids[i], rangeIn(s, i), { margin: s.margins[i] });
    }
    for (let k = 0; k < s.held.length; k += 2) this.core.hold(this.slots.get(s.held[k])!, this.slots.get(s.held[k + 1])!);
    if (this.core.heldPairs().length !== s.held.length) this.fail('INVALID_ARGUMENT', 'a held pair is not one the scene can hold');
    this.core.silent = false;
    this.drainArray();
  }

  /** Removes every entity and forgets undrained events (no leave events). */
  clear(): void {
    this.alive();
    this.core.clear();
    this.forget();
    this.slots.clear();
    this.freeSlots.length = 0;
    this.nextSlot = 1;
  }

  /**
   * Frees the scene's wasm memory now; every later call throws DISPOSED. A
   * scene dropped without dispose() is freed once garbage-collected, which
   * may be much later: dispose() is the prompt way.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.core.dispose?.();
    this.slots.clear();
  }

  private insert(id: number, x: number, y: number, z: number, range: AoiRange | undefined, is3d: boolean, options: AddOptions | undefined): void {
    this.alive();
    checkOptions(is3d ? 'add3' : 'add', options, ADD_OPTION_KEYS);
    const layer = options?.layer === undefined ? DEFAULT_LAYER : checkMask('layer', options.layer);
    const sees = options?.sees === undefined ? DEFAULT_SEES : checkMask('sees', options.sees);
    const margin = options?.margin === undefined ? 0 : checkMargin(options.margin);
    checkId(id);
    if (this.slots.has(id)) this.fail('DUPLICATE_ID', `entity ${id} is already in the scene`);
    checkFinite('x', x);
    checkFinite('y', y);
    if (is3d) checkFinite('z', z);
    const [rx, ry, rz, watcher, round] = this.parseRange(range === undefined ? this.defaultRange : range);
    checkLimit(`the number of entities (${this.index} index)`, this.slots.size + 1, this.maxEntities);
    const slot = this.freeSlot(0);
    this.changing(() => this.core.add(slot, id, x, y, z, rx, ry, rz, watcher, round, layer, sees, watcher ? margin : 0));
    this.takeSlot();
    this.slots.set(id, slot);
    this.net?.added(slot, id);
    this.shapes.place(slot, x, y, z);
    this.shapes.setRange(slot, rx, ry, rz, watcher, round, margin);
    this.shapes.setLayers(slot, layer, sees);
  }

  private findNearest(where: string, x: number, y: number, z: number, k: number, options: NearestOptions | undefined): Int32Array {
    checkFinite('x', x);
    checkFinite('y', y);
    const [count, maxDistance, filtered, mask] = this.readNearest(where, k, options, NEAREST_OPTION_KEYS);
    if (count === 0) return new Int32Array(0);
    return this.reading(() => this.core.nearest(x, y, z, count, maxDistance, filtered, mask));
  }

  /** Checks k and a nearest search's options; returns how many to find (k, at most the scene's size), the maximum distance, whether a layer filters and its mask. */
  private readNearest(where: string, k: number, options: SceneNearestManyOptions | undefined, keys: string[]): [number, number, boolean, number] {
    checkCount('k', k);
    checkOptions(where, options, keys);
    const maxDistance = options?.maxDistance === undefined ? Infinity : options.maxDistance;
    checkMaxDistance(maxDistance);
    const layer = options?.layer;
    const mask = layer === undefined ? 0 : checkMask('layer', layer);
    return [Math.min(k, this.slots.size), maxDistance, layer !== undefined, mask];
  }


  /** A range as [rx, ry, rz, watcher, round]; a circle's half-extents are its radius on every axis. */
  private parseRange(range: AoiRange): [number, number, number, boolean, boolean] {
    if (range === null) return [0, 0, 0, false, false];
    if (typeof range === 'number') {
      checkRange('range', range);
      return [range, range, range, true, false];
    }
    if (typeof range !== 'object') this.fail('INVALID_ARGUMENT', `range must be a number, {x, y[, z]}, {radius} or null`);
    if ('radius' in range) {
      checkOptions('range', range, RADIUS_KEYS);
      checkRange('range.radius', range.radius);
      return [range.radius, range.radius, range.radius, true, true];
    }
    const unknown = Object.keys(range).find((key) => !BOX_KEYS.includes(key));
    if (unknown !== undefined) {
      this.fail('INVALID_ARGUMENT', `range: unknown key '${unknown}'; a box range is its half-extents { x, y } ({ x, y, z } in 3-D), a circle { radius }`);
    }
    checkRange('range.x', range.x);
    checkRange('range.y', range.y);
    if (this.dimensions === 3) {
      if (range.z === undefined) this.fail('INVALID_ARGUMENT', 'a 3-D scene needs range.z');
      checkRange('range.z', range.z);
      return [range.x, range.y, range.z, true, false];
    }
    return [range.x, range.y, 0, true, false];
  }

  private zOf(z: number | undefined): number {
    if (this.dimensions === 2) return 0;
    if (z === undefined) this.fail('INVALID_ARGUMENT', 'z is required in a 3-D scene');
    checkFinite('z', z);
    return z;
  }

  /**
   * A batch's ids and coordinates, each array copied once and checked: one
   * length for all, finite coordinates, zs required in 3-D (and only
   * checked to be an array of that length in 2-D, where it is ignored).
   */
  private readBatch(ids: unknown, xs: unknown, ys: unknown, zs: unknown): [Int32Array, Float64Array, Float64Array, Float64Array | null] {
    const batchIds = copyIds('ids', ids, undefined, batchRooms.ids);
    const n = batchIds.length;
    const x = copyNumbers('xs', xs, n, 'finite', batchRooms.xs), y = copyNumbers('ys', ys, n, 'finite', batchRooms.ys);
    if (this.dimensions === 3 && zs === undefined) this.fail('INVALID_ARGUMENT', 'zs is required in a 3-D scene');
    if (this.dimensions === 3) return [batchIds, x, y, copyNumbers('zs', zs, n, 'finite', batchRooms.zs)];
    if (zs !== undefined) checkArrayLike('zs', zs, n);
    return [batchIds, x, y, null];
  }

  private batch(n: number): Int32Array {
    if (this.batchSlots.length < n) this.batchSlots = new Int32Array(Math.max(n, this.batchSlots.length * 2));
    return this.batchSlots;
  }

  /** The slot the k-th next takeSlot will hand out, taking none. */
  private freeSlot(k: number): number {
    const free = this.freeSlots.length;
    return k < free ? this.freeSlots[free - 1 - k] : this.nextSlot + (k - free);
  }

  private takeSlot(): number {
    return this.freeSlots.length > 0 ? this.freeSlots.pop()! : this.nextSlot++;
  }

  private slotOf(id: number): number {
    const slot = this.slots.get(id);
    if (slot === undefined) {
      checkId(id);
      this.fail('UNKNOWN_ID', `no entity ${id}`);
    }
    return slot;
  }

  private alive(): void {
    checkAlive(this.disposed, 'this Scene');
  }

  /** The answer of a read-only call into the core: memory that ran out is OUT_OF_MEMORY, any other failure goes up as it is. */
  private reading<T>(read: () => T): T {
    return memoryGuarded('this Scene', read);
  }

  private fail(code: 'INVALID_ARGUMENT' | 'UNKNOWN_ID' | 'INVALID_NUMBER' | 'DUPLICATE_ID' | 'INVALID_RECT', message: string): never {
    throw new SpatialError(code, message);
  }
}

/** A snapshot whose values a scene rejects is not a valid snapshot. */
function invalidSnapshot(error: unknown): unknown {
  if (!(error instanceof SpatialError) || error.code === 'NOT_INITIALIZED') return error;
  return new SpatialError('INVALID_SNAPSHOT', `Scene snapshot holds invalid values (${error.message})`);
}

/**
 * Entity i's range in a snapshot as add or setRange take it: a box with
 * three equal half-extents as the number that gives it, since a 2-D scene
 * parses {x, y, z} with z 0 and a number with all three equal.
 */
function rangeIn(s: SceneSnapshot, i: number): AoiRange {
  const [rx, ry, rz] = s.halfExtents.subarray(3 * i, 3 * i + 3);
  const kind = s.kinds[i];
  if (kind === MARKER) return null;
  if (kind === CIRCLE) return { radius: rx };
  return ry === rx && rz === rx ? rx : { x: rx, y: ry, z: rz };
}

/** True when typed array's buffer was detached (transferred): a view of it can no longer be made. */
function isDetached(array: Int32Array): boolean {
  if (array.byteLength !== 0) return false;
  try {
    new Uint8Array(array.buffer);
    return false;
  } catch {
    return true;
  }
}

/** Throws INVALID_NUMBER unless a z bound of queryBox is a number other than NaN and the infinity that excludes everything. */
function checkZBound(name: string, value: number, excluded: number): void {
  if (typeof value !== 'number' || Number.isNaN(value) || value === excluded) {
    throw new SpatialError('INVALID_NUMBER', `${name} must be a finite number or ${-excluded}, got ${shown(value)}`);
  }
}

/** A margin as given: a finite number >= 0 (INVALID_NUMBER, NEGATIVE_RANGE otherwise). */
function checkMargin(margin: number): number {
  checkRange('margin', margin);
  return margin;
}
