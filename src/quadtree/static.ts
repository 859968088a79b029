// StaticQuadTree: the read-only rectangle index, for worlds that hold still.
// Built once in bulk (StaticQuadTree.build, or QuadTree.freeze), searched
// many times, saved and restored as the very bytes it searches. It validates
// every call and delegates to a backend (the wasm core or the reference).
import { SpatialError } from '../core/errors.js';
import { INSPECT, summary, keepName } from '../core/inspect.js';
import { checkAlive, checkFinite, checkMaxDistance, checkCount, checkOptions, checkRange, checkRect } from '../core/validate.js';
import { resolveBackend, type Backend } from '../core/wasm.js';
import type { StaticCore } from './backend.js';
import { readBoxes, readItems, readNearestMany, readPoints, readSquaredRadii, checkInto, type BatchQueries, type NearestManyOptions, type QueryResults } from './batch.js';
import { LoopBatchQueries } from './js/batch.js';
import { buildBlock, ReferenceStaticTree } from './js/static.js';
import { ReferencePointTree } from './js/static-points.js';
import { checkBlock, partsOf } from './static-format.js';
import { WasmStaticTree } from './static-wasm.js';

/** Options of {@link StaticQuadTree.build} and {@link StaticQuadTree.fromBuffer}. */
export interface StaticQuadTreeOptions {
  /** 'wasm' (default, needs {@link init} first) or 'js' (the TypeScript reference). */
  backend?: Backend;
}

const OPTION_KEYS = ['backend'];

/**
 * A read-only rectangle index: the items of a world that holds still,
 * packed once into a tree with no room kept for updates, for many queries
 * (range, disc, k nearest, one at a time or many in one call). Its bytes
 * are the index: {@link toBuffer} copies them out and
 * {@link StaticQuadTree.fromBuffer} copies them back in without rebuilding,
 * so a tree reaches a worker at the speed of a memory copy. Intersection is
 * closed and distances are to the closed rect, as in {@link QuadTree}.
 */
export class StaticQuadTree {
  static {
    keepName(this, 'StaticQuadTree');
  }

  /** Which implementation backs this tree. */
  readonly backend: Backend;
  private readonly core: StaticCore;
  private readonly batch: BatchQueries;
  private disposed = false;

  private constructor(backend: Backend, core: StaticCore, batch: BatchQueries) {
    this.backend = backend;
    this.core = core;
    this.batch = batch;
  }

  /**
   * Packs the items ids[i] with rects rects[4i..4i+3] (minX, minY, maxX,
   * maxY) into a static tree: Hilbert-packed boxes, or a k-d tree when
   * every rect is a point (minX = maxX, minY = maxY), which answers the
   * same, faster. Plain and typed arrays are accepted. Throws
   * INVALID_ID, INVALID_NUMBER or INVALID_RECT for a bad entry, DUPLICATE_ID
   * for an id given twice, INVALID_ARGUMENT for arrays of mismatched lengths
   * or bad options. On the default wasm backend, await init() first
   * (NOT_INITIALIZED otherwise); `backend: 'js'` needs no init().
   */
  static build(ids: ArrayLike<number>, rects: ArrayLike<number>, options?: StaticQuadTreeOptions): StaticQuadTree {
    checkOptions('StaticQuadTree.build', options, OPTION_KEYS);
    const backend = resolveBackend(options?.backend);
    const [idArray, boxes] = readItems(ids, rects);
    checkUnique(idArray);
    if (backend === 'wasm') {
      const core = WasmStaticTree.build(idArray, boxes);
      return new StaticQuadTree(backend, core, core.batch);
    }
    return StaticQuadTree.over(buildBlock(idArray, boxes));
  }

  /**
   * A tree restored from {@link toBuffer}'s bytes, written by either
   * backend: the same items in the same tree, so the same answers in the same
   * order. The bytes are checked (header, length, checksum, node structure,
   * and every value a search reads) and copied in; nothing is rebuilt.
   * `options.backend` picks the backend. Throws INVALID_SNAPSHOT for bytes
   * that are not an intact StaticQuadTree snapshot of this format version or
   * of version 1, or that hold a value no build writes (a coordinate that is
   * not finite, a box with min > max, a node box other than the union of its
   * children's, points out of k-d order, an id twice); INVALID_ARGUMENT for
   * something other than a Uint8Array or bad options.
   */
  static fromBuffer(bytes: Uint8Array, options?: StaticQuadTreeOptions): StaticQuadTree {
    checkOptions('StaticQuadTree.fromBuffer', options, OPTION_KEYS);
    const backend = resolveBackend(options?.backend);
    if (backend === 'wasm') {
      if (!(bytes instanceof Uint8Array)) checkBlock(bytes, alignedWords);
      const core = WasmStaticTree.adopt(bytes);
      return new StaticQuadTree(backend, core, core.batch);
    }
    const copy = bytes instanceof Uint8Array ? bytes.slice() : bytes;
    checkBlock(copy, alignedWords);
    return StaticQuadTree.over(copy as Uint8Array);
  }

  /** A js-backed tree over a block it owns, searched as its layout asks. */
  private static over(block: Uint8Array): StaticQuadTree {
    const parts = partsOf(block);
    const core = parts.layout === 'points' ? new ReferencePointTree(block, parts) : new ReferenceStaticTree(block, parts);
    return new StaticQuadTree('js', core, new LoopBatchQueries(core));
  }

  /** @internal What console.log and util.inspect print in Node: the class name and a summary, not the arrays inside. */
  [INSPECT](): string {
    if (this.disposed) return summary('StaticQuadTree', 'disposed');
    return summary('StaticQuadTree', { size: this.core.size, backend: this.backend });
  }

  /** Number of items. */
  get size(): number {
    this.alive();
    return this.core.size;
  }

  /**
   * Bytes the tree holds: exactly the length of {@link toBuffer}'s bytes
   * (about 39 per rect, nodes included; 20 per item when every item is a
   * point, which are kept in a k-d tree instead).
   */
  get byteSize(): number {
    this.alive();
    return this.core.byteLength;
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

  /** Ids of the rects meeting the closed disc of radius r around (x, y), ascending. Throws INVALID_NUMBER, NEGATIVE_RANGE. */
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
   * The ids of the k items nearest to (x, y), nearest first; items at equal
   * distance by id, ascending; only items at distance <= maxDistance. As
   * {@link QuadTree.nearest}, with the same answers for the same items:
   * squared distances past the largest double are Infinity, so items that
   * far all tie and come by id.
   */
  nearest(x: number, y: number, k: number, maxDistance = Infinity): number[] {
    this.alive();
    checkFinite('x', x);
    checkFinite('y', y);
    checkCount('k', k);
    checkMaxDistance(maxDistance);
    return Array.from(this.core.nearest(x, y, Math.min(k, this.core.size), maxDistance * maxDistance));
  }

  /**
   * Many box queries in one call: boxes flat [minX, minY, maxX, maxY, ...];
   * box q's ids (in traversal order) are `ids.subarray(offsets[q],
   * offsets[q + 1])`. With `into`, the answers are written there and `into`
   * is returned. Throws INVALID_ARGUMENT for a length that is not a multiple
   * of 4 or an `into` too small (nothing written), INVALID_NUMBER or
   * INVALID_RECT for a bad box.
   */
  queryMany(boxes: ArrayLike<number>, into?: QueryResults): QueryResults {
    this.alive();
    const flat = readBoxes(boxes);
    return this.batch.queryMany(flat, flat.length / 4, checkInto(into));
  }

  /**
   * Many disc queries in one call: disc q has centre (xs[q], ys[q]) and
   * radius `radius` (one for all, or radius[q]); answers as in
   * {@link queryMany}. Throws INVALID_ARGUMENT for arrays of mismatched
   * lengths or an `into` too small, INVALID_NUMBER for a non-finite entry,
   * NEGATIVE_RANGE for a negative radius; nothing is written then.
   */
  queryCircleMany(xs: ArrayLike<number>, ys: ArrayLike<number>, radius: number | ArrayLike<number>, into?: QueryResults): QueryResults {
    this.alive();
    const [px, py] = readPoints(xs, ys);
    const r2s = readSquaredRadii(radius, px.length);
    return this.batch.withinMany(px, py, r2s, px.length, checkInto(into));
  }

  /**
   * The k nearest items of each point (xs[q], ys[q]) in one call, each
   * query's nearest first, as {@link nearest}; answers as in
   * {@link queryMany}. The way to ask thousands of nearest queries a tick.
   * Throws INVALID_ARGUMENT for arrays of mismatched lengths, a k that is
   * not an integer >= 0 or an `into` too small, INVALID_NUMBER for a
   * non-finite point, NEGATIVE_RANGE for a negative maxDistance; nothing is
   * written then.
   */
  nearestMany(xs: ArrayLike<number>, ys: ArrayLike<number>, k: number, options?: NearestManyOptions): QueryResults {
    this.alive();
    const [px, py] = readPoints(xs, ys);
    const [maxSquared, into] = readNearestMany('StaticQuadTree.nearestMany', k, options);
    return this.batch.nearestMany(px, py, px.length, Math.min(k, this.core.size), maxSquared, into);
  }

  /** The tree's bytes, a fresh copy: what {@link StaticQuadTree.fromBuffer} restores. Both backends give the same bytes for the same build. */
  toBuffer(): Uint8Array {
    this.alive();
    return this.core.bytes();
  }

  /**
   * Frees the tree's wasm memory now; every later call throws DISPOSED.
   * Calling it again does nothing. A tree dropped without dispose() is freed
   * once garbage-collected, which may be much later.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.core.dispose();
  }

  private alive(): void {
    checkAlive(this.disposed, 'this StaticQuadTree');
  }
}

/** Throws DUPLICATE_ID when an id appears twice. */
function checkUnique(ids: Int32Array): void {
  const sorted = ids.slice().sort();
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1]) throw new SpatialError('DUPLICATE_ID', `id ${sorted[i]} is given twice`);
  }
}

/** The bytes as u32 words, over them when aligned, else over a copy. */
function alignedWords(bytes: Uint8Array): Uint32Array {
  if (bytes.byteOffset % 8 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  return new Uint32Array(bytes.slice().buffer);
}
