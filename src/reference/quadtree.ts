// QuadTree reference backend: the same two layouts as assembly/quadtree.ts,
// written in plain TypeScript over typed arrays.
//
// 'split': a leaf over capacity splits into four quadrants; items live only in
// leaves, in every leaf their closed rect touches. Each node has an extended
// region whose sides on the root's border are infinite (items outside the
// bounds land in border leaves). The half-open extended regions of the leaves
// partition the plane, so a hit or a pair is reported only by the leaf owning
// the min corner of the intersection: exactly once, with no set of seen ids.
// A leaf that overflows, and a tree receiving a batch at least its size, is
// built top-down in one go (fill), partitioning items by quadrant.
//
// 'fixed': pre-split to `levels` levels; an item lives in the deepest node
// whose loose region (the node grown by half its size per side) contains it.
//
// Items are addressed by dense slots chosen by the caller. A node's entries
// are (slot, rect) pairs kept side by side, so scans never chase a slot into a
// global array. A slot keeps its id and a chain of locators (node, position in
// the node's entries), so removal and in-place moves touch only its nodes.

/** What the QuadTree facade needs from a backend. Slots are dense, chosen by the facade. */
export interface QuadTreeCore {
  insert(slot: number, id: number, minX: number, minY: number, maxX: number, maxY: number): void;
  update(slot: number, minX: number, minY: number, maxX: number, maxY: number): void;
  /** insert for each i: slots[i], ids[i], rects[4i..4i+3]; in array order. */
  insertMany(slots: Int32Array, ids: Int32Array, rects: Float64Array): void;
  /** update for each i: slots[i] to rects[4i..4i+3]; in array order. */
  updateMany(slots: Int32Array, rects: Float64Array): void;
  remove(slot: number): void;
  clear(): void;
  setBounds(minX: number, minY: number, maxX: number, maxY: number): void;
  setCapacity(capacity: number): void;
  /** Ids of the items meeting the closed box, in traversal order (a fresh array). */
  query(minX: number, minY: number, maxX: number, maxY: number): Int32Array;
  /** Every intersecting pair once as [smaller id, larger id] (a fresh flat array). */
  pairs(): Int32Array;
  /** Exact regions of the cells, flat [minX, minY, maxX, maxY, ...] in node order: split, every leaf; fixed, the root and every node holding items. */
  cells(): Float64Array;
  /** Levels in use (split) or pre-split levels (fixed); a lone root is 1. */
  readonly levels: number;
  /** Bytes held by the structure's arrays (the output buffer excluded). */
  readonly bytes: number;
  dispose(): void;
}

export type QuadTreeMode = 'split' | 'fixed';

// Node fields: NF doubles and NI ints per node.
const NF = 8;
const X0 = 0, Y0 = 1, X1 = 2, Y1 = 3, EX0 = 4, EY0 = 5, EX1 = 6, EY1 = 7;
const NI = 6;
// AUX: split, the count at which a blocked leaf retries; fixed, items in the subtree.
// HOME: split, entries [0, HOME) are the leaf's own (it holds their min corner).
const CHILD = 0, PARENT = 1, LEVEL = 2, COUNT = 3, AUX = 4, HOME = 5;

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

export class ReferenceQuadTree implements QuadTreeCore {
  private readonly split: boolean;
  private capacity: number;
  private readonly maxLevels: number;
  private bounds: [number, number, number, number];
  private size = 0;
  levels = 1;

  // Nodes.
  private nodeF = new Float64Array(16 * NF);
  private nodeI = new Int32Array(16 * NI);
  private entries: Int32Array<ArrayBuffer>[] = []; // slots per node
  private boxes: Float64Array<ArrayBuffer>[] = []; // 4 coordinates per entry, per node
  private nodeCount = 0;

  // Items by slot: id (-1 when free), first locator (-1 when none).
  private ids = new Int32Array(0);
  private heads = new Int32Array(0);

  // Locators: node, position, next locator of the same item.
  private locNode = new Int32Array(0);
  private locPos = new Int32Array(0);
  private locNext = new Int32Array(0);
  private locCount = 0;
  private locFree = -1;

  // Entries per quadrant of the last split planSplit approved.
  private readonly quads = [0, 0, 0, 0];

  private out = new Int32Array(64);
  private outCount = 0;

  constructor(minX: number, minY: number, maxX: number, maxY: number, capacity: number, maxLevels: number, mode: QuadTreeMode) {
    this.split = mode === 'split';
    this.capacity = capacity;
    this.maxLevels = maxLevels;
    this.bounds = [minX, minY, maxX, maxY];
    this.resetNodes();
  }

  get bytes(): number {
    let bytes = this.nodeF.byteLength + this.nodeI.byteLength + this.ids.byteLength;
    bytes += this.heads.byteLength + this.locNode.byteLength * 3;
    for (let n = 0; n < this.nodeCount; n++) bytes += this.entries[n].byteLength + this.boxes[n].byteLength;
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
    this.boxes[n] = NO_BOXES;
  }

  /** Appends the four children of n (quadrant q: bit 0 right, bit 1 top); returns the first index. */
  private addChildren(n: number): number {
    const first = this.nodeCount;
    this.nodeCount += 4;
    this.nodeF = growF64(this.nodeF, this.nodeCount * NF);
    this.nodeI = growI32(this.nodeI, this.nodeCount * NI);
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
    if (level + 1 > this.levels) this.levels = level + 1;
    return first;
  }

  /** Drops every node and locator, keeping the items; rebuilds the root (and the fixed pre-split). */
  private resetNodes(): void {
    this.nodeCount = 1;
    this.levels = 1;
    this.entries = [];
    this.boxes = [];
    const [minX, minY, maxX, maxY] = this.bounds;
    this.initNode(0, -1, 0, [minX, minY, maxX, maxY, -Infinity, -Infinity, Infinity, Infinity]);
    this.locCount = 0;
    this.locFree = -1;
    if (!this.split) {
      // Children are appended breadth first, so each level is split after the one above.
      for (let n = 0; n < this.nodeCount; n++) {
        if (this.nodeI[n * NI + LEVEL] + 1 < this.maxLevels) this.addChildren(n);
      }
    }
  }

  // ---- entries and locators ----

  private appendEntry(n: number, slot: number, x0: number, y0: number, x1: number, y1: number): void {
    const count = this.nodeI[n * NI + COUNT];
    let list = this.entries[n];
    let box = this.boxes[n];
    if (count === list.length) {
      const capacity = Math.max(4, count * 2);
      list = this.entries[n] = resized(list, capacity);
      box = this.boxes[n] = resized(box, capacity * 4);
    }
    list[count] = slot;
    box[count * 4] = x0;
    box[count * 4 + 1] = y0;
    box[count * 4 + 2] = x1;
    box[count * 4 + 3] = y1;
    this.nodeI[n * NI + COUNT] = count + 1;
    this.addLocator(slot, n, count);
    if (this.split && this.owns(n, x0, y0)) {
      const home = this.nodeI[n * NI + HOME]++;
      this.swapEntries(n, count, home);
    }
  }

  /** Records that the item in slot has an entry at pos of node n. */
  private addLocator(slot: number, n: number, pos: number): void {
    let l = this.locFree;
    if (l >= 0) {
      this.locFree = this.locNext[l];
    } else {
      l = this.locCount++;
      if (l === this.locNode.length) {
        this.locNode = growI32(this.locNode, l + 1);
        this.locPos = growI32(this.locPos, l + 1);
        this.locNext = growI32(this.locNext, l + 1);
      }
    }
    this.locNode[l] = n;
    this.locPos[l] = pos;
    this.locNext[l] = this.heads[slot];
    this.heads[slot] = l;
  }

  /** Points the locator of the entry now at pos of node n to pos. */
  private relocate(n: number, pos: number): void {
    let l = this.heads[this.entries[n][pos]];
    while (this.locNode[l] !== n) l = this.locNext[l];
    this.locPos[l] = pos;
  }

  private swapEntries(n: number, i: number, j: number): void {
    if (i === j) return;
    const list = this.entries[n], box = this.boxes[n];
    [list[i], list[j]] = [list[j], list[i]];
    for (let k = 0; k < 4; k++) [box[i * 4 + k], box[j * 4 + k]] = [box[j * 4 + k], box[i * 4 + k]];
    this.relocate(n, i);
    this.relocate(n, j);
  }

  /** Moves the entry at from of node n to to, overwriting it. */
  private moveEntry(n: number, from: number, to: number): void {
    if (from === to) return;
    this.entries[n][to] = this.entries[n][from];
    this.boxes[n].copyWithin(to * 4, from * 4, from * 4 + 4);
    this.relocate(n, to);
  }

  /** Removes the entry at pos of node n, keeping the leaf's own entries first. */
  private removeEntryAt(n: number, pos: number): void {
    const last = this.nodeI[n * NI + COUNT] - 1;
    const home = this.nodeI[n * NI + HOME];
    if (pos < home) {
      this.moveEntry(n, home - 1, pos);
      pos = home - 1;
      this.nodeI[n * NI + HOME] = pos;
    }
    this.moveEntry(n, last, pos);
    this.nodeI[n * NI + COUNT] = last;
  }

  private freeLocator(l: number): void {
    this.locNext[l] = this.locFree;
    this.locFree = l;
  }

  /** Takes the item out of every node that holds it. */
  private detach(slot: number): void {
    let l = this.heads[slot];
    while (l >= 0) {
      const next = this.locNext[l];
      this.removeEntryAt(this.locNode[l], this.locPos[l]);
      if (!this.split) this.addTotals(this.locNode[l], -1);
      this.freeLocator(l);
      l = next;
    }
    this.heads[slot] = -1;
  }

  /** Forgets the item's locator for node n, whose entries are being discarded. */
  private unlinkLocator(slot: number, n: number): void {
    let prev = -1;
    let l = this.heads[slot];
    while (this.locNode[l] !== n) {
      prev = l;
      l = this.locNext[l];
    }
    if (prev < 0) this.heads[slot] = this.locNext[l];
    else this.locNext[prev] = this.locNext[l];
    this.freeLocator(l);
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

  /** Strictly inside: the rect touches no node outside n's subtree. */
  private inside(n: number, x0: number, y0: number, x1: number, y1: number): boolean {
    const f = this.nodeF, b = n * NF;
    return x0 > f[b + EX0] && x1 < f[b + EX1] && y0 > f[b + EY0] && y1 < f[b + EY1];
  }

  private owns(n: number, px: number, py: number): boolean {
    const f = this.nodeF, b = n * NF;
    return px >= f[b + EX0] && px < f[b + EX1] && py >= f[b + EY0] && py < f[b + EY1];
  }

  // ---- split mode ----

  private splitInsert(n: number, slot: number, x0: number, y0: number, x1: number, y1: number): void {
    const child = this.nodeI[n * NI + CHILD];
    if (child < 0) {
      this.appendEntry(n, slot, x0, y0, x1, y1);
      this.maybeSplit(n);
      return;
    }
    for (let c = child; c < child + 4; c++) {
      if (this.touches(c, x0, y0, x1, y1)) this.splitInsert(c, slot, x0, y0, x1, y1);
    }
  }

  /** Splits leaf n when over capacity, below the depth limit and when splitting pays (see planSplit). */
  private maybeSplit(n: number): void {
    const count = this.nodeI[n * NI + COUNT];
    if (count <= this.capacity) return;
    const list = this.entries[n];
    const box = this.boxes[n];
    const copies = this.planSplit(n, box, count);
    if (copies < 0) return;
    for (let i = 0; i < count; i++) this.unlinkLocator(list[i], n);
    this.nodeI[n * NI + COUNT] = 0;
    this.nodeI[n * NI + HOME] = 0;
    this.entries[n] = EMPTY;
    this.boxes[n] = NO_BOXES;
    this.splitInto(n, list, box, count, copies);
  }

  /**
   * Whether leaf n, given `count` records' rects, should split: it must be
   * over capacity, below the depth limit, and splitting must pay. It cannot
   * when the items all share a point (they would stay together in every
   * leaf, however deep) or when the quadrants would hold SPLIT_COPIES times
   * as many entries as the leaf (items large next to the quadrants: a split
   * mostly copies them and adds pair tests); such a blocked leaf tries again
   * when its count doubles. Returns the entries the quadrants would hold, or
   * -1 for no split.
   */
  private planSplit(n: number, r: Float64Array, count: number): number {
    const ni = this.nodeI;
    if (count <= this.capacity || count < ni[n * NI + AUX] || ni[n * NI + LEVEL] + 1 >= this.maxLevels) return -1;
    const f = this.nodeF;
    const mx = midpoint(f[n * NF + X0], f[n * NF + X1]);
    const my = midpoint(f[n * NF + Y0], f[n * NF + Y1]);
    let hiX0 = -Infinity, hiY0 = -Infinity, loX1 = Infinity, loY1 = Infinity;
    // A record touches n, so it touches a quadrant exactly when it reaches that quadrant's side of both split lines.
    const quads = this.quads;
    quads.fill(0);
    for (let i = 0; i < count; i++) {
      const s = i * 4;
      hiX0 = Math.max(hiX0, r[s]);
      hiY0 = Math.max(hiY0, r[s + 1]);
      loX1 = Math.min(loX1, r[s + 2]);
      loY1 = Math.min(loY1, r[s + 3]);
      const left = r[s] <= mx, right = r[s + 2] >= mx, low = r[s + 1] <= my, high = r[s + 3] >= my;
      quads[0] += Number(left && low);
      quads[1] += Number(right && low);
      quads[2] += Number(left && high);
      quads[3] += Number(right && high);
    }
    const copies = quads[0] + quads[1] + quads[2] + quads[3];
    if ((hiX0 <= loX1 && hiY0 <= loY1) || copies >= SPLIT_COPIES * count) {
      ni[n * NI + AUX] = count * 2;
      return -1;
    }
    return copies;
  }

  /**
   * Gives the empty node n the records (slots and rects): as a leaf, or split,
   * recursively, as far as splitting pays. This is the bulk build: one
   * partition pass per level instead of one walk per item and repeated re-splits.
   */
  private fill(n: number, slots: Int32Array, r: Float64Array, count: number): void {
    const copies = this.planSplit(n, r, count);
    if (copies < 0) this.fillLeaf(n, slots, r, count);
    else this.splitInto(n, slots, r, count, copies);
  }

  /** Adds the four children of n and fills each with the records that touch it (`copies` in all), partitioned in quadrant order. */
  private splitInto(n: number, slots: Int32Array, r: Float64Array, count: number, copies: number): void {
    const first = this.addChildren(n);
    const f = this.nodeF;
    const mx = midpoint(f[n * NF + X0], f[n * NF + X1]);
    const my = midpoint(f[n * NF + Y0], f[n * NF + Y1]);
    // Quadrant q's records start after those of the quadrants before it (planSplit counted them).
    const q = this.quads;
    const starts = [0, q[0], q[0] + q[1], q[0] + q[1] + q[2]];
    const ends = starts.slice();
    const partSlots = new Int32Array(copies);
    const partRects = new Float64Array(copies * 4);
    const put = (q: number, i: number): void => {
      const k = ends[q]++;
      partSlots[k] = slots[i];
      partRects.set(r.subarray(i * 4, i * 4 + 4), k * 4);
    };
    for (let i = 0; i < count; i++) {
      const left = r[i * 4] <= mx, right = r[i * 4 + 2] >= mx, low = r[i * 4 + 1] <= my, high = r[i * 4 + 3] >= my;
      if (low) {
        if (left) put(0, i);
        if (right) put(1, i);
      }
      if (high) {
        if (left) put(2, i);
        if (right) put(3, i);
      }
    }
    for (let q = 0; q < 4; q++) {
      const a = starts[q], b = ends[q];
      this.fill(first + q, partSlots.subarray(a, b), partRects.subarray(a * 4, b * 4), b - a);
    }
  }

  /**
   * Makes the empty node n a leaf holding the records, in arrays of exactly
   * that size, reordered so its own entries come first (own ones are kept from
   * the front, others swapped in from the back).
   */
  private fillLeaf(n: number, slots: Int32Array, r: Float64Array, count: number): void {
    if (count === 0) return;
    const list = (this.entries[n] = slots.slice(0, count));
    const box = (this.boxes[n] = r.slice(0, count * 4));
    let i = 0, j = count - 1;
    while (i <= j) {
      if (this.owns(n, box[i * 4], box[i * 4 + 1])) {
        i++;
      } else {
        [list[i], list[j]] = [list[j], list[i]];
        for (let k = 0; k < 4; k++) [box[i * 4 + k], box[j * 4 + k]] = [box[j * 4 + k], box[i * 4 + k]];
        j--;
      }
    }
    this.nodeI[n * NI + COUNT] = count;
    this.nodeI[n * NI + HOME] = i;
    for (let k = 0; k < count; k++) this.addLocator(list[k], n, k);
  }

  private splitQuery(n: number, x0: number, y0: number, x1: number, y1: number): void {
    const child = this.nodeI[n * NI + CHILD];
    if (child >= 0) {
      for (let c = child; c < child + 4; c++) {
        if (this.touches(c, x0, y0, x1, y1)) this.splitQuery(c, x0, y0, x1, y1);
      }
      return;
    }
    const list = this.entries[n];
    const r = this.boxes[n];
    const f = this.nodeF, b = n * NF;
    if (x0 < f[b + EX0] && y0 < f[b + EY0]) {
      // The box starts before this leaf: only its own entries can be reported
      // here, and all of them when the leaf lies inside the box.
      const home = this.nodeI[n * NI + HOME];
      const inside = f[b + EX1] <= x1 && f[b + EY1] <= y1;
      for (let i = 0; i < home; i++) {
        if (inside || (r[i * 4] <= x1 && r[i * 4 + 1] <= y1)) this.push(this.ids[list[i]]);
      }
      return;
    }
    const count = this.nodeI[n * NI + COUNT];
    for (let i = 0; i < count; i++) {
      const s = i * 4;
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
      const list = this.entries[n];
      const r = this.boxes[n];
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
    const head = this.heads[slot];
    let n = this.locNode[head];
    // Fast path: the rect stays strictly inside its one leaf.
    if (this.locNext[head] < 0 && this.inside(n, x0, y0, x1, y1)) {
      this.storeBox(n, this.locPos[head], x0, y0, x1, y1);
      return;
    }
    // Otherwise find the nearest ancestor that holds the new rect; below it,
    // either the rect touches the same leaves (rewrite it there) or re-insert.
    while (n > 0 && !this.inside(n, x0, y0, x1, y1)) n = this.nodeI[n * NI + PARENT];
    let held = 0;
    for (let l = head; l >= 0; l = this.locNext[l]) held++;
    if (this.sameLeaves(n, head, x0, y0, x1, y1) === held) {
      for (let l = head; l >= 0; l = this.locNext[l]) {
        const m = this.locNode[l], pos = this.locPos[l];
        this.storeBox(m, pos, x0, y0, x1, y1);
        // The min corner may have crossed into another of the item's leaves.
        const home = this.nodeI[m * NI + HOME];
        const own = this.owns(m, x0, y0);
        if (own && pos >= home) {
          this.swapEntries(m, pos, home);
          this.nodeI[m * NI + HOME] = home + 1;
        } else if (!own && pos < home) {
          this.swapEntries(m, pos, home - 1);
          this.nodeI[m * NI + HOME] = home - 1;
        }
      }
      return;
    }
    this.detach(slot);
    this.splitInsert(n, slot, x0, y0, x1, y1);
  }

  /** Counts the leaves below n the rect touches, or -1 as soon as one is not in the locator chain at head. */
  private sameLeaves(n: number, head: number, x0: number, y0: number, x1: number, y1: number): number {
    const child = this.nodeI[n * NI + CHILD];
    if (child < 0) {
      for (let l = head; l >= 0; l = this.locNext[l]) if (this.locNode[l] === n) return 1;
      return -1;
    }
    let found = 0;
    for (let c = child; c < child + 4; c++) {
      if (!this.touches(c, x0, y0, x1, y1)) continue;
      const below = this.sameLeaves(c, head, x0, y0, x1, y1);
      if (below < 0) return -1;
      found += below;
    }
    return found;
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
    this.appendEntry(n, slot, x0, y0, x1, y1);
    this.addTotals(n, 1);
  }

  private fixedUpdate(slot: number, x0: number, y0: number, x1: number, y1: number): void {
    const head = this.heads[slot];
    let n = this.locNode[head];
    if (this.contains(n, x0, y0, x1, y1) && this.fixedChild(n, x0, y0, x1, y1) < 0) {
      this.storeBox(n, this.locPos[head], x0, y0, x1, y1);
      return;
    }
    while (n > 0 && !this.contains(n, x0, y0, x1, y1)) n = this.nodeI[n * NI + PARENT];
    this.detach(slot);
    this.fixedPlace(n, slot, x0, y0, x1, y1);
  }

  private fixedQuery(n: number, x0: number, y0: number, x1: number, y1: number): void {
    const count = this.nodeI[n * NI + COUNT];
    const list = this.entries[n];
    const r = this.boxes[n];
    for (let i = 0; i < count; i++) {
      const s = i * 4;
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
      const r = this.boxes[n];
      for (let i = n === home ? pos + 1 : 0; i < count; i++) {
        const s = i * 4;
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
      const r = this.boxes[n];
      for (let i = 0; i < count; i++) {
        const s = i * 4;
        this.fixedPairsOf(0, n, this.nodeI[n * NI + LEVEL], i, this.ids[this.entries[n][i]], r[s], r[s + 1], r[s + 2], r[s + 3]);
      }
    }
  }

  // ---- items ----

  /** Writes a rect into the entry at pos of node n (an item moving inside its node). */
  private storeBox(n: number, pos: number, x0: number, y0: number, x1: number, y1: number): void {
    const box = this.boxes[n];
    box[pos * 4] = x0;
    box[pos * 4 + 1] = y0;
    box[pos * 4 + 2] = x1;
    box[pos * 4 + 3] = y1;
  }

  private reserveItems(slot: number): void {
    if (slot < this.ids.length) return;
    this.ids = growI32(this.ids, slot + 1, -1);
    this.heads = growI32(this.heads, this.ids.length, -1);
  }

  private place(slot: number, x0: number, y0: number, x1: number, y1: number): void {
    if (this.split) this.splitInsert(0, slot, x0, y0, x1, y1);
    else this.fixedPlace(0, slot, x0, y0, x1, y1);
  }

  /** Every placed item's slot and rect, in slot order, with room for `extra` more records. */
  private gatherRecords(extra: number): { slots: Int32Array; rects: Float64Array } {
    // The rects live only in entries: copy each item's out before the nodes go.
    const slots = new Int32Array(this.size + extra);
    const rects = new Float64Array((this.size + extra) * 4);
    let k = 0;
    for (let s = 0; s < this.ids.length; s++) {
      const l = this.heads[s];
      if (this.ids[s] < 0 || l < 0) continue;
      slots[k] = s;
      rects.set(this.boxes[this.locNode[l]].subarray(this.locPos[l] * 4, this.locPos[l] * 4 + 4), k * 4);
      k++;
    }
    return { slots, rects };
  }

  /** Replaces the nodes by a tree bulk-built from the records. */
  private bulkBuild(slots: Int32Array, rects: Float64Array): void {
    for (const s of slots) this.heads[s] = -1;
    this.resetNodes();
    this.fill(0, slots, rects, slots.length);
  }

  /** Rebuilds the nodes with the same items: bulk in split mode, in slot order. */
  private rebuild(): void {
    const { slots, rects } = this.gatherRecords(0);
    if (this.split) {
      this.bulkBuild(slots, rects);
      return;
    }
    this.resetNodes();
    for (let i = 0; i < slots.length; i++) {
      this.heads[slots[i]] = -1;
      this.place(slots[i], rects[i * 4], rects[i * 4 + 1], rects[i * 4 + 2], rects[i * 4 + 3]);
    }
  }

  insert(slot: number, id: number, minX: number, minY: number, maxX: number, maxY: number): void {
    this.reserveItems(slot);
    this.ids[slot] = id;
    this.heads[slot] = -1;
    this.size++;
    this.place(slot, minX, minY, maxX, maxY);
  }

  update(slot: number, minX: number, minY: number, maxX: number, maxY: number): void {
    if (this.split) this.splitUpdate(slot, minX, minY, maxX, maxY);
    else this.fixedUpdate(slot, minX, minY, maxX, maxY);
  }

  /** A split tree receiving at least as many items as it holds is rebuilt in bulk: its items in slot order, then the batch in order. */
  insertMany(slots: Int32Array, ids: Int32Array, rects: Float64Array): void {
    const count = slots.length;
    if (this.split && count > 0 && count >= this.size) {
      const all = this.gatherRecords(count);
      let top = 0;
      for (let i = 0; i < count; i++) top = Math.max(top, slots[i]);
      this.reserveItems(top);
      for (let i = 0; i < count; i++) this.ids[slots[i]] = ids[i];
      all.slots.set(slots, this.size);
      all.rects.set(rects.subarray(0, count * 4), this.size * 4);
      this.size += count;
      this.bulkBuild(all.slots, all.rects);
      return;
    }
    for (let i = 0; i < slots.length; i++) this.insert(slots[i], ids[i], rects[i * 4], rects[i * 4 + 1], rects[i * 4 + 2], rects[i * 4 + 3]);
  }

  updateMany(slots: Int32Array, rects: Float64Array): void {
    for (let i = 0; i < slots.length; i++) this.update(slots[i], rects[i * 4], rects[i * 4 + 1], rects[i * 4 + 2], rects[i * 4 + 3]);
  }

  remove(slot: number): void {
    this.detach(slot);
    this.ids[slot] = -1;
    this.size--;
  }

  clear(): void {
    this.ids.fill(-1);
    this.heads.fill(-1);
    this.size = 0;
    this.resetNodes();
  }

  setBounds(minX: number, minY: number, maxX: number, maxY: number): void {
    this.bounds = [minX, minY, maxX, maxY];
    this.rebuild();
  }

  /** Lowering the capacity of a split tree rebuilds it; raising it only affects later splits. */
  setCapacity(capacity: number): void {
    const lower = capacity < this.capacity;
    this.capacity = capacity;
    if (lower && this.split) this.rebuild();
  }

  query(minX: number, minY: number, maxX: number, maxY: number): Int32Array {
    this.outCount = 0;
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
      out.set(this.nodeF.subarray(n * NF + X0, n * NF + Y1 + 1), k);
      k += 4;
    }
    return out;
  }

  /** A node drawn as a cell: in split mode every leaf (their regions tile the bounds); in fixed mode the root and every node holding items. */
  private isCell(n: number): boolean {
    return this.split ? this.nodeI[n * NI + CHILD] < 0 : n === 0 || this.nodeI[n * NI + COUNT] > 0;
  }

  dispose(): void {
    this.entries = [];
    this.boxes = [];
  }
}

const EMPTY: Int32Array<ArrayBuffer> = new Int32Array(0);
const NO_BOXES: Float64Array<ArrayBuffer> = new Float64Array(0);
