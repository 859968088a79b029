// Theta* (Nash, Daniel, Koenig and Felner, "Theta*: Any-Angle Path Planning on
// Grids", AAAI 2007): A* whose successors may take their parent's parent as
// parent when it sees them, so a path is a few straight segments between
// corners instead of a chain of grid steps. The same design as
// assembly/gridmap/theta.ts.
//
// Each neighbour is relaxed both ways, by the grid step from the expanded
// cell and by the straight segment from that cell's parent, and keeps the
// cheaper: so every cell's cost is at most what A* would give it, and a
// Theta* path is never longer than the A* path. The heuristic is the
// straight-line distance, which no segment undercuts.
import { segmentCost, sight, type SightCells } from './sight.js';
import { SQRT2, TIE, neighbour } from './steps.js';
import type { IndexedHeap } from './indexed-heap.js';
import type { Nearest } from './nearest.js';

/** What Theta* reads and writes of the reference grid. */
export interface ThetaState extends SightCells {
  readonly g: Float64Array | null;
  readonly parent: Int32Array;
  readonly stamp: Uint32Array;
  readonly generation: number;
  readonly heap: IndexedHeap;
  readonly nearest: Nearest;
  seed(start: number, stamp: number): void;
  spend(cell: number, distance: number, budget: number, expanded: number): boolean;
}

function straight(dx: number, dy: number): number {
  return Math.sqrt(dx * dx + dy * dy);
}

/**
 * Theta* from start to target under a diagonal rule other than 'never' (which
 * forbids the segments), with a budget of expanded cells (0: none). Returns
 * the cell to read the corners back from: the target, the nearest cell at a
 * spent budget, or -1 when the target is unreachable.
 */
export function thetaStar(state: ThetaState, start: number, target: number, diagonal: number, budget: number): number {
  const { stride, walk, cost, parent, stamp, heap } = state;
  const g = state.g!;
  const open = state.generation;
  const closed = open + 1;
  const ty = Math.floor(target / stride);
  const tx = target - ty * stride;
  state.seed(start, open);
  heap.push(0, start);
  let expanded = 0;
  while (!heap.empty) {
    const cell = heap.pop();
    stamp[cell] = closed;
    if (cell === target) return target;
    const cy = Math.floor(cell / stride);
    const cx = cell - cy * stride;
    if (budget > 0 && state.spend(cell, straight(cx - tx, cy - ty), budget, expanded++)) return state.nearest.cell;
    const base = g[cell];
    const from = parent[cell];
    const north = walk[cell - stride] !== 0;
    const south = walk[cell + stride] !== 0;
    const west = walk[cell - 1] !== 0;
    const east = walk[cell + 1] !== 0;
    // Neighbours in the order of the other searches: N, S, W, E, NW, NE, SW, SE.
    for (let k = 0; k < 8; k++) {
      const next = neighbour(walk, stride, cell, k, north, south, west, east, diagonal);
      if (next < 0) continue;
      const step = k < 4 ? 1 : SQRT2;
      const seen = stamp[next];
      if (seen === closed) continue;
      let tentative = base + step * cost[next];
      let via = cell;
      if (from >= 0) {
        const highest = sight(state, from, next);
        if (highest >= 0) {
          const direct = g[from] + segmentCost(state, from, next, highest);
          if (direct <= tentative) {
            tentative = direct;
            via = from;
          }
        }
      }
      if (seen === open && tentative >= g[next]) continue;
      g[next] = tentative;
      parent[next] = via;
      const ny = Math.floor(next / stride);
      const key = tentative + straight(next - ny * stride - tx, ny - ty) - tentative * TIE;
      if (seen === open) heap.decrease(key, next);
      else heap.push(key, next);
      stamp[next] = open;
    }
  }
  return -1;
}
