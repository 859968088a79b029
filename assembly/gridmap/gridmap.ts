import { IndexedHeap } from './indexed-heap';
import {
  ALGORITHM_DIJKSTRA, ALGORITHM_JPS, ALGORITHM_SPFA, ALGORITHM_THETA,
  Grid, WALK_PAD, beginSearch, cellIndex, columnIndex, walkableAt, writePath,
} from './map';
import { bestFirstSearch, spfaSearch } from './search';
import { jpsSearch } from './jps';
import { pullString } from './sight';
import { thetaSearch } from './theta';

// A grid's calls over its handle (the address of its Grid record): its
// lifetime, its cells, and findPath, which picks the search. The TypeScript
// side validates every argument before calling in.

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

/** Sets every cell's cost from width * height f64 at ptr (row-major, each finite and >= 1). */
export function gridLoadCosts(handle: i32, ptr: usize): void {
  const grid = changetype<Grid>(<usize>handle);
  for (let y = 0; y < grid.height; y++) {
    for (let x = 0; x < grid.width; x++) gridSetCost(handle, x, y, load<f64>(ptr + (<usize>(y * grid.width + x) << 3)));
  }
}

export function gridGetCost(handle: i32, x: i32, y: i32): f64 {
  const grid = changetype<Grid>(<usize>handle);
  return load<f64>(grid.cost + (<usize>cellIndex(grid, x, y) << 3));
}

/**
 * Shortest path from (sx, sy) to (tx, ty), both on the grid, expanding at most
 * `budget` cells (0: no limit; never with SPFA), string-pulled when `smooth`
 * is nonzero. Returns a pointer to the result block (count, partial flag,
 * cost, then x, y per cell or corner), or 0 when there is no path (including
 * when the start or the target is blocked).
 */
export function gridFindPath(
  handle: i32, sx: i32, sy: i32, tx: i32, ty: i32, diagonal: i32, algorithm: i32, budget: i32, smooth: i32,
): i32 {
  const grid = changetype<Grid>(<usize>handle);
  const start = cellIndex(grid, sx, sy);
  const target = cellIndex(grid, tx, ty);
  if (!walkableAt(grid.walk, start) || !walkableAt(grid.walk, target)) return 0;
  beginSearch(grid);
  let end: i32;
  if (algorithm == ALGORITHM_THETA) {
    end = thetaSearch(grid, start, target, diagonal, budget);
  } else if (algorithm == ALGORITHM_JPS && grid.nonUnit == 0) {
    end = jpsSearch(grid, start, target, diagonal, budget);
  } else if (algorithm == ALGORITHM_SPFA) {
    end = spfaSearch(grid, start, target, diagonal) ? target : -1;
  } else {
    const heuristic = algorithm != ALGORITHM_DIJKSTRA;
    end = grid.nonUnit == 0
      ? bestFirstSearch<u8>(grid, start, target, diagonal, heuristic, budget)
      : bestFirstSearch<f64>(grid, start, target, diagonal, heuristic, budget);
  }
  if (end < 0) return 0;
  const out = writePath(grid, end, algorithm != ALGORITHM_THETA);
  if (smooth != 0) pullString(grid);
  return <i32>out;
}

