// QuadTree core: rectangles in flat linear memory, two layouts.
//
// 'split' (mode 0): a leaf over capacity splits into four quadrants; data
// lives only in leaves and an item is stored in every leaf its closed rect
// touches. A leaf whose items all lie in one quarter of one quarter ... of
// its region splits at the centre of the smallest such square instead (its
// split square, see narrow): the chain of nodes with one non-empty child
// each that halving would build is skipped, so depth follows where the items
// are, not how far apart the area's corners are. Every node keeps an "extended" region whose outer sides are
// infinite where they lie on the root's border. The half-open extended
// regions of the leaves partition the plane; a hit (or a pair) is reported
// only by the leaf that owns the min corner of the intersection, so it is
// reported exactly once with no set of seen ids. A leaf that overflows, and a
// tree receiving a batch at least its size, is built top-down in one go
// (fill): each node partitions its slots into quadrant blocks, and a block
// that ends as a leaf becomes the leaf's entry array. Four sibling leaves
// that together hold at most half the capacity merge back into their parent.
//
// 'fixed' (mode 1): pre-split to `levels` levels; an item lives in exactly
// one node, the deepest one whose loose region (the node grown by half its
// size on every side, infinite on the root's border) contains it. Loose
// regions keep items that cross a centre line out of the root.
//
// The area: the root's exact region holds every item. It starts as the
// bounds given; an item beyond it doubles it towards the item (as often as
// it takes) and the tree is rebuilt over the larger area. A tree given no
// bounds keeps its items in the root until they outnumber the capacity, then
// takes the square around them as its area. Each doubling adds a level to
// the split depth limit, so growing never coarsens the finest cells.
//
// Items are addressed by a dense slot the caller chooses. Each item's exact
// rect, id and home node are stored once, in an item table indexed by slot;
// a node's entries are 4-byte slots into it. An item's leaves are exactly
// the leaves its rect touches, so they are found again by a descent from the
// nearest ancestor holding it: no per-entry back references are kept.

import { Area } from './area';
import { RankHeap } from './rank-heap';

// Node record, NODE_BYTES apart.
const NODE_BYTES: usize = 96;
const X0: usize = 0; // the node's square: its exact region, or a narrowed split node's split square (see narrow)
const Y0: usize = 8;
const X1: usize = 16;
const Y1: usize = 24;
const EX0: usize = 32; // extended region (split) or loose region (fixed)
const EY0: usize = 40;
const EX1: usize = 48;
const EY1: usize = 56;
const CHILD: usize = 64; // first of four consecutive children, -1 for a leaf
const PARENT: usize = 68; // in a free block's first node: the next free block, or -1
const LEVEL: usize = 72; // root is 0; -1 for a node in a free block
const COUNT: usize = 76;
const CAP: usize = 80; // entry capacity; negative: -capacity, the list lies in the tree's arena
const ENTRIES: usize = 84; // pointer to the entries: i32 slots
const AUX: usize = 88; // split: in a leaf the count at which it retries if blocked, in a split node its NARROWED bits; fixed: items in subtree
const HOME: usize = 92; // split: entries [0, HOME) are the leaf's own (it holds their min corner)

// The NARROWED bits of a split node's AUX: its square is narrower than its region at minX, minY, maxX, maxY.
const NARROWED_X0: i32 = 1;
const NARROWED_Y0: i32 = 2;
const NARROWED_X1: i32 = 4;
const NARROWED_Y1: i32 = 8;

// Item record, ITEM_BYTES apart, indexed by slot: the exact rect, the id
// (-1 for a free slot) and the home node: in split mode the leaf owning the
// rect's min corner or, after a split, an ancestor of it (see homeLeaf); in
// fixed mode the one node holding the item.
const ITEM_BYTES: usize = 40;
const RX0: usize = 0;
const RY0: usize = 8;
const RX1: usize = 16;
const RY1: usize = 24;
const ID: usize = 32;
const NODE: usize = 36;

// Build record, REC_BYTES apart: a split partitions these, not slots. The
// rect as in the item table, then the slot and the quadrant mask.
const REC_BYTES: usize = 40;
const REC_SLOT: usize = 32;
const REC_MASK: usize = 36;

const MODE_SPLIT: i32 = 0;

// A leaf does not split when its quadrants would hold this many times its entries.
const SPLIT_COPIES: f64 = 1.5;

@unmanaged
class Tree {
  mode: i32 = 0;
  capacity: i32 = 8;
  maxLevels: i32 = 16;
  // The region the root covers, its bounds and how it grows (area.ts).
  area: Area = changetype<Area>(0);
  // The bounding box found by boxOf.
  boxX0: f64 = 0;
  boxY0: f64 = 0;
  boxX1: f64 = 0;
  boxY1: f64 = 0;
  nodes: usize = 0;
  nodeCount: i32 = 0;
  nodeCap: i32 = 0;
  // First node of the last freed block of four siblings (a merge frees them), or -1.
  freeBlock: i32 = -1;
  items: usize = 0;
  itemCap: i32 = 0;
  size: i32 = 0;
  // Records per quadrant found by the last planRecords.
  quad0: i32 = 0;
  quad1: i32 = 0;
  quad2: i32 = 0;
  quad3: i32 = 0;
  // Scratch: a leaf's items gathered side by side for the pair loop, or a leaf's foreign slots in a build.
  scratch: usize = 0;
  scratchCap: i32 = 0;
  out: usize = 0;
  outCount: i32 = 0;
  outCap: i32 = 0;
  // A query stops descending once it has written this many ids.
  limit: i32 = 0;
  // The slot lists of the leaves of the last bulk build, in one block; while
  // a build runs, leaves hold offsets into it (it may move as it grows).
  arena: usize = 0;
  arenaUsed: i32 = 0;
  arenaCap: i32 = 0;
  bulk: bool = false;
  // The nearest search's node queue and its k best items (RankHeaps, made on first use); a first-hit segment search's best hit so far.
  queue: usize = 0;
  best: usize = 0;
  bestT: f64 = 0;
  bestId: i32 = 0;
}

@inline function nodeAt(t: Tree, n: i32): usize {
  return t.nodes + <usize>n * NODE_BYTES;
}

@inline function itemAt(t: Tree, slot: i32): usize {
  return t.items + <usize>slot * ITEM_BYTES;
}

@inline function slotAt(entries: usize, i: i32): i32 {
  return load<i32>(entries + (<usize>i << 2));
}

@inline function setSlotAt(entries: usize, i: i32, slot: i32): void {
  store<i32>(entries + (<usize>i << 2), slot);
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

// Gives split node n its region back as its square if it narrowed, and clears its NARROWED bits.
function unnarrow(t: Tree, n: i32): void {
  const p = nodeAt(t, n);
  if (load<i32>(p, AUX) == 0) return;
  store<i32>(p, 0, AUX);
  const parent = load<i32>(p, PARENT);
  if (parent < 0) {
    const a = t.area;
    store<f64>(p, a.minX, X0);
    store<f64>(p, a.minY, Y0);
    store<f64>(p, a.maxX, X1);
    store<f64>(p, a.maxY, Y1);
    return;
  }
  // Its quadrant of its parent's square, as addChildren cut it.
  const q = n - load<i32>(nodeAt(t, parent), CHILD);
  const pp = nodeAt(t, parent);
  const x0 = load<f64>(pp, X0), y0 = load<f64>(pp, Y0), x1 = load<f64>(pp, X1), y1 = load<f64>(pp, Y1);
  const mx = midpoint(x0, x1), my = midpoint(y0, y1);
  store<f64>(p, q & 1 ? mx : x0, X0);
  store<f64>(p, q & 2 ? my : y0, Y0);
  store<f64>(p, q & 1 ? x1 : mx, X1);
  store<f64>(p, q & 2 ? y1 : my, Y1);
}

@inline function midpoint(a: f64, b: f64): f64 {
  return min(max(a * 0.5 + b * 0.5, a), b);
}

// Adds the four children of n, in the last freed block or appended; returns the first one's index.
function addChildren(t: Tree, n: i32): i32 {
  let first = t.freeBlock;
  if (first >= 0) {
    t.freeBlock = load<i32>(nodeAt(t, first), PARENT);
  } else {
    if (t.nodeCount + 4 > t.nodeCap) {
      t.nodeCap = max(16, t.nodeCap + (t.nodeCap >> 1));
      t.nodes = grow(t.nodes, <usize>t.nodeCap * NODE_BYTES);
    }
    first = t.nodeCount;
    t.nodeCount += 4;
  }
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
  return first;
}

// Drops every node, keeping the item table; rebuilds the root over the area
// (the whole plane before there is one) and, in fixed mode, the whole
// pre-split tree.
function resetNodes(t: Tree): void {
  freeLists(t);
  t.nodeCount = 1;
  t.freeBlock = -1;
  if (t.nodeCap == 0) {
    t.nodeCap = 16;
    t.nodes = heap.alloc(<usize>t.nodeCap * NODE_BYTES);
  }
  const a = t.area;
  if (a.covered) initNode(t, 0, -1, 0, a.minX, a.minY, a.maxX, a.maxY, -Infinity, -Infinity, Infinity, Infinity);
  else initNode(t, 0, -1, 0, -Infinity, -Infinity, Infinity, Infinity, -Infinity, -Infinity, Infinity, Infinity);
  if (t.mode != MODE_SPLIT && a.covered) {
    // Children are appended in breadth-first order, so a level is split after the one above it.
    for (let n = 0; n < t.nodeCount; n++) {
      if (load<i32>(nodeAt(t, n), LEVEL) + 1 < t.maxLevels) addChildren(t, n);
    }
  }
}

// ---- entries ---------------------------------------------------------------------

// Frees every node's slot list: its own heap block, or the arena they share.
function freeLists(t: Tree): void {
  for (let n = 0; n < t.nodeCount; n++) {
    const p = nodeAt(t, n);
    if (load<i32>(p, CAP) > 0) heap.free(<usize>load<i32>(p, ENTRIES));
  }
  if (t.arena != 0) heap.free(t.arena);
  t.arena = 0;
}

// Adds slot (whose rect starts at x0, y0) to the entries of node n.
function appendEntry(t: Tree, n: i32, slot: i32, x0: f64, y0: f64): void {
  const p = nodeAt(t, n);
  const count = load<i32>(p, COUNT);
  let cap = load<i32>(p, CAP);
  let entries = <usize>load<i32>(p, ENTRIES);
  if (count == abs(cap)) {
    const inArena = cap < 0;
    cap = max(4, count + (count >> 1)); // by half, not double: leaves are many, so slack adds up
    // A list in the arena moves out to a block of its own.
    if (inArena) {
      const moved = heap.alloc(<usize>cap << 2);
      memory.copy(moved, entries, <usize>count << 2);
      entries = moved;
    } else {
      entries = grow(entries, <usize>cap << 2);
    }
    store<i32>(p, cap, CAP);
    store<i32>(p, <i32>entries, ENTRIES);
  }
  setSlotAt(entries, count, slot);
  store<i32>(p, count + 1, COUNT);
  if (t.mode != MODE_SPLIT) {
    store<i32>(itemAt(t, slot), n, NODE);
  } else if (owns(p, x0, y0)) {
    const home = load<i32>(p, HOME);
    swapSlots(entries, count, home);
    store<i32>(p, home + 1, HOME);
    store<i32>(itemAt(t, slot), n, NODE);
  }
}

@inline function swapSlots(entries: usize, i: i32, j: i32): void {
  const a = slotAt(entries, i);
  setSlotAt(entries, i, slotAt(entries, j));
  setSlotAt(entries, j, a);
}

// Position of slot among the entries of node p (it must be there).
function findEntry(p: usize, slot: i32): i32 {
  const entries = <usize>load<i32>(p, ENTRIES);
  let i = 0;
  while (slotAt(entries, i) != slot) i++;
  return i;
}

// Removes slot from the entries of node n, keeping own entries first.
function removeEntry(t: Tree, n: i32, slot: i32): void {
  const p = nodeAt(t, n);
  const entries = <usize>load<i32>(p, ENTRIES);
  const last = load<i32>(p, COUNT) - 1;
  const home = load<i32>(p, HOME);
  let pos = findEntry(p, slot);
  if (pos < home) {
    setSlotAt(entries, pos, slotAt(entries, home - 1));
    pos = home - 1;
    store<i32>(p, pos, HOME);
  }
  setSlotAt(entries, pos, slotAt(entries, last));
  store<i32>(p, last, COUNT);
}

// ---- geometry --------------------------------------------------------------------

@inline function touches(p: usize, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  return x0 <= load<f64>(p, EX1) && x1 >= load<f64>(p, EX0) && y0 <= load<f64>(p, EY1) && y1 >= load<f64>(p, EY0);
}

@inline function contains(p: usize, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  return x0 >= load<f64>(p, EX0) && x1 <= load<f64>(p, EX1) && y0 >= load<f64>(p, EY0) && y1 <= load<f64>(p, EY1);
}

// Strictly inside the node's square: the rect touches no node outside its
// subtree, and keeps to the square of the node and of every ancestor (each
// lies in its parent's), so no narrowed node would have to widen for it.
@inline function inside(p: usize, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  return x0 > load<f64>(p, X0) && x1 < load<f64>(p, X1) && y0 > load<f64>(p, Y0) && y1 < load<f64>(p, Y1);
}

// Whether a rect touching the split node at p may go below it: a narrowed
// node holds only rects strictly inside its split square on each side where
// that square is narrower than its region (see narrow).
@inline function fitsNarrowed(p: usize, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  const sides = load<i32>(p, AUX);
  if (sides == 0) return true;
  return !(((sides & NARROWED_X0) != 0 && x0 <= load<f64>(p, X0)) || ((sides & NARROWED_Y0) != 0 && y0 <= load<f64>(p, Y0)) ||
    ((sides & NARROWED_X1) != 0 && x1 >= load<f64>(p, X1)) || ((sides & NARROWED_Y1) != 0 && y1 >= load<f64>(p, Y1)));
}

@inline function owns(p: usize, px: f64, py: f64): bool {
  return px >= load<f64>(p, EX0) && px < load<f64>(p, EX1) && py >= load<f64>(p, EY0) && py < load<f64>(p, EY1);
}

// ---- split mode ------------------------------------------------------------------------

function splitInsert(t: Tree, n: i32, slot: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const p = nodeAt(t, n);
  const child = load<i32>(p, CHILD);
  if (child < 0) {
    appendEntry(t, n, slot, x0, y0);
    maybeSplit(t, n);
    return;
  }
  if (!fitsNarrowed(p, x0, y0, x1, y1)) {
    refill(t, n, slot);
    return;
  }
  for (let c = child; c < child + 4; c++) {
    if (touches(nodeAt(t, c), x0, y0, x1, y1)) splitInsert(t, c, slot, x0, y0, x1, y1);
  }
}

// Takes slot out of every leaf below n its rect touches, merging the
// siblings it leaves with few enough items on the way back up.
function splitDetach(t: Tree, n: i32, slot: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const child = load<i32>(nodeAt(t, n), CHILD);
  if (child < 0) {
    removeEntry(t, n, slot);
    return;
  }
  for (let c = child; c < child + 4; c++) {
    if (touches(nodeAt(t, c), x0, y0, x1, y1)) splitDetach(t, c, slot, x0, y0, x1, y1);
  }
  tryMerge(t, n);
}

// Merges the four children of n back into n when they are leaves holding,
// together, at most half the capacity: half, so that a merged leaf is far
// from splitting again. Returns whether it merged. The merged list keeps n's
// own entries (those whose min corner n owns, own in exactly one child)
// first; an item met in several children is listed once, from the first
// child it touches.
function tryMerge(t: Tree, n: i32): bool {
  const p = nodeAt(t, n);
  const first = load<i32>(p, CHILD);
  if (first < 0) return false;
  const limit = t.capacity >> 1;
  let own = 0;
  for (let c = first; c < first + 4; c++) {
    const q = nodeAt(t, c);
    if (load<i32>(q, CHILD) >= 0) return false;
    own += load<i32>(q, HOME);
  }
  if (own > limit) return false;
  const merged = reserveScratch(t, limit + 1);
  let count = 0;
  for (let c = first; c < first + 4; c++) {
    const q = nodeAt(t, c);
    memory.copy(merged + (<usize>count << 2), <usize>load<i32>(q, ENTRIES), <usize>load<i32>(q, HOME) << 2);
    count += load<i32>(q, HOME);
  }
  for (let c = first; c < first + 4; c++) {
    const q = nodeAt(t, c);
    const entries = <usize>load<i32>(q, ENTRIES);
    for (let i = load<i32>(q, HOME); i < load<i32>(q, COUNT); i++) {
      const slot = slotAt(entries, i);
      const r = itemAt(t, slot);
      const x0 = load<f64>(r, RX0), y0 = load<f64>(r, RY0), x1 = load<f64>(r, RX1), y1 = load<f64>(r, RY1);
      if (owns(p, x0, y0) || touchesBefore(t, first, c, x0, y0, x1, y1)) continue;
      if (count == limit) return false;
      setSlotAt(merged, count++, slot);
    }
  }
  releaseBlock(t, first);
  const list = count > 0 ? heap.alloc(<usize>count << 2) : 0;
  memory.copy(list, merged, <usize>count << 2);
  for (let i = 0; i < own; i++) store<i32>(itemAt(t, slotAt(list, i)), n, NODE);
  store<i32>(p, -1, CHILD);
  store<i32>(p, count, COUNT);
  store<i32>(p, count, CAP);
  store<i32>(p, <i32>list, ENTRIES);
  store<i32>(p, own, HOME);
  unnarrow(t, n);
  return true;
}

// Frees the block of four siblings starting at first (their subtrees
// already are): their slot lists go back, the block joins the free list and
// is reused first.
function releaseBlock(t: Tree, first: i32): void {
  for (let c = first; c < first + 4; c++) freeNode(t, c);
  store<i32>(nodeAt(t, first), t.freeBlock, PARENT);
  t.freeBlock = first;
}

// Frees every node below n, deepest blocks first.
function releaseBelow(t: Tree, n: i32): void {
  const first = load<i32>(nodeAt(t, n), CHILD);
  if (first < 0) return;
  for (let c = first; c < first + 4; c++) releaseBelow(t, c);
  releaseBlock(t, first);
}

// Rebuilds the subtree of split node n with slot, whose rect does not fit
// n's narrowed split square (see fitsNarrowed): n becomes a leaf over its
// whole region again and is filled with its items and slot, narrowing anew
// around them all.
function refill(t: Tree, n: i32, slot: i32): void {
  const recs = heap.alloc(<usize>(countBelow(t, n) + 1) * REC_BYTES);
  let end = gatherBelow(t, n, n, recs);
  writeRecord(end, itemAt(t, slot), slot);
  end += REC_BYTES;
  const count = <i32>((end - recs) / REC_BYTES);
  releaseBelow(t, n);
  const p = nodeAt(t, n);
  store<i32>(p, -1, CHILD);
  store<i32>(p, 0, COUNT);
  store<i32>(p, 0, HOME);
  unnarrow(t, n);
  // Homes below n are gone; n owns those items' min corners.
  for (let r = recs; r < end; r += REC_BYTES) {
    if (owns(p, load<f64>(r, RX0), load<f64>(r, RY0))) store<i32>(itemAt(t, load<i32>(r, REC_SLOT)), n, NODE);
  }
  planRecords(t, n, recs, count);
  fill(t, n, recs, count, t.quad0, t.quad1, t.quad2, t.quad3, true);
}

// The entries in the leaves below n (an item in several counted in each).
function countBelow(t: Tree, n: i32): i32 {
  const p = nodeAt(t, n);
  const child = load<i32>(p, CHILD);
  if (child < 0) return load<i32>(p, COUNT);
  let count = 0;
  for (let c = child; c < child + 4; c++) count += countBelow(t, c);
  return count;
}

// Writes from dst the build records of the items stored below n within the
// subtree of top, each once: from the first leaf (in child order) its rect
// touches. Returns the end of what it wrote.
function gatherBelow(t: Tree, top: i32, n: i32, dst: usize): usize {
  const p = nodeAt(t, n);
  const child = load<i32>(p, CHILD);
  if (child >= 0) {
    for (let c = child; c < child + 4; c++) dst = gatherBelow(t, top, c, dst);
    return dst;
  }
  const entries = <usize>load<i32>(p, ENTRIES);
  const count = load<i32>(p, COUNT);
  for (let i = 0; i < count; i++) {
    const slot = slotAt(entries, i);
    const r = itemAt(t, slot);
    if (firstLeaf(t, top, load<f64>(r, RX0), load<f64>(r, RY0), load<f64>(r, RX1), load<f64>(r, RY1)) != n) continue;
    writeRecord(dst, r, slot);
    dst += REC_BYTES;
  }
  return dst;
}

// The first leaf below n, in child order, that the rect (touching n) touches.
function firstLeaf(t: Tree, n: i32, x0: f64, y0: f64, x1: f64, y1: f64): i32 {
  let child = load<i32>(nodeAt(t, n), CHILD);
  while (child >= 0) {
    n = child;
    while (!touches(nodeAt(t, n), x0, y0, x1, y1)) n++;
    child = load<i32>(nodeAt(t, n), CHILD);
  }
  return n;
}

// Whether the rect touches one of the siblings first..c - 1.
function touchesBefore(t: Tree, first: i32, c: i32, x0: f64, y0: f64, x1: f64, y1: f64): bool {
  for (let b = first; b < c; b++) if (touches(nodeAt(t, b), x0, y0, x1, y1)) return true;
  return false;
}

// Gives back leaf n's slot list and marks it free (its block joins the free list whole).
function freeNode(t: Tree, n: i32): void {
  const p = nodeAt(t, n);
  if (load<i32>(p, CAP) > 0) heap.free(<usize>load<i32>(p, ENTRIES));
  initNode(t, n, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0);
}

// After a removal below holder n: once n is a leaf its parent may merge, and so on up.
function mergeUp(t: Tree, n: i32): void {
  while (n > 0 && load<i32>(nodeAt(t, n), CHILD) < 0) {
    n = load<i32>(nodeAt(t, n), PARENT);
    if (!tryMerge(t, n)) return;
  }
}

// The nearest ancestor of n (or n) whose region strictly holds the rect: every leaf the rect touches is below it.
function holder(t: Tree, n: i32, x0: f64, y0: f64, x1: f64, y1: f64): i32 {
  while (n > 0 && !inside(nodeAt(t, n), x0, y0, x1, y1)) n = load<i32>(nodeAt(t, n), PARENT);
  return n;
}

// Splits leaf n when it is over capacity and below the depth limit (and
// splitting pays, see shouldSplit): its items move into the new children in
// one partition pass.
function maybeSplit(t: Tree, n: i32): void {
  const p = nodeAt(t, n);
  const count = load<i32>(p, COUNT);
  // The cheap reasons not to split first: a leaf at the depth limit or
  // blocked until it doubles would otherwise gather its items on every insert.
  if (!mayDeepen(t, p, count)) return;
  const entries = <usize>load<i32>(p, ENTRIES);
  const recs = gatherRecords(t, entries, count);
  planRecords(t, n, recs, count);
  if (!shouldSplit(t, n, recs, count, t.quad0, t.quad1, t.quad2, t.quad3)) {
    heap.free(recs);
    return;
  }
  if (load<i32>(p, CAP) > 0) heap.free(entries);
  store<i32>(p, 0, COUNT);
  store<i32>(p, 0, CAP);
  store<i32>(p, 0, ENTRIES);
  store<i32>(p, 0, HOME);
  splitInto(t, n, recs, count, t.quad0, t.quad1, t.quad2, t.quad3, true);
}

// A heap block of build records for the count slots at slots.
function gatherRecords(t: Tree, slots: usize, count: i32): usize {
  const recs = heap.alloc(<usize>max(count, 1) * REC_BYTES);
  for (let i = 0; i < count; i++) {
    const slot = slotAt(slots, i);
    writeRecord(recs + <usize>i * REC_BYTES, itemAt(t, slot), slot);
  }
  return recs;
}

// The quadrant mask of a rect touching a node split at (mx, my): bit q for
// quadrant q (bit 0 right, bit 1 top), which the rect touches exactly when it
// reaches that quadrant's side of both split lines.
@inline function quadrantMask(r: usize, mx: f64, my: f64): i32 {
  const left = <i32>(load<f64>(r, RX0) <= mx), right = <i32>(load<f64>(r, RX1) >= mx);
  const low = <i32>(load<f64>(r, RY0) <= my), high = <i32>(load<f64>(r, RY1) >= my);
  return (left & low) | ((right & low) << 1) | ((left & high) << 2) | ((right & high) << 3);
}

// Gives the record at r its quadrant mask in a node split at (mx, my); returns it.
@inline function planRecord(r: usize, mx: f64, my: f64): i32 {
  const m = quadrantMask(r, mx, my);
  store<i32>(r, m, REC_MASK);
  return m;
}

// Plans a split of node n over count records: stores each record's quadrant
// mask at REC_MASK and the number of records per quadrant in t.quad0..3.
// (A split plans its children's splits while it partitions, see splitInto.)
function planRecords(t: Tree, n: i32, recs: usize, count: i32): void {
  const p = nodeAt(t, n);
  const mx = midpoint(load<f64>(p, X0), load<f64>(p, X1)), my = midpoint(load<f64>(p, Y0), load<f64>(p, Y1));
  let c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  const end = recs + <usize>count * REC_BYTES;
  for (let r = recs; r < end; r += REC_BYTES) {
    const m = planRecord(r, mx, my);
    c0 += m & 1;
    c1 += (m >> 1) & 1;
    c2 += (m >> 2) & 1;
    c3 += m >> 3;
  }
  t.quad0 = c0;
  t.quad1 = c1;
  t.quad2 = c2;
  t.quad3 = c3;
}

// Whether node n, holding count records that touch its quadrants q0..q3
// times, should split: it must be over capacity, below the depth limit, and
// splitting must pay. It cannot when the items all share a point (they would
// stay together in every leaf, however deep) or when the quadrants would hold
// SPLIT_COPIES times as many entries as the node (items large next to the
// quadrants, so a split mostly copies them and adds pair tests); such a
// blocked leaf tries again when its count doubles. Records all in one
// quadrant narrow the split square first (see narrow). A split goes by the
// counts it leaves in t.quad0..3 (those given, or the narrowed ones).
function shouldSplit(t: Tree, n: i32, recs: usize, count: i32, q0: i32, q1: i32, q2: i32, q3: i32): bool {
  const p = nodeAt(t, n);
  if (!mayDeepen(t, p, count)) return false;
  // Items sharing a point all touch a quadrant holding it: only then is the pass over them needed.
  let crowded = max(max(q0, q1), max(q2, q3)) == count;
  let copies = q0 + q1 + q2 + q3;
  if (<f64>copies >= SPLIT_COPIES * <f64>count || (crowded && sharePoint(recs, count))) {
    store<i32>(p, count << 1, AUX);
    return false;
  }
  t.quad0 = q0;
  t.quad1 = q1;
  t.quad2 = q2;
  t.quad3 = q3;
  // A split node's AUX holds its NARROWED bits, none unless it narrows.
  store<i32>(p, 0, AUX);
  if (crowded && copies == count) {
    // Every record in one quadrant: split where they part instead.
    const x0 = load<f64>(p, X0), y0 = load<f64>(p, Y0), x1 = load<f64>(p, X1), y1 = load<f64>(p, Y1);
    narrow(t, n, recs, count);
    crowded = max(max(t.quad0, t.quad1), max(t.quad2, t.quad3)) == count;
    copies = t.quad0 + t.quad1 + t.quad2 + t.quad3;
    // Still one quadrant: no split square parts them, at the precision of doubles.
    if (<f64>copies >= SPLIT_COPIES * <f64>count || (crowded && copies == count)) {
      store<f64>(p, x0, X0);
      store<f64>(p, y0, Y0);
      store<f64>(p, x1, X1);
      store<f64>(p, y1, Y1);
      store<i32>(p, count << 1, AUX);
      return false;
    }
  }
  return true;
}

// Narrows the square of node n, whose count records all lie in one
// quadrant, to the smallest square that halving its region towards them
// reaches while they keep to one quadrant, each strictly on one side of
// both split lines: its split square, with the NARROWED bits of the sides
// that moved. Plans the records there (t.quad0..3). Halving skipped this
// way would have built a chain of nodes whose other three children stay
// empty. The records' box decides each step, and a step that halves neither
// side (the doubles run out) ends it.
function narrow(t: Tree, n: i32, recs: usize, count: i32): void {
  boxOf(t, recs, count);
  const bx0 = t.boxX0, by0 = t.boxY0, bx1 = t.boxX1, by1 = t.boxY1;
  const p = nodeAt(t, n);
  let x0 = load<f64>(p, X0), y0 = load<f64>(p, Y0), x1 = load<f64>(p, X1), y1 = load<f64>(p, Y1);
  while (true) {
    const mx = midpoint(x0, x1), my = midpoint(y0, y1);
    const right = bx0 > mx, top = by0 > my;
    if (!(right || bx1 < mx) || !(top || by1 < my)) break;
    const nx0 = right ? mx : x0, nx1 = right ? x1 : mx, ny0 = top ? my : y0, ny1 = top ? y1 : my;
    if (nx0 == x0 && nx1 == x1 && ny0 == y0 && ny1 == y1) break;
    x0 = nx0;
    x1 = nx1;
    y0 = ny0;
    y1 = ny1;
  }
  const sides =
    select(NARROWED_X0, 0, x0 != load<f64>(p, X0)) | select(NARROWED_Y0, 0, y0 != load<f64>(p, Y0)) |
    select(NARROWED_X1, 0, x1 != load<f64>(p, X1)) | select(NARROWED_Y1, 0, y1 != load<f64>(p, Y1));
  store<i32>(p, sides, AUX);
  store<f64>(p, x0, X0);
  store<f64>(p, y0, Y0);
  store<f64>(p, x1, X1);
  store<f64>(p, y1, Y1);
  planRecords(t, n, recs, count);
}

// Whether the node at p, holding count entries, is one splitting may be
// worth a look for: over capacity, not blocked (see shouldSplit), above the
// depth limit (each doubling of the area adds a level), and with an area.
@inline function mayDeepen(t: Tree, p: usize, count: i32): bool {
  return count > t.capacity && count >= load<i32>(p, AUX) && load<i32>(p, LEVEL) + 1 < t.maxLevels + t.area.growth && t.area.covered;
}

// Whether the count records have a point in common.
function sharePoint(recs: usize, count: i32): bool {
  let hiX0 = -Infinity, hiY0 = -Infinity, loX1 = Infinity, loY1 = Infinity;
  const end = recs + <usize>count * REC_BYTES;
  for (let r = recs; r < end; r += REC_BYTES) {
    // Comparisons, not f64 min/max (which pay for NaN and -0 handling).
    const x0 = load<f64>(r, RX0), y0 = load<f64>(r, RY0), x1 = load<f64>(r, RX1), y1 = load<f64>(r, RY1);
    hiX0 = select(x0, hiX0, x0 > hiX0);
    hiY0 = select(y0, hiY0, y0 > hiY0);
    loX1 = select(x1, loX1, x1 < loX1);
    loY1 = select(y1, loY1, y1 < loY1);
  }
  return hiX0 <= loX1 && hiY0 <= loY1;
}

// Gives the empty node n the count records at recs, planned (masks and
// quadrant counts q0..q3): as a leaf, or split, recursively, as far as
// splitting pays. This is the bulk build: one partition pass per level
// instead of one walk per item and repeated re-splits. The records are only
// read; `owned` says recs is a heap block of its own, freed once partitioned.
function fill(t: Tree, n: i32, recs: usize, count: i32, q0: i32, q1: i32, q2: i32, q3: i32, owned: bool): void {
  if (shouldSplit(t, n, recs, count, q0, q1, q2, q3)) {
    splitInto(t, n, recs, count, t.quad0, t.quad1, t.quad2, t.quad3, owned);
    return;
  }
  adoptLeaf(t, n, recs, count);
  if (owned) heap.free(recs);
}

// Adds the four children of n and fills each with the records that touch it
// (q0..q3 of them, by the masks at REC_MASK), each quadrant's in a part of
// one heap block, in input order. Each copied record gets its mask in the
// child, so the children come planned. One block per split (freed when its
// four children are built) keeps the allocator out of the way; a bulk
// build holds at most the blocks along one path down the tree.
function splitInto(t: Tree, n: i32, recs: usize, count: i32, q0: i32, q1: i32, q2: i32, q3: i32, owned: bool): void {
  const first = addChildren(t, n);
  const block = heap.alloc(<usize>max(q0 + q1 + q2 + q3, 1) * REC_BYTES);
  // Per quadrant q, in static memory so a record picks its quadrant's with
  // no branch: write cursor at 4q, the child's split lines at 16 + 16q and
  // 24 + 16q, and from 80 + 64q how many copies got each mask in the child.
  const plan = memory.data(336);
  store<u32>(plan, <u32>block);
  store<u32>(plan, <u32>(block + <usize>q0 * REC_BYTES), 4);
  store<u32>(plan, <u32>(block + <usize>(q0 + q1) * REC_BYTES), 8);
  store<u32>(plan, <u32>(block + <usize>(q0 + q1 + q2) * REC_BYTES), 12);
  for (let q = 0; q < 4; q++) {
    const c = nodeAt(t, first + q);
    store<f64>(plan + (<usize>q << 4), midpoint(load<f64>(c, X0), load<f64>(c, X1)), 16);
    store<f64>(plan + (<usize>q << 4), midpoint(load<f64>(c, Y0), load<f64>(c, Y1)), 24);
  }
  memory.fill(plan + 80, 0, 256);
  const b0 = <usize>load<u32>(plan), b1 = <usize>load<u32>(plan, 4), b2 = <usize>load<u32>(plan, 8), b3 = <usize>load<u32>(plan, 12);
  const end = recs + <usize>count * REC_BYTES;
  for (let r = recs; r < end; r += REC_BYTES) {
    const m = load<i32>(r, REC_MASK);
    if ((m & (m - 1)) == 0) {
      appendRecord(plan, ctz(m), r);
    } else {
      if (m & 1) appendRecord(plan, 0, r);
      if (m & 2) appendRecord(plan, 1, r);
      if (m & 4) appendRecord(plan, 2, r);
      if (m & 8) appendRecord(plan, 3, r);
    }
  }
  if (owned) heap.free(recs);
  // The children's splits reuse the static plan: their counts to locals first.
  tallyCounts(t, plan, 0);
  const k00 = t.quad0, k01 = t.quad1, k02 = t.quad2, k03 = t.quad3;
  tallyCounts(t, plan, 1);
  const k10 = t.quad0, k11 = t.quad1, k12 = t.quad2, k13 = t.quad3;
  tallyCounts(t, plan, 2);
  const k20 = t.quad0, k21 = t.quad1, k22 = t.quad2, k23 = t.quad3;
  tallyCounts(t, plan, 3);
  const k30 = t.quad0, k31 = t.quad1, k32 = t.quad2, k33 = t.quad3;
  fill(t, first, b0, q0, k00, k01, k02, k03, false);
  fill(t, first + 1, b1, q1, k10, k11, k12, k13, false);
  fill(t, first + 2, b2, q2, k20, k21, k22, k23, false);
  fill(t, first + 3, b3, q3, k30, k31, k32, k33, false);
  heap.free(block);
}

// Sets t.quad0..3 to the records per quadrant of child q, from the tally of
// masks that splitInto kept for it in the plan.
function tallyCounts(t: Tree, plan: usize, q: i32): void {
  const tally = plan + 80 + (<usize>q << 6);
  let c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  for (let m = 1; m < 16; m++) {
    const k = load<i32>(tally + (<usize>m << 2));
    c0 += select(k, 0, m & 1);
    c1 += select(k, 0, m & 2);
    c2 += select(k, 0, m & 4);
    c3 += select(k, 0, m & 8);
  }
  t.quad0 = c0;
  t.quad1 = c1;
  t.quad2 = c2;
  t.quad3 = c3;
}

// Copies the record at src to quadrant q's cursor in the plan (see
// splitInto), advances it, and gives the copy its mask in that child.
@inline function appendRecord(plan: usize, q: i32, src: usize): void {
  const at = plan + (<usize>q << 2);
  const dst = <usize>load<u32>(at);
  store<u64>(dst, load<u64>(src));
  store<u64>(dst, load<u64>(src, 8), 8);
  store<u64>(dst, load<u64>(src, 16), 16);
  store<u64>(dst, load<u64>(src, 24), 24);
  store<i32>(dst, load<i32>(src, REC_SLOT), REC_SLOT);
  store<u32>(at, <u32>(dst + REC_BYTES));
  const lines = plan + (<usize>q << 4);
  const m = quadrantMask(dst, load<f64>(lines, 16), load<f64>(lines, 24));
  store<i32>(dst, m, REC_MASK);
  const tally = plan + 80 + (<usize>q << 6) + (<usize>m << 2);
  store<i32>(tally, load<i32>(tally) + 1);
}

// Makes the empty node n a leaf holding the slots of the count records at
// recs, in a slot list of their exact size: its own entries first, then the
// others, each part in record order.
function adoptLeaf(t: Tree, n: i32, recs: usize, count: i32): void {
  if (count == 0) return;
  const p = nodeAt(t, n);
  const list = newList(t, count);
  const ex0 = load<f64>(p, EX0), ey0 = load<f64>(p, EY0), ex1 = load<f64>(p, EX1), ey1 = load<f64>(p, EY1);
  const others = reserveScratch(t, count);
  let own = 0, other = 0;
  // Branch-free: own or not is a coin toss in dense leaves.
  for (let k = 0; k < count; k++) {
    const r = recs + <usize>k * REC_BYTES;
    const x = load<f64>(r, RX0), y = load<f64>(r, RY0), slot = load<i32>(r, REC_SLOT);
    const isOwn = <i32>(x >= ex0) & <i32>(x < ex1) & <i32>(y >= ey0) & <i32>(y < ey1);
    setSlotAt(list, own, slot);
    setSlotAt(others, other, slot);
    own += isOwn;
    other += isOwn ^ 1;
  }
  memory.copy(list + (<usize>own << 2), others, <usize>other << 2);
  if (t.bulk) {
    // An offset until the build ends: the arena may still move.
    store<i32>(p, <i32>(list - t.arena), ENTRIES);
    store<i32>(p, -count, CAP);
  } else {
    store<i32>(p, <i32>list, ENTRIES);
    store<i32>(p, count, CAP);
  }
  store<i32>(p, count, COUNT);
  store<i32>(p, own, HOME);
}

// Room for a new leaf's count slots: next in the arena during a bulk build
// (one allocation for all the leaves), else a heap block of its own.
function newList(t: Tree, count: i32): usize {
  if (!t.bulk) return heap.alloc(<usize>count << 2);
  if (t.arenaUsed + count > t.arenaCap) {
    t.arenaCap = max(t.arenaUsed + count, t.arenaCap << 1);
    t.arena = grow(t.arena, <usize>t.arenaCap << 2);
  }
  const list = t.arena + (<usize>t.arenaUsed << 2);
  t.arenaUsed += count;
  return list;
}

function splitQuery(t: Tree, n: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  if (t.outCount >= t.limit) return;
  const p = nodeAt(t, n);
  const child = load<i32>(p, CHILD);
  if (child >= 0) {
    for (let c = child; c < child + 4; c++) {
      if (touches(nodeAt(t, c), x0, y0, x1, y1)) splitQuery(t, c, x0, y0, x1, y1);
    }
    return;
  }
  const entries = <usize>load<i32>(p, ENTRIES);
  const items = t.items;
  if (x0 < load<f64>(p, EX0) && y0 < load<f64>(p, EY0)) {
    // The box starts before this leaf: only its own entries can be reported
    // here, and all of them when the leaf lies inside the box.
    const home = load<i32>(p, HOME);
    reserveOut(t, home);
    let out = t.out + (<usize>t.outCount << 2);
    if (load<f64>(p, EX1) <= x1 && load<f64>(p, EY1) <= y1) {
      for (let i = 0; i < home; i++) {
        store<i32>(out, load<i32>(items + <usize>slotAt(entries, i) * ITEM_BYTES, ID));
        out += 4;
      }
    } else {
      // Branch-free, as in the pair loop: write, keep by advancing.
      for (let i = 0; i < home; i++) {
        const r = items + <usize>slotAt(entries, i) * ITEM_BYTES;
        store<i32>(out, load<i32>(r, ID));
        out += <usize>((<i32>(load<f64>(r, RX0) <= x1) & <i32>(load<f64>(r, RY0) <= y1)) << 2);
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
    const r = items + <usize>slotAt(entries, i) * ITEM_BYTES;
    const rx0 = load<f64>(r, RX0), ry0 = load<f64>(r, RY0);
    const hit =
      <i32>(rx0 <= x1) & <i32>(load<f64>(r, RX1) >= x0) & <i32>(ry0 <= y1) & <i32>(load<f64>(r, RY1) >= y0) &
      (boxInX | <i32>(rx0 >= ex0)) & <i32>(rx0 < ex1) & (boxInY | <i32>(ry0 >= ey0)) & <i32>(ry0 < ey1);
    store<i32>(out, load<i32>(r, ID));
    out += <usize>(hit << 2);
  }
  t.outCount = <i32>((out - t.out) >> 2);
}

// The scratch buffer, with room for count item records.
function reserveScratch(t: Tree, count: i32): usize {
  if (count > t.scratchCap) {
    t.scratchCap = max(count, t.scratchCap << 1);
    if (t.scratch != 0) heap.free(t.scratch);
    t.scratch = heap.alloc(<usize>t.scratchCap * ITEM_BYTES);
  }
  return t.scratch;
}

// Copies the item records of the count slots at entries side by side into
// the scratch buffer; returns it.
function gatherItems(t: Tree, entries: usize, count: i32): usize {
  let dst = reserveScratch(t, count);
  for (let i = 0; i < count; i++) {
    const src = itemAt(t, slotAt(entries, i));
    store<u64>(dst, load<u64>(src));
    store<u64>(dst, load<u64>(src, 8), 8);
    store<u64>(dst, load<u64>(src, 16), 16);
    store<u64>(dst, load<u64>(src, 24), 24);
    store<u64>(dst, load<u64>(src, 32), 32);
    dst += ITEM_BYTES;
  }
  return t.scratch;
}

function splitPairs(t: Tree): void {
  for (let n = 0; n < t.nodeCount; n++) {
    const p = nodeAt(t, n);
    const count = load<i32>(p, COUNT);
    if (count < 2) continue;
    // The leaf's items side by side: the pair loop below reads them count times each.
    const recs = gatherItems(t, <usize>load<i32>(p, ENTRIES), count);
    const ex0 = load<f64>(p, EX0), ey0 = load<f64>(p, EY0), ex1 = load<f64>(p, EX1), ey1 = load<f64>(p, EY1);
    const end = recs + <usize>count * ITEM_BYTES;
    const ownEnd = recs + <usize>load<i32>(p, HOME) * ITEM_BYTES;
    let left = count;
    for (let ea = recs; ea < end; ea += ITEM_BYTES) {
      // Room for every pair of this entry, so the inner loop stores unchecked.
      reserveOut(t, --left << 1);
      const ax0 = load<f64>(ea, RX0), ay0 = load<f64>(ea, RY0), ax1 = load<f64>(ea, RX1), ay1 = load<f64>(ea, RY1);
      // Only the leaf owning the min corner (max(ax0, bx0), max(ay0, by0)) of
      // an overlap reports the pair. Split into a's part and b's part:
      // max(ax0, bx0) >= ex0 when either is, and < ex1 when both are.
      if (ax0 >= ex1 || ay0 >= ey1) continue;
      const aInX = <i32>(ax0 >= ex0), aInY = <i32>(ay0 >= ey0);
      const ia = load<i32>(ea, ID);
      let out = t.out + (<usize>t.outCount << 2);
      // Branch-free: every candidate is written, and kept by advancing `out`
      // only when it is a pair (about one test in seven is, which defeats
      // branch prediction). Two own entries of the leaf need no ownership test.
      const ownPast = ea < ownEnd ? ownEnd : recs;
      for (let eb = ea + ITEM_BYTES; eb < end; eb += ITEM_BYTES) {
        const bx0 = load<f64>(eb, RX0), by0 = load<f64>(eb, RY0);
        const meets = <i32>(bx0 <= ax1) & <i32>(by0 <= ay1) & <i32>(load<f64>(eb, RX1) >= ax0) & <i32>(load<f64>(eb, RY1) >= ay0);
        const owned =
          <i32>(eb < ownPast) | ((aInX | <i32>(bx0 >= ex0)) & <i32>(bx0 < ex1) & (aInY | <i32>(by0 >= ey0)) & <i32>(by0 < ey1));
        const ib = load<i32>(eb, ID);
        store<i32>(out, min(ia, ib));
        store<i32>(out, max(ia, ib), 4);
        out += <usize>((meets & owned) << 3);
      }
      t.outCount = <i32>((out - t.out) >> 2);
    }
  }
}

function splitUpdate(t: Tree, slot: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const r = itemAt(t, slot);
  const ox0 = load<f64>(r, RX0), oy0 = load<f64>(r, RY0), ox1 = load<f64>(r, RX1), oy1 = load<f64>(r, RY1);
  const leaf = homeLeaf(t, r, ox0, oy0);
  // Fast path: the rect was and stays strictly inside its one leaf.
  const lp = nodeAt(t, leaf);
  if (inside(lp, x0, y0, x1, y1) && inside(lp, ox0, oy0, ox1, oy1)) {
    storeRect(r, x0, y0, x1, y1);
    return;
  }
  // Otherwise, below the nearest ancestor holding both rects, either they
  // touch the same leaves (rewrite the rect, fix the min corner's leaf) or
  // the item moves: out of the old leaves, into the new ones.
  const n = holder(t, holder(t, leaf, ox0, oy0, ox1, oy1), x0, y0, x1, y1);
  if (!leavesDiffer(t, n, ox0, oy0, ox1, oy1, x0, y0, x1, y1)) {
    storeRect(r, x0, y0, x1, y1);
    const owner = ownerLeaf(t, n, x0, y0);
    if (owner != leaf) {
      // The min corner crossed into another of the item's leaves.
      const op = nodeAt(t, leaf), np = nodeAt(t, owner);
      const oldHome = load<i32>(op, HOME) - 1, newHome = load<i32>(np, HOME);
      swapSlots(<usize>load<i32>(op, ENTRIES), findEntry(op, slot), oldHome);
      store<i32>(op, oldHome, HOME);
      swapSlots(<usize>load<i32>(np, ENTRIES), findEntry(np, slot), newHome);
      store<i32>(np, newHome + 1, HOME);
      store<i32>(r, owner, NODE);
    }
    return;
  }
  splitDetach(t, n, slot, ox0, oy0, ox1, oy1);
  storeRect(r, x0, y0, x1, y1);
  splitInsert(t, n, slot, x0, y0, x1, y1);
}

// Whether some node below n is touched by one rect and not the other, that
// is whether the two rects (both touching n) touch different leaves.
function leavesDiffer(t: Tree, n: i32, ax0: f64, ay0: f64, ax1: f64, ay1: f64, bx0: f64, by0: f64, bx1: f64, by1: f64): bool {
  const np = nodeAt(t, n);
  const child = load<i32>(np, CHILD);
  if (child < 0) return false;
  // A narrowed node the second rect does not fit must be rebuilt, which the move's insert does.
  if (!fitsNarrowed(np, bx0, by0, bx1, by1)) return true;
  for (let c = child; c < child + 4; c++) {
    const p = nodeAt(t, c);
    const a = touches(p, ax0, ay0, ax1, ay1);
    if (a != touches(p, bx0, by0, bx1, by1)) return true;
    if (a && leavesDiffer(t, c, ax0, ay0, ax1, ay1, bx0, by0, bx1, by1)) return true;
  }
  return false;
}

// The leaf owning the min corner (x0, y0) of the item at r. A split (bulk
// or not) leaves the item's home at the node that split, an ancestor owning
// the corner too, to be resolved here on the item's next update: a build
// writes no home per item (those writes land all over the item table).
function homeLeaf(t: Tree, r: usize, x0: f64, y0: f64): i32 {
  const n = load<i32>(r, NODE);
  if (load<i32>(nodeAt(t, n), CHILD) < 0) return n;
  const leaf = ownerLeaf(t, n, x0, y0);
  store<i32>(r, leaf, NODE);
  return leaf;
}

// The leaf below n owning the point (which n owns).
function ownerLeaf(t: Tree, n: i32, px: f64, py: f64): i32 {
  let child = load<i32>(nodeAt(t, n), CHILD);
  while (child >= 0) {
    n = child;
    while (!owns(nodeAt(t, n), px, py)) n++;
    child = load<i32>(nodeAt(t, n), CHILD);
  }
  return n;
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
  appendEntry(t, n, slot, x0, y0);
  addTotals(t, n, 1);
}

function fixedDetach(t: Tree, slot: i32): void {
  const n = load<i32>(itemAt(t, slot), NODE);
  removeEntry(t, n, slot);
  addTotals(t, n, -1);
}

function fixedUpdate(t: Tree, slot: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const r = itemAt(t, slot);
  let n = load<i32>(r, NODE);
  if (contains(nodeAt(t, n), x0, y0, x1, y1) && fixedChild(t, n, x0, y0, x1, y1) < 0) {
    storeRect(r, x0, y0, x1, y1);
    return;
  }
  fixedDetach(t, slot);
  while (n > 0 && !contains(nodeAt(t, n), x0, y0, x1, y1)) n = load<i32>(nodeAt(t, n), PARENT);
  storeRect(r, x0, y0, x1, y1);
  fixedPlace(t, n, slot, x0, y0, x1, y1);
}

function fixedQuery(t: Tree, n: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  if (t.outCount >= t.limit) return;
  const p = nodeAt(t, n);
  const count = load<i32>(p, COUNT);
  const entries = <usize>load<i32>(p, ENTRIES);
  for (let i = 0; i < count; i++) {
    const r = itemAt(t, slotAt(entries, i));
    if (load<f64>(r, RX0) <= x1 && load<f64>(r, RX1) >= x0 && load<f64>(r, RY0) <= y1 && load<f64>(r, RY1) >= y0) {
      pushOut(t, load<i32>(r, ID));
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
      const r = itemAt(t, slotAt(entries, i));
      if (load<f64>(r, RX0) <= x1 && load<f64>(r, RX1) >= x0 && load<f64>(r, RY0) <= y1 && load<f64>(r, RY1) >= y0) {
        const ib = load<i32>(r, ID);
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
    const p = nodeAt(t, n);
    const count = load<i32>(p, COUNT);
    const level = load<i32>(p, LEVEL);
    for (let i = 0; i < count; i++) {
      const r = itemAt(t, slotAt(<usize>load<i32>(p, ENTRIES), i));
      fixedPairsOf(t, 0, n, level, i, load<i32>(r, ID), load<f64>(r, RX0), load<f64>(r, RY0), load<f64>(r, RX1), load<f64>(r, RY1));
    }
  }
}

// ---- items ----------------------------------------------------------------------------

@inline function storeRect(r: usize, x0: f64, y0: f64, x1: f64, y1: f64): void {
  store<f64>(r, x0, RX0);
  store<f64>(r, y0, RY0);
  store<f64>(r, x1, RX1);
  store<f64>(r, y1, RY1);
}

// Makes room for slots up to `slot`: by half again, or exactly to a batch's largest slot.
function reserveItems(t: Tree, slot: i32): void {
  if (slot < t.itemCap) return;
  const cap = max(max(64, t.itemCap + (t.itemCap >> 1)), slot + 1);
  t.items = grow(t.items, <usize>cap * ITEM_BYTES);
  for (let s = t.itemCap; s < cap; s++) store<i32>(itemAt(t, s), -1, ID);
  t.itemCap = cap;
}

function place(t: Tree, slot: i32): void {
  const r = itemAt(t, slot);
  const x0 = load<f64>(r, RX0), y0 = load<f64>(r, RY0), x1 = load<f64>(r, RX1), y1 = load<f64>(r, RY1);
  if (t.mode == MODE_SPLIT) splitInsert(t, 0, slot, x0, y0, x1, y1);
  else fixedPlace(t, 0, slot, x0, y0, x1, y1);
}

// The build records of every item, in slot order, in a heap block with room
// for `extra` more; their count is t.size.
function allRecords(t: Tree, extra: i32): usize {
  const recs = heap.alloc(<usize>max(t.size + extra, 1) * REC_BYTES);
  let dst = recs;
  const end = recs + <usize>t.size * REC_BYTES;
  // Stops at the last item: an empty tree (a fresh fill) reads no slot at all.
  for (let s = 0; dst < end; s++) {
    if (load<i32>(itemAt(t, s), ID) < 0) continue;
    // The tree is rebuilt: the root is the one node sure to own the item's corner.
    store<i32>(itemAt(t, s), 0, NODE);
    writeRecord(dst, itemAt(t, s), s);
    dst += REC_BYTES;
  }
  return recs;
}

// Writes the build record of the rect at src (item table layout) and slot to dst.
@inline function writeRecord(dst: usize, src: usize, slot: i32): void {
  store<u64>(dst, load<u64>(src, RX0), RX0);
  store<u64>(dst, load<u64>(src, RY0), RY0);
  store<u64>(dst, load<u64>(src, RX1), RX1);
  store<u64>(dst, load<u64>(src, RY1), RY1);
  store<i32>(dst, slot, REC_SLOT);
}

// The bounding box of the count records at recs, into t.boxX0..boxY1
// (inverted, +Infinity to -Infinity, for none).
function boxOf(t: Tree, recs: usize, count: i32): void {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const end = recs + <usize>count * REC_BYTES;
  for (let r = recs; r < end; r += REC_BYTES) {
    // Comparisons, not f64 min/max (which pay for NaN and -0 handling).
    const rx0 = load<f64>(r, RX0), ry0 = load<f64>(r, RY0), rx1 = load<f64>(r, RX1), ry1 = load<f64>(r, RY1);
    x0 = select(rx0, x0, rx0 < x0);
    y0 = select(ry0, y0, ry0 < y0);
    x1 = select(rx1, x1, rx1 > x1);
    y1 = select(ry1, y1, ry1 > y1);
  }
  t.boxX0 = x0;
  t.boxY0 = y0;
  t.boxX1 = x1;
  t.boxY1 = y1;
}

// Rebuilds every node from the item table (after the area changed).
function rebuild(t: Tree): void {
  rebuildWith(t, allRecords(t, 0), t.size);
}

// A tree with no area yet: once its items outnumber the capacity (and do
// not all share one point) it takes the square around them and is rebuilt
// over it. Returns whether it was. Until then every item sits in the root,
// so the homes allRecords resets stay right either way.
function settle(t: Tree): bool {
  if (t.area.covered || t.size <= t.capacity || t.size < t.area.retryAt) return false;
  const recs = allRecords(t, 0);
  boxOf(t, recs, t.size);
  if (!t.area.fit(t.boxX0, t.boxY0, t.boxX1, t.boxY1, t.size, t.capacity)) {
    heap.free(recs);
    return false;
  }
  rebuildWith(t, recs, t.size);
  return true;
}

// Rebuilds the nodes with the count items whose records are in the heap
// block recs (freed here): in bulk in split mode, one by one in fixed mode.
function rebuildWith(t: Tree, recs: usize, count: i32): void {
  resetNodes(t);
  if (t.mode == MODE_SPLIT) {
    planRecords(t, 0, recs, count);
    fillRoot(t, recs, count);
    return;
  }
  for (let i = 0; i < count; i++) place(t, load<i32>(recs + <usize>i * REC_BYTES, REC_SLOT));
  heap.free(recs);
}

// Builds the fresh root of a split tree from the count records in recs,
// planned (masks, and counts in t.quad0..3).
// The leaves' slot lists go to one arena, sized for two entries per item at
// first (straddling items take more than one), trimmed to its exact size at
// the end. Frees recs.
function fillRoot(t: Tree, recs: usize, count: i32): void {
  t.bulk = true;
  t.arenaUsed = 0;
  t.arenaCap = max(64, count << 1);
  t.arena = heap.alloc(<usize>t.arenaCap << 2);
  fill(t, 0, recs, count, t.quad0, t.quad1, t.quad2, t.quad3, true);
  t.bulk = false;
  t.arenaCap = t.arenaUsed;
  t.arena = heap.realloc(t.arena, <usize>max(t.arenaCap, 1) << 2);
  for (let n = 0; n < t.nodeCount; n++) {
    const p = nodeAt(t, n);
    if (load<i32>(p, CAP) < 0) store<i32>(p, load<i32>(p, ENTRIES) + <i32>t.arena, ENTRIES);
  }
  // Built in one go: no slack in the node array until the next split.
  t.nodeCap = t.nodeCount;
  t.nodes = heap.realloc(t.nodes, <usize>t.nodeCap * NODE_BYTES);
}

// ---- exports --------------------------------------------------------------------------------

/**
 * Creates a tree; mode 0 is 'split' (maxLevels bounds splitting), 1 is
 * 'fixed' (pre-split to maxLevels levels). Unless bounded, the bounds are
 * ignored and the tree picks its own area.
 */
export function qtCreate(minX: f64, minY: f64, maxX: f64, maxY: f64, bounded: bool, capacity: i32, maxLevels: i32, mode: i32): i32 {
  const t = new Tree();
  t.mode = mode;
  t.capacity = capacity;
  t.maxLevels = maxLevels;
  t.area = new Area();
  t.area.setBounds(bounded, minX, minY, maxX, maxY);
  resetNodes(t);
  return <i32>changetype<usize>(t);
}

// Gives back every buffer the tree holds (its nodes afterwards are none at all).
function freeBuffers(t: Tree): void {
  freeLists(t);
  t.nodeCount = 0;
  if (t.nodes != 0) heap.free(t.nodes);
  if (t.items != 0) heap.free(t.items);
  if (t.scratch != 0) heap.free(t.scratch);
  if (t.out != 0) heap.free(t.out);
  t.nodes = t.items = t.scratch = t.out = 0;
  t.nodeCap = t.itemCap = t.scratchCap = t.outCap = t.outCount = 0;
  if (t.queue != 0) {
    changetype<RankHeap>(t.queue).free();
    changetype<RankHeap>(t.best).free();
    heap.free(t.queue);
    heap.free(t.best);
    t.queue = t.best = 0;
  }
}

// The tree as new: its area back to the bounds (or none) and every buffer
// given back, so an emptied tree holds what a fresh one does.
function empty(t: Tree): void {
  freeBuffers(t);
  t.area.restart();
  resetNodes(t);
}

export function qtDispose(tree: i32): void {
  const t = changetype<Tree>(<usize>tree);
  freeBuffers(t);
  heap.free(changetype<usize>(t.area));
  heap.free(changetype<usize>(t));
}

/** Inserts an item; one beyond the area grows it and rebuilds the tree over it. */
export function qtInsert(tree: i32, slot: i32, id: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const t = changetype<Tree>(<usize>tree);
  reserveItems(t, slot);
  const r = itemAt(t, slot);
  storeRect(r, x0, y0, x1, y1);
  store<i32>(r, id, ID);
  t.size++;
  if (t.area.covered && !t.area.holds(x0, y0, x1, y1)) {
    t.area.cover(x0, y0, x1, y1);
    rebuild(t);
    return;
  }
  place(t, slot);
  settle(t);
}

/** Moves an item; a move beyond the area grows it and rebuilds the tree over it. */
export function qtUpdate(tree: i32, slot: i32, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const t = changetype<Tree>(<usize>tree);
  if (t.area.covered && !t.area.holds(x0, y0, x1, y1)) {
    storeRect(itemAt(t, slot), x0, y0, x1, y1);
    t.area.cover(x0, y0, x1, y1);
    rebuild(t);
    return;
  }
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
 * items in slot order, then the batch in order, over an area fitted to them
 * all.
 */
export function qtInsertMany(tree: i32, slotsPtr: i32, idsPtr: i32, rectsPtr: i32, count: i32): void {
  const t = changetype<Tree>(<usize>tree);
  if (t.mode == MODE_SPLIT && count > 0 && count >= t.size) {
    // The root's split is planned as the records are written, not in a pass
    // of its own, and planned again only if the batch reaches beyond the area.
    resetNodes(t);
    const recs = allRecords(t, count);
    planRecords(t, 0, recs, t.size);
    boxOf(t, recs, t.size);
    let bx0 = t.boxX0, by0 = t.boxY0, bx1 = t.boxX1, by1 = t.boxY1;
    const root = nodeAt(t, 0);
    const mx = midpoint(load<f64>(root, X0), load<f64>(root, X1)), my = midpoint(load<f64>(root, Y0), load<f64>(root, Y1));
    let c0 = t.quad0, c1 = t.quad1, c2 = t.quad2, c3 = t.quad3;
    let top = 0;
    for (let i = 0; i < count; i++) top = max(top, load<i32>(<usize>slotsPtr + (<usize>i << 2)));
    reserveItems(t, top);
    let rec = recs + <usize>t.size * REC_BYTES;
    for (let i = 0; i < count; i++) {
      const slot = load<i32>(<usize>slotsPtr + (<usize>i << 2));
      const src = <usize>rectsPtr + (<usize>i << 5);
      const r = itemAt(t, slot);
      const x0 = load<f64>(src), y0 = load<f64>(src, 8), x1 = load<f64>(src, 16), y1 = load<f64>(src, 24);
      storeRect(r, x0, y0, x1, y1);
      store<i32>(r, load<i32>(<usize>idsPtr + (<usize>i << 2)), ID);
      store<i32>(r, 0, NODE);
      writeRecord(rec, r, slot);
      const m = planRecord(rec, mx, my);
      c0 += m & 1;
      c1 += (m >> 1) & 1;
      c2 += (m >> 2) & 1;
      c3 += m >> 3;
      bx0 = select(x0, bx0, x0 < bx0);
      by0 = select(y0, by0, y0 < by0);
      bx1 = select(x1, bx1, x1 > bx1);
      by1 = select(y1, by1, y1 > by1);
      rec += REC_BYTES;
    }
    t.size += count;
    t.quad0 = c0;
    t.quad1 = c1;
    t.quad2 = c2;
    t.quad3 = c3;
    if (t.area.fit(bx0, by0, bx1, by1, t.size, t.capacity)) {
      resetNodes(t);
      planRecords(t, 0, recs, t.size);
    }
    fillRoot(t, recs, t.size);
    return;
  }
  for (let i = 0; i < count; i++) {
    const r = <usize>rectsPtr + (<usize>i << 5);
    qtInsert(tree, load<i32>(<usize>slotsPtr + (<usize>i << 2)), load<i32>(<usize>idsPtr + (<usize>i << 2)), load<f64>(r, 0), load<f64>(r, 8), load<f64>(r, 16), load<f64>(r, 24));
  }
}

/** Removes an item; siblings left with few items merge, and the last removal leaves the tree as new. */
export function qtRemove(tree: i32, slot: i32): void {
  const t = changetype<Tree>(<usize>tree);
  const r = itemAt(t, slot);
  if (t.mode == MODE_SPLIT) {
    const x0 = load<f64>(r, RX0), y0 = load<f64>(r, RY0), x1 = load<f64>(r, RX1), y1 = load<f64>(r, RY1);
    const n = holder(t, load<i32>(r, NODE), x0, y0, x1, y1);
    splitDetach(t, n, slot, x0, y0, x1, y1);
    mergeUp(t, n);
  } else {
    fixedDetach(t, slot);
  }
  store<i32>(r, -1, ID);
  t.size--;
  if (t.size == 0) empty(t);
}

/** Removes every item, keeping the item table's room for the next fill; the area goes back to the bounds (or none). */
export function qtClear(tree: i32): void {
  const t = changetype<Tree>(<usize>tree);
  for (let s = 0; s < t.itemCap; s++) store<i32>(itemAt(t, s), -1, ID);
  t.size = 0;
  t.area.restart();
  resetNodes(t);
}

/** Takes new bounds (or none, unless bounded) and rebuilds over them, grown to hold every item. */
export function qtSetBounds(tree: i32, minX: f64, minY: f64, maxX: f64, maxY: f64, bounded: bool): void {
  const t = changetype<Tree>(<usize>tree);
  t.area.setBounds(bounded, minX, minY, maxX, maxY);
  const recs = allRecords(t, 0);
  boxOf(t, recs, t.size);
  t.area.fit(t.boxX0, t.boxY0, t.boxX1, t.boxY1, t.size, t.capacity);
  rebuildWith(t, recs, t.size);
}

/**
 * Lowering the capacity of a split tree rebuilds it; raising it only
 * affects later splits. A tree with no area yet may now pick one.
 */
export function qtSetCapacity(tree: i32, capacity: i32): void {
  const t = changetype<Tree>(<usize>tree);
  const lower = capacity < t.capacity;
  t.capacity = capacity;
  if (!settle(t) && lower && t.mode == MODE_SPLIT) rebuild(t);
}

/**
 * Writes the ids meeting the closed box, in traversal order; once `limit`
 * are written it visits no further node, so the ids are the first `limit`
 * or more of the full answer. Returns their count.
 */
export function qtQuery(tree: i32, x0: f64, y0: f64, x1: f64, y1: f64, limit: i32): i32 {
  const t = changetype<Tree>(<usize>tree);
  t.outCount = 0;
  t.limit = limit;
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

/** Levels in use: the deepest node's level count (a lone root is 1). */
export function qtLevels(tree: i32): i32 {
  const t = changetype<Tree>(<usize>tree);
  let deepest = 0;
  for (let n = 0; n < t.nodeCount; n++) deepest = max(deepest, load<i32>(nodeAt(t, n), LEVEL));
  return deepest + 1;
}

/**
 * Bytes held by the tree's structure at reserved capacity: the item table
 * (ITEM_BYTES per slot), the node records and their entry arrays (4 bytes per
 * entry); the output, build and gather buffers excluded.
 */
export function qtBytes(tree: i32): i32 {
  const t = changetype<Tree>(<usize>tree);
  let bytes = t.itemCap * <i32>ITEM_BYTES + <i32>NODE_BYTES * t.nodeCap + (t.arena != 0 ? t.arenaCap << 2 : 0);
  for (let n = 0; n < t.nodeCount; n++) bytes += max(0, load<i32>(nodeAt(t, n), CAP)) << 2;
  return bytes;
}

// A node drawn as a cell: in split mode every leaf (their regions tile the
// area), never a node of a free block; in fixed mode the root and every node
// holding items.
@inline function isCell(t: Tree, n: i32): bool {
  const p = nodeAt(t, n);
  return t.mode == MODE_SPLIT ? load<i32>(p, CHILD) < 0 && load<i32>(p, LEVEL) >= 0 : n == 0 || load<i32>(p, COUNT) > 0;
}

/**
 * Writes every cell (minX, minY, maxX, maxY as f64) to the output buffer, in
 * node order; returns their count. A fixed-mode cell is the node's exact
 * region; a split-mode cell the part of the area (the whole plane before
 * there is one) the leaf's extended region covers, so that the leaves tile
 * the area even where a narrowed node's children reach past their regions.
 */
export function qtCells(tree: i32): i32 {
  const t = changetype<Tree>(<usize>tree);
  let cells = 0;
  for (let n = 0; n < t.nodeCount; n++) if (isCell(t, n)) cells++;
  t.outCount = 0;
  reserveOut(t, cells << 3);
  let out = t.out;
  // The area, or the whole plane before there is one.
  const a = t.area;
  const ax0 = a.covered ? a.minX : -Infinity, ay0 = a.covered ? a.minY : -Infinity;
  const ax1 = a.covered ? a.maxX : Infinity, ay1 = a.covered ? a.maxY : Infinity;
  for (let n = 0; n < t.nodeCount; n++) {
    if (!isCell(t, n)) continue;
    const p = nodeAt(t, n);
    if (t.mode == MODE_SPLIT) {
      const ex0 = load<f64>(p, EX0), ey0 = load<f64>(p, EY0), ex1 = load<f64>(p, EX1), ey1 = load<f64>(p, EY1);
      store<f64>(out, select(ex0, ax0, ex0 > ax0));
      store<f64>(out, select(ey0, ay0, ey0 > ay0), 8);
      store<f64>(out, select(ex1, ax1, ex1 < ax1), 16);
      store<f64>(out, select(ey1, ay1, ey1 < ay1), 24);
    } else {
      memory.copy(out, p + X0, 32);
    }
    out += 32;
  }
  return cells;
}

// ---- nearest, disc and segment searches ---------------------------------------------
//
// Split mode stores an item in every leaf its rect touches, so a leaf reports
// an item only when it owns the item's point nearest to the query point
// (clamped into the rect): one leaf per item, and a leaf no farther than the
// item. Fixed mode stores each item once. Empty fixed-mode subtrees are skipped.

// The leaf loops below are branch-free over the items they read: the item
// table is large and read out of order, and a branch on each item's data
// stalls the loads of the next ones; written as selects, they overlap.

// The gap from v to [lo, hi]: the largest of lo - v, v - hi and 0 (infinite
// ends are fine: v is finite). Selects, not f64.max, which also orders NaN
// and signed zeros (neither can change a square).
@inline function gap(v: f64, lo: f64, hi: f64): f64 {
  const a = lo - v, b = v - hi;
  const m = select<f64>(a, b, a > b);
  return select<f64>(m, 0.0, m > 0);
}

// Squared distance from (x, y) to the closed rect; 0 inside.
@inline function squaredDistance(x: f64, y: f64, x0: f64, y0: f64, x1: f64, y1: f64): f64 {
  const dx = gap(x, x0, x1), dy = gap(y, y0, y1);
  return dx * dx + dy * dy;
}

@inline function itemDistance(r: usize, x: f64, y: f64): f64 {
  return squaredDistance(x, y, load<f64>(r, RX0), load<f64>(r, RY0), load<f64>(r, RX1), load<f64>(r, RY1));
}

@inline function nodeDistance(p: usize, x: f64, y: f64): f64 {
  return squaredDistance(x, y, load<f64>(p, EX0), load<f64>(p, EY0), load<f64>(p, EX1), load<f64>(p, EY1));
}

@inline function clamp(v: f64, lo: f64, hi: f64): f64 {
  const low = select<f64>(lo, v, v < lo);
  return select<f64>(hi, low, low > hi);
}

// 1 when leaf p reports the item at r, else 0: always in fixed mode
// (`fixed` is 1); in split mode when p owns the item's point nearest to (x, y).
@inline function reports(p: usize, r: usize, x: f64, y: f64, fixed: i32): i32 {
  const px = clamp(x, load<f64>(r, RX0), load<f64>(r, RX1)), py = clamp(y, load<f64>(r, RY0), load<f64>(r, RY1));
  return fixed | (<i32>(px >= load<f64>(p, EX0)) & <i32>(px < load<f64>(p, EX1)) & <i32>(py >= load<f64>(p, EY0)) & <i32>(py < load<f64>(p, EY1)));
}

// Whether the search descends into child node p: fixed-mode subtrees without items are skipped.
@inline function searchable(t: Tree, p: usize): bool {
  return t.mode == MODE_SPLIT || load<i32>(p, AUX) > 0;
}

/**
 * Writes the ids of the k items nearest to (x, y) to the output buffer,
 * nearest first: by squared distance to the closed rect, then by id; only
 * items at squared distance <= maxSquared. Best-first over the nodes, with
 * the k best items so far kept in a second heap whose keys and tags are
 * negated, so its top is the worst of them: once k are held, nothing
 * farther than that worst one is queued, and the search ends when the
 * nearest unvisited node is farther (an equally distant node may still hold
 * a smaller id). Returns the count.
 */
export function qtNearest(tree: i32, x: f64, y: f64, k: i32, maxSquared: f64): i32 {
  const t = changetype<Tree>(<usize>tree);
  if (t.queue == 0) {
    t.queue = changetype<usize>(new RankHeap());
    t.best = changetype<usize>(new RankHeap());
  }
  const queue = changetype<RankHeap>(t.queue), best = changetype<RankHeap>(t.best);
  queue.size = 0;
  best.size = 0;
  const fixed = <i32>(t.mode != MODE_SPLIT);
  let limit = maxSquared;
  // The node in hand: the root, then whichever node is nearest, taken
  // straight from its parent when no queued node is nearer (a push and a
  // pop saved on every step down towards the point).
  let n = 0;
  while (true) {
    const p = nodeAt(t, n);
    // Pass one, branch-free: each entry's distance and id (-1 when this leaf
    // does not report it), side by side in the scratch buffer.
    const count = load<i32>(p, COUNT);
    const entries = <usize>load<i32>(p, ENTRIES);
    const seen = reserveScratch(t, count);
    for (let i = 0; i < count; i++) {
      const r = itemAt(t, slotAt(entries, i));
      const e = seen + (<usize>i << 4);
      store<f64>(e, itemDistance(r, x, y));
      store<i32>(e, select<i32>(load<i32>(r, ID), -1, reports(p, r, x, y, fixed) != 0), 8);
    }
    // Pass two: the candidates into the k best.
    for (let i = 0; i < count; i++) {
      const e = seen + (<usize>i << 4);
      const d = load<f64>(e), id = load<i32>(e, 8);
      if (d > limit || id < 0) continue;
      if (best.size < k) {
        best.push(-d, -id);
        if (best.size == k) limit = -best.topKey;
      } else if (d < limit || id < -best.topTag) {
        best.pop();
        best.push(-d, -id);
        limit = -best.topKey;
      }
    }
    let next = -1, nextD = Infinity;
    const child = load<i32>(p, CHILD);
    if (child >= 0) {
      for (let c = child; c < child + 4; c++) {
        const q = nodeAt(t, c);
        if (!searchable(t, q)) continue;
        const d = nodeDistance(q, x, y);
        if (d > limit) continue;
        if (d < nextD) {
          if (next >= 0) queue.push(nextD, next);
          next = c;
          nextD = d;
        } else {
          queue.push(d, c);
        }
      }
    }
    if (next >= 0 && (queue.size == 0 || nextD <= queue.topKey)) {
      n = next;
      continue;
    }
    if (next >= 0) queue.push(nextD, next);
    if (queue.size == 0 || queue.topKey > limit) break;
    n = queue.topTag;
    queue.pop();
  }
  // The held items, worst first, fill the output from the back.
  const found = best.size;
  t.outCount = 0;
  reserveOut(t, found);
  t.outCount = found;
  for (let i = found - 1; i >= 0; i--) {
    store<i32>(t.out + (<usize>i << 2), -best.topTag);
    best.pop();
  }
  return found;
}

function withinFrom(t: Tree, n: i32, x: f64, y: f64, r2: f64, fixed: i32): void {
  const p = nodeAt(t, n);
  const count = load<i32>(p, COUNT);
  const entries = <usize>load<i32>(p, ENTRIES);
  reserveOut(t, count);
  let out = t.out + (<usize>t.outCount << 2);
  for (let i = 0; i < count; i++) {
    const r = itemAt(t, slotAt(entries, i));
    store<i32>(out, load<i32>(r, ID));
    out += <usize>((<i32>(itemDistance(r, x, y) <= r2) & reports(p, r, x, y, fixed)) << 2);
  }
  t.outCount = <i32>((out - t.out) >> 2);
  const child = load<i32>(p, CHILD);
  if (child < 0) return;
  for (let c = child; c < child + 4; c++) {
    const q = nodeAt(t, c);
    if (searchable(t, q) && nodeDistance(q, x, y) <= r2) withinFrom(t, c, x, y, r2, fixed);
  }
}

/** Writes the ids of the items at squared distance <= r2 from (x, y), each once, in traversal order; returns the count. */
export function qtWithin(tree: i32, x: f64, y: f64, r2: f64): i32 {
  const t = changetype<Tree>(<usize>tree);
  t.outCount = 0;
  withinFrom(t, 0, x, y, r2, <i32>(t.mode != MODE_SPLIT));
  return t.outCount;
}

// Where the segment from (sx, sy) along (dx, dy), t in [0, 1], enters the
// closed rect: the least t at which it is inside, or -1 when it misses. The
// slab method; each bound's parameter is monotone in the bound, so a region
// containing a rect is never entered later than the rect is.
function segmentEntry(sx: f64, sy: f64, dx: f64, dy: f64, x0: f64, y0: f64, x1: f64, y1: f64): f64 {
  let enter = 0.0, exit = 1.0;
  if (dx == 0) {
    if (sx < x0 || sx > x1) return -1;
  } else {
    const a = (x0 - sx) / dx, b = (x1 - sx) / dx;
    enter = max(enter, min(a, b));
    exit = min(exit, max(a, b));
  }
  if (dy == 0) {
    if (sy < y0 || sy > y1) return -1;
  } else {
    const a = (y0 - sy) / dy, b = (y1 - sy) / dy;
    enter = max(enter, min(a, b));
    exit = min(exit, max(a, b));
  }
  return enter <= exit ? enter : -1;
}

// Hit records in the output buffer: the entry parameter (f64), then the id (i32), 16 bytes apart.
const HIT_INTS: i32 = 4;
const HIT_ID: usize = 8;

function segmentFrom(t: Tree, n: i32, sx: f64, sy: f64, dx: f64, dy: f64, first: bool): void {
  const p = nodeAt(t, n);
  const count = load<i32>(p, COUNT);
  const entries = <usize>load<i32>(p, ENTRIES);
  for (let i = 0; i < count; i++) {
    const r = itemAt(t, slotAt(entries, i));
    const enter = segmentEntry(sx, sy, dx, dy, load<f64>(r, RX0), load<f64>(r, RY0), load<f64>(r, RX1), load<f64>(r, RY1));
    if (enter < 0) continue;
    const id = load<i32>(r, ID);
    if (!first) {
      reserveOut(t, HIT_INTS);
      const o = t.out + (<usize>t.outCount << 2);
      store<f64>(o, enter);
      store<i32>(o, id, HIT_ID);
      t.outCount += HIT_INTS;
    } else if (enter < t.bestT || (enter == t.bestT && id < t.bestId)) {
      t.bestT = enter;
      t.bestId = id;
    }
  }
  const child = load<i32>(p, CHILD);
  if (child < 0) return;
  for (let c = child; c < child + 4; c++) {
    const q = nodeAt(t, c);
    if (!searchable(t, q)) continue;
    const enter = segmentEntry(sx, sy, dx, dy, load<f64>(q, EX0), load<f64>(q, EY0), load<f64>(q, EX1), load<f64>(q, EY1));
    if (enter >= 0 && enter <= t.bestT) segmentFrom(t, c, sx, sy, dx, dy, first);
  }
}

/**
 * Writes hit records (entry parameter t, id) of the items the closed segment
 * meets, in traversal order, an item possibly once per leaf holding it; with
 * `first`, only the hit of smallest (t, id). Returns the number of records.
 */
export function qtSegment(tree: i32, x0: f64, y0: f64, x1: f64, y1: f64, first: bool): i32 {
  const t = changetype<Tree>(<usize>tree);
  t.outCount = 0;
  t.bestT = Infinity;
  t.bestId = -1;
  segmentFrom(t, 0, x0, y0, x1 - x0, y1 - y0, first);
  if (!first) return t.outCount / HIT_INTS;
  if (t.bestId < 0) return 0;
  reserveOut(t, HIT_INTS);
  store<f64>(t.out, t.bestT);
  store<i32>(t.out, t.bestId, HIT_ID);
  return 1;
}

/** Start of the item table: ITEM_BYTES per slot, the rect (4 f64) first. */
export function qtItems(tree: i32): i32 {
  return <i32>changetype<Tree>(<usize>tree).items;
}

/** Writes the bounds (minX, minY, maxX, maxY), the level option (maxLevels) and 1 when bounded, else 0, as f64 to the output buffer. */
export function qtSettings(tree: i32): void {
  const t = changetype<Tree>(<usize>tree);
  const a = t.area;
  t.outCount = 0;
  reserveOut(t, 12);
  store<f64>(t.out, a.boundsX0);
  store<f64>(t.out, a.boundsY0, 8);
  store<f64>(t.out, a.boundsX1, 16);
  store<f64>(t.out, a.boundsY1, 24);
  store<f64>(t.out, <f64>t.maxLevels, 32);
  store<f64>(t.out, a.bounded ? 1 : 0, 40);
}
