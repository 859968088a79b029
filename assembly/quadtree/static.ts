// Static QuadTree core: rects packed once, in bulk, into a read-only tree
// that lives in one block of bytes. The block is also the snapshot: saving
// copies it out, restoring copies it in (src/quadtree/static-format.ts checks
// it first), and nothing is rebuilt.
//
// Rects (the RECTS layout, flags 0): items are sorted along the Hilbert curve of their centres (the order in
// which a quadtree's cells are walked, with no jump between neighbours), cut
// into leaves of NODE_SIZE, and each level is grouped NODE_SIZE at a time
// into the level above, up to one root. No slack is kept for updates, so
// boxes are tight and the arrays are dense. When every item is a point, the
// block holds the POINTS layout instead (flags 1): a k-d tree, drawn and
// searched in ./static-points.ts.
//
// Block (little-endian; byte offsets; the layout src/quadtree/static-format.ts reads):
//   +-------------------------------------------------------------------+
//   |  0 u32 magic 'SKQS' |  4 u16 version | 6 u16 flags (layout)        |
//   |  8 u32 byte length  | 12 u32 checksum of every other u32 word      |
//   | 16 u32 n items      | 20 u32 m nodes | 24 u32 node size | 28 u32 0 |
//   +-------------------------------------------------------------------+
//   | 32: boxes, n + m records of 4 f64 (minX, minY, maxX, maxY): the     |
//   |     items in tree order, then the nodes level by level, root last  |
//   | ids: n i32, the item ids in tree order                              |
//   | firsts, ends: m i32 each: node j (box n + j) has children [first, end) |
//   | zero padding to a multiple of 8 bytes                               |
//   +-------------------------------------------------------------------+
import { RankHeap } from './rank-heap';
import { claimResults, markQuery, pushResult, pushResults, reserveResults, resultCount, startResults } from './results';
import { allPoints, buildPoints, KD_LEAF, pointBlockBytes, pointsNearest, pointsQuery, pointsVerify, pointsWithin, POINTS_AT } from './static-points';

const MAGIC: u32 = 0x53514b53; // 'SKQS'
const VERSION: u32 = 2;
const FLAGS_AT: usize = 6;
/** The flags of a block whose items are all points (./static-points.ts); rects have none. */
const POINTS: u16 = 1;
const HEADER_BYTES: usize = 32;
const LENGTH_AT: usize = 8;
const CHECKSUM_AT: usize = 12;
const COUNT_AT: usize = 16;
const NODES_AT: usize = 20;
const NODE_SIZE_AT: usize = 24;
const BOX_BYTES: usize = 32;
const BX0: usize = 0;
const BY0: usize = 8;
const BX1: usize = 16;
const BY1: usize = 24;

/** Children per node (flatbush's default too): 8 ran k = 1 nearest on points a little faster and k = 16 and box queries a little slower (bench `queries`). */
const NODE_SIZE: i32 = 16;
/** Hilbert cells per axis: 2^16, so a key fits 32 bits. */
const HILBERT_SIDE: u32 = 1 << 16;

// ---- the block's parts ---------------------------------------------------------

@inline function holdsPoints(block: usize): bool {
  return load<u16>(block, FLAGS_AT) == POINTS;
}

/** The views of one block every query reads, taken once per call. */
class Parts {
  n: i32 = 0;
  m: i32 = 0;
  boxes: usize = 0;
  ids: usize = 0;
  firsts: usize = 0;
  ends: usize = 0;
}

const parts = new Parts();

function readParts(block: usize): Parts {
  const n = load<i32>(block, COUNT_AT), m = load<i32>(block, NODES_AT);
  parts.n = n;
  parts.m = m;
  parts.boxes = block + HEADER_BYTES;
  parts.ids = parts.boxes + <usize>(n + m) * BOX_BYTES;
  parts.firsts = parts.ids + (<usize>n << 2);
  parts.ends = parts.firsts + (<usize>m << 2);
  return parts;
}

@inline function boxAt(p: Parts, i: i32): usize {
  return p.boxes + <usize>i * BOX_BYTES;
}

@inline function idAt(p: Parts, i: i32): i32 {
  return load<i32>(p.ids + (<usize>i << 2));
}

@inline function firstChild(p: Parts, node: i32): i32 {
  return load<i32>(p.firsts + (<usize>(node - p.n) << 2));
}

@inline function endChild(p: Parts, node: i32): i32 {
  return load<i32>(p.ends + (<usize>(node - p.n) << 2));
}

/** Nodes above n items: ceil(n / NODE_SIZE) leaves, then each level grouped again, up to one root. */
function nodeCount(n: i32): i32 {
  if (n == 0) return 0;
  let m = 0, level = n;
  do {
    level = (level + NODE_SIZE - 1) / NODE_SIZE;
    m += level;
  } while (level > 1);
  return m;
}

function blockBytes(n: i32, m: i32): usize {
  const bytes = HEADER_BYTES + <usize>(n + m) * BOX_BYTES + (<usize>n << 2) + (<usize>m << 3);
  return (bytes + 7) & ~7;
}

/**
 * FNV-1a over the block's words in sixteen interleaved lanes, then over the
 * header and the lanes (see blockChecksum in src/quadtree/static-format.ts):
 * four vectors of four lanes, whose multiplications overlap.
 */
function checksum(block: usize, bytes: usize): u32 {
  const prime = i32x4.splat(0x01000193);
  let a = i32x4.splat(0x811c9dc5), b = a, c = a, d = a;
  let at: usize = 16;
  for (; at + 64 <= bytes; at += 64) {
    a = i32x4.mul(v128.xor(a, v128.load(block + at)), prime);
    b = i32x4.mul(v128.xor(b, v128.load(block + at, 16)), prime);
    c = i32x4.mul(v128.xor(c, v128.load(block + at, 32)), prime);
    d = i32x4.mul(v128.xor(d, v128.load(block + at, 48)), prime);
  }
  for (; at + 16 <= bytes; at += 16) a = i32x4.mul(v128.xor(a, v128.load(block + at)), prime);
  for (; at < bytes; at += 4) a = i32x4.replace_lane(a, 0, (i32x4.extract_lane(a, 0) ^ load<i32>(block + at)) * 0x01000193);
  let hash: u32 = 0x811c9dc5;
  hash = (hash ^ load<u32>(block)) * 0x01000193;
  hash = (hash ^ load<u32>(block, 4)) * 0x01000193;
  hash = (hash ^ load<u32>(block, 8)) * 0x01000193;
  hash = mixLanes(hash, a);
  hash = mixLanes(hash, b);
  hash = mixLanes(hash, c);
  return mixLanes(hash, d);
}

@inline function mixLanes(hash: u32, v: v128): u32 {
  hash = (hash ^ <u32>i32x4.extract_lane(v, 0)) * 0x01000193;
  hash = (hash ^ <u32>i32x4.extract_lane(v, 1)) * 0x01000193;
  hash = (hash ^ <u32>i32x4.extract_lane(v, 2)) * 0x01000193;
  return (hash ^ <u32>i32x4.extract_lane(v, 3)) * 0x01000193;
}

// ---- build -----------------------------------------------------------------------

/** The Hilbert curve index of cell (x, y) on a HILBERT_SIDE grid. */
function hilbert(x: u32, y: u32): u32 {
  let d: u32 = 0;
  for (let s: u32 = HILBERT_SIDE >> 1; s > 0; s >>= 1) {
    const rx: u32 = (x & s) != 0 ? 1 : 0;
    const ry: u32 = (y & s) != 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    // Turn the quadrant so the curve inside it runs the same way as the whole.
    if (ry == 0) {
      if (rx == 1) {
        x = HILBERT_SIDE - 1 - x;
        y = HILBERT_SIDE - 1 - y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

/**
 * The cell of coordinate c on [lo, hi]. Differences are taken of halves,
 * which cannot overflow (the full difference of two centres near ±MAX_VALUE
 * would be Infinity, and the ratio NaN), and equal the halved difference for
 * every ordinary coordinate, so the order is that of (c - lo) / (hi - lo).
 */
@inline function cell(c: f64, lo: f64, hi: f64): u32 {
  const span = hi * 0.5 - lo * 0.5;
  return span > 0 ? <u32>floor((c * 0.5 - lo * 0.5) / span * <f64>(HILBERT_SIDE - 1)) : 0;
}

/** The centre of [a, b], from halves so that it cannot overflow. */
@inline function centre(a: f64, b: f64): f64 {
  return a * 0.5 + b * 0.5;
}

/**
 * The order of the n items along the Hilbert curve of their centres, ties
 * in input order: four stable counting passes over the keys' bytes.
 */
function hilbertOrder(rects: usize, n: i32): usize {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const r = rects + <usize>i * BOX_BYTES;
    const cx = centre(load<f64>(r, BX0), load<f64>(r, BX1)), cy = centre(load<f64>(r, BY0), load<f64>(r, BY1));
    minX = min(minX, cx);
    minY = min(minY, cy);
    maxX = max(maxX, cx);
    maxY = max(maxY, cy);
  }
  const bytes = <usize>n << 2;
  let keys = heap.alloc(bytes), order = heap.alloc(bytes);
  let keysTo = heap.alloc(bytes), orderTo = heap.alloc(bytes);
  for (let i = 0; i < n; i++) {
    const r = rects + <usize>i * BOX_BYTES;
    const cx = centre(load<f64>(r, BX0), load<f64>(r, BX1)), cy = centre(load<f64>(r, BY0), load<f64>(r, BY1));
    store<u32>(keys + (<usize>i << 2), hilbert(cell(cx, minX, maxX), cell(cy, minY, maxY)));
    store<i32>(order + (<usize>i << 2), i);
  }
  const counts = heap.alloc(256 << 2);
  for (let shift: u32 = 0; shift < 32; shift += 8) {
    memory.fill(counts, 0, 256 << 2);
    for (let i = 0; i < n; i++) {
      const c = counts + (<usize>((load<u32>(keys + (<usize>i << 2)) >> shift) & 255) << 2);
      store<i32>(c, load<i32>(c) + 1);
    }
    let sum = 0;
    for (let b = 0; b < 256; b++) {
      const c = load<i32>(counts + (<usize>b << 2));
      store<i32>(counts + (<usize>b << 2), sum);
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const key = load<u32>(keys + (<usize>i << 2));
      const c = counts + (<usize>((key >> shift) & 255) << 2);
      const to = load<i32>(c);
      store<i32>(c, to + 1);
      store<u32>(keysTo + (<usize>to << 2), key);
      store<i32>(orderTo + (<usize>to << 2), load<i32>(order + (<usize>i << 2)));
    }
    let swap = keys;
    keys = keysTo;
    keysTo = swap;
    swap = order;
    order = orderTo;
    orderTo = swap;
  }
  heap.free(counts);
  heap.free(keys);
  heap.free(keysTo);
  heap.free(orderTo);
  return order;
}

/**
 * Builds the block of the n items ids[i] with rect rects[4i..4i+3] (valid,
 * ids unique: the caller checks); returns its address (free it with sqtFree).
 */
export function sqtBuild(idsPtr: usize, rectsPtr: usize, n: i32): usize {
  const points = n > 0 && allPoints(rectsPtr, n);
  const m = points ? 0 : nodeCount(n);
  const bytes = points ? pointBlockBytes(n) : blockBytes(n, m);
  const block = heap.alloc(bytes);
  memory.fill(block, 0, bytes);
  store<u32>(block, MAGIC);
  store<u16>(block, <u16>VERSION, 4);
  store<u16>(block, points ? POINTS : 0, FLAGS_AT);
  store<u32>(block, <u32>bytes, LENGTH_AT);
  store<i32>(block, n, COUNT_AT);
  store<i32>(block, m, NODES_AT);
  store<i32>(block, points ? KD_LEAF : NODE_SIZE, NODE_SIZE_AT);
  if (points) buildPoints(block, idsPtr, rectsPtr, n);
  else if (n > 0) {
    const p = readParts(block);
    const order = hilbertOrder(rectsPtr, n);
    for (let i = 0; i < n; i++) {
      const from = load<i32>(order + (<usize>i << 2));
      memory.copy(boxAt(p, i), rectsPtr + <usize>from * BOX_BYTES, BOX_BYTES);
      store<i32>(p.ids + (<usize>i << 2), load<i32>(idsPtr + (<usize>from << 2)));
    }
    heap.free(order);
    buildLevels(p);
  }
  store<u32>(block, checksum(block, bytes), CHECKSUM_AT);
  return block;
}

/** Groups each level NODE_SIZE boxes at a time into the level above, each node's box the union of its children's. */
function buildLevels(p: Parts): void {
  let from = 0, count = p.n, node = p.n;
  do {
    const above = node;
    for (let first = from; first < from + count; first += NODE_SIZE) {
      const end = min(first + NODE_SIZE, from + count);
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let c = first; c < end; c++) {
        const b = boxAt(p, c);
        x0 = min(x0, load<f64>(b, BX0));
        y0 = min(y0, load<f64>(b, BY0));
        x1 = max(x1, load<f64>(b, BX1));
        y1 = max(y1, load<f64>(b, BY1));
      }
      const b = boxAt(p, node);
      store<f64>(b, x0, BX0);
      store<f64>(b, y0, BY0);
      store<f64>(b, x1, BX1);
      store<f64>(b, y1, BY1);
      store<i32>(p.firsts + (<usize>(node - p.n) << 2), first);
      store<i32>(p.ends + (<usize>(node - p.n) << 2), end);
      node++;
    }
    from = above;
    count = node - above;
  } while (count > 1);
}

/**
 * Checks the body of a block of `bytes` bytes whose header the TypeScript
 * side has checked (./static-format.ts), where it already lies: 0 if it is
 * intact, 1 if its checksum does not match, 2 if it holds a negative id, 3
 * if a node has other children than a build gives it, 4 if a coordinate is
 * not finite or an item's box has min > max, 5 if a node's box is not the
 * union of its children's or a point lies outside its k-d cell, 6 if an id
 * appears twice: every value a search reads is one a build could have
 * written.
 */
export function sqtVerify(block: usize, bytes: usize): i32 {
  if (load<u32>(block, CHECKSUM_AT) != checksum(block, bytes)) return 1;
  const n = load<i32>(block, COUNT_AT);
  const points = holdsPoints(block);
  const ids = points ? block + POINTS_AT + (<usize>n << 4) : readParts(block).ids;
  let signs = i32x4.splat(0), most = i32x4.splat(0);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const four = v128.load(ids + (<usize>i << 2));
    signs = v128.or(signs, four);
    most = i32x4.max_s(most, four);
  }
  for (; i < n; i++) {
    const one = i32x4.splat(load<i32>(ids + (<usize>i << 2)));
    signs = v128.or(signs, one);
    most = i32x4.max_s(most, one);
  }
  if (i32x4.bitmask(signs) != 0) return 2;
  const largest = max(max(i32x4.extract_lane(most, 0), i32x4.extract_lane(most, 1)), max(i32x4.extract_lane(most, 2), i32x4.extract_lane(most, 3)));
  if (!idsUnique(ids, n, largest)) return 6;
  if (points) return pointsVerify(block);
  const p = readParts(block);
  return nodesAsBuilt(p) ? boxesFault(p) : 3;
}

/**
 * Whether no id of the n at ids (each >= 0, the largest `largest`) appears
 * twice, in one pass: a bitmap of the ids when the largest is below 32n
 * (four bytes an id at most; a build's ids are usually dense), else an
 * open-addressing set of at least twice their count.
 */
function idsUnique(ids: usize, n: i32, largest: i32): bool {
  if (<i64>largest < <i64>n * 32) return idsUniqueBitmap(ids, n, largest);
  let bits: u32 = 1;
  while ((<i64>1 << bits) < <i64>n * 2) bits++;
  const mask: u32 = (<u32>1 << bits) - 1;
  const table = heap.alloc((<usize>mask + 1) << 2);
  memory.fill(table, 0xff, (<usize>mask + 1) << 2); // every slot -1: empty
  let unique = true;
  for (let i = 0; i < n && unique; i++) {
    const id = load<i32>(ids + (<usize>i << 2));
    let at = <u32>(id * 0x9e3779b1) >> (32 - bits);
    for (;;) {
      const held = load<i32>(table + (<usize>at << 2));
      if (held == -1) {
        store<i32>(table + (<usize>at << 2), id);
        break;
      }
      if (held == id) {
        unique = false;
        break;
      }
      at = (at + 1) & mask;
    }
  }
  heap.free(table);
  return unique;
}

/** idsUnique over a bitmap of [0, largest]. */
function idsUniqueBitmap(ids: usize, n: i32, largest: i32): bool {
  const bytes = ((<usize>largest >> 5) + 1) << 2;
  const seen = heap.alloc(bytes);
  memory.fill(seen, 0, bytes);
  let unique = true;
  for (let i = 0; i < n; i++) {
    const id = load<u32>(ids + (<usize>i << 2));
    const word = seen + (<usize>(id >> 5) << 2), bit: u32 = 1 << (id & 31);
    const was = load<u32>(word);
    if ((was & bit) != 0) {
      unique = false;
      break;
    }
    store<u32>(word, was | bit);
  }
  heap.free(seen);
  return unique;
}

/**
 * 4 if an item's box is not finite or has min > max, else 5 if a node's box
 * is not the union of its children's (as buildLevels makes it), else 0. One
 * pass over the nodes (their children checked by nodesAsBuilt), both axes
 * at once: a box is two vectors, (minX, minY) and (maxX, maxY); each item is
 * checked as the child of its leaf; x - x is 0 only for a finite x.
 */
function boxesFault(p: Parts): i32 {
  const zero = f64x2.splat(0);
  let valid = i64x2.splat(-1), tight = i64x2.splat(-1);
  for (let node = p.n; node < p.n + p.m; node++) {
    let lo = f64x2.splat(Infinity), hi = f64x2.splat(-Infinity);
    const first = firstChild(p, node), end = endChild(p, node);
    if (first < p.n) {
      for (let c = first; c < end; c++) {
        const b = boxAt(p, c);
        const bl = v128.load(b, BX0), bh = v128.load(b, BX1);
        valid = v128.and(valid, v128.and(f64x2.le(bl, bh), v128.and(f64x2.eq(f64x2.sub(bl, bl), zero), f64x2.eq(f64x2.sub(bh, bh), zero))));
        lo = f64x2.min(lo, bl);
        hi = f64x2.max(hi, bh);
      }
    } else {
      for (let c = first; c < end; c++) {
        const b = boxAt(p, c);
        lo = f64x2.min(lo, v128.load(b, BX0));
        hi = f64x2.max(hi, v128.load(b, BX1));
      }
    }
    const b = boxAt(p, node);
    tight = v128.and(tight, v128.and(f64x2.eq(lo, v128.load(b, BX0)), f64x2.eq(hi, v128.load(b, BX1))));
  }
  if (!i64x2.all_true(valid)) return 4;
  return i64x2.all_true(tight) ? 0 : 5;
}

/** Whether every node has the children buildLevels gives it. */
function nodesAsBuilt(p: Parts): bool {
  if (p.n == 0) return true;
  let from = 0, count = p.n, node = p.n;
  do {
    const above = node;
    for (let first = from; first < from + count; first += NODE_SIZE) {
      if (firstChild(p, node) != first || endChild(p, node) != min(first + NODE_SIZE, from + count)) return false;
      node++;
    }
    from = above;
    count = node - above;
  } while (count > 1);
  return true;
}

/** Frees a block from sqtBuild or one the TypeScript side copied in. */
export function sqtFree(block: usize): void {
  heap.free(block);
}

// ---- traversal scratch ---------------------------------------------------------

// A stack of box positions (range and disc searches).
let stack: usize = 0;
let stackCap: i32 = 0;

function growStack(needed: i32): void {
  if (needed <= stackCap) return;
  stackCap = max(needed, max(256, stackCap << 1));
  stack = stack == 0 ? heap.alloc(<usize>stackCap << 2) : heap.realloc(stack, <usize>stackCap << 2);
}

/** The nearest search's queue of nodes by squared distance, and its k best items keyed (-distance, -id): the worst on top. */
const queue = new RankHeap();
const best = new RankHeap();

// The siblings met on the way down to the nearest leaf: (squared distance, node) records of 16 bytes.
let aside: usize = 0;
let asideCap: i32 = 0;
let asideSize: i32 = 0;

function setAside(d: f64, node: i32): void {
  if (asideSize == asideCap) {
    asideCap = max(64, asideCap << 1);
    aside = aside == 0 ? heap.alloc(<usize>asideCap << 4) : heap.realloc(aside, <usize>asideCap << 4);
  }
  store<f64>(aside + (<usize>asideSize << 4), d);
  store<i32>(aside + (<usize>asideSize << 4), node, 8);
  asideSize++;
}

// ---- searches ----------------------------------------------------------------------

/** Squared distance from (x, y) to the closed box at b (0 inside or on it). */
@inline function boxDistance(b: usize, x: f64, y: f64): f64 {
  // Both axes at once: the gaps (min corner - point, point - max corner), the larger of each and 0, squared.
  const point = f64x2(x, y);
  const gap = f64x2.max(f64x2.max(f64x2.sub(v128.load(b, BX0), point), f64x2.sub(point, v128.load(b, BX1))), f64x2.splat(0));
  const squares = f64x2.mul(gap, gap);
  return f64x2.extract_lane(squares, 0) + f64x2.extract_lane(squares, 1);
}

/** Squared distance from (x, y) to the farthest point of the box at b. */
@inline function boxReach(b: usize, x: f64, y: f64): f64 {
  const dx = max(x - load<f64>(b, BX0), load<f64>(b, BX1) - x);
  const dy = max(y - load<f64>(b, BY0), load<f64>(b, BY1) - y);
  return dx * dx + dy * dy;
}

/** Appends the ids of every item below node: a run of the item array, since each node covers consecutive boxes of the level below. */
function pushSubtree(p: Parts, node: i32): void {
  let lo = node, hi = node;
  while (lo >= p.n) lo = firstChild(p, lo);
  while (hi >= p.n) hi = endChild(p, hi) - 1;
  pushResults(p.ids + (<usize>lo << 2), hi + 1 - lo);
}

/** Appends the ids of the items meeting the closed box, in traversal order; a node inside the box gives all its items at once. */
function queryInto(p: Parts, x0: f64, y0: f64, x1: f64, y1: f64): void {
  if (p.n == 0) return;
  growStack((NODE_SIZE - 1) * 32 + 1);
  store<i32>(stack, p.n + p.m - 1);
  let size = 1;
  while (size > 0) {
    size--;
    const node = load<i32>(stack + (<usize>size << 2));
    const end = endChild(p, node);
    for (let c = firstChild(p, node); c < end; c++) {
      const b = boxAt(p, c);
      const bx0 = load<f64>(b, BX0), by0 = load<f64>(b, BY0), bx1 = load<f64>(b, BX1), by1 = load<f64>(b, BY1);
      if (bx0 > x1 || bx1 < x0 || by0 > y1 || by1 < y0) continue;
      if (c < p.n) pushResult(idAt(p, c));
      else if (bx0 >= x0 && bx1 <= x1 && by0 >= y0 && by1 <= y1) pushSubtree(p, c);
      else {
        store<i32>(stack + (<usize>size << 2), c);
        size++;
      }
    }
  }
}

/** Appends the ids of the items at squared distance <= r2 from (x, y), in traversal order; a node inside the disc gives all its items at once. */
function withinInto(p: Parts, x: f64, y: f64, r2: f64): void {
  if (p.n == 0) return;
  growStack((NODE_SIZE - 1) * 32 + 1);
  store<i32>(stack, p.n + p.m - 1);
  let size = 1;
  while (size > 0) {
    size--;
    const node = load<i32>(stack + (<usize>size << 2));
    const end = endChild(p, node);
    for (let c = firstChild(p, node); c < end; c++) {
      const b = boxAt(p, c);
      if (boxDistance(b, x, y) > r2) continue;
      if (c < p.n) pushResult(idAt(p, c));
      else if (boxReach(b, x, y) <= r2) pushSubtree(p, c);
      else {
        store<i32>(stack + (<usize>size << 2), c);
        size++;
      }
    }
  }
}

/**
 * Appends the ids of the k items nearest to (x, y) within squared distance
 * maxSquared, by distance then id. First straight down to the leaf nearest
 * the point, whose items give the k best a bound, the siblings met on the
 * way set aside; then best-first over the queue of nodes within the bound
 * of the worst of the k best (an equally distant one may still hold a
 * smaller id), until the nearest queued node is beyond it.
 */
function nearestInto(p: Parts, x: f64, y: f64, k: i32, maxSquared: f64): void {
  if (p.n == 0 || k <= 0) return;
  queue.size = 0;
  best.size = 0;
  asideSize = 0;
  let node = p.n + p.m - 1;
  while (firstChild(p, node) >= p.n) {
    const end = endChild(p, node);
    let nearest = -1, least = Infinity, at = 0;
    for (let c = firstChild(p, node); c < end; c++) {
      const d = boxDistance(boxAt(p, c), x, y);
      // The first child is taken when none is nearer: squared distances that overflow are all Infinity.
      if (d < least || nearest < 0) {
        least = d;
        nearest = c;
        at = asideSize;
      }
      setAside(d, c);
    }
    store<i32>(aside + (<usize>at << 4), -1, 8); // the nearest is followed, not set aside
    node = nearest;
  }
  let bound = takeItems(p, node, x, y, k, maxSquared);
  for (let i = 0; i < asideSize; i++) {
    const d = load<f64>(aside + (<usize>i << 4)), c = load<i32>(aside + (<usize>i << 4), 8);
    if (c >= 0 && d <= bound) queue.push(d, c);
  }
  while (queue.size > 0 && queue.topKey <= bound) {
    node = queue.topTag;
    queue.pop();
    const first = firstChild(p, node), end = endChild(p, node);
    if (first < p.n) {
      bound = takeItems(p, node, x, y, k, bound);
      continue;
    }
    for (let c = first; c < end; c++) {
      const d = boxDistance(boxAt(p, c), x, y);
      if (d <= bound) queue.push(d, c);
    }
  }
  // The k best come off their heap worst first.
  const count = best.size;
  const out = claimResults(count);
  for (let i = count - 1; i >= 0; i--) {
    store<i32>(out + (<usize>i << 2), -best.topTag);
    best.pop();
  }
}

/** Offers the items of leaf to the k best; returns the new bound: the worst one's distance once k are held, else `bound`. */
function takeItems(p: Parts, leaf: i32, x: f64, y: f64, k: i32, bound: f64): f64 {
  const end = endChild(p, leaf);
  for (let c = firstChild(p, leaf); c < end; c++) {
    const d = boxDistance(boxAt(p, c), x, y);
    if (d > bound) continue;
    bound = best.offer(d, idAt(p, c), k, bound);
  }
  return bound;
}

// ---- exports: one query, or many in one call -------------------------------------

/** Appends the ids meeting the closed box, whichever the layout. */
function boxInto(block: usize, x0: f64, y0: f64, x1: f64, y1: f64): void {
  if (holdsPoints(block)) pointsQuery(block, x0, y0, x1, y1);
  else queryInto(readParts(block), x0, y0, x1, y1);
}

/** Appends the ids within squared distance r2, whichever the layout. */
function discInto(block: usize, x: f64, y: f64, r2: f64): void {
  if (holdsPoints(block)) pointsWithin(block, x, y, r2);
  else withinInto(readParts(block), x, y, r2);
}

/** Appends the ids of the k nearest, whichever the layout. */
function knnInto(block: usize, x: f64, y: f64, k: i32, maxSquared: f64): void {
  if (holdsPoints(block)) pointsNearest(block, x, y, k, maxSquared);
  else nearestInto(readParts(block), x, y, k, maxSquared);
}

/** Ids of the items meeting the closed box, into the results buffer; returns the count. */
export function sqtQuery(block: usize, x0: f64, y0: f64, x1: f64, y1: f64): i32 {
  startResults(0);
  boxInto(block, x0, y0, x1, y1);
  return resultCount();
}

/** Ids of the items at squared distance <= r2 from (x, y); returns the count. */
export function sqtWithin(block: usize, x: f64, y: f64, r2: f64): i32 {
  startResults(0);
  discInto(block, x, y, r2);
  return resultCount();
}

/** Ids of the k nearest items within squared distance maxSquared, nearest first; returns the count. */
export function sqtNearest(block: usize, x: f64, y: f64, k: i32, maxSquared: f64): i32 {
  startResults(0);
  knnInto(block, x, y, k, maxSquared);
  return resultCount();
}

/** Query q's box is boxes[4q..4q+3]; writes count + 1 offsets and the ids; returns the total. */
export function sqtQueryMany(block: usize, boxes: usize, count: i32): i32 {
  startResults(count);
  for (let q = 0; q < count; q++) {
    markQuery(q);
    const b = boxes + <usize>q * BOX_BYTES;
    boxInto(block, load<f64>(b, BX0), load<f64>(b, BY0), load<f64>(b, BX1), load<f64>(b, BY1));
  }
  markQuery(count);
  return resultCount();
}

/** Query q is the disc of squared radius r2s[q] around (xs[q], ys[q]); offsets and ids as sqtQueryMany. */
export function sqtWithinMany(block: usize, xs: usize, ys: usize, r2s: usize, count: i32): i32 {
  startResults(count);
  for (let q = 0; q < count; q++) {
    markQuery(q);
    const at = <usize>q << 3;
    discInto(block, load<f64>(xs + at), load<f64>(ys + at), load<f64>(r2s + at));
  }
  markQuery(count);
  return resultCount();
}

/** The k nearest of each point (xs[q], ys[q]); offsets and ids as sqtQueryMany. */
export function sqtNearestMany(block: usize, xs: usize, ys: usize, count: i32, k: i32, maxSquared: f64): i32 {
  startResults(count);
  reserveResults(min(k, load<i32>(block, COUNT_AT)) * count);
  for (let q = 0; q < count; q++) {
    markQuery(q);
    const at = <usize>q << 3;
    knnInto(block, load<f64>(xs + at), load<f64>(ys + at), k, maxSquared);
  }
  markQuery(count);
  return resultCount();
}
