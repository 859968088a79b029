// The contracts between the tree facades and their cores (the wasm core and
// the js reference): what both provide to QuadTree, on slots (dense indices
// the facade hands out) rather than user ids, and to StaticQuadTree.

/** A rect as [minX, minY, maxX, maxY]. */
export type Box = [number, number, number, number];

/** What the QuadTree facade needs from a backend. Slots are dense, chosen by the facade. */
export interface QuadTreeBackend {
  /** Adds an item; one beyond the tree's area grows the area and rebuilds the tree over it. */
  insert(slot: number, id: number, minX: number, minY: number, maxX: number, maxY: number): void;
  /** Moves an item; a move beyond the area grows it as insert does. */
  update(slot: number, minX: number, minY: number, maxX: number, maxY: number): void;
  /** insert for each i: slots[i], ids[i], rects[4i..4i+3]; in array order. */
  insertMany(slots: Int32Array, ids: Int32Array, rects: Float64Array): void;
  /** update for each i: slots[i] to rects[4i..4i+3]; in array order. */
  updateMany(slots: Int32Array, rects: Float64Array): void;
  /** Removes an item ('split': sibling leaves left with at most half the capacity merge); the last removal leaves the backend as new. */
  remove(slot: number): void;
  /** Removes every item, keeping the item table's room; the area goes back to the bounds (or none). */
  clear(): void;
  /** New bounds, or none; the tree is rebuilt over them, grown to hold every item. */
  setBounds(bounds: Box | null): void;
  setCapacity(capacity: number): void;
  /**
   * Ids of the items meeting the closed box, in traversal order (a fresh
   * array). With a limit, the traversal stops once it has that many: the
   * result is then a prefix of the full answer, at least `limit` long
   * unless that is all there is.
   */
  query(minX: number, minY: number, maxX: number, maxY: number, limit?: number): Int32Array;
  /** Every intersecting pair once as [smaller id, larger id] (a fresh flat array). */
  pairs(): Int32Array;
  /** Exact regions of the cells, flat [minX, minY, maxX, maxY, ...] in node order: split, every leaf; fixed, the root and every node holding items. */
  cells(): Float64Array;
  /**
   * The ids of the k items nearest to (x, y), nearest first: by squared
   * distance from the point to the closed rect (0 inside), then by id; only
   * items at squared distance <= maxSquared. A fresh array.
   */
  nearest(x: number, y: number, k: number, maxSquared: number): Int32Array;
  /** Ids of the items at squared distance <= r2 from (x, y), each once, in traversal order (a fresh array). */
  within(x: number, y: number, r2: number): Int32Array;
  /**
   * The items the closed segment meets, each with its entry parameter (see
   * segmentEntry in js/quadtree.ts): in traversal order, an item possibly
   * more than once. With `first`, only the item of smallest (t, id), or
   * nothing.
   */
  segment(x0: number, y0: number, x1: number, y1: number, first: boolean): SegmentHits;
  /** The rects of the given slots, flat [minX, minY, maxX, maxY, ...] (a fresh array). */
  rectsOf(slots: Int32Array): Float64Array;
  /** The bounds (null for none) and the level option (maxDepth in split mode, depth in fixed mode) the tree is built with. */
  settings(): QuadTreeSettings;
  /** Levels in use: the deepest node's level count (a lone root is 1). */
  readonly levels: number;
  /** Bytes held by the structure's arrays (the output buffer excluded). */
  readonly bytes: number;
  dispose(): void;
}

/** How a {@link QuadTree} lays out its items: 'split' (capacity-split, data in leaves) or 'fixed' (pre-split, each item in one node). */
export type QuadTreeMode = 'split' | 'fixed';

/** Items met by a segment and their entry parameters: ids[i] is entered at ts[i]. */
export interface SegmentHits {
  ids: Int32Array;
  ts: Float64Array;
}

/** What a tree is built with, besides capacity and mode. */
export interface QuadTreeSettings {
  bounds: Box | null;
  levels: number;
}

/** The search a static core offers; what both backends of StaticQuadTree and both its layouts implement. */
export interface StaticCore {
  /** Items in the tree. */
  readonly size: number;
  /** Bytes of its block. */
  readonly byteLength: number;
  /** The block's bytes, a fresh copy. */
  bytes(): Uint8Array;
  query(minX: number, minY: number, maxX: number, maxY: number): Int32Array;
  within(x: number, y: number, r2: number): Int32Array;
  nearest(x: number, y: number, k: number, maxSquared: number): Int32Array;
  dispose(): void;
}
