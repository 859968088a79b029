// QuadTree reference backend: the same two layouts as assembly/quadtree/quadtree.ts,
// written in plain TypeScript over typed arrays.
//
// 'split': a leaf over capacity splits into four quadrants; items live only in
// leaves, in every leaf their closed rect touches. A leaf whose items all lie
// in one quarter of one quarter ... of its region splits at the centre of the
// smallest such square instead (its split square, see narrow): the chain of
// nodes with one non-empty child each that halving would build is skipped,
// so depth follows where the items are, not how far apart the area's corners
// are. Each node has an extended
// region whose sides on the root's border are infinite. The half-open
// extended regions of the leaves partition the plane, so a hit or a pair is
// reported only by the leaf owning the min corner of the intersection:
// exactly once, with no set of seen ids. A leaf that overflows, and a tree
// receiving a batch at least its size, is built top-down in one go (fill),
// partitioning items by quadrant. Four sibling leaves that together hold at
// most half the capacity merge back into their parent.
//
// 'fixed': pre-split to `levels` levels; an item lives in the deepest node
// whose loose region (the node grown by half its size per side) contains it.
//
// The root's exact region is the area (area.ts): it holds every item, grows
// by doubling towards an item beyond it (the tree is then rebuilt), and with
// no bounds is picked once the items outnumber the capacity. Each doubling
// adds a level to the split depth limit.
//
// Items are addressed by dense slots chosen by the caller. Each item's exact
// rect, id and home node are stored once, in an item table indexed by slot; a
// node's entries are slots into it. An item's leaves are exactly the leaves its
// rect touches, so they are found again by a descent from the nearest ancestor
// holding it: no per-entry back references are kept.

import type { Box, QuadTreeBackend, QuadTreeMode, QuadTreeSettings, SegmentHits } from '../backend.js';
import { Area } from './area.js';
import { RankHeap } from './rank-heap.js';

/** Squared distance from (x, y) to the closed rect; 0 inside. Infinite sides are fine: the point is finite. */
export function squaredDistance(x: number, y: number, x0: number, y0: number, x1: number, y1: number): number {
  const dx = Math.max(Math.max(x0 - x, 0), x - x1);
  const dy = Math.max(Math.max(y0 - y, 0), y - y1);
  return dx * dx + dy * dy;
}

/**
 * Where the segment from (sx, sy) along (dx, dy), t in [0, 1], enters the
 * closed rect: the least t at which it is inside, or -1 when it misses. The
 * slab method; each bound's parameter is monotone in the bound, so a region
 * containing a rect is never entered later than the rect is.
 */
export function segmentEntry(sx: number, sy: number, dx: number, dy: number, x0: number, y0: number, x1: number, y1: number): number {
  let enter = 0, exit = 1;
  if (dx === 0) {
    if (sx < x0 || sx > x1) return -1;
  } else {
    const a = (x0 - sx) / dx, b = (x1 - sx) / dx;
    enter = Math.max(enter, Math.min(a, b));
    exit = Math.min(exit, Math.max(a, b));
  }
  if (dy === 0) {
    if (sy < y0 || sy > y1) return -1;
  } else {
    const a = (y0 - sy) / dy, b = (y1 - sy) / dy;
    enter = Math.max(enter, Math.min(a, b));
    exit = Math.min(exit, Math.max(a, b));
  }
  return enter <= exit ? enter : -1;
}

// Node fields: NF doubles and NI ints per node. X0..Y1 the node's square: its
// exact region, but in a split node that narrowed its split square (see
// narrow). EX0..EY1 the extended (split) or loose (fixed) region.
const NF = 8;
const X0 = 0, Y0 = 1, X1 = 2, Y1 = 3, EX0 = 4, EY0 = 5, EX1 = 6, EY1 = 7;
const NI = 6;
// PARENT: in a free block's first node, the next free block or -1. LEVEL: -1 in a free block.
// AUX: split, in a leaf the count at which it retries if blocked, in a split
// node the sides where its split square is narrower than its region (the
// NARROWED bits); fixed, items in the subtree.
// HOME: split, entries [0, HOME) are the leaf's own (it holds their min corner).
const CHILD = 0, PARENT = 1, LEVEL = 2, COUNT = 3, AUX = 4, HOME = 5;
// The NARROWED bits of AUX: a split node's square is narrower than its region at minX, minY, maxX, maxY.
const NARROWED_X0 = 1, NARROWED_Y0 = 2, NARROWED_X1 = 4, NARROWED_Y1 = 8;

/** Growable Int32 storage with doubling. */
function growI32(array: Int32Array<ArrayBuffer>, needed: number, fill = 0): Int32Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  let size = Math.max(64, array.length * 2);
  while (size < needed) size *= 2;
  const next = new Int32Array(size).fill(fill);
  next.set(array);
  return next;
}

function growF64(array: Float64Array<ArrayBuffer>, needed: number): Float64Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  let size = Math.max(64, array.length * 2);
  while (size < needed) size *= 2;
  const next = new Float64Array(size);
  next.set(array);
  return next;
}

/** A copy of array with the given length (contents kept). */
function resized<T extends Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer>>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length);
  next.set(array);
  return next;
}

/** A leaf does not split when its quadrants would hold this many times its entries. */
const SPLIT_COPIES = 1.5;

const midpoint = (a: number, b: number): number => Math.min(Math.max(a * 0.5 + b * 0.5, a), b);

/**
 * Build records: the items a bulk build or a split partitions, each with its
 * slot, its rect and its quadrant mask in the node being split (bit q for
 * quadrant q: bit 0 right, bit 1 top). Records, not slots, are partitioned,
 * so each level reads its items front to back.
 */
interface Records {
  count: number;
  slots: Int32Array;
  rects: Float64Array;
  masks: Uint8Array;
}

function makeRecords(count: number): Records {
  return { count, slots: new Int32Array(count), rects: new Float64Array(count * 4), masks: new Uint8Array(count) };
}

/** The quadrant mask of a rect touching a node split at (mx, my): a rect touches a quadrant when it reaches that quadrant's side of both split lines. */
function quadrantMask(x0: number, y0: number, x1: number, y1: number, mx: number, my: number): number {
  const left = x0 <= mx, right = x1 >= mx, low = y0 <= my, high = y1 >= my;
  return Number(left && low) | (Number(right && low) << 1) | (Number(left && high) << 2) | (Number(right && high) << 3);
}

/** Records per quadrant, from their masks. */
function quadrantCounts(masks: Uint8Array): number[] {
  const counts = [0, 0, 0, 0];
  for (const m of masks) for (let q = 0; q < 4; q++) counts[q] += (m >> q) & 1;
  return counts;
}

/** Whether the records' rects have a point in common. */
function sharePoint(r: Records): boolean {
  let hiX0 = -Infinity, hiY0 = -Infinity, loX1 = Infinity, loY1 = Infinity;
  for (let i = 0; i < r.count; i++) {
    hiX0 = Math.max(hiX0, r.rects[i * 4]);
    hiY0 = Math.max(hiY0, r.rects[i * 4 + 1]);
    loX1 = Math.min(loX1, r.rects[i * 4 + 2]);
    loY1 = Math.min(loY1, r.rects[i * 4 + 3]);
  }
  return hiX0 <= loX1 && hiY0 <= loY1;
}

export class ReferenceQuadTree implements QuadTreeBackend {
  private readonly split: boolean;
  private capacity: number;
  private readonly maxLevels: number;
  /** The region the root covers, its bounds and how it grows. */
  private readonly area: Area;
  private size = 0;

  // Nodes: regions and fields, and each node's entries (slots; COUNT of them are in use).
  private nodeF = new Float64Array(16 * NF);
  private nodeI = new Int32Array(16 * NI);
  private entries: Int32Array<ArrayBuffer>[] = [];
  private nodeCount = 0;
  /** First node of the last freed block of four siblings (a merge frees them), or -1. */
  private freeBlock = -1;

  // The item table, by slot: id (-1 when free), rect (4 coordinates), home
  // node (split: the leaf owning the rect's min corner; fixed: the node holding it).
  private ids = new Int32Array(0);
  private rects = new Float64Array(0);
  private homes = new Int32Array(0);

  private out = new Int32Array(64);
  private outCount = 0;
  /** A query stops descending once it has written this many ids. */
  private limit = Infinity;
  // Search state: the nearest search's node queue and its k best items, a segment search's entry parameters (beside the ids in out) and its best hit so far.
  private readonly queue = new RankHeap();
  private readonly best = new RankHeap();
  private readonly hitTs: number[] = [];
  private bestT = Infinity;
  private bestId = -1;

  constructor(bounds: Box | null, capacity: number, maxLevels: number, mode: QuadTreeMode) {
    this.split = mode === 'split';
    this.capacity = capacity;
    this.maxLevels = maxLevels;
    this.area = new Area(bounds);
    this.resetNodes();
  }

  get levels(): number {
    let deepest = 0;
    for (let n = 0; n < this.nodeCount; n++) deepest = Math.max(deepest, this.nodeI[n * NI + LEVEL]);
    return deepest + 1;
  }

  get bytes(): number {
    let bytes = this.nodeF.byteLength + this.nodeI.byteLength;
    bytes += this.ids.byteLength + this.rects.byteLength + this.homes.byteLength;
    for (let n = 0; n < this.nodeCount; n++) bytes += this.entries[n].byteLength;
    return bytes;
  }

  // ---- output ----

  private push(value: number): void {
    if (this.outCount === this.out.length) this.out = growI32(this.out, this.outCount + 1);
    this.out[this.outCount++] = value;
  }

  private takeOutput(): Int32Array {
    return this.out.slice(0, this.outCount);
  }

  // ---- nodes ----

  private initNode(n: number, parent: number, level: number, region: number[]): void {
    this.nodeF.set(region, n * NF);
    const i = n * NI;
    this.nodeI[i + CHILD] = -1;
    this.nodeI[i + PARENT] = parent;
    this.nodeI[i + LEVEL] = level;
    this.nodeI[i + COUNT] = 0;
    this.nodeI[i + AUX] = 0;
    this.nodeI[i + HOME] = 0;
    this.entries[n] = EMPTY;
  }

  /** Adds the four children of n (quadrant q: bit 0 right, bit 1 top), in the last freed block or appended; returns the first index. */
  private addChildren(n: number): number {
    let first = this.freeBlock;
    if (first >= 0) {
      this.freeBlock = this.nodeI[first * NI + PARENT];
    } else {
      first = this.nodeCount;
      this.nodeCount += 4;
      this.nodeF = growF64(this.nodeF, this.nodeCount * NF);
      this.nodeI = growI32(this.nodeI, this.nodeCount * NI);
    }
    const f = this.nodeF;
    const b = n * NF;
    const [x0, y0, x1, y1] = [f[b + X0], f[b + Y0], f[b + X1], f[b + Y1]];
    const [px0, py0, px1, py1] = [f[b + EX0], f[b + EY0], f[b + EX1], f[b + EY1]];
    const level = this.nodeI[n * NI + LEVEL] + 1;
    const mx = midpoint(x0, x1);
    const my = midpoint(y0, y1);
    for (let q = 0; q < 4; q++) {
      const right = (q & 1) !== 0;
      const top = (q & 2) !== 0;
      const cx0 = right ? mx : x0, cx1 = right ? x1 : mx;
      const cy0 = top ? my : y0, cy1 = top ? y1 : my;
      let ex0: number, ex1: number, ey0: number, ey1: number;
      if (this.split) {
        ex0 = right ? mx : px0;
        ex1 = right ? px1 : mx;
        ey0 = top ? my : py0;
        ey1 = top ? py1 : my;
      } else {
        // Loose region: half the node's size on every side, never beyond the parent's.
        const hw = (cx1 - cx0) * 0.5, hh = (cy1 - cy0) * 0.5;
        ex0 = Math.max(px0, cx0 - hw);
        ex1 = Math.min(px1, cx1 + hw);
        ey0 = Math.max(py0, cy0 - hh);
        ey1 = Math.min(py1, cy1 + hh);
        if (!right && px0 === -Infinity) ex0 = -Infinity;
        if (right && px1 === Infinity) ex1 = Infinity;
        if (!top && py0 === -Infinity) ey0 = -Infinity;
        if (top && py1 === Infinity) ey1 = Infinity;
      }
      this.initNode(first + q, n, level, [cx0, cy0, cx1, cy1, ex0, ey0, ex1, ey1]);
    }
    this.nodeI[n * NI + CHILD] = first;
    return first;
  }

  /** Drops every node, keeping the item table; rebuilds the root over the area (the whole plane before there is one) and the fixed pre-split. */
  private resetNodes(): void {
    this.nodeCount = 1;
    this.freeBlock = -1;
    this.entries = [];
    const a = this.area;
    const exact = a.covered ? [a.minX, a.minY, a.maxX, a.maxY] : [-Infinity, -Infinity, Infinity, Infinity];
    this.initNode(0, -1, 0, [...exact, -Infinity, -Infinity, Infinity, Infinity]);
    if (!this.split && a.covered) {
      // Children are appended breadth first, so each level is split after the one above.
      for (let n = 0; n < this.nodeCount; n++) {
        if (this.nodeI[n * NI + LEVEL] + 1 < this.maxLevels) this.addChildren(n);
      }
    }
  }

  /** Split lines of node n: the midpoints of its square. */
  private splitLines(n: number): [number, number] {
    const f = this.nodeF;
    return [midpoint(f[n * NF + X0], f[n * NF + X1]), midpoint(f[n * NF + Y0], f[n * NF + Y1])];
  }

  /** Gives split node n its region back as its square if it narrowed, and clears its NARROWED bits. */
  private unnarrow(n: number): void {
    if (this.nodeI[n * NI + AUX] === 0) return;
    this.nodeI[n * NI + AUX] = 0;
    this.nodeF.set(this.regionOf(n), n * NF);
  }

  /** Node n's exact region: the area for the root, else its quadrant of its parent's square. */
  private regionOf(n: number): number[] {
    const parent = this.nodeI[n * NI + PARENT];
    if (parent < 0) return [this.area.minX, this.area.minY, this.area.maxX, this.area.maxY];
    const q = n - this.nodeI[parent * NI + CHILD];
    const [mx, my] = this.splitLines(parent);
    const f = this.nodeF, b = parent * NF;
    return [q & 1 ? mx : f[b + X0], q & 2 ? my : f[b + Y0], q & 1 ? f[b + X1] : mx, q & 2 ? f[b + Y1] : my];
  }

  // ---- entries ----

  /** Adds slot (whose rect starts at x0, y0) to the entries of node n. */
  private appendEntry(n: number, slot: number, x0: number, y0: number): void {
    const count = this.nodeI[n * NI + COUNT];
    let list = this.entries[n];
    if (count === list.length) list = this.entries[n] = resized(list, Math.max(4, count + (count >> 1)));
    list[count] = slot;
    this.nodeI[n * NI + COUNT] = count + 1;
    if (!this.split) {
      this.homes[slot] = n;
    } else if (this.owns(n, x0, y0)) {
      const home = this.nodeI[n * NI + HOME]++;
      [list[count], list[home]] = [list[home], list[count]];
      this.homes[slot] = n;
    }
  }

  /** Removes slot from the entries of node n, keeping the leaf's own entries first. */
  private removeEntry(n: number, slot: number): void {
    const list = this.entries[n];
    const last = this.nodeI[n * NI + COUNT] - 1;
    const home = this.nodeI[n * NI + HOME];
    let pos = list.indexOf(slot);
    if (pos < home) {
      list[pos] = list[home - 1];
      pos = home - 1;
      this.nodeI[n * NI + HOME] = pos;
    }
    list[pos] = list[last];
    this.nodeI[n * NI + COUNT] = last;
  }

  /** Swaps the entries of slot and of position `to` in node n. */
  private moveEntryTo(n: number, slot: number, to: number): void {
    const list = this.entries[n];
    const pos = list.indexOf(slot);
    [list[pos], list[to]] = [list[to], list[pos]];
  }

  // ---- geometry against a node's extended (split) or loose (fixed) region ----

  private touches(n: number, x0: number, y0: number, x1: number, y1: number): boolean {
    const f = this.nodeF, b = n * NF;
    return x0 <= f[b + EX1] && x1 >= f[b + EX0] && y0 <= f[b + EY1] && y1 >= f[b + EY0];
  }

  private contains(n: number, x0: number, y0: number, x1: number, y1: number): boolean {
    const f = this.nodeF, b = n * NF;
    return x0 >= f[b + EX0] && x1 <= f[b + EX1] && y0 >= f[b + EY0] && y1 <= f[b + EY1];
  }

  /**
   * Strictly inside n's square: the rect touches no node outside n's
   * subtree, and keeps to the square of n and of every ancestor (each lies
   * in its parent's), so no narrowed node would have to widen for it.
   */
  private inside(n: number, x0: number, y0: number, x1: number, y1: number): boolean {
    const f = this.nodeF, b = n * NF;
    return x0 > f[b + X0] && x1 < f[b + X1] && y0 > f[b + Y0] && y1 < f[b + Y1];
  }

  /**
   * Whether a rect touching split node n may go below it: a narrowed node
   * holds only rects strictly inside its split square on each side where
   * that square is narrower than its region (see narrow).
   */
  private fitsNarrowed(n: number, x0: number, y0: number, x1: number, y1: number): boolean {
    const sides = this.nodeI[n * NI + AUX];
    if (sides === 0) return true;
    const f = this.nodeF, b = n * NF;
    return !(((sides & NARROWED_X0) !== 0 && x0 <= f[b + X0]) || ((sides & NARROWED_Y0) !== 0 && y0 <= f[b + Y0]) ||
      ((sides & NARROWED_X1) !== 0 && x1 >= f[b + X1]) || ((sides & NARROWED_Y1) !== 0 && y1 >= f[b + Y1]));
  }

  private owns(n: number, px: number, py: number): boolean {
    const f = this.nodeF, b = n * NF;
    return px >= f[b + EX0] && px < f[b + EX1] && py >= f[b + EY0] && py < f[b + EY1];
  }

  /** The item's rect from the item table. */
  private rectOf(slot: number): [number, number, number, number] {
    const r = this.rects;
    return [r[slot * 4], r[slot * 4 + 1], r[slot * 4 + 2], r[slot * 4 + 3]];
  }

  // ---- split mode ----

  private splitInsert(n: number, slot: number, x0: number, y0: number, x1: number, y1: number): void {
    const child = this.nodeI[n * NI + CHILD];
    if (child < 0) {
      this.appendEntry(n, slot, x0, y0);
      this.maybeSplit(n);
      return;
    }
    if (!this.fitsNarrowed(n, x0, y0, x1, y1)) {
      this.refill(n, slot);
      return;
    }
    for (let c = child; c < child + 4; c++) {
      if (this.touches(c, x0, y0, x1, y1)) this.splitInsert(c, slot, x0, y0, x1, y1);
    }
  }

  /** Takes slot out of every leaf below n its rect touches, merging the siblings it leaves with few enough items on the way back up. */
  private splitDetach(n: number, slot: number, x0: number, y0: number, x1: number, y1: number): void {
    const child = this.nodeI[n * NI + CHILD];
    if (child < 0) {
      this.removeEntry(n, slot);
      return;
    }
    for (let c = child; c < child + 4; c++) {
      if (this.touches(c, x0, y0, x1, y1)) this.splitDetach(c, slot, x0, y0, x1, y1);
    }
    this.tryMerge(n);
  }

  /**
   * Merges the four children of n back into n when they are leaves holding,
   * together, at most half the capacity: half, so that a merged leaf is far
   * from splitting again. Returns whether it merged. The merged list keeps
   * n's own entries (own in exactly one child) first; an item met in several
   * children is listed once, from the first child it touches.
   */
  private tryMerge(n: number): boolean {
    const ni = this.nodeI;
    const first = ni[n * NI + CHILD];
    if (first < 0) return false;
    const limit = this.capacity >> 1;
    let own = 0;
    for (let c = first; c < first + 4; c++) {
      if (ni[c * NI + CHILD] >= 0) return false;
      own += ni[c * NI + HOME];
    }
    if (own > limit) return false;
    const merged: number[] = [];
    for (let c = first; c < first + 4; c++) merged.push(...this.entries[c].subarray(0, ni[c * NI + HOME]));
    for (let c = first; c < first + 4; c++) {
      const list = this.entries[c];
      for (let i = ni[c * NI + HOME]; i < ni[c * NI + COUNT]; i++) {
        const [x0, y0, x1, y1] = this.rectOf(list[i]);
        if (this.owns(n, x0, y0) || this.touchesBefore(first, c, x0, y0, x1, y1)) continue;
        if (merged.length === limit) return false;
        merged.push(list[i]);
      }
    }
    this.releaseBlock(first);
    for (let i = 0; i < own; i++) this.homes[merged[i]] = n;
    this.entries[n] = Int32Array.from(merged);
    ni[n * NI + CHILD] = -1;
    ni[n * NI + COUNT] = merged.length;
    ni[n * NI + HOME] = own;
    this.unnarrow(n);
    return true;
  }

  /** Marks the block of four siblings starting at first free (their subtrees already are); it is reused first. */
  private releaseBlock(first: number): void {
    for (let c = first; c < first + 4; c++) this.initNode(c, -1, -1, [0, 0, 0, 0, 0, 0, 0, 0]);
    this.nodeI[first * NI + PARENT] = this.freeBlock;
    this.freeBlock = first;
  }

  /** Frees every node below n, deepest blocks first. */
  private releaseBelow(n: number): void {
    const first = this.nodeI[n * NI + CHILD];
    if (first < 0) return;
    for (let c = first; c < first + 4; c++) this.releaseBelow(c);
    this.releaseBlock(first);
  }

  /**
   * Rebuilds the subtree of split node n with slot, whose rect does not fit
   * n's narrowed split square (see fitsNarrowed): n becomes a leaf over its
   * whole region again and is filled in bulk with its items and slot,
   * narrowing anew around them all.
   */
  private refill(n: number, slot: number): void {
    const slots = this.subtreeSlots(n, n, []);
    slots.push(slot);
    this.releaseBelow(n);
    const ni = this.nodeI;
    ni[n * NI + CHILD] = -1;
    ni[n * NI + COUNT] = 0;
    ni[n * NI + HOME] = 0;
    this.entries[n] = EMPTY;
    this.unnarrow(n);
    // Homes below n are gone; n owns those items' min corners.
    const r = this.rects;
    for (const s of slots) if (this.owns(n, r[s * 4], r[s * 4 + 1])) this.homes[s] = n;
    const recs = this.gatherRecords(Int32Array.from(slots));
    this.fill(n, recs, this.planRecords(n, recs));
  }

  /** Appends to out the items stored below n within the subtree of top, each once: from the first leaf (in child order) its rect touches. */
  private subtreeSlots(top: number, n: number, out: number[]): number[] {
    const child = this.nodeI[n * NI + CHILD];
    if (child >= 0) {
      for (let c = child; c < child + 4; c++) this.subtreeSlots(top, c, out);
      return out;
    }
    const list = this.entries[n];
    for (let i = 0; i < this.nodeI[n * NI + COUNT]; i++) {
      if (this.firstLeaf(top, ...this.rectOf(list[i])) === n) out.push(list[i]);
    }
    return out;
  }

  /** The first leaf below n, in child order, that the rect (touching n) touches. */
  private firstLeaf(n: number, x0: number, y0: number, x1: number, y1: number): number {
    for (let c = this.nodeI[n * NI + CHILD]; c >= 0; c = this.nodeI[n * NI + CHILD]) {
      n = c;
      while (!this.touches(n, x0, y0, x1, y1)) n++;
    }
    return n;
  }

  /** Whether the rect touches one of the siblings first..c - 1. */
  private touchesBefore(first: number, c: number, x0: number, y0: number, x1: number, y1: number): boolean {
    for (let b = first; b < c; b++) if (this.touches(b, x0, y0, x1, y1)) return true;
    return false;
  }

  /** After a removal below holder n: once n is a leaf its parent may merge, and so on up. */
  private mergeUp(n: number): void {
    while (n > 0 && this.nodeI[n * NI + CHILD] < 0) {
      n = this.nodeI[n * NI + PARENT];
      if (!this.tryMerge(n)) return;
    }
  }

  /** The nearest ancestor of n (or n) strictly holding the rect: every leaf the rect touches is below it. */
  private holder(n: number, x0: number, y0: number, x1: number, y1: number): number {
    while (n > 0 && !this.inside(n, x0, y0, x1, y1)) n = this.nodeI[n * NI + PARENT];
    return n;
  }

  /** Splits leaf n when over capacity, below the depth limit and when splitting pays (see shouldSplit). */
  private maybeSplit(n: number): void {
    const count = this.nodeI[n * NI + COUNT];
    // The cheap reasons not to split first: a leaf at the depth limit or
    // blocked until it doubles would otherwise gather its items on every insert.
    if (!this.mayDeepen(n, count)) return;
    const recs = this.gatherRecords(this.entries[n].subarray(0, count));
    const quads = this.planRecords(n, recs);
    if (!this.shouldSplit(n, recs, quads)) return;
    this.nodeI[n * NI + COUNT] = 0;
    this.nodeI[n * NI + HOME] = 0;
    this.entries[n] = EMPTY;
    this.splitInto(n, recs, quads);
  }

  /** The build records of the given slots, from the item table. */
  private gatherRecords(slots: Int32Array): Records {
    const recs = makeRecords(slots.length);
    recs.slots.set(slots);
    for (let i = 0; i < slots.length; i++) recs.rects.set(this.rects.subarray(slots[i] * 4, slots[i] * 4 + 4), i * 4);
    return recs;
  }

  /** Plans a split of node n: sets each record's quadrant mask; returns the records per quadrant. */
  private planRecords(n: number, recs: Records): number[] {
    const [mx, my] = this.splitLines(n);
    const r = recs.rects;
    for (let i = 0; i < recs.count; i++) recs.masks[i] = quadrantMask(r[i * 4], r[i * 4 + 1], r[i * 4 + 2], r[i * 4 + 3], mx, my);
    return quadrantCounts(recs.masks);
  }

  /**
   * Whether node n, holding the records (`quads` of them per quadrant),
   * should split: it must be over capacity, below the depth limit, and
   * splitting must pay. It cannot when the items all share a point (they
   * would stay together in every leaf, however deep) or when the quadrants
   * would hold SPLIT_COPIES times as many entries as the node (items large
   * next to the quadrants: a split mostly copies them and adds pair tests);
   * such a blocked leaf tries again when its count doubles. Items sharing a
   * point all touch a quadrant holding it, so only then are they scanned.
   */
  private shouldSplit(n: number, recs: Records, quads: number[]): boolean {
    const ni = this.nodeI, count = recs.count;
    if (!this.mayDeepen(n, count)) return false;
    let copies = quads[0] + quads[1] + quads[2] + quads[3];
    let crowded = Math.max(...quads) === count;
    if (copies >= SPLIT_COPIES * count || (crowded && sharePoint(recs))) {
      ni[n * NI + AUX] = count * 2;
      return false;
    }
    // A split node's AUX holds its NARROWED bits, none unless it narrows.
    ni[n * NI + AUX] = 0;
    if (crowded && copies === count) {
      // Every record in one quadrant: split where they part instead.
      const region = Array.from(this.nodeF.subarray(n * NF + X0, n * NF + Y1 + 1));
      quads.splice(0, 4, ...this.narrow(n, recs));
      copies = quads[0] + quads[1] + quads[2] + quads[3];
      crowded = Math.max(...quads) === count;
      // Still one quadrant: no split square parts them, at the precision of doubles.
      if (copies >= SPLIT_COPIES * count || (crowded && copies === count)) {
        this.nodeF.set(region, n * NF);
        ni[n * NI + AUX] = count * 2;
        return false;
      }
    }
    return true;
  }

  /**
   * Narrows the square of node n, whose records all lie in one quadrant,
   * to the smallest square that halving its region towards them reaches
   * while they keep to one quadrant, each strictly on one side of both
   * split lines: its split square, with the NARROWED bits of the sides that
   * moved. Plans the records there and returns their count per quadrant.
   * Halving skipped this way would have built a chain of nodes whose other
   * three children stay empty. The records' box decides each step, and a
   * step that halves neither side (the doubles run out) ends it.
   */
  private narrow(n: number, recs: Records): number[] {
    const r = recs.rects;
    // Strict comparisons, as in boxOf: of equal values (0 and -0) the first is kept.
    let bx0 = Infinity, by0 = Infinity, bx1 = -Infinity, by1 = -Infinity;
    for (let i = 0; i < recs.count; i++) {
      if (r[i * 4] < bx0) bx0 = r[i * 4];
      if (r[i * 4 + 1] < by0) by0 = r[i * 4 + 1];
      if (r[i * 4 + 2] > bx1) bx1 = r[i * 4 + 2];
      if (r[i * 4 + 3] > by1) by1 = r[i * 4 + 3];
    }
    const f = this.nodeF, b = n * NF;
    let x0 = f[b + X0], y0 = f[b + Y0], x1 = f[b + X1], y1 = f[b + Y1];
    for (;;) {
      const mx = midpoint(x0, x1), my = midpoint(y0, y1);
      const right = bx0 > mx, top = by0 > my;
      if (!(right || bx1 < mx) || !(top || by1 < my)) break;
      const nx0 = right ? mx : x0, nx1 = right ? x1 : mx, ny0 = top ? my : y0, ny1 = top ? y1 : my;
      if (nx0 === x0 && nx1 === x1 && ny0 === y0 && ny1 === y1) break;
      [x0, y0, x1, y1] = [nx0, ny0, nx1, ny1];
    }
    this.nodeI[n * NI + AUX] = (x0 !== f[b + X0] ? NARROWED_X0 : 0) | (y0 !== f[b + Y0] ? NARROWED_Y0 : 0) | (x1 !== f[b + X1] ? NARROWED_X1 : 0) | (y1 !== f[b + Y1] ? NARROWED_Y1 : 0);
    f.set([x0, y0, x1, y1], b + X0);
    return this.planRecords(n, recs);
  }

  /**
   * Whether node n, holding count entries, is one splitting may be worth a
   * look for: over capacity, not blocked (see shouldSplit), above the depth
   * limit (each doubling of the area adds a level), and with an area.
   */
  private mayDeepen(n: number, count: number): boolean {
    const ni = this.nodeI;
    return count > this.capacity && count >= ni[n * NI + AUX] && ni[n * NI + LEVEL] + 1 < this.maxLevels + this.area.growth && this.area.covered;
  }

  /**
   * Gives the empty node n the planned records (quadrant masks set, `quads`
   * per quadrant): as a leaf, or split, recursively, as far as splitting
   * pays. This is the bulk build: one partition pass per level instead of
   * one walk per item and repeated re-splits.
   */
  private fill(n: number, recs: Records, quads: number[]): void {
    if (this.shouldSplit(n, recs, quads)) this.splitInto(n, recs, quads);
    else this.adoptLeaf(n, recs);
  }

  /**
   * Adds the four children of n and fills each with the records that touch
   * it, in input order. Each copied record gets its mask in the child, so
   * the children come planned.
   */
  private splitInto(n: number, recs: Records, quads: number[]): void {
    const first = this.addChildren(n);
    const parts = quads.map(makeRecords);
    const lines = [0, 1, 2, 3].map((q) => this.splitLines(first + q));
    const ends = [0, 0, 0, 0];
    for (let i = 0; i < recs.count; i++) {
      const m = recs.masks[i];
      const x0 = recs.rects[i * 4], y0 = recs.rects[i * 4 + 1], x1 = recs.rects[i * 4 + 2], y1 = recs.rects[i * 4 + 3];
      for (let q = 0; q < 4; q++) {
        if (((m >> q) & 1) === 0) continue;
        const part = parts[q], k = ends[q]++;
        part.slots[k] = recs.slots[i];
        part.rects.set(recs.rects.subarray(i * 4, i * 4 + 4), k * 4);
        part.masks[k] = quadrantMask(x0, y0, x1, y1, lines[q][0], lines[q][1]);
      }
    }
    for (let q = 0; q < 4; q++) this.fill(first + q, parts[q], quadrantCounts(parts[q].masks));
  }

  /** Makes the empty node n a leaf holding the records, in an entry array of exactly that size: its own entries first, then the others, each part in record order. */
  private adoptLeaf(n: number, recs: Records): void {
    if (recs.count === 0) return;
    const own: number[] = [];
    const others: number[] = [];
    for (let i = 0; i < recs.count; i++) {
      const slot = recs.slots[i];
      if (this.owns(n, recs.rects[i * 4], recs.rects[i * 4 + 1])) own.push(slot);
      else others.push(slot);
    }
    this.entries[n] = Int32Array.from([...own, ...others]);
    this.nodeI[n * NI + COUNT] = recs.count;
    this.nodeI[n * NI + HOME] = own.length;
  }

  private splitQuery(n: number, x0: number, y0: number, x1: number, y1: number): void {
    if (this.outCount >= this.limit) return;
    const child = this.nodeI[n * NI + CHILD];
    if (child >= 0) {
      for (let c = child; c < child + 4; c++) {
        if (this.touches(c, x0, y0, x1, y1)) this.splitQuery(c, x0, y0, x1, y1);
      }
      return;
    }
    const list = this.entries[n];
    const r = this.rects;
    const f = this.nodeF, b = n * NF;
    if (x0 < f[b + EX0] && y0 < f[b + EY0]) {
      // The box starts before this leaf: only its own entries can be reported
      // here, and all of them when the leaf lies inside the box.
      const home = this.nodeI[n * NI + HOME];
      const inside = f[b + EX1] <= x1 && f[b + EY1] <= y1;
      for (let i = 0; i < home; i++) {
        const s = list[i] * 4;
        if (inside || (r[s] <= x1 && r[s + 1] <= y1)) this.push(this.ids[list[i]]);
      }
      return;
    }
    const count = this.nodeI[n * NI + COUNT];
    for (let i = 0; i < count; i++) {
      const s = list[i] * 4;
      if (r[s] <= x1 && r[s + 2] >= x0 && r[s + 1] <= y1 && r[s + 3] >= y0 && this.owns(n, Math.max(r[s], x0), Math.max(r[s + 1], y0))) {
        this.push(this.ids[list[i]]);
      }
    }
  }

  private splitPairs(): void {
    const ids = this.ids, f = this.nodeF;
    for (let n = 0; n < this.nodeCount; n++) {
      const count = this.nodeI[n * NI + COUNT];
      if (count < 2) continue;
      // The leaf's rects side by side: the pair loop reads them count times each.
      const list = this.entries[n];
      const r = this.gatherRecords(list.subarray(0, count)).rects;
      const own = this.nodeI[n * NI + HOME];
      const ex0 = f[n * NF + EX0], ey0 = f[n * NF + EY0], ex1 = f[n * NF + EX1], ey1 = f[n * NF + EY1];
      for (let i = 0; i < count - 1; i++) {
        const ax0 = r[i * 4], ay0 = r[i * 4 + 1], ax1 = r[i * 4 + 2], ay1 = r[i * 4 + 3];
        const home = i < own ? own : 0;
        for (let j = i + 1; j < count; j++) {
          const bx0 = r[j * 4], by0 = r[j * 4 + 1];
          if (bx0 > ax1 || by0 > ay1 || r[j * 4 + 2] < ax0 || r[j * 4 + 3] < ay0) continue;
          // Two of the leaf's own entries always meet at a point the leaf owns;
          // otherwise only the leaf owning the min corner of the overlap reports the pair.
          if (j >= home) {
            const px = Math.max(ax0, bx0), py = Math.max(ay0, by0);
            if (px < ex0 || px >= ex1 || py < ey0 || py >= ey1) continue;
          }
          const ia = ids[list[i]], ib = ids[list[j]];
          this.push(Math.min(ia, ib));
          this.push(Math.max(ia, ib));
        }
      }
    }
  }

  private splitUpdate(slot: number, x0: number, y0: number, x1: number, y1: number): void {
    const [ox0, oy0, ox1, oy1] = this.rectOf(slot);
    const leaf = this.homeLeaf(slot, ox0, oy0);
    // Fast path: the rect was and stays strictly inside its one leaf.
    if (this.inside(leaf, x0, y0, x1, y1) && this.inside(leaf, ox0, oy0, ox1, oy1)) {
      this.storeRect(slot, x0, y0, x1, y1);
      return;
    }
    // Otherwise, below the nearest ancestor holding both rects, either they
    // touch the same leaves (rewrite the rect, fix the min corner's leaf) or
    // the item moves: out of the old leaves, into the new ones.
    const n = this.holder(this.holder(leaf, ox0, oy0, ox1, oy1), x0, y0, x1, y1);
    if (!this.leavesDiffer(n, [ox0, oy0, ox1, oy1], [x0, y0, x1, y1])) {
      this.storeRect(slot, x0, y0, x1, y1);
      const owner = this.ownerLeaf(n, x0, y0);
      if (owner !== leaf) {
        // The min corner crossed into another of the item's leaves.
        const oldHome = --this.nodeI[leaf * NI + HOME];
        this.moveEntryTo(leaf, slot, oldHome);
        const newHome = this.nodeI[owner * NI + HOME]++;
        this.moveEntryTo(owner, slot, newHome);
        this.homes[slot] = owner;
      }
      return;
    }
    this.splitDetach(n, slot, ox0, oy0, ox1, oy1);
    this.storeRect(slot, x0, y0, x1, y1);
    this.splitInsert(n, slot, x0, y0, x1, y1);
  }

  /** Whether some node below n is touched by one rect and not the other: whether the two rects (both touching n) touch different leaves. */
  private leavesDiffer(n: number, a: number[], b: number[]): boolean {
    const child = this.nodeI[n * NI + CHILD];
    if (child < 0) return false;
    // A narrowed node the second rect does not fit must be rebuilt, which the move's insert does.
    if (!this.fitsNarrowed(n, b[0], b[1], b[2], b[3])) return true;
    for (let c = child; c < child + 4; c++) {
      const touchesA = this.touches(c, a[0], a[1], a[2], a[3]);
      if (touchesA !== this.touches(c, b[0], b[1], b[2], b[3])) return true;
      if (touchesA && this.leavesDiffer(c, a, b)) return true;
    }
    return false;
  }

  /** The leaf below n owning the point (which n owns). */
  /**
   * The leaf owning the min corner (x0, y0) of slot's rect. A split (bulk or
   * not) leaves the item's home at the node that split, an ancestor owning
   * the corner too, to be resolved here on the item's next update: a build
   * writes no home per item.
   */
  private homeLeaf(slot: number, x0: number, y0: number): number {
    const n = this.homes[slot];
    if (this.nodeI[n * NI + CHILD] < 0) return n;
    return (this.homes[slot] = this.ownerLeaf(n, x0, y0));
  }

  private ownerLeaf(n: number, px: number, py: number): number {
    for (let child = this.nodeI[n * NI + CHILD]; child >= 0; child = this.nodeI[n * NI + CHILD]) {
      n = child;
      while (!this.owns(n, px, py)) n++;
    }
    return n;
  }

  // ---- fixed mode ----

  private addTotals(n: number, delta: number): void {
    for (; n >= 0; n = this.nodeI[n * NI + PARENT]) this.nodeI[n * NI + AUX] += delta;
  }

  /** The child of n that takes the rect, or -1 when it stays in n. */
  private fixedChild(n: number, x0: number, y0: number, x1: number, y1: number): number {
    const child = this.nodeI[n * NI + CHILD];
    if (child < 0) return -1;
    const cx = x0 * 0.5 + x1 * 0.5, cy = y0 * 0.5 + y1 * 0.5;
    const mx = this.nodeF[child * NF + X1], my = this.nodeF[child * NF + Y1];
    const c = child + (cx >= mx ? 1 : 0) + (cy >= my ? 2 : 0);
    return this.contains(c, x0, y0, x1, y1) ? c : -1;
  }

  private fixedPlace(n: number, slot: number, x0: number, y0: number, x1: number, y1: number): void {
    for (let c = this.fixedChild(n, x0, y0, x1, y1); c >= 0; c = this.fixedChild(n, x0, y0, x1, y1)) n = c;
    this.appendEntry(n, slot, x0, y0);
    this.addTotals(n, 1);
  }

  private fixedDetach(slot: number): void {
    const n = this.homes[slot];
    this.removeEntry(n, slot);
    this.addTotals(n, -1);
  }

  private fixedUpdate(slot: number, x0: number, y0: number, x1: number, y1: number): void {
    let n = this.homes[slot];
    if (this.contains(n, x0, y0, x1, y1) && this.fixedChild(n, x0, y0, x1, y1) < 0) {
      this.storeRect(slot, x0, y0, x1, y1);
      return;
    }
    this.fixedDetach(slot);
    while (n > 0 && !this.contains(n, x0, y0, x1, y1)) n = this.nodeI[n * NI + PARENT];
    this.storeRect(slot, x0, y0, x1, y1);
    this.fixedPlace(n, slot, x0, y0, x1, y1);
  }

  private fixedQuery(n: number, x0: number, y0: number, x1: number, y1: number): void {
    if (this.outCount >= this.limit) return;
    const count = this.nodeI[n * NI + COUNT];
    const list = this.entries[n];
    const r = this.rects;
    for (let i = 0; i < count; i++) {
      const s = list[i] * 4;
      if (r[s] <= x1 && r[s + 2] >= x0 && r[s + 1] <= y1 && r[s + 3] >= y0) this.push(this.ids[list[i]]);
    }
    const child = this.nodeI[n * NI + CHILD];
    if (child < 0) return;
    for (let c = child; c < child + 4; c++) {
      if (this.nodeI[c * NI + AUX] > 0 && this.touches(c, x0, y0, x1, y1)) this.fixedQuery(c, x0, y0, x1, y1);
    }
  }

  /**
   * Pairs of item `ia` (entry pos of node home) with the items in the subtree
   * of n. A pair is reported from its member in the shallower node or, on one
   * level, from the member first in (node, position) order.
   */
  private fixedPairsOf(n: number, home: number, homeLevel: number, pos: number, ia: number, x0: number, y0: number, x1: number, y1: number): void {
    const level = this.nodeI[n * NI + LEVEL];
    if (level > homeLevel || (level === homeLevel && n >= home)) {
      const count = this.nodeI[n * NI + COUNT];
      const list = this.entries[n];
      const r = this.rects;
      for (let i = n === home ? pos + 1 : 0; i < count; i++) {
        const s = list[i] * 4;
        if (r[s] <= x1 && r[s + 2] >= x0 && r[s + 1] <= y1 && r[s + 3] >= y0) {
          const ib = this.ids[list[i]];
          this.push(Math.min(ia, ib));
          this.push(Math.max(ia, ib));
        }
      }
    }
    const child = this.nodeI[n * NI + CHILD];
    if (child < 0) return;
    for (let c = child; c < child + 4; c++) {
      if (this.nodeI[c * NI + AUX] > 0 && this.touches(c, x0, y0, x1, y1)) this.fixedPairsOf(c, home, homeLevel, pos, ia, x0, y0, x1, y1);
    }
  }

  private fixedPairs(): void {
    for (let n = 0; n < this.nodeCount; n++) {
      const count = this.nodeI[n * NI + COUNT];
      for (let i = 0; i < count; i++) {
        const slot = this.entries[n][i];
        this.fixedPairsOf(0, n, this.nodeI[n * NI + LEVEL], i, this.ids[slot], ...this.rectOf(slot));
      }
    }
  }

  // ---- items ----

  private storeRect(slot: number, x0: number, y0: number, x1: number, y1: number): void {
    const r = this.rects;
    r[slot * 4] = x0;
    r[slot * 4 + 1] = y0;
    r[slot * 4 + 2] = x1;
    r[slot * 4 + 3] = y1;
  }

  private reserveItems(slot: number): void {
    if (slot < this.ids.length) return;
    this.ids = growI32(this.ids, slot + 1, -1);
    this.homes = growI32(this.homes, this.ids.length);
    this.rects = growF64(this.rects, this.ids.length * 4);
  }

  private place(slot: number): void {
    const [x0, y0, x1, y1] = this.rectOf(slot);
    if (this.split) this.splitInsert(0, slot, x0, y0, x1, y1);
    else this.fixedPlace(0, slot, x0, y0, x1, y1);
  }

  /** The slots of every item, in slot order, with room for `extra` more. */
  private allSlots(extra: number): Int32Array {
    const slots = new Int32Array(this.size + extra);
    let k = 0;
    for (let s = 0; s < this.ids.length; s++) if (this.ids[s] >= 0) slots[k++] = s;
    return slots;
  }

  /** Rebuilds the nodes with the given items: in bulk in split mode, one by one in fixed mode. */
  private rebuildWith(slots: Int32Array): void {
    this.resetNodes();
    if (this.split) {
      // A split leaves homes at an ancestor of the home leaf; the root is one.
      for (const slot of slots) this.homes[slot] = 0;
      const recs = this.gatherRecords(slots);
      this.fill(0, recs, this.planRecords(0, recs));
      return;
    }
    for (const slot of slots) this.place(slot);
  }

  /** Rebuilds every node from the item table (after the area changed). */
  private rebuild(): void {
    this.rebuildWith(this.allSlots(0));
  }

  /** The bounding box of the given slots' rects (inverted, +Infinity to -Infinity, for none). */
  private boxOf(slots: Int32Array): Box {
    const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
    const r = this.rects;
    // Strict comparisons, as the wasm core makes them: of equal values (0 and -0) the first is kept.
    for (const slot of slots) {
      if (r[slot * 4] < box[0]) box[0] = r[slot * 4];
      if (r[slot * 4 + 1] < box[1]) box[1] = r[slot * 4 + 1];
      if (r[slot * 4 + 2] > box[2]) box[2] = r[slot * 4 + 2];
      if (r[slot * 4 + 3] > box[3]) box[3] = r[slot * 4 + 3];
    }
    return box;
  }

  /**
   * A tree with no area yet: once its items outnumber the capacity (and do
   * not all share one point) it takes the square around them and is rebuilt
   * over it. Returns whether it was.
   */
  private settle(): boolean {
    const area = this.area;
    if (area.covered || this.size <= this.capacity || this.size < area.retryAt) return false;
    const slots = this.allSlots(0);
    if (!area.fit(this.boxOf(slots), this.size, this.capacity)) return false;
    this.rebuildWith(slots);
    return true;
  }

  /**
   * The tree as new: its area back to the bounds (or none) and every array
   * given back, so an emptied tree holds what a fresh one does.
   */
  private empty(): void {
    this.nodeF = new Float64Array(16 * NF);
    this.nodeI = new Int32Array(16 * NI);
    this.ids = new Int32Array(0);
    this.rects = new Float64Array(0);
    this.homes = new Int32Array(0);
    this.out = new Int32Array(64);
    this.area.restart();
    this.resetNodes();
  }

  /** Inserts an item; one beyond the area grows it and rebuilds the tree over it. */
  insert(slot: number, id: number, minX: number, minY: number, maxX: number, maxY: number): void {
    this.reserveItems(slot);
    this.ids[slot] = id;
    this.storeRect(slot, minX, minY, maxX, maxY);
    this.size++;
    if (this.area.covered && !this.area.holds(minX, minY, maxX, maxY)) {
      this.area.cover(minX, minY, maxX, maxY);
      this.rebuild();
      return;
    }
    this.place(slot);
    this.settle();
  }

  /** Moves an item; a move beyond the area grows it and rebuilds the tree over it. */
  update(slot: number, minX: number, minY: number, maxX: number, maxY: number): void {
    if (this.area.covered && !this.area.holds(minX, minY, maxX, maxY)) {
      this.storeRect(slot, minX, minY, maxX, maxY);
      this.area.cover(minX, minY, maxX, maxY);
      this.rebuild();
      return;
    }
    if (this.split) this.splitUpdate(slot, minX, minY, maxX, maxY);
    else this.fixedUpdate(slot, minX, minY, maxX, maxY);
  }

  /** A split tree receiving at least as many items as it holds is rebuilt in bulk: its items in slot order, then the batch in order, over an area fitted to them all. */
  insertMany(slots: Int32Array, ids: Int32Array, rects: Float64Array): void {
    const count = slots.length;
    if (this.split && count > 0 && count >= this.size) {
      const all = this.allSlots(count);
      all.set(slots, this.size);
      let top = 0;
      for (let i = 0; i < count; i++) top = Math.max(top, slots[i]);
      this.reserveItems(top);
      for (let i = 0; i < count; i++) {
        this.ids[slots[i]] = ids[i];
        this.rects.set(rects.subarray(i * 4, i * 4 + 4), slots[i] * 4);
      }
      this.size += count;
      this.area.fit(this.boxOf(all), this.size, this.capacity);
      this.rebuildWith(all);
      return;
    }
    for (let i = 0; i < count; i++) this.insert(slots[i], ids[i], rects[i * 4], rects[i * 4 + 1], rects[i * 4 + 2], rects[i * 4 + 3]);
  }

  updateMany(slots: Int32Array, rects: Float64Array): void {
    for (let i = 0; i < slots.length; i++) this.update(slots[i], rects[i * 4], rects[i * 4 + 1], rects[i * 4 + 2], rects[i * 4 + 3]);
  }

  /** Removes an item; siblings left with few items merge, and the last removal leaves the tree as new. */
  remove(slot: number): void {
    if (this.split) {
      const [x0, y0, x1, y1] = this.rectOf(slot);
      const n = this.holder(this.homes[slot], x0, y0, x1, y1);
      this.splitDetach(n, slot, x0, y0, x1, y1);
      this.mergeUp(n);
    } else {
      this.fixedDetach(slot);
    }
    this.ids[slot] = -1;
    if (--this.size === 0) this.empty();
  }

  /** Removes every item, keeping the item table's room for the next fill; the area goes back to the bounds (or none). */
  clear(): void {
    this.ids.fill(-1);
    this.size = 0;
    this.area.restart();
    this.resetNodes();
  }

  setBounds(bounds: Box | null): void {
    this.area.setBounds(bounds);
    const slots = this.allSlots(0);
    this.area.fit(this.boxOf(slots), this.size, this.capacity);
    this.rebuildWith(slots);
  }

  /** Lowering the capacity of a split tree rebuilds it; raising it only affects later splits. A tree with no area yet may now pick one. */
  setCapacity(capacity: number): void {
    const lower = capacity < this.capacity;
    this.capacity = capacity;
    if (!this.settle() && lower && this.split) this.rebuild();
  }

  query(minX: number, minY: number, maxX: number, maxY: number, limit = Infinity): Int32Array {
    this.outCount = 0;
    this.limit = limit;
    if (this.split) this.splitQuery(0, minX, minY, maxX, maxY);
    else if (this.nodeI[AUX] > 0) this.fixedQuery(0, minX, minY, maxX, maxY);
    return this.takeOutput();
  }

  pairs(): Int32Array {
    this.outCount = 0;
    if (this.split) this.splitPairs();
    else this.fixedPairs();
    return this.takeOutput();
  }

  cells(): Float64Array {
    let count = 0;
    for (let n = 0; n < this.nodeCount; n++) if (this.isCell(n)) count++;
    const out = new Float64Array(count * 4);
    let k = 0;
    for (let n = 0; n < this.nodeCount; n++) {
      if (!this.isCell(n)) continue;
      out.set(this.cellOf(n), k);
      k += 4;
    }
    return out;
  }

  /**
   * Node n's cell: in split mode the part of the area (the whole plane
   * before there is one) its extended region covers, so that the leaves
   * tile the area even where a narrowed node's children reach past their
   * regions; in fixed mode its exact region.
   */
  private cellOf(n: number): number[] {
    const f = this.nodeF, b = n * NF;
    if (!this.split) return [f[b + X0], f[b + Y0], f[b + X1], f[b + Y1]];
    const a = this.area;
    const [ax0, ay0, ax1, ay1] = a.covered ? [a.minX, a.minY, a.maxX, a.maxY] : [-Infinity, -Infinity, Infinity, Infinity];
    const ex0 = f[b + EX0], ey0 = f[b + EY0], ex1 = f[b + EX1], ey1 = f[b + EY1];
    return [ex0 > ax0 ? ex0 : ax0, ey0 > ay0 ? ey0 : ay0, ex1 < ax1 ? ex1 : ax1, ey1 < ay1 ? ey1 : ay1];
  }

  // ---- nearest, disc and segment searches ----
  //
  // Split mode stores an item in every leaf its rect touches, so a leaf
  // reports an item only when it owns the item's point nearest to the query
  // point (clamped into the rect): one leaf per item, and a leaf no farther
  // than the item. Fixed mode stores each item once.

  /**
   * Best-first over the nodes, with the k best items so far kept in a second
   * heap whose keys and tags are negated, so its top is the worst of them:
   * once k are held, nothing farther than that worst one is queued, and the
   * search ends when the nearest unvisited node is farther (an equally
   * distant node may still hold a smaller id).
   */
  nearest(x: number, y: number, k: number, maxSquared: number): Int32Array {
    const { queue, best } = this;
    queue.clear();
    best.clear();
    const f = this.nodeF, ni = this.nodeI, r = this.rects;
    let limit = maxSquared;
    queue.push(0, 0);
    while (queue.size > 0 && queue.topKey <= limit) {
      const n = queue.topTag;
      queue.pop();
      const list = this.entries[n];
      const count = ni[n * NI + COUNT];
      for (let i = 0; i < count; i++) {
        const s = list[i] * 4;
        const d = squaredDistance(x, y, r[s], r[s + 1], r[s + 2], r[s + 3]);
        if (d > limit || !this.reports(n, x, y, s)) continue;
        const id = this.ids[list[i]];
        if (best.size < k) {
          best.push(-d, -id);
          if (best.size === k) limit = -best.topKey;
        } else if (d < limit || id < -best.topTag) {
          best.pop();
          best.push(-d, -id);
          limit = -best.topKey;
        }
      }
      const child = ni[n * NI + CHILD];
      if (child < 0) continue;
      for (let c = child; c < child + 4; c++) {
        if (!this.split && ni[c * NI + AUX] === 0) continue;
        const b = c * NF;
        const d = squaredDistance(x, y, f[b + EX0], f[b + EY0], f[b + EX1], f[b + EY1]);
        if (d <= limit) queue.push(d, c);
      }
    }
    // The held items, worst first, fill the answer from the back.
    const out = new Int32Array(best.size);
    for (let i = out.length - 1; i >= 0; i--) {
      out[i] = -best.topTag;
      best.pop();
    }
    return out;
  }

  within(x: number, y: number, r2: number): Int32Array {
    this.outCount = 0;
    this.withinFrom(0, x, y, r2);
    return this.takeOutput();
  }

  private withinFrom(n: number, x: number, y: number, r2: number): void {
    const f = this.nodeF, ni = this.nodeI, r = this.rects;
    const list = this.entries[n];
    const count = ni[n * NI + COUNT];
    for (let i = 0; i < count; i++) {
      const s = list[i] * 4;
      if (squaredDistance(x, y, r[s], r[s + 1], r[s + 2], r[s + 3]) <= r2 && this.reports(n, x, y, s)) this.push(this.ids[list[i]]);
    }
    const child = ni[n * NI + CHILD];
    if (child < 0) return;
    for (let c = child; c < child + 4; c++) {
      if (!this.split && ni[c * NI + AUX] === 0) continue;
      const b = c * NF;
      if (squaredDistance(x, y, f[b + EX0], f[b + EY0], f[b + EX1], f[b + EY1]) <= r2) this.withinFrom(c, x, y, r2);
    }
  }

  /** Whether node n reports the item whose rect starts at rects[s]: always in fixed mode; in split mode when n owns the item's point nearest to (x, y). */
  private reports(n: number, x: number, y: number, s: number): boolean {
    if (!this.split) return true;
    const r = this.rects;
    return this.owns(n, Math.min(Math.max(x, r[s]), r[s + 2]), Math.min(Math.max(y, r[s + 1]), r[s + 3]));
  }

  segment(x0: number, y0: number, x1: number, y1: number, first: boolean): SegmentHits {
    this.outCount = 0;
    this.hitTs.length = 0;
    this.bestT = Infinity;
    this.bestId = -1;
    this.segmentFrom(0, x0, y0, x1 - x0, y1 - y0, first);
    if (first) {
      return this.bestId < 0 ? { ids: new Int32Array(0), ts: new Float64Array(0) } : { ids: Int32Array.of(this.bestId), ts: Float64Array.of(this.bestT) };
    }
    return { ids: this.takeOutput(), ts: Float64Array.from(this.hitTs) };
  }

  private segmentFrom(n: number, sx: number, sy: number, dx: number, dy: number, first: boolean): void {
    const f = this.nodeF, ni = this.nodeI, r = this.rects;
    const list = this.entries[n];
    const count = ni[n * NI + COUNT];
    for (let i = 0; i < count; i++) {
      const s = list[i] * 4;
      const t = segmentEntry(sx, sy, dx, dy, r[s], r[s + 1], r[s + 2], r[s + 3]);
      if (t < 0) continue;
      const id = this.ids[list[i]];
      if (!first) {
        this.push(id);
        this.hitTs.push(t);
      } else if (t < this.bestT || (t === this.bestT && id < this.bestId)) {
        this.bestT = t;
        this.bestId = id;
      }
    }
    const child = ni[n * NI + CHILD];
    if (child < 0) return;
    for (let c = child; c < child + 4; c++) {
      if (!this.split && ni[c * NI + AUX] === 0) continue;
      const b = c * NF;
      const t = segmentEntry(sx, sy, dx, dy, f[b + EX0], f[b + EY0], f[b + EX1], f[b + EY1]);
      if (t >= 0 && t <= this.bestT) this.segmentFrom(c, sx, sy, dx, dy, first);
    }
  }

  rectsOf(slots: Int32Array): Float64Array {
    const out = new Float64Array(slots.length * 4);
    for (let i = 0; i < slots.length; i++) out.set(this.rects.subarray(slots[i] * 4, slots[i] * 4 + 4), i * 4);
    return out;
  }

  settings(): QuadTreeSettings {
    return { bounds: this.area.bounds, levels: this.maxLevels };
  }

  /** A node drawn as a cell: in split mode every leaf (their regions tile the area), never a node of a free block; in fixed mode the root and every node holding items. */
  private isCell(n: number): boolean {
    const ni = this.nodeI;
    return this.split ? ni[n * NI + CHILD] < 0 && ni[n * NI + LEVEL] >= 0 : n === 0 || ni[n * NI + COUNT] > 0;
  }

  dispose(): void {
    this.entries = [];
  }
}

const EMPTY: Int32Array<ArrayBuffer> = new Int32Array(0);
