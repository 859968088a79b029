// QuadTree core: rectangles in flat linear memory, two layouts.
//
// 'split' (mode 0): a leaf over capacity splits into four quadrants; data
// lives only in leaves and an item is stored in every leaf its closed rect
// touches. Every node keeps an "extended" region whose outer sides are
// infinite where they lie on the root's border, so items outside the bounds
// land in border leaves. The half-open extended regions of the leaves
// partition the plane; a hit (or a pair) is reported only by the leaf that
// owns the min corner of the intersection, so it is reported exactly once
// with no set of seen ids. A leaf that overflows, and a tree receiving a
// batch at least its size, is built top-down in one go (fill): each node
// partitions its items into quadrant blocks, and a block that ends as a leaf
// becomes the leaf's entry array.
//
// 'fixed' (mode 1): pre-split to `levels` levels; an item lives in exactly
// one node, the deepest one whose loose region (the node grown by half its
// size on every side, infinite on the root's border) contains it. Loose
// regions keep items that cross a centre line out of the root.
//
// Items are addressed by a dense slot the caller chooses. A node's entries are
// records (slot, id, rect): scans read them front to back, never chasing a slot
// into a global array. Each slot keeps its id and a chain of locators (node,
// position in that node's entries), so removal and in-place moves touch only
// the nodes that hold the item.

// Node record, NODE_BYTES apart.
const NODE_BYTES: usize = 96;
const X0: usize = 0; // exact region
const Y0: usize = 8;
const X1: usize = 16;
const Y1: usize = 24;
const EX0: usize = 32; // extended region (split) or loose region (fixed)
const EY0: usize = 40;
const EX1: usize = 48;
const EY1: usize = 56;
const CHILD: usize = 64; // first of four consecutive children, -1 for a leaf
const PARENT: usize = 68;
const LEVEL: usize = 72; // root is 0
const COUNT: usize = 76;
const CAP: usize = 80;
const ENTRIES: usize = 84; // pointer to entry records
const AUX: usize = 88; // split: count at which a blocked leaf retries; fixed: items in subtree
const HOME: usize = 92; // split: entries [0, HOME) are the leaf's own (it holds their min corner)

// Entry record: slot, id, then minX, minY, maxX, maxY. In a split-mode leaf
// the items whose min corner the leaf owns come first: a query box that
// starts strictly before the leaf reports exactly those, so the leaves inside
// a box need no test and no ownership check.
const ENTRY_BYTES: usize = 40;

// Locator record: node, position, next locator of the same item.
const LOC_BYTES: usize = 12;

const MODE_SPLIT: i32 = 0;

// A leaf does not split when its quadrants would hold this many times its entries.
const SPLIT_COPIES: f64 = 1.5;

@unmanaged
class Tree {
  mode: i32 = 0;
  capacity: i32 = 8;
  maxLevels: i32 = 16;
  levels: i32 = 1;
  minX: f64 = 0;
  minY: f64 = 0;
  maxX: f64 = 0;
  maxY: f64 = 0;
  nodes: usize = 0;
  nodeCount: i32 = 0;
  nodeCap: i32 = 0;
  ids: usize = 0;
  heads: usize = 0;
  itemCap: i32 = 0;
  size: i32 = 0;
  // Entries per quadrant of the last split planSplit approved (the fourth is the rest).
  quad0: i32 = 0;
  quad1: i32 = 0;
  quad2: i32 = 0;
  locs: usize = 0;
  locCount: i32 = 0;
  locCap: i32 = 0;
  locFree: i32 = -1;
  out: usize = 0;
  outCount: i32 = 0;
  outCap: i32 = 0;
}

@inline function nodeAt(t: Tree, n: i32): usize {
  return t.nodes + <usize>n * NODE_BYTES;
}

@inline function entryAt(entries: usize, i: i32): usize {
  return entries + <usize>i * ENTRY_BYTES;
}

@inline function idOf(t: Tree, slot: i32): i32 {
  return load<i32>(t.ids + (<usize>slot << 2));
}

@inline function headOf(t: Tree, slot: i32): i32 {
  return load<i32>(t.heads + (<usize>slot << 2));
}

@inline function setHead(t: Tree, slot: i32, loc: i32): void {
  store<i32>(t.heads + (<usize>slot << 2), loc);
}

@inline function locAt(t: Tree, l: i32): usize {
  return t.locs + <usize>l * LOC_BYTES;
}

function grow(ptr: usize, bytes: usize): usize {
  return ptr == 0 ? heap.alloc(bytes) : heap.realloc(ptr, bytes);
}

// ---- output buffer -------------------------------------------------------

function reserveOut(t: Tree, more: i32): void {
  if (t.outCount + more <= t.outCap) return;
  while (t.outCount + more > t.outCap) t.outCap = max(64, t.outCap << 1);
  t.out = grow(t.out, <usize>t.outCap << 2);
}

@inline function pushOut(t: Tree, value: i32): void {
  if (t.outCount == t.outCap) {
    t.outCap = max(64, t.outCap << 1);
    t.out = grow(t.out, <usize>t.outCap << 2);
  }
  store<i32>(t.out + (<usize>t.outCount << 2), value);
  t.outCount++;
}

// ---- nodes -----------------------------------------------------------------

function initNode(t: Tree, n: i32, parent: i32, level: i32, x0: f64, y0: f64, x1: f64, y1: f64, ex0: f64, ey0: f64, ex1: f64, ey1: f64): void {
  const p = nodeAt(t, n);
  store<f64>(p, x0, X0);
  store<f64>(p, y0, Y0);
  store<f64>(p, x1, X1);
  store<f64>(p, y1, Y1);
  store<f64>(p, ex0, EX0);
  store<f64>(p, ey0, EY0);
  store<f64>(p, ex1, EX1);
  store<f64>(p, ey1, EY1);
  store<i32>(p, -1, CHILD);
  store<i32>(p, parent, PARENT);
  store<i32>(p, level, LEVEL);
  store<i32>(p, 0, COUNT);
  store<i32>(p, 0, CAP);
  store<i32>(p, 0, ENTRIES);
  store<i32>(p, 0, AUX);
  store<i32>(p, 0, HOME);
}

@inline function midpoint(a: f64, b: f64): f64 {
  return min(max(a * 0.5 + b * 0.5, a), b);
}

// Appends the four children of n; returns the first one's index.
function addChildren(t: Tree, n: i32): i32 {
  if (t.nodeCount + 4 > t.nodeCap) {
    t.nodeCap = max(16, t.nodeCap + (t.nodeCap >> 1));
    t.nodes = grow(t.nodes, <usize>t.nodeCap * NODE_BYTES);
  }
  const first = t.nodeCount;
  t.nodeCount += 4;
  const p = nodeAt(t, n);
  const x0 = load<f64>(p, X0), y0 = load<f64>(p, Y0), x1 = load<f64>(p, X1), y1 = load<f64>(p, Y1);
  const px0 = load<f64>(p, EX0), py0 = load<f64>(p, EY0), px1 = load<f64>(p, EX1), py1 = load<f64>(p, EY1);
  const level = load<i32>(p, LEVEL) + 1;
  const mx = midpoint(x0, x1), my = midpoint(y0, y1);
  for (let q = 0; q < 4; q++) {
    const right = (q & 1) != 0, top = (q & 2) != 0;
    const cx0 = right ? mx : x0, cx1 = right ? x1 : mx;
    const cy0 = top ? my : y0, cy1 = top ? y1 : my;
    let ex0: f64, ex1: f64, ey0: f64, ey1: f64;
    if (t.mode == MODE_SPLIT) {
      ex0 = right ? mx : px0;
      ex1 = right ? px1 : mx;
      ey0 = top ? my : py0;
      ey1 = top ? py1 : my;
    } else {
      // Loose region: half the node's size on every side, never beyond the parent's.
      const hw = (cx1 - cx0) * 0.5, hh = (cy1 - cy0) * 0.5;
      ex0 = max(px0, cx0 - hw);
      ex1 = min(px1, cx1 + hw);
      ey0 = max(py0, cy0 - hh);
      ey1 = min(py1, cy1 + hh);
      if (!right && px0 == -Infinity) ex0 = -Infinity;
      if (right && px1 == Infinity) ex1 = Infinity;
      if (!top && py0 == -Infinity) ey0 = -Infinity;
      if (top && py1 == Infinity) ey1 = Infinity;
    }
    initNode(t, first + q, n, level, cx0, cy0, cx1, cy1, ex0, ey0, ex1, ey1);
  }
  store<i32>(nodeAt(t, n), first, CHILD);
  if (level + 1 > t.levels) t.levels = level + 1;
  return first;
}

// Drops every node and locator, keeping the item arrays; rebuilds the root
// (and, in fixed mode, the whole pre-split tree).
function resetNodes(t: Tree): void {
  for (let n = 0; n < t.nodeCount; n++) {
    const e = load<i32>(nodeAt(t, n), ENTRIES);
    if (e != 0) heap.free(<usize>e);
  }
  t.nodeCount = 1;
  t.levels = 1;
  if (t.nodeCap == 0) {
    t.nodeCap = 16;
    t.nodes = heap.alloc(<usize>t.nodeCap * NODE_BYTES);
  }
  initNode(t, 0, -1, 0, t.minX, t.minY, t.maxX, t.maxY, -Infinity, -Infinity, Infinity, Infinity);
  t.locCount = 0;
  t.locFree = -1;
  if (t.mode != MODE_SPLIT) {
    // Children are appended in breadth-first order, so a level is split after the one above it.
    for (let n = 0; n < t.nodeCount; n++) {
      if (load<i32>(nodeAt(t, n), LEVEL) + 1 < t.maxLevels) addChildren(t, n);
    }
  }
}

// ---- entries and locators ------------------------------------------------------

function appendEntry(t: Tree, n: i32, slot: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const p = nodeAt(t, n);
  const count = load<i32>(p, COUNT);
  let cap = load<i32>(p, CAP);
  let entries = <usize>load<i32>(p, ENTRIES);
  if (count == cap) {
    cap = max(4, cap + (cap >> 1)); // by half, not double: leaves are many, so slack adds up
    entries = grow(entries, <usize>cap * ENTRY_BYTES);
    store<i32>(p, cap, CAP);
    store<i32>(p, <i32>entries, ENTRIES);
  }
  const e = entryAt(entries, count);
  store<i32>(e, slot);
  store<i32>(e, idOf(t, slot), 4);
  store<f64>(e, x0, 8);
  store<f64>(e, y0, 16);
  store<f64>(e, x1, 24);
  store<f64>(e, y1, 32);
  store<i32>(p, count + 1, COUNT);
  addLocator(t, slot, n, count);
  if (t.mode == MODE_SPLIT && owns(p, x0, y0)) {
    const home = load<i32>(p, HOME);
    swapEntries(t, n, count, home);
    store<i32>(nodeAt(t, n), home + 1, HOME);
  }
}

// Records that the item in slot has an entry at pos of node n.
function addLocator(t: Tree, slot: i32, n: i32, pos: i32): void {
  let l = t.locFree;
  if (l >= 0) {
    t.locFree = load<i32>(locAt(t, l), 8);
  } else {
    if (t.locCount == t.locCap) {
      t.locCap = max(64, t.locCap + (t.locCap >> 1));
      t.locs = grow(t.locs, <usize>t.locCap * LOC_BYTES);
    }
    l = t.locCount++;
  }
  const lp = locAt(t, l);
  store<i32>(lp, n, 0);
  store<i32>(lp, pos, 4);
  store<i32>(lp, headOf(t, slot), 8);
  setHead(t, slot, l);
}

// Points the locator of the entry now at pos of node n to pos.
function relocate(t: Tree, n: i32, entries: usize, pos: i32): void {
  let l = headOf(t, load<i32>(entryAt(entries, pos)));
  while (load<i32>(locAt(t, l), 0) != n) l = load<i32>(locAt(t, l), 8);
  store<i32>(locAt(t, l), pos, 4);
}

function swapEntries(t: Tree, n: i32, i: i32, j: i32): void {
  if (i == j) return;
  const entries = <usize>load<i32>(nodeAt(t, n), ENTRIES);
  swapRecords(entryAt(entries, i), entryAt(entries, j));
  relocate(t, n, entries, i);
  relocate(t, n, entries, j);
}

// Moves the entry at from of node n to to (overwriting it).
function moveEntry(t: Tree, n: i32, entries: usize, from: i32, to: i32): void {
  if (from == to) return;
  memory.copy(entryAt(entries, to), entryAt(entries, from), ENTRY_BYTES);
  relocate(t, n, entries, to);
}

// Removes the entry at pos of node n, keeping own entries first.
function removeEntryAt(t: Tree, n: i32, pos: i32): void {
  const p = nodeAt(t, n);
  const last = load<i32>(p, COUNT) - 1;
  const entries = <usize>load<i32>(p, ENTRIES);
  const home = load<i32>(p, HOME);
  if (pos < home) {
    moveEntry(t, n, entries, home - 1, pos);
    pos = home - 1;
    store<i32>(p, pos, HOME);
  }
  moveEntry(t, n, entries, last, pos);
  store<i32>(p, last, COUNT);
}

@inline function freeLoc(t: Tree, l: i32): void {
  store<i32>(locAt(t, l), t.locFree, 8);
  t.locFree = l;
}

// Takes the item out of every node that holds it.
function detach(t: Tree, slot: i32): void {
  let l = headOf(t, slot);
  while (l >= 0) {
    const lp = locAt(t, l);
    const n = load<i32>(lp, 0);
    const next = load<i32>(lp, 8);
    removeEntryAt(t, n, load<i32>(lp, 4));
    if (t.mode != MODE_SPLIT) addTotals(t, n, -1);
    freeLoc(t, l);
    l = next;
  }
  setHead(t, slot, -1);
}

// Forgets the item's locator for node n (whose entries are being discarded).
function unlinkLocator(t: Tree, slot: i32, n: i32): void {
  let prev = -1;
  let l = headOf(t, slot);
  while (load<i32>(locAt(t, l), 0) != n) {
    prev = l;
    l = load<i32>(locAt(t, l), 8);
  }
  const next = load<i32>(locAt(t, l), 8);
  if (prev < 0) setHead(t, slot, next);
  else store<i32>(locAt(t, prev), next, 8);
  freeLoc(t, l);
}

// ---- geometry --------------------------------------------------------------------

@inline function touches(p: usize, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  return x0 <= load<f64>(p, EX1) && x1 >= load<f64>(p, EX0) && y0 <= load<f64>(p, EY1) && y1 >= load<f64>(p, EY0);
}

@inline function contains(p: usize, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  return x0 >= load<f64>(p, EX0) && x1 <= load<f64>(p, EX1) && y0 >= load<f64>(p, EY0) && y1 <= load<f64>(p, EY1);
}

// Strictly inside: the rect touches no node outside p's subtree.
@inline function inside(p: usize, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  return x0 > load<f64>(p, EX0) && x1 < load<f64>(p, EX1) && y0 > load<f64>(p, EY0) && y1 < load<f64>(p, EY1);
}

@inline function owns(p: usize, px: f64, py: f64): bool {
  return px >= load<f64>(p, EX0) && px < load<f64>(p, EX1) && py >= load<f64>(p, EY0) && py < load<f64>(p, EY1);
}

// ---- split mode ------------------------------------------------------------------------

function splitInsert(t: Tree, n: i32, slot: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const child = load<i32>(nodeAt(t, n), CHILD);
  if (child < 0) {
    appendEntry(t, n, slot, x0, y0, x1, y1);
    maybeSplit(t, n);
    return;
  }
  for (let c = child; c < child + 4; c++) {
    if (touches(nodeAt(t, c), x0, y0, x1, y1)) splitInsert(t, c, slot, x0, y0, x1, y1);
  }
}

// Splits leaf n when it is over capacity and below the depth limit (and
// splitting pays, see planSplit): its entries move into the new children in
// one partition pass.
function maybeSplit(t: Tree, n: i32): void {
  const p = nodeAt(t, n);
  const count = load<i32>(p, COUNT);
  if (count <= t.capacity) return;
  const entries = <usize>load<i32>(p, ENTRIES);
  const copies = planSplit(t, n, entries, count);
  if (copies < 0) return;
  for (let i = 0; i < count; i++) unlinkLocator(t, load<i32>(entryAt(entries, i)), n);
  store<i32>(p, 0, COUNT);
  store<i32>(p, 0, CAP);
  store<i32>(p, 0, ENTRIES);
  store<i32>(p, 0, HOME);
  splitInto(t, n, entries, count, copies);
}

// Whether leaf n, given the count records at recs (entry layout), should
// split: it must be over capacity, below the depth limit, and splitting must
// pay. It cannot when the items all share a point (they would stay together
// in every leaf, however deep) or when the quadrants would hold SPLIT_COPIES
// times as many entries as the leaf (items large next to the quadrants, so a
// split mostly copies them and adds pair tests); such a blocked leaf tries
// again when its count doubles. Returns the number of entries the quadrants
// would hold, or -1 for no split.
function planSplit(t: Tree, n: i32, recs: usize, count: i32): i32 {
  const p = nodeAt(t, n);
  if (count <= t.capacity || count < load<i32>(p, AUX) || load<i32>(p, LEVEL) + 1 >= t.maxLevels) return -1;
  const mx = midpoint(load<f64>(p, X0), load<f64>(p, X1)), my = midpoint(load<f64>(p, Y0), load<f64>(p, Y1));
  let hiX0 = -Infinity, hiY0 = -Infinity, loX1 = Infinity, loY1 = Infinity;
  // A record touches n, so it touches a quadrant exactly when it reaches that quadrant's side of both split lines.
  let c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  for (let i = 0; i < count; i++) {
    const e = entryAt(recs, i);
    const x0 = load<f64>(e, 8), y0 = load<f64>(e, 16), x1 = load<f64>(e, 24), y1 = load<f64>(e, 32);
    // Comparisons, not f64 min/max (which pay for NaN and -0 handling).
    hiX0 = select(x0, hiX0, x0 > hiX0);
    hiY0 = select(y0, hiY0, y0 > hiY0);
    loX1 = select(x1, loX1, x1 < loX1);
    loY1 = select(y1, loY1, y1 < loY1);
    const left = <i32>(x0 <= mx), right = <i32>(x1 >= mx), low = <i32>(y0 <= my), high = <i32>(y1 >= my);
    c0 += left & low;
    c1 += right & low;
    c2 += left & high;
    c3 += right & high;
  }
  const copies = c0 + c1 + c2 + c3;
  if ((hiX0 <= loX1 && hiY0 <= loY1) || <f64>copies >= SPLIT_COPIES * <f64>count) {
    store<i32>(p, count << 1, AUX);
    return -1;
  }
  t.quad0 = c0;
  t.quad1 = c1;
  t.quad2 = c2;
  return copies;
}

// Gives the empty node n the count records in the heap block recs (entry
// layout), which it takes over: as a leaf, whose entries the block becomes,
// or split, recursively, as far as splitting pays. This is the bulk build:
// one partition pass per level instead of one walk per item and repeated
// re-splits.
function fill(t: Tree, n: i32, recs: usize, count: i32): void {
  const copies = planSplit(t, n, recs, count);
  if (copies < 0) adoptLeaf(t, n, recs, count);
  else splitInto(t, n, recs, count, copies);
}

// Adds the four children of n and fills each with the records that touch it
// (`copies` of them in all, t.quad0..2 per quadrant, as planSplit counted),
// each quadrant's in a block of its own. Frees the heap block recs as soon
// as it is partitioned, so a bulk build holds at most the blocks along one
// path down the tree besides the leaves.
function splitInto(t: Tree, n: i32, recs: usize, count: i32, copies: i32): void {
  const c0 = t.quad0, c1 = t.quad1, c2 = t.quad2;
  const c3 = copies - c0 - c1 - c2;
  const first = addChildren(t, n);
  const p = nodeAt(t, n);
  const mx = midpoint(load<f64>(p, X0), load<f64>(p, X1)), my = midpoint(load<f64>(p, Y0), load<f64>(p, Y1));
  const b0 = recordBlock(c0), b1 = recordBlock(c1), b2 = recordBlock(c2), b3 = recordBlock(c3);
  // Write cursors per quadrant, kept in memory so a record that sits in one
  // quadrant (almost all of them) picks its cursor with no branch.
  const cursors = memory.data(16);
  store<u32>(cursors, <u32>b0);
  store<u32>(cursors, <u32>b1, 4);
  store<u32>(cursors, <u32>b2, 8);
  store<u32>(cursors, <u32>b3, 12);
  for (let i = 0; i < count; i++) {
    const e = entryAt(recs, i);
    const left = load<f64>(e, 8) <= mx, right = load<f64>(e, 24) >= mx;
    const low = load<f64>(e, 16) <= my, high = load<f64>(e, 32) >= my;
    if ((left & right) | (low & high)) {
      if (low) {
        if (left) appendRecord(cursors, e);
        if (right) appendRecord(cursors + 4, e);
      }
      if (high) {
        if (left) appendRecord(cursors + 8, e);
        if (right) appendRecord(cursors + 12, e);
      }
    } else {
      appendRecord(cursors + ((<usize>right | (<usize>high << 1)) << 2), e);
    }
  }
  heap.free(recs);
  fill(t, first, b0, c0);
  fill(t, first + 1, b1, c1);
  fill(t, first + 2, b2, c2);
  fill(t, first + 3, b3, c3);
}

// A heap block for count records (none for zero).
@inline function recordBlock(count: i32): usize {
  return count == 0 ? 0 : heap.alloc(<usize>count * ENTRY_BYTES);
}

// Copies the record at src to the cursor stored at `cursor` and advances it.
@inline function appendRecord(cursor: usize, src: usize): void {
  const dst = <usize>load<u32>(cursor);
  copyRecord(dst, src);
  store<u32>(cursor, <u32>(dst + ENTRY_BYTES));
}

@inline function copyRecord(dst: usize, src: usize): usize {
  store<u64>(dst, load<u64>(src));
  store<u64>(dst, load<u64>(src, 8), 8);
  store<u64>(dst, load<u64>(src, 16), 16);
  store<u64>(dst, load<u64>(src, 24), 24);
  store<u64>(dst, load<u64>(src, 32), 32);
  return dst + ENTRY_BYTES;
}

// Makes the empty node n a leaf whose entries are the count records in the
// heap block recs: reordered in place so its own entries come first (own
// ones are kept from the front, others swapped in from the back).
function adoptLeaf(t: Tree, n: i32, recs: usize, count: i32): void {
  if (count == 0) {
    if (recs != 0) heap.free(recs);
    return;
  }
  const p = nodeAt(t, n);
  const ex0 = load<f64>(p, EX0), ey0 = load<f64>(p, EY0), ex1 = load<f64>(p, EX1), ey1 = load<f64>(p, EY1);
  let i = 0, j = count - 1;
  while (i <= j) {
    const e = entryAt(recs, i);
    const x = load<f64>(e, 8), y = load<f64>(e, 16);
    if (x >= ex0 && x < ex1 && y >= ey0 && y < ey1) {
      i++;
    } else {
      swapRecords(e, entryAt(recs, j));
      j--;
    }
  }
  store<i32>(p, <i32>recs, ENTRIES);
  store<i32>(p, count, CAP);
  store<i32>(p, count, COUNT);
  store<i32>(p, i, HOME);
  for (let k = 0; k < count; k++) addLocator(t, load<i32>(entryAt(recs, k)), n, k);
}

@inline function swapRecords(a: usize, b: usize): void {
  for (let k: usize = 0; k < ENTRY_BYTES; k += 8) {
    const v = load<u64>(a + k);
    store<u64>(a + k, load<u64>(b + k));
    store<u64>(b + k, v);
  }
}

function splitQuery(t: Tree, n: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const p = nodeAt(t, n);
  const child = load<i32>(p, CHILD);
  if (child >= 0) {
    for (let c = child; c < child + 4; c++) {
      if (touches(nodeAt(t, c), x0, y0, x1, y1)) splitQuery(t, c, x0, y0, x1, y1);
    }
    return;
  }
  const entries = <usize>load<i32>(p, ENTRIES);
  if (x0 < load<f64>(p, EX0) && y0 < load<f64>(p, EY0)) {
    // The box starts before this leaf: only its own entries can be reported
    // here, and all of them when the leaf lies inside the box.
    const home = load<i32>(p, HOME);
    reserveOut(t, home);
    let out = t.out + (<usize>t.outCount << 2);
    if (load<f64>(p, EX1) <= x1 && load<f64>(p, EY1) <= y1) {
      for (let i = 0; i < home; i++) {
        store<i32>(out, load<i32>(entryAt(entries, i), 4));
        out += 4;
      }
    } else {
      // Branch-free, as in the pair loop: write, keep by advancing.
      for (let i = 0; i < home; i++) {
        const e = entryAt(entries, i);
        store<i32>(out, load<i32>(e, 4));
        out += <usize>((<i32>(load<f64>(e, 8) <= x1) & <i32>(load<f64>(e, 16) <= y1)) << 2);
      }
    }
    t.outCount = <i32>((out - t.out) >> 2);
    return;
  }
  // The leaf owns the hit's min corner (max(rx0, x0), max(ry0, y0)): split
  // into the box's part, fixed for the leaf, and the entry's part.
  const ex0 = load<f64>(p, EX0), ey0 = load<f64>(p, EY0), ex1 = load<f64>(p, EX1), ey1 = load<f64>(p, EY1);
  if (x0 >= ex1 || y0 >= ey1) return;
  const boxInX = <i32>(x0 >= ex0), boxInY = <i32>(y0 >= ey0);
  const count = load<i32>(p, COUNT);
  reserveOut(t, count);
  let out = t.out + (<usize>t.outCount << 2);
  for (let i = 0; i < count; i++) {
    const e = entryAt(entries, i);
    const rx0 = load<f64>(e, 8), ry0 = load<f64>(e, 16);
    const hit =
      <i32>(rx0 <= x1) & <i32>(load<f64>(e, 24) >= x0) & <i32>(ry0 <= y1) & <i32>(load<f64>(e, 32) >= y0) &
      (boxInX | <i32>(rx0 >= ex0)) & <i32>(rx0 < ex1) & (boxInY | <i32>(ry0 >= ey0)) & <i32>(ry0 < ey1);
    store<i32>(out, load<i32>(e, 4));
    out += <usize>(hit << 2);
  }
  t.outCount = <i32>((out - t.out) >> 2);
}

function splitPairs(t: Tree): void {
  for (let n = 0; n < t.nodeCount; n++) {
    const p = nodeAt(t, n);
    const count = load<i32>(p, COUNT);
    if (count < 2) continue;
    const entries = <usize>load<i32>(p, ENTRIES);
    const ex0 = load<f64>(p, EX0), ey0 = load<f64>(p, EY0), ex1 = load<f64>(p, EX1), ey1 = load<f64>(p, EY1);
    const end = entryAt(entries, count);
    const ownEnd = entryAt(entries, load<i32>(p, HOME));
    let left = count;
    for (let ea = entries; ea < end; ea += ENTRY_BYTES) {
      // Room for every pair of this entry, so the inner loop stores unchecked.
      reserveOut(t, --left << 1);
      const ax0 = load<f64>(ea, 8), ay0 = load<f64>(ea, 16), ax1 = load<f64>(ea, 24), ay1 = load<f64>(ea, 32);
      // Only the leaf owning the min corner (max(ax0, bx0), max(ay0, by0)) of
      // an overlap reports the pair. Split into a's part and b's part:
      // max(ax0, bx0) >= ex0 when either is, and < ex1 when both are.
      if (ax0 >= ex1 || ay0 >= ey1) continue;
      const aInX = <i32>(ax0 >= ex0), aInY = <i32>(ay0 >= ey0);
      const ia = load<i32>(ea, 4);
      let out = t.out + (<usize>t.outCount << 2);
      // Branch-free: every candidate is written, and kept by advancing `out`
      // only when it is a pair (about one test in seven is, which defeats
      // branch prediction). Two own entries of the leaf need no ownership test.
      const ownPast = ea < ownEnd ? ownEnd : entries;
      for (let eb = ea + ENTRY_BYTES; eb < end; eb += ENTRY_BYTES) {
        const bx0 = load<f64>(eb, 8), by0 = load<f64>(eb, 16);
        const meets = <i32>(bx0 <= ax1) & <i32>(by0 <= ay1) & <i32>(load<f64>(eb, 24) >= ax0) & <i32>(load<f64>(eb, 32) >= ay0);
        const owned =
          <i32>(eb < ownPast) | ((aInX | <i32>(bx0 >= ex0)) & <i32>(bx0 < ex1) & (aInY | <i32>(by0 >= ey0)) & <i32>(by0 < ey1));
        const ib = load<i32>(eb, 4);
        store<i32>(out, min(ia, ib));
        store<i32>(out, max(ia, ib), 4);
        out += <usize>((meets & owned) << 3);
      }
      t.outCount = <i32>((out - t.out) >> 2);
    }
  }
}

function splitUpdate(t: Tree, slot: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const head = headOf(t, slot);
  let n = load<i32>(locAt(t, head), 0);
  // Fast path: the rect stays strictly inside its one leaf.
  if (load<i32>(locAt(t, head), 8) < 0 && inside(nodeAt(t, n), x0, y0, x1, y1)) {
    storeRect(t, n, load<i32>(locAt(t, head), 4), x0, y0, x1, y1);
    return;
  }
  // Otherwise find the nearest ancestor that holds the new rect; below it,
  // either the rect touches the same leaves (rewrite it there) or re-insert.
  while (n > 0 && !inside(nodeAt(t, n), x0, y0, x1, y1)) n = load<i32>(nodeAt(t, n), PARENT);
  let held = 0;
  for (let l = head; l >= 0; l = load<i32>(locAt(t, l), 8)) held++;
  if (sameLeaves(t, n, head, x0, y0, x1, y1) == held) {
    for (let l = head; l >= 0; l = load<i32>(locAt(t, l), 8)) {
      const m = load<i32>(locAt(t, l), 0), pos = load<i32>(locAt(t, l), 4);
      storeRect(t, m, pos, x0, y0, x1, y1);
      // The min corner may have crossed into another of the item's leaves.
      const home = load<i32>(nodeAt(t, m), HOME);
      const own = owns(nodeAt(t, m), x0, y0);
      if (own && pos >= home) {
        swapEntries(t, m, pos, home);
        store<i32>(nodeAt(t, m), home + 1, HOME);
      } else if (!own && pos < home) {
        swapEntries(t, m, pos, home - 1);
        store<i32>(nodeAt(t, m), home - 1, HOME);
      }
    }
    return;
  }
  detach(t, slot);
  splitInsert(t, n, slot, x0, y0, x1, y1);
}

// Counts the leaves below n that the rect touches, or returns -1 as soon as
// one of them is not in the locator chain starting at head.
function sameLeaves(t: Tree, n: i32, head: i32, x0: f64, y0: f64, x1: f64, y1: f64): i32 {
  const child = load<i32>(nodeAt(t, n), CHILD);
  if (child < 0) {
    for (let l = head; l >= 0; l = load<i32>(locAt(t, l), 8)) {
      if (load<i32>(locAt(t, l), 0) == n) return 1;
    }
    return -1;
  }
  let found = 0;
  for (let c = child; c < child + 4; c++) {
    if (!touches(nodeAt(t, c), x0, y0, x1, y1)) continue;
    const below = sameLeaves(t, c, head, x0, y0, x1, y1);
    if (below < 0) return -1;
    found += below;
  }
  return found;
}

// ---- fixed mode ----------------------------------------------------------------------------

function addTotals(t: Tree, n: i32, delta: i32): void {
  while (n >= 0) {
    const p = nodeAt(t, n);
    store<i32>(p, load<i32>(p, AUX) + delta, AUX);
    n = load<i32>(p, PARENT);
  }
}

// The child of n that takes the rect, or -1 when it stays in n.
function fixedChild(t: Tree, n: i32, x0: f64, y0: f64, x1: f64, y1: f64): i32 {
  const p = nodeAt(t, n);
  const child = load<i32>(p, CHILD);
  if (child < 0) return -1;
  const cx = x0 * 0.5 + x1 * 0.5, cy = y0 * 0.5 + y1 * 0.5;
  const mx = load<f64>(nodeAt(t, child), X1), my = load<f64>(nodeAt(t, child), Y1);
  const c = child + (cx >= mx ? 1 : 0) + (cy >= my ? 2 : 0);
  return contains(nodeAt(t, c), x0, y0, x1, y1) ? c : -1;
}

function fixedPlace(t: Tree, n: i32, slot: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  let c = fixedChild(t, n, x0, y0, x1, y1);
  while (c >= 0) {
    n = c;
    c = fixedChild(t, n, x0, y0, x1, y1);
  }
  appendEntry(t, n, slot, x0, y0, x1, y1);
  addTotals(t, n, 1);
}

function fixedUpdate(t: Tree, slot: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const head = headOf(t, slot);
  let n = load<i32>(locAt(t, head), 0);
  if (contains(nodeAt(t, n), x0, y0, x1, y1) && fixedChild(t, n, x0, y0, x1, y1) < 0) {
    storeRect(t, n, load<i32>(locAt(t, head), 4), x0, y0, x1, y1);
    return;
  }
  while (n > 0 && !contains(nodeAt(t, n), x0, y0, x1, y1)) n = load<i32>(nodeAt(t, n), PARENT);
  detach(t, slot);
  fixedPlace(t, n, slot, x0, y0, x1, y1);
}

function fixedQuery(t: Tree, n: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const p = nodeAt(t, n);
  const count = load<i32>(p, COUNT);
  const entries = <usize>load<i32>(p, ENTRIES);
  for (let i = 0; i < count; i++) {
    const e = entryAt(entries, i);
    if (load<f64>(e, 8) <= x1 && load<f64>(e, 24) >= x0 && load<f64>(e, 16) <= y1 && load<f64>(e, 32) >= y0) {
      pushOut(t, load<i32>(e, 4));
    }
  }
  const child = load<i32>(p, CHILD);
  if (child < 0) return;
  for (let c = child; c < child + 4; c++) {
    const q = nodeAt(t, c);
    if (load<i32>(q, AUX) > 0 && touches(q, x0, y0, x1, y1)) fixedQuery(t, c, x0, y0, x1, y1);
  }
}

// Pairs of item a (entry pos of node home) with the items of the subtree of n.
// A pair is reported from its member in the shallower node, or, on one level,
// from the member that comes first in (node, position) order.
function fixedPairsOf(t: Tree, n: i32, home: i32, homeLevel: i32, pos: i32, ia: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const p = nodeAt(t, n);
  const level = load<i32>(p, LEVEL);
  if (level > homeLevel || (level == homeLevel && n >= home)) {
    const count = load<i32>(p, COUNT);
    const entries = <usize>load<i32>(p, ENTRIES);
    for (let i = n == home ? pos + 1 : 0; i < count; i++) {
      const e = entryAt(entries, i);
      if (load<f64>(e, 8) <= x1 && load<f64>(e, 24) >= x0 && load<f64>(e, 16) <= y1 && load<f64>(e, 32) >= y0) {
        const ib = load<i32>(e, 4);
        pushOut(t, min(ia, ib));
        pushOut(t, max(ia, ib));
      }
    }
  }
  const child = load<i32>(p, CHILD);
  if (child < 0) return;
  for (let c = child; c < child + 4; c++) {
    const q = nodeAt(t, c);
    if (load<i32>(q, AUX) > 0 && touches(q, x0, y0, x1, y1)) fixedPairsOf(t, c, home, homeLevel, pos, ia, x0, y0, x1, y1);
  }
}

function fixedPairs(t: Tree): void {
  for (let n = 0; n < t.nodeCount; n++) {
    const count = load<i32>(nodeAt(t, n), COUNT);
    for (let i = 0; i < count; i++) {
      const p = nodeAt(t, n);
      const e = entryAt(<usize>load<i32>(p, ENTRIES), i);
      fixedPairsOf(t, 0, n, load<i32>(p, LEVEL), i, load<i32>(e, 4), load<f64>(e, 8), load<f64>(e, 16), load<f64>(e, 24), load<f64>(e, 32));
    }
  }
}

// ---- items ----------------------------------------------------------------------------

// Writes a rect into the entry at pos of node n (an item moving inside its node).
@inline function storeRect(t: Tree, n: i32, pos: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const e = entryAt(<usize>load<i32>(nodeAt(t, n), ENTRIES), pos);
  store<f64>(e, x0, 8);
  store<f64>(e, y0, 16);
  store<f64>(e, x1, 24);
  store<f64>(e, y1, 32);
}

// Makes room for slots up to `slot`: by half again, or exactly to a batch's largest slot.
function reserveItems(t: Tree, slot: i32): void {
  if (slot < t.itemCap) return;
  const cap = max(max(64, t.itemCap + (t.itemCap >> 1)), slot + 1);
  t.ids = grow(t.ids, <usize>cap << 2);
  t.heads = grow(t.heads, <usize>cap << 2);
  for (let s = t.itemCap; s < cap; s++) {
    store<i32>(t.ids + (<usize>s << 2), -1);
    store<i32>(t.heads + (<usize>s << 2), -1);
  }
  t.itemCap = cap;
}

function place(t: Tree, slot: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  if (t.mode == MODE_SPLIT) splitInsert(t, 0, slot, x0, y0, x1, y1);
  else fixedPlace(t, 0, slot, x0, y0, x1, y1);
}

// Copies every placed item's record (slot, id, rect) into a new buffer with
// room for `extra` more, in slot order; returns it (its count is t.size).
function gatherRecords(t: Tree, extra: i32): usize {
  // The rects live only in entries: copy each item's out before the nodes go.
  const recs = heap.alloc(<usize>max(t.size + extra, 1) * ENTRY_BYTES);
  let r = recs;
  for (let s = 0; s < t.itemCap; s++) {
    const head = headOf(t, s);
    if (idOf(t, s) < 0 || head < 0) continue;
    const l = locAt(t, head);
    r = copyRecord(r, entryAt(<usize>load<i32>(nodeAt(t, load<i32>(l, 0)), ENTRIES), load<i32>(l, 4)));
  }
  return recs;
}

// Replaces the nodes by a tree bulk-built from the count records at recs (freed here).
function bulkBuild(t: Tree, recs: usize, count: i32): void {
  for (let i = 0; i < count; i++) setHead(t, load<i32>(entryAt(recs, i)), -1);
  resetNodes(t);
  // Every item has at least one entry, most one or two: room for 1.5 per item, then trimmed.
  if (t.locCap < count + (count >> 1)) {
    if (t.locs != 0) heap.free(t.locs);
    t.locCap = count + (count >> 1);
    t.locs = heap.alloc(<usize>t.locCap * LOC_BYTES);
  }
  fill(t, 0, recs, count);
  // Built in one go: trim the locator array to what it holds.
  t.locCap = max(t.locCount, 1);
  t.locs = grow(t.locs, <usize>t.locCap * LOC_BYTES);
}

// Rebuilds the nodes with the same items: bulk in split mode, in slot order.
function rebuild(t: Tree): void {
  if (t.mode == MODE_SPLIT) {
    bulkBuild(t, gatherRecords(t, 0), t.size);
    return;
  }
  const recs = gatherRecords(t, 0);
  resetNodes(t);
  for (let i = 0; i < t.size; i++) {
    const e = entryAt(recs, i);
    const s = load<i32>(e);
    setHead(t, s, -1);
    place(t, s, load<f64>(e, 8), load<f64>(e, 16), load<f64>(e, 24), load<f64>(e, 32));
  }
  heap.free(recs);
}

// ---- exports --------------------------------------------------------------------------------

/** Creates a tree; mode 0 is 'split' (maxLevels bounds splitting), 1 is 'fixed' (pre-split to maxLevels levels). */
export function qtCreate(minX: f64, minY: f64, maxX: f64, maxY: f64, capacity: i32, maxLevels: i32, mode: i32): i32 {
  const t = new Tree();
  t.mode = mode;
  t.capacity = capacity;
  t.maxLevels = maxLevels;
  t.minX = minX;
  t.minY = minY;
  t.maxX = maxX;
  t.maxY = maxY;
  resetNodes(t);
  return <i32>changetype<usize>(t);
}

export function qtDispose(tree: i32): void {
  const t = changetype<Tree>(<usize>tree);
  for (let n = 0; n < t.nodeCount; n++) {
    const e = load<i32>(nodeAt(t, n), ENTRIES);
    if (e != 0) heap.free(<usize>e);
  }
  if (t.nodes != 0) heap.free(t.nodes);
  if (t.ids != 0) heap.free(t.ids);
  if (t.heads != 0) heap.free(t.heads);
  if (t.locs != 0) heap.free(t.locs);
  if (t.out != 0) heap.free(t.out);
  heap.free(changetype<usize>(t));
}

export function qtInsert(tree: i32, slot: i32, id: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const t = changetype<Tree>(<usize>tree);
  reserveItems(t, slot);
  store<i32>(t.ids + (<usize>slot << 2), id);
  setHead(t, slot, -1);
  t.size++;
  place(t, slot, x0, y0, x1, y1);
}

export function qtUpdate(tree: i32, slot: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const t = changetype<Tree>(<usize>tree);
  if (t.mode == MODE_SPLIT) splitUpdate(t, slot, x0, y0, x1, y1);
  else fixedUpdate(t, slot, x0, y0, x1, y1);
}

/** Applies count updates: slots (i32) at slotsPtr, rects (4 f64 each) at rectsPtr. */
export function qtUpdateMany(tree: i32, slotsPtr: i32, rectsPtr: i32, count: i32): void {
  for (let i = 0; i < count; i++) {
    const r = <usize>rectsPtr + (<usize>i << 5);
    qtUpdate(tree, load<i32>(<usize>slotsPtr + (<usize>i << 2)), load<f64>(r, 0), load<f64>(r, 8), load<f64>(r, 16), load<f64>(r, 24));
  }
}

/**
 * Inserts count items: slots and ids (i32) and rects (4 f64 each). A split
 * tree receiving at least as many items as it holds is rebuilt in bulk: its
 * items in slot order, then the batch in order.
 */
export function qtInsertMany(tree: i32, slotsPtr: i32, idsPtr: i32, rectsPtr: i32, count: i32): void {
  const t = changetype<Tree>(<usize>tree);
  if (t.mode == MODE_SPLIT && count > 0 && count >= t.size) {
    const recs = gatherRecords(t, count);
    let top = 0;
    for (let i = 0; i < count; i++) top = max(top, load<i32>(<usize>slotsPtr + (<usize>i << 2)));
    reserveItems(t, top);
    let r = entryAt(recs, t.size);
    for (let i = 0; i < count; i++) {
      const slot = load<i32>(<usize>slotsPtr + (<usize>i << 2));
      const id = load<i32>(<usize>idsPtr + (<usize>i << 2));
      store<i32>(t.ids + (<usize>slot << 2), id);
      const src = <usize>rectsPtr + (<usize>i << 5);
      store<i32>(r, slot);
      store<i32>(r, id, 4);
      store<u64>(r, load<u64>(src), 8);
      store<u64>(r, load<u64>(src, 8), 16);
      store<u64>(r, load<u64>(src, 16), 24);
      store<u64>(r, load<u64>(src, 24), 32);
      r += ENTRY_BYTES;
    }
    t.size += count;
    bulkBuild(t, recs, t.size);
    return;
  }
  for (let i = 0; i < count; i++) {
    const r = <usize>rectsPtr + (<usize>i << 5);
    qtInsert(tree, load<i32>(<usize>slotsPtr + (<usize>i << 2)), load<i32>(<usize>idsPtr + (<usize>i << 2)), load<f64>(r, 0), load<f64>(r, 8), load<f64>(r, 16), load<f64>(r, 24));
  }
}

export function qtRemove(tree: i32, slot: i32): void {
  const t = changetype<Tree>(<usize>tree);
  detach(t, slot);
  store<i32>(t.ids + (<usize>slot << 2), -1);
  t.size--;
}

export function qtClear(tree: i32): void {
  const t = changetype<Tree>(<usize>tree);
  for (let s = 0; s < t.itemCap; s++) {
    store<i32>(t.ids + (<usize>s << 2), -1);
    setHead(t, s, -1);
  }
  t.size = 0;
  resetNodes(t);
}

export function qtSetBounds(tree: i32, minX: f64, minY: f64, maxX: f64, maxY: f64): void {
  const t = changetype<Tree>(<usize>tree);
  t.minX = minX;
  t.minY = minY;
  t.maxX = maxX;
  t.maxY = maxY;
  rebuild(t);
}

/** Lowering the capacity of a split tree rebuilds it; raising it only affects later splits. */
export function qtSetCapacity(tree: i32, capacity: i32): void {
  const t = changetype<Tree>(<usize>tree);
  const lower = capacity < t.capacity;
  t.capacity = capacity;
  if (lower && t.mode == MODE_SPLIT) rebuild(t);
}

/** Writes the ids of items meeting the closed box to the output buffer; returns their count. */
export function qtQuery(tree: i32, x0: f64, y0: f64, x1: f64, y1: f64): i32 {
  const t = changetype<Tree>(<usize>tree);
  t.outCount = 0;
  if (t.mode == MODE_SPLIT) splitQuery(t, 0, x0, y0, x1, y1);
  else if (load<i32>(nodeAt(t, 0), AUX) > 0) fixedQuery(t, 0, x0, y0, x1, y1);
  return t.outCount;
}

/** Writes every intersecting pair once as (smaller id, larger id); returns the number of pairs. */
export function qtPairs(tree: i32): i32 {
  const t = changetype<Tree>(<usize>tree);
  t.outCount = 0;
  if (t.mode == MODE_SPLIT) splitPairs(t);
  else fixedPairs(t);
  return t.outCount >> 1;
}

/** Start of the output buffer written by qtQuery, qtPairs and qtCells. */
export function qtOutput(tree: i32): i32 {
  return <i32>changetype<Tree>(<usize>tree).out;
}

export function qtLevels(tree: i32): i32 {
  return changetype<Tree>(<usize>tree).levels;
}

/** Bytes held by the tree's structure (reserved capacity, not just the used part; the output buffer excluded). */
export function qtBytes(tree: i32): i32 {
  const t = changetype<Tree>(<usize>tree);
  let bytes = <i32>NODE_BYTES * t.nodeCap + t.itemCap * 8 + t.locCap * <i32>LOC_BYTES;
  for (let n = 0; n < t.nodeCount; n++) bytes += load<i32>(nodeAt(t, n), CAP) * <i32>ENTRY_BYTES;
  return bytes;
}

// A node drawn as a cell: in split mode every leaf (their regions tile the
// bounds); in fixed mode the root and every node holding items.
@inline function isCell(t: Tree, n: i32): bool {
  const p = nodeAt(t, n);
  return t.mode == MODE_SPLIT ? load<i32>(p, CHILD) < 0 : n == 0 || load<i32>(p, COUNT) > 0;
}

/** Writes the exact region (minX, minY, maxX, maxY as f64) of every cell to the output buffer, in node order; returns their count. */
export function qtCells(tree: i32): i32 {
  const t = changetype<Tree>(<usize>tree);
  let cells = 0;
  for (let n = 0; n < t.nodeCount; n++) if (isCell(t, n)) cells++;
  t.outCount = 0;
  reserveOut(t, cells << 3);
  let out = t.out;
  for (let n = 0; n < t.nodeCount; n++) {
    if (!isCell(t, n)) continue;
    memory.copy(out, nodeAt(t, n) + X0, 32);
    out += 32;
  }
  return cells;
}
