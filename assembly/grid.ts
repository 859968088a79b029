import { IndexedHeap } from './indexed-heap';
import {
  ALGORITHM_DIJKSTRA, ALGORITHM_JPS, ALGORITHM_SPFA,
  Grid, WALK_PAD, beginSearch, cellIndex, columnIndex, walkableAt, writePath,
} from './grid-map';
import { bestFirstSearch, spfaSearch } from './grid-search';
import { jpsSearch } from './grid-jps';

// The GridMap exports: a grid is a handle (a pointer to its Grid record).
// The TypeScript side validates every argument before calling in.

export function gridCreate(width: i32, height: i32): i32 {
  const grid = new Grid();
  const stride = width + 2;
  const cells = stride * (height + 2);
  grid.width = width;
  grid.height = height;
  grid.stride = stride;
  grid.cells = cells;
  // WALK_PAD blocked bytes on either side: jump point search reads eight cells at a time.
  grid.walk = heap.alloc(<usize>cells + 2 * WALK_PAD) + WALK_PAD;
  memory.fill(grid.walk - WALK_PAD, 0, <usize>cells + 2 * WALK_PAD);
  for (let y = 0; y < height; y++) memory.fill(grid.walk + <usize>cellIndex(grid, 0, y), 1, <usize>width);
  grid.columnStride = height + 2;
  grid.walkColumns = heap.alloc(<usize>cells + 2 * WALK_PAD) + WALK_PAD;
  memory.fill(grid.walkColumns - WALK_PAD, 0, <usize>cells + 2 * WALK_PAD);
  for (let x = 0; x < width; x++) memory.fill(grid.walkColumns + <usize>columnIndex(grid, x, 0), 1, <usize>height);
  grid.cost = heap.alloc(<usize>cells << 3);
  for (let i = 0; i < cells; i++) store<f64>(grid.cost + (<usize>i << 3), 1.0);
  return <i32>changetype<usize>(grid);
}

export function gridDispose(handle: i32): void {
  const grid = changetype<Grid>(<usize>handle);
  heap.free(grid.walk - WALK_PAD);
  heap.free(grid.walkColumns - WALK_PAD);
  heap.free(grid.cost);
  if (grid.nodes != 0) {
    heap.free(grid.nodes);
    changetype<IndexedHeap>(grid.heap).dispose();
  }
  if (grid.queue != 0) heap.free(grid.queue);
  if (grid.out != 0) heap.free(grid.out);
  heap.free(changetype<usize>(grid));
}

export function gridSetWalkable(handle: i32, x: i32, y: i32, walkable: i32): void {
  const grid = changetype<Grid>(<usize>handle);
  store<u8>(grid.walk + <usize>cellIndex(grid, x, y), walkable != 0 ? 1 : 0);
  store<u8>(grid.walkColumns + <usize>columnIndex(grid, x, y), walkable != 0 ? 1 : 0);
}

export function gridIsWalkable(handle: i32, x: i32, y: i32): i32 {
  const grid = changetype<Grid>(<usize>handle);
  return walkableAt(grid.walk, cellIndex(grid, x, y)) ? 1 : 0;
}

/** Sets every cell's walkability from width * height bytes at ptr (row-major, nonzero = walkable). */
export function gridLoadWalkable(handle: i32, ptr: usize): void {
  const grid = changetype<Grid>(<usize>handle);
  const width = grid.width;
  for (let y = 0; y < grid.height; y++) {
    const row = grid.walk + <usize>cellIndex(grid, 0, y);
    const src = ptr + <usize>(y * width);
    for (let x = 0; x < width; x++) {
      const walkable: u8 = load<u8>(src + <usize>x) != 0 ? 1 : 0;
      store<u8>(row + <usize>x, walkable);
      store<u8>(grid.walkColumns + <usize>columnIndex(grid, x, y), walkable);
    }
  }
}

export function gridSetCost(handle: i32, x: i32, y: i32, cost: f64): void {
  const grid = changetype<Grid>(<usize>handle);
  const at = grid.cost + (<usize>cellIndex(grid, x, y) << 3);
  if (load<f64>(at) != 1.0) grid.nonUnit--;
  if (cost != 1.0) grid.nonUnit++;
  store<f64>(at, cost);
}

export function gridGetCost(handle: i32, x: i32, y: i32): f64 {
  const grid = changetype<Grid>(<usize>handle);
  return load<f64>(grid.cost + (<usize>cellIndex(grid, x, y) << 3));
}

/**
 * Shortest path from (sx, sy) to (tx, ty), both on the grid. Returns a pointer
 * to the result block (count, cost, then x, y per cell), or 0 when there is no
 * path (including when the start or the target is blocked).
 */
export function gridFindPath(handle: i32, sx: i32, sy: i32, tx: i32, ty: i32, diagonal: i32, algorithm: i32): i32 {
  const grid = changetype<Grid>(<usize>handle);
  const start = cellIndex(grid, sx, sy);
  const target = cellIndex(grid, tx, ty);
  if (!walkableAt(grid.walk, start) || !walkableAt(grid.walk, target)) return 0;
  beginSearch(grid);
  let found: bool;
  if (algorithm == ALGORITHM_JPS && grid.nonUnit == 0) {
    found = jpsSearch(grid, start, target, diagonal);
  } else if (algorithm == ALGORITHM_SPFA) {
    found = spfaSearch(grid, start, target, diagonal);
  } else {
    const heuristic = algorithm != ALGORITHM_DIJKSTRA;
    found = grid.nonUnit == 0
      ? bestFirstSearch<u8>(grid, start, target, diagonal, heuristic)
      : bestFirstSearch<f64>(grid, start, target, diagonal, heuristic);
  }
  if (!found) return 0;
  return <i32>writePath(grid, target);
}


/**
 * Runs `count` operations on a fresh IndexedHeap over `slots` values, for the
 * heap's tests: each operation is three f64 at ptr (kind, key, value); kind 0
 * pushes, 1 decreases, 2 pops and overwrites the key and value with the
 * popped entry's.
 */
export function gridProbeIndexedHeap(ptr: usize, count: i32, slots: i32): void {
  const queue = new IndexedHeap(slots);
  for (let i = 0; i < count; i++) {
    const at = ptr + <usize>i * 24;
    const kind = <i32>load<f64>(at);
    if (kind == 0) queue.push(load<f64>(at, 8), <i32>load<f64>(at, 16));
    else if (kind == 1) queue.decrease(load<f64>(at, 8), <i32>load<f64>(at, 16));
    else {
      store<f64>(at, queue.topKey, 8);
      store<f64>(at, <f64>queue.pop(), 16);
    }
  }
  queue.dispose();
}
