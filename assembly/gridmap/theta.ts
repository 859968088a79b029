import { IndexedHeap } from './indexed-heap';
import {
  Grid, SQRT2, TIE, neighbour, nodeAt, seed, spend, walkableAt,
} from './map';
import { segmentCost, sight } from './sight';

// Theta* (Nash, Daniel, Koenig and Felner, "Theta*: Any-Angle Path Planning on
// Grids", AAAI 2007): A* whose successors may take their parent's parent as
// parent when it sees them, so a path is a few straight segments between
// corners instead of a chain of grid steps. The reference backend mirrors
// this file (src/gridmap/js/theta.ts).
//
// Each neighbour is relaxed both ways, by the grid step from the expanded
// cell and by the straight segment from that cell's parent, and keeps the
// cheaper: so every cell's cost is at most what A* would give it, and a
// Theta* path is never longer than the A* path. The heuristic is the
// straight-line distance, which no segment undercuts.

@inline function straight(dx: i32, dy: i32): f64 {
  return Math.sqrt(<f64>(dx * dx + dy * dy));
}

/**
 * Theta* from start to target under a diagonal rule other than 'never' (which
 * forbids the segments), with a budget of expanded cells (0: none). Returns
 * the cell to read the corners back from: the target, the nearest cell at a
 * spent budget, or -1 when the target is unreachable.
 */
export function thetaSearch(grid: Grid, start: i32, target: i32, diagonal: i32, budget: i32): i32 {
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
  queue.push(0.0, start);
  let expanded = 0;
  while (!queue.empty) {
    const cell = queue.pop();
    const node = nodeAt(nodes, cell);
    store<u32>(node, closed, 8);
    if (cell == target) return target;
    const base = load<f64>(node);
    const cy = cell / stride;
    const cx = cell - cy * stride;
    if (budget > 0 && spend(grid, cell, straight(cx - tx, cy - ty), base, budget, expanded++)) return grid.nearestCell;
    const from = load<i32>(node, 12);
    const north = walkableAt(walk, cell - stride);
    const south = walkableAt(walk, cell + stride);
    const west = walkableAt(walk, cell - 1);
    const east = walkableAt(walk, cell + 1);
    // Neighbours in the order of the other searches: N, S, W, E, NW, NE, SW, SE.
    for (let k = 0; k < 8; k++) {
      const next = neighbour(walk, stride, cell, k, north, south, west, east, diagonal);
      if (next < 0) continue;
      const step = k < 4 ? 1.0 : SQRT2;
      const reached = nodeAt(nodes, next);
      const seen = load<u32>(reached, 8);
      if (seen == closed) continue;
      let tentative = base + step * load<f64>(cost + (<usize>next << 3));
      let via = cell;
      if (from >= 0) {
        const highest = sight(grid, from, next);
        if (highest >= 0.0) {
          const direct = load<f64>(nodeAt(nodes, from)) + segmentCost(grid, from, next, highest);
          if (direct <= tentative) {
            tentative = direct;
            via = from;
          }
        }
      }
      if (seen == open && tentative >= load<f64>(reached)) continue;
      store<f64>(reached, tentative);
      store<i32>(reached, via, 12);
      const ny = next / stride;
      const key = tentative + straight(next - ny * stride - tx, ny - ty) - tentative * TIE;
      if (seen == open) queue.decrease(key, next);
      else queue.push(key, next);
      store<u32>(reached, open, 8);
    }
  }
  return -1;
}
