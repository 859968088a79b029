import { IndexedHeap } from './indexed-heap';
import {
  DIAGONAL_NEVER, Grid, SQRT2, TIE, diagonalAllowed, distance, neighbour, nodeAt, seed, spend, walkableAt,
} from './map';

// Cell-by-cell searches: A* and Dijkstra (one best-first loop, with or
// without the heuristic) and SPFA. Neighbours are visited in one fixed order,
// N, S, W, E, NW, NE, SW, SE, which the reference backend mirrors.

/**
 * A* (with a heuristic) or Dijkstra (without) from start, stopping when
 * target is closed, or when `budget` cells (0: no limit) have been expanded.
 * Returns the cell to read the path back from: the target, the nearest cell
 * at a spent budget, or -1 when the target is unreachable. Instantiated twice: `Weighted` = f64 reads each entered
 * cell's cost, `Weighted` = u8 is the uniform-cost case (every cost is 1, so
 * the step length alone is the step cost and the cost array is never read).
 */
export function bestFirstSearch<Weighted>(grid: Grid, start: i32, target: i32, diagonal: i32, heuristic: bool, budget: i32): i32 {
  const stride = grid.stride;
  const walk = grid.walk;
  const cost = grid.cost;
  const nodes = grid.nodes;
  const open = grid.generation;
  const closed = open + 1;
  const queue = changetype<IndexedHeap>(grid.heap);
  const ty = target / stride;
  const tx = target - ty * stride;
  seed(grid, start, open);
  held = start;
  heldKey = 0.0;
  let expanded = 0;
  while (held >= 0 || !queue.empty) {
    let cell = held;
    if (cell >= 0) held = -1;
    else cell = queue.pop();
    const node = nodeAt(nodes, cell);
    store<u32>(node, closed, 8);
    if (cell == target) return target;
    const base = load<f64>(node);
    const cy = cell / stride;
    const cx = cell - cy * stride;
    if (budget > 0 && spend(grid, cell, distance(cx - tx, cy - ty, diagonal), base, budget, expanded++)) return grid.nearestCell;
    const north = walkableAt(walk, cell - stride);
    const south = walkableAt(walk, cell + stride);
    const west = walkableAt(walk, cell - 1);
    const east = walkableAt(walk, cell + 1);
    if (north) relax<Weighted>(nodes, cost, queue, cell, cell - stride, base, 1.0, cx - tx, cy - 1 - ty, diagonal, heuristic, open);
    if (south) relax<Weighted>(nodes, cost, queue, cell, cell + stride, base, 1.0, cx - tx, cy + 1 - ty, diagonal, heuristic, open);
    if (west) relax<Weighted>(nodes, cost, queue, cell, cell - 1, base, 1.0, cx - 1 - tx, cy - ty, diagonal, heuristic, open);
    if (east) relax<Weighted>(nodes, cost, queue, cell, cell + 1, base, 1.0, cx + 1 - tx, cy - ty, diagonal, heuristic, open);
    if (diagonal != DIAGONAL_NEVER) {
      let next = cell - stride - 1;
      if (walkableAt(walk, next) && diagonalAllowed(north, west, diagonal)) {
        relax<Weighted>(nodes, cost, queue, cell, next, base, SQRT2, cx - 1 - tx, cy - 1 - ty, diagonal, heuristic, open);
      }
      next = cell - stride + 1;
      if (walkableAt(walk, next) && diagonalAllowed(north, east, diagonal)) {
        relax<Weighted>(nodes, cost, queue, cell, next, base, SQRT2, cx + 1 - tx, cy - 1 - ty, diagonal, heuristic, open);
      }
      next = cell + stride - 1;
      if (walkableAt(walk, next) && diagonalAllowed(south, west, diagonal)) {
        relax<Weighted>(nodes, cost, queue, cell, next, base, SQRT2, cx - 1 - tx, cy + 1 - ty, diagonal, heuristic, open);
      }
      next = cell + stride + 1;
      if (walkableAt(walk, next) && diagonalAllowed(south, east, diagonal)) {
        relax<Weighted>(nodes, cost, queue, cell, next, base, SQRT2, cx + 1 - tx, cy + 1 - ty, diagonal, heuristic, open);
      }
    }
    // The held successor goes next only if nothing queued comes before it.
    if (held >= 0 && !queue.empty && heldKey > queue.topKey) {
      queue.push(heldKey, held);
      held = -1;
    }
  }
  return -1;
}

// The best successor of the cell being expanded, held out of the heap: on
// open ground it is usually the very next cell to expand (same f, larger g),
// and holding it saves a push and a pop per step.
let held: i32 = -1;
let heldKey: f64 = 0.0;

/** Queues a cell, or holds it when its key beats the held one (which is then queued). */
@inline function offer(queue: IndexedHeap, key: f64, cell: i32): void {
  if (held < 0 || key < heldKey) {
    if (held >= 0) queue.push(heldKey, held);
    held = cell;
    heldKey = key;
  } else {
    queue.push(key, cell);
  }
}

/**
 * Enters `next` from `cell` with a step of length `step`; when that lowers its
 * g (or next is new) records it and queues it. (dx, dy) is next's offset from
 * the target, for the heuristic.
 */
@inline function relax<Weighted>(
  nodes: usize, cost: usize, queue: IndexedHeap, cell: i32, next: i32, base: f64, step: f64,
  dx: i32, dy: i32, diagonal: i32, heuristic: bool, open: u32,
): void {
  const node = nodeAt(nodes, next);
  const seen = load<u32>(node, 8);
  if (seen == open + 1) return; // closed: its g is final
  const tentative = isFloat<Weighted>() ? base + step * load<f64>(cost + (<usize>next << 3)) : base + step;
  if (seen == open && tentative >= load<f64>(node)) return;
  store<f64>(node, tentative);
  store<u32>(node, open, 8);
  store<i32>(node, cell, 12);
  const key = heuristic ? tentative + distance(dx, dy, diagonal) - tentative * TIE : tentative;
  // Already open: its entry (or the held slot) takes the lower key.
  if (seen != open) offer(queue, key, next);
  else if (next == held) heldKey = key;
  else queue.decrease(key, next);
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
  const nodes = grid.nodes;
  const seen = grid.generation; // reached, not queued
  const queued = seen + 1;
  seed(grid, start, queued);
  store<i32>(ring, start);
  let head = 0;
  let tail = 1;
  let count = 1;
  while (count > 0) {
    const cell = load<i32>(ring + (<usize>head << 2));
    if (++head == cells) head = 0;
    count--;
    const node = nodeAt(nodes, cell);
    store<u32>(node, seen, 8);
    const base = load<f64>(node);
    const north = walkableAt(walk, cell - stride);
    const south = walkableAt(walk, cell + stride);
    const west = walkableAt(walk, cell - 1);
    const east = walkableAt(walk, cell + 1);
    for (let k = 0; k < 8; k++) {
      const next = neighbour(walk, stride, cell, k, north, south, west, east, diagonal);
      if (next < 0) continue;
      const step = k < 4 ? 1.0 : SQRT2;
      const tentative = base + step * load<f64>(cost + (<usize>next << 3));
      const entered = nodeAt(nodes, next);
      const state = load<u32>(entered, 8);
      if (state >= seen && tentative >= load<f64>(entered)) continue;
      store<f64>(entered, tentative);
      store<i32>(entered, cell, 12);
      if (state != queued) {
        store<u32>(entered, queued, 8);
        store<i32>(ring + (<usize>tail << 2), next);
        if (++tail == cells) tail = 0;
        count++;
      }
    }
  }
  return load<u32>(nodeAt(nodes, target), 8) >= seen;
}

