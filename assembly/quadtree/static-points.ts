// The point layout of a static tree: when every item is a point, an implicit
// k-d tree instead of the Hilbert-packed boxes of ./static.ts. Points are
// sorted in place into kdbush's layout: the median of [left, right] sits at
// (left + right) >> 1, the points before it have a coordinate on the split
// axis <= its own and those after >= it, and each side is split again on the
// other axis until a range holds at most KD_LEAF + 1 points. No node is
// stored: a range and its axis are the node. A search reads two f64 per
// point and one comparison per level, where a box tree reads four per child.
//
// Block (after the 32-byte header of ./static.ts, with flags POINTS, m = 0
// nodes and node size KD_LEAF):
//   | 32: coords, n pairs of f64 (x, y) in tree order                     |
//   | ids: n i32, the item ids in tree order                              |
//   | zero padding to a multiple of 8 bytes                               |
import { RankHeap } from './rank-heap';
import { claimResults, pushResult, pushResultIf, pushResults, reserveResults } from './results';

/** Most points a range holds without being split: 8 ran k = 16 nearest faster than 4 and 16, and k = 1 faster than 4 and as fast as 16 (bench `queries`). */
export const KD_LEAF: i32 = 8;
export const POINTS_AT: usize = 32;
/** The seed of the pivots' generator (any nonzero u32; both backends use this one). */
const PIVOT_SEED: u32 = 0x9e3779b9;

/** Bytes of the block of n points. */
export function pointBlockBytes(n: i32): usize {
  return (POINTS_AT + (<usize>n << 4) + (<usize>n << 2) + 7) & ~7;
}

// The block searched, and the query, while a search runs.
let coords: usize = 0;
let ids: usize = 0;
let qx: f64 = 0;
let qy: f64 = 0;

@inline function coordAt(i: i32, axis: i32): f64 {
  return load<f64>(coords + (<usize>i << 4) + (<usize>axis << 3));
}

@inline function idAt(i: i32): i32 {
  return load<i32>(ids + (<usize>i << 2));
}

@inline function distanceTo(i: i32): f64 {
  const dx = load<f64>(coords + (<usize>i << 4)) - qx, dy = load<f64>(coords + (<usize>i << 4), 8) - qy;
  return dx * dx + dy * dy;
}

function use(block: usize): i32 {
  coords = block + POINTS_AT;
  const n = load<i32>(block, 16);
  ids = coords + (<usize>n << 4);
  return n;
}

// ---- build -----------------------------------------------------------------------

function swap(i: i32, j: i32): void {
  const a = coords + (<usize>i << 4), b = coords + (<usize>j << 4);
  const ax = load<f64>(a), ay = load<f64>(a, 8);
  store<f64>(a, load<f64>(b));
  store<f64>(a, load<f64>(b, 8), 8);
  store<f64>(b, ax);
  store<f64>(b, ay, 8);
  const ia = ids + (<usize>i << 2), ib = ids + (<usize>j << 2);
  const t = load<i32>(ia);
  store<i32>(ia, load<i32>(ib));
  store<i32>(ib, t);
}

/** The pivots' generator: xorshift32 from a fixed seed, integer steps only, so both backends draw the same. */
let draws: u32 = 0;

/** A position in [left, right] drawn from the generator. */
function drawBetween(left: i32, right: i32): i32 {
  draws ^= draws << 13;
  draws ^= draws >> 17;
  draws ^= draws << 5;
  return left + <i32>(draws % <u32>(right - left + 1));
}

/**
 * Moves the point of rank k on axis (among [left, right]) to k, the smaller
 * ones before it and the larger after: Hoare's selection, comparisons only,
 * so both backends make the same swaps. The pivot is drawn at random (from
 * a fixed seed): the point at k would take quadratic time on some common
 * inputs (points on a line, whose equal y the splits on y reverse).
 */
function select(k: i32, left: i32, right: i32, axis: i32): void {
  while (right > left) {
    swap(k, drawBetween(left, right));
    const t = coordAt(k, axis);
    let i = left, j = right;
    swap(left, k);
    if (coordAt(right, axis) > t) swap(left, right);
    while (i < j) {
      swap(i, j);
      i++;
      j--;
      while (coordAt(i, axis) < t) i++;
      while (coordAt(j, axis) > t) j--;
    }
    if (coordAt(left, axis) == t) swap(left, j);
    else {
      j++;
      swap(j, right);
    }
    if (j <= k) left = j + 1;
    if (k <= j) right = j - 1;
  }
}

function sortRange(left: i32, right: i32, axis: i32): void {
  if (right - left <= KD_LEAF) return;
  const m = (left + right) >> 1;
  select(m, left, right, axis);
  sortRange(left, m - 1, 1 - axis);
  sortRange(m + 1, right, 1 - axis);
}

/** Whether every one of the n rects at rects (4 f64 each) is a point. */
export function allPoints(rects: usize, n: i32): bool {
  for (let i = 0; i < n; i++) {
    const r = rects + (<usize>i << 5);
    if (load<f64>(r) != load<f64>(r, 16) || load<f64>(r, 8) != load<f64>(r, 24)) return false;
  }
  return true;
}

/** Fills the point part of block (header written) with the n items ids[i] at the corners of rects[4i..4i+3], sorted into the k-d tree. */
export function buildPoints(block: usize, idsPtr: usize, rects: usize, n: i32): void {
  use(block);
  for (let i = 0; i < n; i++) {
    const r = rects + (<usize>i << 5), c = coords + (<usize>i << 4);
    store<f64>(c, load<f64>(r));
    store<f64>(c, load<f64>(r, 8), 8);
    store<i32>(ids + (<usize>i << 2), load<i32>(idsPtr + (<usize>i << 2)));
  }
  draws = PIVOT_SEED;
  sortRange(0, n - 1, 0);
}

/**
 * Checks the points of a block the TypeScript side has checked otherwise: 0
 * if every coordinate is finite and every point lies in its k-d cell (the
 * order sortRange leaves), 4 if a coordinate is not finite, 5 if a point is
 * out of order. Each point is checked once, as a median or in a leaf.
 */
export function pointsVerify(block: usize): i32 {
  const n = use(block);
  for (let i = 0; i < n; i++) {
    const x = coordAt(i, 0), y = coordAt(i, 1);
    if ((x - x) + (y - y) != 0) return 4; // x - x is 0 only for a finite x
  }
  return n == 0 || inCells(0, n - 1, 0, -Infinity, -Infinity, Infinity, Infinity) ? 0 : 5;
}

/** Whether every point of [left, right] lies in the closed cell [cx0, cx1] x [cy0, cy1] and, below each median, in the cell its split leaves it. */
function inCells(left: i32, right: i32, axis: i32, cx0: f64, cy0: f64, cx1: f64, cy1: f64): bool {
  while (right - left > KD_LEAF) {
    const m = (left + right) >> 1;
    const x = coordAt(m, 0), y = coordAt(m, 1);
    if (!(x >= cx0 && x <= cx1 && y >= cy0 && y <= cy1)) return false;
    const split = axis == 0 ? x : y;
    if (!inCells(left, m - 1, 1 - axis, cx0, cy0, axis == 0 ? split : cx1, axis == 0 ? cy1 : split)) return false;
    left = m + 1;
    if (axis == 0) cx0 = split;
    else cy0 = split;
    axis = 1 - axis;
  }
  for (let i = left; i <= right; i++) {
    const x = coordAt(i, 0), y = coordAt(i, 1);
    if (!(x >= cx0 && x <= cx1 && y >= cy0 && y <= cy1)) return false;
  }
  return true;
}

// ---- searches ----------------------------------------------------------------------

// A range's points lie in its cell: the box its ancestors' splits bound
// (infinite on the sides no split has bounded yet). A cell wholly inside a
// query holds only hits, and a range is one run of the arrays in tree order
// (the order a traversal gives), so its ids are copied out at once.

/** Appends the ids of the points in the closed box, in tree order. */
export function pointsQuery(block: usize, x0: f64, y0: f64, x1: f64, y1: f64): void {
  const n = use(block);
  if (n > 0) boxRange(0, n - 1, 0, x0, y0, x1, y1, -Infinity, -Infinity, Infinity, Infinity);
}

function boxRange(left: i32, right: i32, axis: i32, x0: f64, y0: f64, x1: f64, y1: f64, cx0: f64, cy0: f64, cx1: f64, cy1: f64): void {
  while (right - left > KD_LEAF) {
    if (cx0 >= x0 && cx1 <= x1 && cy0 >= y0 && cy1 <= y1) {
      pushResults(ids + (<usize>left << 2), right - left + 1);
      return;
    }
    const m = (left + right) >> 1;
    const x = coordAt(m, 0), y = coordAt(m, 1);
    const lo = axis == 0 ? x0 : y0, hi = axis == 0 ? x1 : y1, split = axis == 0 ? x : y;
    if (lo <= split) boxRange(left, m - 1, 1 - axis, x0, y0, x1, y1, cx0, cy0, axis == 0 ? split : cx1, axis == 0 ? cy1 : split);
    if (x >= x0 && x <= x1 && y >= y0 && y <= y1) pushResult(idAt(m));
    if (hi < split) return;
    left = m + 1;
    if (axis == 0) cx0 = split;
    else cy0 = split;
    axis = 1 - axis;
  }
  for (let i = left; i <= right; i++) {
    const x = coordAt(i, 0), y = coordAt(i, 1);
    if (x >= x0 && x <= x1 && y >= y0 && y <= y1) pushResult(idAt(i));
  }
}

/** Appends the ids of the points at squared distance <= r2 from (x, y), in tree order. */
export function pointsWithin(block: usize, x: f64, y: f64, r2: f64): void {
  const n = use(block);
  qx = x;
  qy = y;
  if (n > 0) discRange(0, n - 1, 0, r2, -Infinity, -Infinity, Infinity, Infinity);
}

function discRange(left: i32, right: i32, axis: i32, r2: f64, cx0: f64, cy0: f64, cx1: f64, cy1: f64): void {
  while (right - left > KD_LEAF) {
    // The squared distance to the cell's farthest corner.
    const fx = max(qx - cx0, cx1 - qx), fy = max(qy - cy0, cy1 - qy);
    if (fx * fx + fy * fy <= r2) {
      pushResults(ids + (<usize>left << 2), right - left + 1);
      return;
    }
    const m = (left + right) >> 1;
    const split = coordAt(m, axis), d = (axis == 0 ? qx : qy) - split;
    // The points before m lie on its low side, those after on its high side: a side is searched only if the disc reaches it.
    if (d <= 0 || d * d <= r2) discRange(left, m - 1, 1 - axis, r2, cx0, cy0, axis == 0 ? split : cx1, axis == 0 ? cy1 : split);
    if (distanceTo(m) <= r2) pushResult(idAt(m));
    if (d < 0 && d * d > r2) return;
    left = m + 1;
    if (axis == 0) cx0 = split;
    else cy0 = split;
    axis = 1 - axis;
  }
  reserveResults(right - left + 1);
  for (let i = left; i <= right; i++) pushResultIf(idAt(i), distanceTo(i) <= r2);
}

/** The k best so far keyed (-distance, -id): the worst on top. */
const best = new RankHeap();
let want: i32 = 0;
let bound: f64 = 0;

/** Offers point i to the k best. */
@inline function consider(i: i32): void {
  const d = distanceTo(i);
  if (d <= bound) bound = best.offer(d, idAt(i), want, bound);
}

/**
 * Depth first, the side of each split holding the point first; the median
 * and the far side only while they may hold a point within the bound (<=,
 * since an equally distant point may have a smaller id). gx and gy are the
 * squared gaps from the point to the range's cell on each axis: the far
 * side's cell lies past the split, so its gap on the split axis is the
 * distance to the split, and its other gap is the range's own.
 */
function nearestRange(left: i32, right: i32, axis: i32, gx: f64, gy: f64): void {
  if (right - left <= KD_LEAF) {
    for (let i = left; i <= right; i++) consider(i);
    return;
  }
  const m = (left + right) >> 1;
  const d = (axis == 0 ? qx : qy) - coordAt(m, axis);
  if (d <= 0) nearestRange(left, m - 1, 1 - axis, gx, gy);
  else nearestRange(m + 1, right, 1 - axis, gx, gy);
  const fx = axis == 0 ? d * d : gx, fy = axis == 0 ? gy : d * d;
  if (fx + fy > bound) return;
  consider(m);
  if (d <= 0) nearestRange(m + 1, right, 1 - axis, fx, fy);
  else nearestRange(left, m - 1, 1 - axis, fx, fy);
}

/** Appends the ids of the k points nearest to (x, y) within squared distance maxSquared, by distance then id. */
export function pointsNearest(block: usize, x: f64, y: f64, k: i32, maxSquared: f64): void {
  const n = use(block);
  if (n == 0 || k <= 0) return;
  qx = x;
  qy = y;
  want = k;
  bound = maxSquared;
  best.size = 0;
  nearestRange(0, n - 1, 0, 0, 0);
  // The k best come off their heap worst first.
  const count = best.size;
  const out = claimResults(count);
  for (let i = count - 1; i >= 0; i--) {
    store<i32>(out + (<usize>i << 2), -best.topTag);
    best.pop();
  }
}
