// QuadTree: the public rectangle index. It validates every call, maps ids to
// dense slots and delegates to a backend (the wasm core or the reference), so
// both backends reject identically and a rejected call changes nothing.
import { SpatialError } from '../core/errors.js';
import { INSPECT, summary, keepName } from '../core/inspect.js';
import { CORE } from '../core/internals.js';
import { SlotTable } from '../core/slot-table.js';
import { checkAlive, checkCount, checkFinite, checkId, checkMaxDistance, checkOptions, checkPositiveInteger, checkRange, checkRect } from '../core/validate.js';
import { readQuadTreeSnapshot, writeQuadTreeSnapshot } from './snapshot.js';
import type { FromBufferOptions } from '../core/snapshot-bytes.js';
import { resolveBackend, type Backend } from '../core/wasm.js';
import { WasmQuadTree } from './wasm.js';
import { RecoveringCore } from './recovering.js';
import { checkLimit, limits, outOfMemory } from '../core/limits.js';
import { ReferenceQuadTree } from './js/quadtree.js';
import type { Box, QuadTreeBackend, QuadTreeMode, SegmentHits } from './backend.js';
import { checkInto, noResults, readBoxes, readItems, readNearestMany, readPoints, readSquaredRadii, type BatchQueries, type NearestManyOptions, type QueryResults } from './batch.js';
import { LoopBatchQueries } from './js/batch.js';
import { StaticQuadTree } from './static.js';

export type { QuadTreeMode } from './backend.js';

/** An axis-aligned closed rectangle. */
export interface QuadTreeBounds {
  /** Left edge. */
  minX: number;
  /** Top edge (the smaller y). */
  minY: number;
  /** Right edge, >= minX. */
  maxX: number;
  /** Bottom edge (the larger y), >= minY. */
  maxY: number;
}

/** Options of the {@link QuadTree} constructor. */
export interface QuadTreeOptions {
  /**
   * The area to subdivide first: a hint for a known world, not a limit. An
   * item beyond it doubles the area towards the item until it fits, and the
   * tree is rebuilt over it: items beyond the bounds cost about what items
   * inside do (bench `quadtree-unbounded`), however far: depth follows where
   * the items are, not how often the area doubled, so one item at 1e300
   * among thousands near the origin adds one level. Without bounds the tree covers
   * what it holds: it picks the square around its items once they
   * outnumber `capacity`.
   */
  bounds?: QuadTreeBounds;
  /**
   * 'split': a leaf over `capacity` splits in four. Default 32: on 100,000
   * rects (bench `quadtree-capacity`), larger leaves than 8 build and answer
   * range queries faster, and 32 keeps the all-pairs frame fastest among them.
   * 1..8,388,608 (2^23, the most items a tree holds).
   */
  capacity?: number;
  /**
   * 'split': most levels a split reaches, the root alone being 1 level,
   * 1..32. Default 16. Each doubling of the area allows one more, so a far
   * item never makes a cluster's cells coarser and `depth` may exceed it.
   * A node whose items all keep to one quadrant splits straight at the
   * smallest square they keep to, with no level for the halvings between.
   */
  maxDepth?: number;
  /** 'split' (default): capacity-split, data in leaves. 'fixed': pre-split to `depth` levels, each item in one node. */
  mode?: QuadTreeMode;
  /** 'fixed': number of levels (the root alone is 1), 1..10. Default 8. */
  depth?: number;
  /** 'wasm' (default, needs {@link init} first) or 'js' (the TypeScript reference). */
  backend?: Backend;
}

/** Every key a QuadTreeOptions object may have. */
/** The split capacity chosen by measurement (see QuadTreeOptions.capacity). */
const DEFAULT_CAPACITY = 32;
const QUADTREE_OPTION_KEYS = ['bounds', 'capacity', 'maxDepth', 'mode', 'depth', 'backend'];
const SEGMENT_OPTION_KEYS = ['first'];
const FROM_BUFFER_OPTION_KEYS = ['backend'];

/** Option names other quadtree libraries use (maxObjects, maxLevels: @timohausmann/quadtree-ts) and what they mean here. */
const QUADTREE_OPTION_ALIASES = { maxObjects: 'capacity', maxLevels: 'maxDepth' };

/** The most capacity: a leaf that may hold every item a tree can hold (limits.md), an i32 in either core and a u32 in a snapshot. */
const MAX_CAPACITY = 2 ** 23;
const MAX_SPLIT_LEVELS = 32;
const MAX_FIXED_LEVELS = 10;

/** Bounds as a box, or null when there are none (undefined); throws INVALID_ARGUMENT, INVALID_NUMBER or INVALID_RECT on bad ones. */
function readBounds(bounds: QuadTreeBounds | undefined): Box | null {
  if (bounds === undefined) return null;
  if (typeof bounds !== 'object' || bounds === null) {
    throw new SpatialError('INVALID_ARGUMENT', 'bounds must be an object { minX, minY, maxX, maxY }');
  }
  const { minX, minY, maxX, maxY } = bounds;
  checkRect(minX, minY, maxX, maxY);
  return [minX, minY, maxX, maxY];
}

function checkAtMost(name: string, value: number, limit: number): void {
  checkPositiveInteger(name, value);
  if (value > limit) throw new SpatialError('INVALID_ARGUMENT', `${name} must be at most ${limit}, got ${value}`);
}

/**
 * A rectangle index for collision broad-phase: range queries and every
 * intersecting pair. Intersection is closed (shared edges and corners count);
 * a point is a zero-size rectangle.
 *
 * Any call that needs memory the host will not give throws OUT_OF_MEMORY;
 * a change that fails so leaves the same items, rectangles and answers (its
 * nodes those of a tree filled in one batch). The item limit is in
 * docs/limits.md.
 *
 * @example
 * ```ts
 * import { init, QuadTree } from 'spatialkit';
 * await init();
 *
 * const tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 } });
 * tree.insert(1, 10, 10, 20, 20);  // id, then two corners: minX, minY, maxX, maxY
 * tree.insert(2, 20, 15, 30, 25);  // shares the edge x = 20 with 1
 * tree.insert(3, 600, 600, 610, 610);
 * tree.query(0, 0, 100, 100);      // -> [1, 2]
 * tree.pairs();                    // -> [[1, 2]]
 * tree.nearest(700, 700, 1);       // -> [3]
 * ```
 */
export class QuadTree implements Iterable<number> {
  static {
    keepName(this, 'QuadTree');
  }

  /** Which implementation backs this tree. */
  readonly backend: Backend;
  /** 'split' or 'fixed'. */
  readonly mode: QuadTreeMode;
  private readonly core: RecoveringCore;
  private readonly slots = new SlotTable({ handsOutSlots: true });
  private cap: number;
  private disposed = false;
  /** Visits in progress, innermost last. */
  private readonly visits: Visit[] = [];

  /**
   * Creates a tree, over `bounds` when given, else over the area its items
   * cover. On the default wasm backend, await init() first (NOT_INITIALIZED
   * otherwise); `backend: 'js'` needs no init(). Throws INVALID_RECT,
   * INVALID_NUMBER or INVALID_ARGUMENT on bad options, unknown option keys
   * included.
   */
  constructor(options: QuadTreeOptions = {}) {
    checkOptions('QuadTree', options, QUADTREE_OPTION_KEYS, QUADTREE_OPTION_ALIASES);
    const bounds = readBounds(options.bounds);
    const mode = options.mode ?? 'split';
    if (mode !== 'split' && mode !== 'fixed') {
      throw new SpatialError('INVALID_ARGUMENT', `mode must be 'split' or 'fixed', got ${String(mode)}`);
    }
    const capacity = options.capacity ?? DEFAULT_CAPACITY;
    checkAtMost('capacity', capacity, MAX_CAPACITY);
    const maxDepth = options.maxDepth ?? 16;
    checkAtMost('maxDepth', maxDepth, MAX_SPLIT_LEVELS);
    const depth = options.depth ?? 8;
    checkAtMost('depth', depth, MAX_FIXED_LEVELS);
    this.backend = resolveBackend(options.backend);
    this.mode = mode;
    this.cap = capacity;
    const levels = mode === 'split' ? maxDepth : depth;
    let inner: QuadTreeBackend;
    try {
      inner = this.backend === 'wasm' ? new WasmQuadTree(bounds, capacity, levels, mode) : new ReferenceQuadTree(bounds, capacity, levels, mode);
    } catch (error) {
      throw outOfMemory(error, 'creating a QuadTree') ?? error;
    }
    this.core = new RecoveringCore(inner, bounds, capacity);
  }

  /** @internal The core that runs this object's algorithm: the test hook of src/core/internals.ts. */
  get [CORE](): QuadTreeBackend {
    return this.core;
  }

  /** @internal What console.log and util.inspect print in Node: the class name and a summary, not the arrays inside. */
  [INSPECT](): string {
    if (this.disposed) return summary('QuadTree', 'disposed');
    return summary('QuadTree', { size: this.slots.size, mode: this.mode, capacity: this.cap, backend: this.backend });
  }

  /** Number of items. */
  get size(): number {
    this.alive();
    return this.slots.size;
  }

  /**
   * Levels in use: the deepest leaf's level count in 'split' mode (a lone
   * root is 1), the pre-split depth in 'fixed' mode (1 for a tree without
   * bounds that has not picked its area yet).
   */
  get depth(): number {
    this.alive();
    return this.core.levels;
  }

  /** The split capacity (see {@link setCapacity}). */
  get capacity(): number {
    this.alive();
    return this.cap;
  }

  /**
   * Bytes the structure holds (linear memory for 'wasm'): the item table,
   * the nodes and their slot lists, at their reserved size; the id map and
   * the result and scratch buffers excluded. Removing the last item gives
   * it all back: an emptied tree holds what a fresh one does.
   */
  get byteSize(): number {
    this.alive();
    return this.core.bytes;
  }

  /**
   * Adds an item; throws DUPLICATE_ID if id is present, INVALID_ID,
   * INVALID_NUMBER or INVALID_RECT on bad input, LIMIT_EXCEEDED when the
   * tree holds its most items. An item beyond the tree's area doubles the
   * area towards it and rebuilds the tree over it.
   */
  insert(id: number, minX: number, minY: number, maxX: number, maxY: number): void {
    this.change();
    checkId(id);
    checkRect(minX, minY, maxX, maxY);
    if (this.slots.has(id)) throw new SpatialError('DUPLICATE_ID', `id ${id} is already in the tree`);
    checkLimit('the number of items', this.slots.size + 1, limits.quadtreeItems);
    const slot = this.slots.add(id);
    try {
      this.core.insert(slot, id, minX, minY, maxX, maxY);
    } catch (error) {
      this.slots.delete(id);
      throw error;
    }
  }

  /**
   * Moves or resizes an item; throws UNKNOWN_ID if absent. A move that stays
   * inside its leaf touches nothing else; one beyond the area grows it, as
   * {@link insert} does.
   */
  update(id: number, minX: number, minY: number, maxX: number, maxY: number): void {
    this.change();
    checkId(id);
    checkRect(minX, minY, maxX, maxY);
    const slot = this.slots.get(id);
    if (slot === undefined) throw new SpatialError('UNKNOWN_ID', `id ${id} is not in the tree`);
    this.core.update(slot, minX, minY, maxX, maxY);
  }

  /**
   * Inserts many items in one crossing: ids[i] with the rect rects[4i..4i+3]
   * (minX, minY, maxX, maxY); plain arrays and typed arrays of any kind are
   * accepted. The batch is rejected whole, before anything changes, if any
   * entry is invalid or any id is present or repeated, and with
   * LIMIT_EXCEEDED when it would pass the tree's most items.
   */
  insertMany(ids: ArrayLike<number>, rects: ArrayLike<number>): void {
    this.change();
    const [items, boxes] = readItems(ids, rects);
    const count = items.length;
    checkLimit('the number of items', this.slots.size + count, limits.quadtreeItems);
    const slots = this.slots.addMany(items, 'the tree');
    try {
      this.core.insertMany(slots, items, boxes);
    } catch (error) {
      for (let i = count - 1; i >= 0; i--) this.slots.delete(items[i]);
      throw error;
    }
  }

  /**
   * Moves many items in one crossing, in array order, exactly as if update
   * were called for each: the fast path for a game tick. Arrays as in
   * {@link insertMany}. The batch is rejected whole, before anything changes,
   * if any entry is invalid or unknown.
   */
  updateMany(ids: ArrayLike<number>, rects: ArrayLike<number>): void {
    this.change();
    const [items, boxes] = readItems(ids, rects);
    const slots = new Int32Array(items.length);
    for (let i = 0; i < items.length; i++) {
      const slot = this.slots.get(items[i]);
      if (slot === undefined) throw new SpatialError('UNKNOWN_ID', `id ${items[i]} is not in the tree`);
      slots[i] = slot;
    }
    this.core.updateMany(slots, boxes);
  }

  /**
   * Removes an item; returns false when it was absent. In 'split' mode four
   * sibling leaves left holding at most half the capacity merge back into
   * one; the last removal leaves the tree as new, one cell over its bounds
   * (or none), its memory given back.
   */
  remove(id: number): boolean {
    this.change();
    checkId(id);
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    this.core.remove(slot);
    this.slots.delete(id);
    if (this.slots.size === 0) this.slots.clear();
    return true;
  }

  /** True when id is in the tree. */
  has(id: number): boolean {
    this.alive();
    return this.slots.has(id);
  }

  /** Ids whose rect intersects the closed box, ascending. */
  query(minX: number, minY: number, maxX: number, maxY: number): number[] {
    return Array.from(this.queryIds(minX, minY, maxX, maxY).sort());
  }

  /** The ids of {@link query} in traversal order, as a fresh Int32Array: the fast path. */
  queryIds(minX: number, minY: number, maxX: number, maxY: number): Int32Array {
    this.alive();
    checkRect(minX, minY, maxX, maxY);
    return this.core.query(minX, minY, maxX, maxY);
  }

  /**
   * Calls fn with each id whose rect intersects the closed box, in traversal
   * order, and stops as soon as fn returns false. The search stops with it:
   * the core hands over the first 64 ids, and the rest only if fn asks for a
   * 65th, so an early stop among the first 64 costs about 64 hits, not the
   * whole query. Changing the tree inside fn does not change the ids this
   * call visits: the first change takes the rest of them from the tree as it
   * was.
   */
  visit(minX: number, minY: number, maxX: number, maxY: number, fn: (id: number) => boolean | void): void {
    if (typeof fn !== 'function') throw new SpatialError('INVALID_ARGUMENT', 'visit needs a callback');
    this.alive();
    checkRect(minX, minY, maxX, maxY);
    const visit: Visit = { minX, minY, maxX, maxY, done: 0, rest: null };
    this.visits.push(visit);
    try {
      for (let limit = FIRST_VISIT_CHUNK; ; limit = Infinity) {
        // The full answer starts with the same ids: skip those already handed out.
        const ids = this.core.query(minX, minY, maxX, maxY, limit);
        for (let i = visit.done; i < ids.length; i++) {
          visit.done++;
          if (fn(ids[i]) === false) return;
          if (visit.rest !== null) {
            for (const id of visit.rest) if (fn(id) === false) return;
            return;
          }
        }
        if (ids.length < limit) return;
      }
    } finally {
      this.visits.pop();
    }
  }

  /** Every intersecting pair once as [a, b] with a < b, sorted by (a, b). */
  pairs(): Array<[number, number]> {
    const flat = this.pairIds();
    const order = sortPairs(flat);
    const out: Array<[number, number]> = new Array(order.length);
    for (let k = 0; k < order.length; k++) out[k] = [flat[order[k] * 2], flat[order[k] * 2 + 1]];
    return out;
  }

  /** Calls fn(a, b) for every intersecting pair once, a < b, in the order of {@link pairIds}. */
  forEachPair(fn: (a: number, b: number) => void): void {
    if (typeof fn !== 'function') throw new SpatialError('INVALID_ARGUMENT', 'forEachPair needs a callback');
    const flat = this.pairIds();
    for (let i = 0; i < flat.length; i += 2) fn(flat[i], flat[i + 1]);
  }

  /**
   * Every intersecting pair once, flat [a0, b0, a1, b1, ...] with a < b, in
   * no set order: the fast path for a collision broad-phase every frame.
   *
   * @example
   * ```ts
   * import { init, QuadTree } from 'spatialkit';
   * await init();
   *
   * const tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 } });
   * tree.insertMany([1, 2, 3], [0, 0, 10, 10, 5, 5, 15, 15, 50, 50, 60, 60]);
   * const pairs = tree.pairIds();  // -> Int32Array [1, 2]
   * for (let k = 0; k < pairs.length; k += 2) {
   *   console.log(`${pairs[k]} touches ${pairs[k + 1]}`);
   * }
   * ```
   */
  pairIds(): Int32Array {
    this.alive();
    return this.core.pairs();
  }

  /**
   * The tree's cells, for drawing or inspecting its shape: flat
   * [minX, minY, maxX, maxY, ...], one rect per cell, a fresh copy. In
   * 'split' mode the cells are the leaves, each the part of the area it
   * covers, so they tile the tree's area: `bounds`, doubled as often as items
   * beyond them needed (an empty tree is one cell equal to `bounds`); in
   * 'fixed' mode, where the pre-split nodes are many and mostly empty, they are
   * the exact regions of the root and of every node that holds an item, so
   * nested cells overlap. A tree without bounds that has not picked its area
   * yet is one cell, the whole plane (infinite sides). Both backends give
   * the same cells in the same order; no order is promised.
   */
  cells(): Float64Array {
    this.alive();
    return this.core.cells();
  }

  /**
   * The ids of the k items nearest to (x, y), nearest first. An item's
   * distance is the distance from the point to its closed rect, 0 when the
   * point is inside or on it; items at equal distance come by id, ascending.
   * Distances are compared squared (dx * dx + dy * dy, in double precision).
   * With maxDistance, only items at distance <= maxDistance count (closed);
   * the result is shorter than k when fewer items qualify. Throws
   * INVALID_NUMBER for a non-finite point or a NaN maxDistance,
   * NEGATIVE_RANGE for a negative maxDistance, INVALID_ARGUMENT unless k is
   * an integer >= 0.
   */
  nearest(x: number, y: number, k: number, maxDistance = Infinity): number[] {
    this.alive();
    checkFinite('x', x);
    checkFinite('y', y);
    checkCount('k', k);
    checkMaxDistance(maxDistance);
    const count = Math.min(k, this.slots.size);
    if (count === 0) return [];
    return Array.from(this.core.nearest(x, y, count, maxDistance * maxDistance));
  }

  /**
   * Ids of the rects meeting the closed disc of radius r around (x, y),
   * ascending: those whose distance to the centre (as in {@link nearest})
   * is at most r. Throws INVALID_NUMBER for non-finite input, NEGATIVE_RANGE
   * for a negative r.
   */
  queryCircle(x: number, y: number, r: number): number[] {
    return Array.from(this.queryCircleIds(x, y, r).sort());
  }

  /** The ids of {@link queryCircle} in traversal order, as a fresh Int32Array: the fast path. */
  queryCircleIds(x: number, y: number, r: number): Int32Array {
    this.alive();
    checkFinite('x', x);
    checkFinite('y', y);
    checkRange('r', r);
    return this.core.within(x, y, r * r);
  }

  /**
   * Ids of the rects the closed segment from (x0, y0) to (x1, y1) meets,
   * in the order the segment enters them: by the least t in [0, 1] at which
   * (x0 + t (x1 - x0), y0 + t (y1 - y0)) is in the rect (0 for a rect holding
   * the start), then by id. With `{ first: true }`, only the first of them
   * (an array of one id, or none): a line-of-sight or ray cast that stops at
   * the first hit. A segment of zero length is a point. Throws
   * INVALID_NUMBER for non-finite input, INVALID_ARGUMENT for bad options.
   */
  querySegment(x0: number, y0: number, x1: number, y1: number, options?: SegmentOptions): number[] {
    this.alive();
    checkFinite('x0', x0);
    checkFinite('y0', y0);
    checkFinite('x1', x1);
    checkFinite('y1', y1);
    const first = readSegmentOptions(options);
    return orderHits(this.core.segment(x0, y0, x1, y1, first));
  }

  /** The rect of item id, as inserted or last updated; throws UNKNOWN_ID if absent, INVALID_ID for a bad id. */
  rect(id: number): QuadTreeBounds {
    this.alive();
    checkId(id);
    const slot = this.slots.get(id);
    if (slot === undefined) throw new SpatialError('UNKNOWN_ID', `id ${id} is not in the tree`);
    const [minX, minY, maxX, maxY] = this.core.rectsOf(Int32Array.of(slot));
    return { minX, minY, maxX, maxY };
  }

  /** Every id in the tree, ascending. */
  ids(): number[] {
    this.alive();
    return Array.from(Int32Array.from(this.slots.keys()).sort());
  }

  /**
   * The tree as bytes: its mode, capacity, level option (maxDepth or
   * depth), bounds (or their absence) and every item, for storage or for
   * handing to a worker.
   * The format is versioned and checksummed (see {@link QuadTree.fromBuffer});
   * items are written by id, so trees with the same options and items give
   * the same bytes, whichever backend holds them.
   */
  toBuffer(): Uint8Array {
    this.alive();
    const ids = Int32Array.from(this.slots.keys()).sort();
    const slots = ids.map((id) => this.slots.get(id)!);
    const { bounds, levels } = this.core.settings();
    return writeQuadTreeSnapshot({ mode: this.mode, capacity: this.cap, levels, bounds, ids, rects: this.core.rectsOf(slots) });
  }

  /**
   * A tree restored from {@link toBuffer}'s bytes, written by either
   * backend: the same mode, capacity, level option, bounds and items, so the
   * same answers to every query and the same pairs. Its nodes are built
   * afresh (in bulk in 'split' mode), so `depth` and `cells()` are those of
   * a tree filled in one batch. `options.backend` picks the backend (default
   * 'wasm'). Throws INVALID_SNAPSHOT for bytes that are not a whole, intact
   * snapshot of this format version; INVALID_ARGUMENT for something other
   * than a Uint8Array, a bad backend or an unknown option key.
   */
  static fromBuffer(bytes: Uint8Array, options?: FromBufferOptions): QuadTree {
    checkOptions('QuadTree.fromBuffer', options, FROM_BUFFER_OPTION_KEYS);
    const backend = resolveBackend(options?.backend);
    const s = readQuadTreeSnapshot(bytes);
    const bounds = s.bounds === null ? {} : { bounds: { minX: s.bounds[0], minY: s.bounds[1], maxX: s.bounds[2], maxY: s.bounds[3] } };
    const levels = s.mode === 'split' ? { maxDepth: s.levels } : { depth: s.levels };
    let tree: QuadTree;
    try {
      tree = new QuadTree({ ...bounds, mode: s.mode, capacity: s.capacity, ...levels, backend });
    } catch (error) {
      throw invalidSnapshot(error);
    }
    try {
      tree.insertMany(s.ids, s.rects);
    } catch (error) {
      tree.dispose();
      throw invalidSnapshot(error);
    }
    return tree;
  }

  // ---- many queries in one call, and the static form ----

  /**
   * Many box queries in one call (one crossing into wasm): boxes flat
   * [minX, minY, maxX, maxY, ...]; box q's ids, in traversal order, are
   * `ids.subarray(offsets[q], offsets[q + 1])`. With `into`, the answers are
   * written there and `into` is returned. Throws INVALID_ARGUMENT for a
   * length that is not a multiple of 4 or an `into` too small (nothing
   * written), INVALID_NUMBER or INVALID_RECT for a bad box.
   */
  queryMany(boxes: ArrayLike<number>, into?: QueryResults): QueryResults {
    this.alive();
    const flat = readBoxes(boxes);
    return this.batchQueries().queryMany(flat, flat.length / 4, checkInto(into));
  }

  /**
   * Many disc queries in one call: disc q has centre (xs[q], ys[q]) and
   * radius `radius` (one for all, or radius[q]); ids as {@link queryCircleIds},
   * laid out as in {@link queryMany}. Throws INVALID_ARGUMENT for arrays of
   * mismatched lengths or an `into` too small, INVALID_NUMBER for a
   * non-finite entry, NEGATIVE_RANGE for a negative radius; nothing is
   * written then.
   */
  queryCircleMany(xs: ArrayLike<number>, ys: ArrayLike<number>, radius: number | ArrayLike<number>, into?: QueryResults): QueryResults {
    this.alive();
    const [px, py] = readPoints(xs, ys);
    const r2s = readSquaredRadii(radius, px.length);
    return this.batchQueries().withinMany(px, py, r2s, px.length, checkInto(into));
  }

  /**
   * The k nearest items of each point (xs[q], ys[q]) in one call, each
   * query's nearest first, exactly as {@link nearest}; laid out as in
   * {@link queryMany}. Throws INVALID_ARGUMENT for arrays of mismatched
   * lengths, a k that is not an integer >= 0 or an `into` too small,
   * INVALID_NUMBER for a non-finite point, NEGATIVE_RANGE for a negative
   * maxDistance; nothing is written then.
   */
  nearestMany(xs: ArrayLike<number>, ys: ArrayLike<number>, k: number, options?: NearestManyOptions): QueryResults {
    this.alive();
    const [px, py] = readPoints(xs, ys);
    const [maxSquared, into] = readNearestMany('QuadTree.nearestMany', k, options);
    const most = Math.min(k, this.slots.size);
    if (most === 0) return noResults(px.length, into);
    return this.batchQueries().nearestMany(px, py, px.length, most, maxSquared, into);
  }

  /**
   * A {@link StaticQuadTree} of this tree's items as they are now: packed
   * in bulk with no room for updates, for a world that holds still. Its
   * searches give the same answers as this tree's; it does not follow later
   * changes. `options.backend` picks its backend (default: this tree's).
   */
  freeze(options?: { backend?: Backend }): StaticQuadTree {
    this.alive();
    checkOptions('QuadTree.freeze', options, FROM_BUFFER_OPTION_KEYS);
    const ids = Int32Array.from(this.slots.keys()).sort();
    const slots = ids.map((id) => this.slots.get(id)!);
    return StaticQuadTree.build(ids, this.core.rectsOf(slots), { backend: options?.backend ?? this.backend });
  }

  private batchQueries(): BatchQueries {
    const inner = this.core.inner;
    return inner instanceof WasmQuadTree ? inner.queries : new LoopBatchQueries(this.core);
  }

  /**
   * Takes new bounds and rebuilds over them, doubled as often as the items
   * need; without bounds, over the area the items cover (the square around
   * them once they outnumber the capacity). Contents unchanged. Throws as
   * the constructor does for bad bounds.
   */
  setBounds(bounds?: QuadTreeBounds): void {
    this.change();
    this.core.setBounds(readBounds(bounds));
  }

  /**
   * Sets the split capacity, an integer in 1..8,388,608 (INVALID_ARGUMENT
   * otherwise): lowering it rebuilds the tree, raising it only affects later
   * splits. Contents unchanged.
   */
  setCapacity(capacity: number): void {
    this.change();
    checkAtMost('capacity', capacity, MAX_CAPACITY);
    this.core.setCapacity(capacity);
    this.cap = capacity;
  }

  /** Removes every item; the area goes back to `bounds` (or none), the tables keep their room for the next fill. */
  clear(): void {
    this.change();
    this.core.clear();
    this.slots.clear(true);
  }

  /**
   * Frees the tree's wasm memory now; every later call throws DISPOSED.
   * Calling it again does nothing. A tree dropped without dispose() is freed
   * once garbage-collected, which may be much later.
   */
  dispose(): void {
    if (this.disposed) return;
    this.freezeVisits();
    this.disposed = true;
    this.core.dispose();
    this.slots.clear();
  }

  /** Yields every id once, in no set order. */
  *[Symbol.iterator](): Iterator<number> {
    this.alive();
    yield* this.slots.keys();
  }

  private alive(): void {
    checkAlive(this.disposed, 'this QuadTree');
  }

  /** Every method that may change the tree starts here. */
  private change(): void {
    this.alive();
    this.freezeVisits();
  }

  /** Before the tree changes, each visit in progress takes the rest of its ids from the tree as it still is. */
  private freezeVisits(): void {
    for (const visit of this.visits) {
      if (visit.rest === null) visit.rest = this.core.query(visit.minX, visit.minY, visit.maxX, visit.maxY).subarray(visit.done);
    }
  }
}

/** Options of {@link QuadTree.querySegment}. */
export interface SegmentOptions {
  /** Stop at the first rect the segment enters: the answer has at most one id. Default false. */
  first?: boolean;
}

function readSegmentOptions(options: SegmentOptions | undefined): boolean {
  checkOptions('QuadTree.querySegment', options, SEGMENT_OPTION_KEYS);
  if (options === undefined) return false;
  const first = options.first ?? false;
  if (typeof first !== 'boolean') throw new SpatialError('INVALID_ARGUMENT', `first must be a boolean, got ${String(first)}`);
  return first;
}

/** The hit ids ordered by (t, id), each once: an item stored in several leaves is met once per leaf, always at the same t. */
function orderHits(hits: SegmentHits): number[] {
  const { ids, ts } = hits;
  const order = Array.from(ids.keys()).sort((a, b) => ts[a] - ts[b] || ids[a] - ids[b]);
  const out: number[] = [];
  for (const i of order) if (out.length === 0 || out[out.length - 1] !== ids[i]) out.push(ids[i]);
  return out;
}

/** A snapshot whose values a tree rejects is not a valid snapshot. */
function invalidSnapshot(error: unknown): unknown {
  if (!(error instanceof SpatialError) || error.code === 'NOT_INITIALIZED') return error;
  return new SpatialError('INVALID_SNAPSHOT', `QuadTree snapshot holds invalid values (${error.message})`);
}

/** A visit in progress: how many ids it has handed out and, once the tree changed under it, the rest of its ids as they were. */
interface Visit {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  done: number;
  rest: Int32Array | null;
}

/** A visit asks the core for this many ids first, and for all of them when it needs more. */
const FIRST_VISIT_CHUNK = 64;

/** Pair indices of a flat pair array, sorted by (a, b). */
function sortPairs(flat: Int32Array): Uint32Array {
  const order = new Uint32Array(flat.length >> 1);
  for (let k = 0; k < order.length; k++) order[k] = k;
  return order.sort((p, q) => flat[p * 2] - flat[q * 2] || flat[p * 2 + 1] - flat[q * 2 + 1]);
}
