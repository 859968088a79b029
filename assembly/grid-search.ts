import { MinHeap } from './minheap';
import {
  DIAGONAL_NEVER, Grid, SQRT2, TIE, diagonalAllowed, distance, walkableAt,
} from './grid-map';

// Cell-by-cell searches: A* and Dijkstra (one best-first loop, with or
// without the heuristic) and SPFA. Neighbours are visited in one fixed order,
// N, S, W, E, NW, NE, SW, SE, which the reference backend mirrors.

/** A* (with a heuristic) or Dijkstra (without) from start, stopping when target is closed. */
export function bestFirstSearch(grid: Grid, start: i32, target: i32, diagonal: i32, heuristic: bool): bool {
  const stride = grid.stride;
  const walk = grid.walk;
  const cost = grid.cost;
  const g = grid.g;
  const parent = grid.parent;
  const stamp = grid.stamp;
  const open = grid.generation;
  const closed = open + 1;
  const queue = changetype<MinHeap>(grid.heap);
  const ty = target / stride;
  const tx = target - ty * stride;
  const sy = start / stride;
  store<f64>(g + (<usize>start << 3), 0.0);
  store<i32>(parent + (<usize>start << 2), -1);
  store<u32>(stamp + (<usize>start << 2), open);
  queue.push(heuristic ? distance(start - sy * stride - tx, sy - ty, diagonal) : 0.0, start);
  while (!queue.empty) {
    const cell = queue.pop();
    const stampAt = stamp + (<usize>cell << 2);
    if (load<u32>(stampAt) == closed) continue; // a stale duplicate
    store<u32>(stampAt, closed);
    if (cell == target) return true;
    const base = load<f64>(g + (<usize>cell << 3));
    const cy = cell / stride;
    const cx = cell - cy * stride;
    const north = walkableAt(walk, cell - stride);
    const south = walkableAt(walk, cell + stride);
    const west = walkableAt(walk, cell - 1);
    const east = walkableAt(walk, cell + 1);
    // One relaxation: enter `next` at (nx, ny) with a step of length `step`.
    if (north) relax(grid, queue, cell, cell - stride, base + load<f64>(cost + (<usize>(cell - stride) << 3)), cx - tx, cy - 1 - ty, diagonal, heuristic, open);
    if (south) relax(grid, queue, cell, cell + stride, base + load<f64>(cost + (<usize>(cell + stride) << 3)), cx - tx, cy + 1 - ty, diagonal, heuristic, open);
    if (west) relax(grid, queue, cell, cell - 1, base + load<f64>(cost + (<usize>(cell - 1) << 3)), cx - 1 - tx, cy - ty, diagonal, heuristic, open);
    if (east) relax(grid, queue, cell, cell + 1, base + load<f64>(cost + (<usize>(cell + 1) << 3)), cx + 1 - tx, cy - ty, diagonal, heuristic, open);
    if (diagonal == DIAGONAL_NEVER) continue;
    let next = cell - stride - 1;
    if (walkableAt(walk, next) && diagonalAllowed(north, west, diagonal)) {
      relax(grid, queue, cell, next, base + SQRT2 * load<f64>(cost + (<usize>next << 3)), cx - 1 - tx, cy - 1 - ty, diagonal, heuristic, open);
    }
    next = cell - stride + 1;
    if (walkableAt(walk, next) && diagonalAllowed(north, east, diagonal)) {
      relax(grid, queue, cell, next, base + SQRT2 * load<f64>(cost + (<usize>next << 3)), cx + 1 - tx, cy - 1 - ty, diagonal, heuristic, open);
    }
    next = cell + stride - 1;
    if (walkableAt(walk, next) && diagonalAllowed(south, west, diagonal)) {
      relax(grid, queue, cell, next, base + SQRT2 * load<f64>(cost + (<usize>next << 3)), cx - 1 - tx, cy + 1 - ty, diagonal, heuristic, open);
    }
    next = cell + stride + 1;
    if (walkableAt(walk, next) && diagonalAllowed(south, east, diagonal)) {
      relax(grid, queue, cell, next, base + SQRT2 * load<f64>(cost + (<usize>next << 3)), cx + 1 - tx, cy + 1 - ty, diagonal, heuristic, open);
    }
  }
  return false;
}

/** Lowers next's g to tentative when that improves it (or next is new) and queues it. */
@inline function relax(
  grid: Grid, queue: MinHeap, cell: i32, next: i32, tentative: f64,
  dx: i32, dy: i32, diagonal: i32, heuristic: bool, open: u32,
): void {
  const stampAt = grid.stamp + (<usize>next << 2);
  const seen = load<u32>(stampAt);
  if (seen == open + 1) return; // closed: its g is final
  const gAt = grid.g + (<usize>next << 3);
  if (seen == open && tentative >= load<f64>(gAt)) return;
  store<f64>(gAt, tentative);
  store<i32>(grid.parent + (<usize>next << 2), cell);
  store<u32>(stampAt, open);
  queue.push(heuristic ? tentative + distance(dx, dy, diagonal) - tentative * TIE : tentative, next);
}

/**
 * SPFA (queue-based Bellman-Ford): a FIFO of cells, each queued at most once
 * at a time; a cell whose g drops is queued again. With costs >= 1 it ends
 * when the queue empties, and the target's g is then final.
 */
export function spfaSearch(grid: Grid, start: i32, target: i32, diagonal: i32): bool {
  const cells = grid.cells;
  if (grid.queue == 0) grid.queue = heap.alloc(<usize>cells << 2);
  const ring = grid.queue;
  const stride = grid.stride;
  const walk = grid.walk;
  const cost = grid.cost;
  const g = grid.g;
  const parent = grid.parent;
  const stamp = grid.stamp;
  const seen = grid.generation; // reached, not queued
  const queued = seen + 1;
  store<f64>(g + (<usize>start << 3), 0.0);
  store<i32>(parent + (<usize>start << 2), -1);
  store<u32>(stamp + (<usize>start << 2), queued);
  store<i32>(ring, start);
  let head = 0;
  let tail = 1;
  let count = 1;
  while (count > 0) {
    const cell = load<i32>(ring + (<usize>head << 2));
    if (++head == cells) head = 0;
    count--;
    store<u32>(stamp + (<usize>cell << 2), seen);
    const base = load<f64>(g + (<usize>cell << 3));
    const north = walkableAt(walk, cell - stride);
    const south = walkableAt(walk, cell + stride);
    const west = walkableAt(walk, cell - 1);
    const east = walkableAt(walk, cell + 1);
    for (let k = 0; k < 8; k++) {
      let next: i32;
      let step: f64 = 1.0;
      // The same neighbour order as best-first search: N, S, W, E, NW, NE, SW, SE.
      if (k == 0) { if (!north) continue; next = cell - stride; }
      else if (k == 1) { if (!south) continue; next = cell + stride; }
      else if (k == 2) { if (!west) continue; next = cell - 1; }
      else if (k == 3) { if (!east) continue; next = cell + 1; }
      else {
        if (diagonal == DIAGONAL_NEVER) break;
        const vertical = k < 6 ? north : south;
        const horizontal = (k & 1) == 0 ? west : east;
        next = cell + (k < 6 ? -stride : stride) + ((k & 1) == 0 ? -1 : 1);
        if (!walkableAt(walk, next) || !diagonalAllowed(vertical, horizontal, diagonal)) continue;
        step = SQRT2;
      }
      const tentative = base + step * load<f64>(cost + (<usize>next << 3));
      const stampAt = stamp + (<usize>next << 2);
      const state = load<u32>(stampAt);
      const gAt = g + (<usize>next << 3);
      if (state >= seen && tentative >= load<f64>(gAt)) continue;
      store<f64>(gAt, tentative);
      store<i32>(parent + (<usize>next << 2), cell);
      if (state != queued) {
        store<u32>(stampAt, queued);
        store<i32>(ring + (<usize>tail << 2), next);
        if (++tail == cells) tail = 0;
        count++;
      }
    }
  }
  return load<u32>(stamp + (<usize>target << 2)) >= seen;
}

