// The brute-force opinion on grid paths: a plain description of a grid, an
// O(n^2) Dijkstra over it that shares no code with the library, and a path
// checker that recomputes a path's cost from its steps.
import type { DiagonalRule } from '../../src/index.js';

/** A grid as plain arrays, row-major: walkable[y * width + x], cost[y * width + x]. */
export interface PlainGrid {
  width: number;
  height: number;
  walkable: boolean[];
  cost: number[];
}

function open(grid: PlainGrid, x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < grid.width && y < grid.height && grid.walkable[y * grid.width + x];
}

/** The cost of one step (x, y) -> (x + dx, y + dy) under the rule, or null when the step is not allowed. */
export function stepCost(grid: PlainGrid, x: number, y: number, dx: number, dy: number, rule: DiagonalRule): number | null {
  if (Math.max(Math.abs(dx), Math.abs(dy)) !== 1 || !open(grid, x + dx, y + dy)) return null;
  const entered = grid.cost[(y + dy) * grid.width + x + dx];
  if (dx === 0 || dy === 0) return entered;
  const first = open(grid, x + dx, y);
  const second = open(grid, x, y + dy);
  const allowed =
    rule === 'always' || (rule === 'no-corner-cutting' && first && second) || (rule === 'one-obstacle' && (first || second));
  return allowed ? Math.SQRT2 * entered : null;
}

/** Cheapest cost from start to target under the rule, Infinity when unreachable or an end is blocked. */
export function oracleCost(grid: PlainGrid, sx: number, sy: number, tx: number, ty: number, rule: DiagonalRule): number {
  const n = grid.width * grid.height;
  if (!open(grid, sx, sy) || !open(grid, tx, ty)) return Infinity;
  const dist = new Array<number>(n).fill(Infinity);
  const done = new Array<boolean>(n).fill(false);
  dist[sy * grid.width + sx] = 0;
  for (;;) {
    let best = -1;
    for (let i = 0; i < n; i++) if (!done[i] && dist[i] < Infinity && (best < 0 || dist[i] < dist[best])) best = i;
    if (best < 0) return Infinity;
    const x = best % grid.width;
    const y = (best - x) / grid.width;
    if (x === tx && y === ty) return dist[best];
    done[best] = true;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const step = stepCost(grid, x, y, dx, dy, rule);
        if (step === null) continue;
        const next = (y + dy) * grid.width + x + dx;
        dist[next] = Math.min(dist[next], dist[best] + step);
      }
    }
  }
}

/**
 * Walks a path: it must start and end where asked, at a walkable start, and
 * `leg` must allow each leg (returning its cost, or a string saying why not).
 * Returns the total cost, or a string saying what is wrong.
 */
export function checkLegs(
  grid: PlainGrid, path: Array<[number, number]>, sx: number, sy: number, tx: number, ty: number,
  leg: (x0: number, y0: number, x1: number, y1: number) => number | string,
): number | string {
  if (path.length === 0) return 'empty path';
  const [fx, fy] = path[0];
  const [lx, ly] = path[path.length - 1];
  if (fx !== sx || fy !== sy) return `starts at (${fx}, ${fy}), not (${sx}, ${sy})`;
  if (lx !== tx || ly !== ty) return `ends at (${lx}, ${ly}), not (${tx}, ${ty})`;
  if (!open(grid, sx, sy)) return 'start blocked';
  let cost = 0;
  for (let i = 1; i < path.length; i++) {
    const c = leg(path[i - 1][0], path[i - 1][1], path[i][0], path[i][1]);
    if (typeof c === 'string') return `leg ${i}: ${c}`;
    cost += c;
  }
  return cost;
}

/**
 * Checks a returned path: it starts and ends where asked, every cell is
 * walkable, every step is to a neighbour allowed by the rule. Returns the cost
 * recomputed from the steps, or a string saying what is wrong.
 */
export function checkPath(
  grid: PlainGrid, path: Array<[number, number]>, sx: number, sy: number, tx: number, ty: number, rule: DiagonalRule,
): number | string {
  return checkLegs(grid, path, sx, sy, tx, ty, (x0, y0, x1, y1) =>
    stepCost(grid, x0, y0, x1 - x0, y1 - y0, rule) ?? `step (${x0}, ${y0}) -> (${x1}, ${y1}) is not allowed`);
}
