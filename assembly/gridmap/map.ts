import { IndexedHeap } from './indexed-heap';

// Tile-map walking over flat cell arrays. The map is stored with a one-cell
// blocked border (stride = width + 2), so neighbour reads never need a bounds
// check. Search state is one 16-byte record per cell (g: f64, stamp: u32,
// parent: i32: one cache line per neighbour visited), allocated on the first
// query and reused: a cell's g and parent are valid only when its stamp equals
// the current generation (open) or generation + 1 (closed), so a new query
// starts by bumping the generation instead of clearing the records.

export const SQRT2: f64 = 1.4142135623730951;
// Ties on f are broken toward the larger g (deeper cells first): the key is
// f - g * TIE. On unit-cost maps distinct f values differ by far more than
// g * TIE, so the order between them never changes and paths stay optimal.
export const TIE: f64 = 1.0 / 68719476736.0; // 2^-36

// Diagonal rules, as the TypeScript side encodes them.
export const DIAGONAL_NEVER = 0;
export const DIAGONAL_ALWAYS = 1;
export const DIAGONAL_NO_CORNER_CUTTING = 2;
export const DIAGONAL_ONE_OBSTACLE = 3;

// Algorithms, as the TypeScript side encodes them.
export const ALGORITHM_ASTAR = 0;
export const ALGORITHM_DIJKSTRA = 1;
export const ALGORITHM_SPFA = 2;
export const ALGORITHM_JPS = 3;
export const ALGORITHM_THETA = 4;

@unmanaged
export class Grid {
  width: i32 = 0;
  height: i32 = 0;
  stride: i32 = 0;
  cells: i32 = 0;
  /** u8 per padded cell: 1 walkable, 0 blocked (the border is always 0). */
  walk: usize = 0;
  /**
   * The same bytes column by column (cell (x, y) at (x + 1) * columnStride +
   * y + 1): jump point search scans columns as rows, eight cells at a time.
   */
  walkColumns: usize = 0;
  columnStride: i32 = 0;
  /** f64 per padded cell: the multiplier on the cost of entering it. */
  cost: usize = 0;
  /** Cells whose cost is not 1: jump point search needs this to be 0. */
  nonUnit: i32 = 0;
  /** Search records, NODE_BYTES per padded cell: g at +0, stamp at +8, parent at +12. */
  nodes: usize = 0;
  generation: u32 = 0;
  /** The open list, an IndexedHeap over cells. */
  heap: usize = 0;
  /** SPFA's FIFO ring, allocated on its first use. */
  queue: usize = 0;
  /** Result block: [count: i32, partial: i32, cost: f64, x0, y0, x1, y1, ...]. */
  out: usize = 0;
  outCapacity: usize = 0;
  /**
   * While a search has a budget: the expanded cell nearest the target (by
   * the search's distance estimate; the cheaper on a tie, the first expanded
   * on a full tie), and whether the budget ran out before the target.
   */
  nearestCell: i32 = -1;
  nearestDistance: f64 = Infinity;
  nearestCost: f64 = Infinity;
  partial: bool = false;
}

export const NODE_BYTES = 16;

/** Bytes of padding before and after the walk array. */
export const WALK_PAD: usize = 8;

/** Address of a cell's search record. */
@inline export function nodeAt(nodes: usize, cell: i32): usize {
  return nodes + (<usize>cell << 4);
}

@inline export function cellIndex(grid: Grid, x: i32, y: i32): i32 {
  return (y + 1) * grid.stride + x + 1;
}

@inline export function columnIndex(grid: Grid, x: i32, y: i32): i32 {
  return (x + 1) * grid.columnStride + y + 1;
}

@inline export function walkableAt(walk: usize, cell: i32): bool {
  return load<u8>(walk + <usize>cell) != 0;
}

/** Octile distance (or manhattan when diagonal steps are not allowed). */
@inline export function distance(dx: i32, dy: i32, diagonal: i32): f64 {
  dx = abs(dx);
  dy = abs(dy);
  if (diagonal == DIAGONAL_NEVER) return <f64>(dx + dy);
  const lo = min(dx, dy);
  return <f64>(max(dx, dy) - lo) + SQRT2 * <f64>lo;
}

/** Whether a diagonal step is allowed, given which of its two orthogonal neighbours are walkable. */
@inline export function diagonalAllowed(first: bool, second: bool, diagonal: i32): bool {
  if (diagonal == DIAGONAL_NO_CORNER_CUTTING) return first && second;
  if (diagonal == DIAGONAL_ONE_OBSTACLE) return first || second;
  return true; // DIAGONAL_ALWAYS
}

/**
 * The k-th neighbour of a cell, in the order N, S, W, E, NW, NE, SW, SE, when
 * the rule allows the step there; else -1. `north` .. `east` say which
 * orthogonal neighbours are walkable. A step to neighbour k has length 1
 * (k < 4) or sqrt 2.
 */
@inline export function neighbour(
  walk: usize, stride: i32, cell: i32, k: i32, north: bool, south: bool, west: bool, east: bool, diagonal: i32,
): i32 {
  if (k == 0) return north ? cell - stride : -1;
  if (k == 1) return south ? cell + stride : -1;
  if (k == 2) return west ? cell - 1 : -1;
  if (k == 3) return east ? cell + 1 : -1;
  if (diagonal == DIAGONAL_NEVER) return -1;
  const next = cell + (k < 6 ? -stride : stride) + ((k & 1) == 0 ? -1 : 1);
  return walkableAt(walk, next) && diagonalAllowed(k < 6 ? north : south, (k & 1) == 0 ? west : east, diagonal) ? next : -1;
}

/** Puts the start cell in the search at cost 0, without a parent, with the given stamp. */
export function seed(grid: Grid, start: i32, stamp: u32): void {
  const node = nodeAt(grid.nodes, start);
  store<f64>(node, 0.0);
  store<u32>(node, stamp, 8);
  store<i32>(node, -1, 12);
}

/** Prepares the reusable search state for one query: a fresh generation, an empty heap. */
export function beginSearch(grid: Grid): void {
  const cells = <usize>grid.cells;
  if (grid.nodes == 0) {
    // Both blocks before either is kept: should memory run out, the grid has neither.
    const nodes = heap.alloc(cells * NODE_BYTES);
    const open = changetype<usize>(new IndexedHeap(grid.cells));
    memory.fill(nodes, 0, cells * NODE_BYTES);
    grid.nodes = nodes;
    grid.heap = open;
    grid.generation = 0;
  }
  // Stamps below the generation are stale; restart the count long before it wraps.
  if (grid.generation >= 0xfffffff0) {
    memory.fill(grid.nodes, 0, cells * NODE_BYTES);
    grid.generation = 0;
  }
  grid.generation += 2;
  changetype<IndexedHeap>(grid.heap).clear();
  grid.nearestCell = -1;
  grid.nearestDistance = Infinity;
  grid.nearestCost = Infinity;
  grid.partial = false;
}

/**
 * Bookkeeping for a budget, when a search closes a cell other than the
 * target (`expanded` cells expanded before it): offers the cell as the
 * nearest so far, and says whether the budget is spent (then the search ends
 * at grid.nearestCell).
 */
export function spend(grid: Grid, cell: i32, distance: f64, cost: f64, budget: i32, expanded: i32): bool {
  if (distance < grid.nearestDistance || (distance == grid.nearestDistance && cost < grid.nearestCost)) {
    grid.nearestCell = cell;
    grid.nearestDistance = distance;
    grid.nearestCost = cost;
  }
  if (expanded < budget) return false;
  grid.partial = true;
  return true;
}

/**
 * Follows parents from target back to the start and writes the path, start
 * first, into the result block. Consecutive parents may be several cells apart
 * on one straight or diagonal line (jump point search); with `fill` the cells
 * between are filled in, without it the parents alone are written (Theta*'s
 * corners).
 */
export function writePath(grid: Grid, target: i32, fill: bool): usize {
  const stride = grid.stride;
  const nodes = grid.nodes;
  let count = 1;
  let cell = target;
  while (true) {
    const from = load<i32>(nodeAt(nodes, cell), 12);
    if (from < 0) break;
    const dy = cell / stride - from / stride;
    const dx = cell - cell / stride * stride - (from - from / stride * stride);
    count += fill ? max(abs(dx), abs(dy)) : 1;
    cell = from;
  }
  const bytes: usize = 16 + (<usize>count << 3);
  if (grid.outCapacity < bytes) {
    const capacity = max(bytes, grid.outCapacity << 1);
    grid.out = grid.out == 0 ? heap.alloc(capacity) : heap.realloc(grid.out, capacity);
    grid.outCapacity = capacity;
  }
  const out = grid.out;
  store<i32>(out, count);
  store<i32>(out + 4, grid.partial ? 1 : 0);
  store<f64>(out + 8, load<f64>(nodeAt(nodes, target)));
  let at = out + 16 + (<usize>(count - 1) << 3);
  cell = target;
  let y = cell / stride;
  let x = cell - y * stride;
  store<i32>(at, x - 1);
  store<i32>(at + 4, y - 1);
  while (true) {
    const from = load<i32>(nodeAt(nodes, cell), 12);
    if (from < 0) break;
    const fy = from / stride;
    const fx = from - fy * stride;
    const sx = fill ? (fx > x ? 1 : fx < x ? -1 : 0) : fx - x;
    const sy = fill ? (fy > y ? 1 : fy < y ? -1 : 0) : fy - y;
    while (x != fx || y != fy) {
      x += sx;
      y += sy;
      at -= 8;
      store<i32>(at, x - 1);
      store<i32>(at + 4, y - 1);
    }
    cell = from;
  }
  return out;
}
