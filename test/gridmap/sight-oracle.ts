// The brute-force opinion on straight segments over a grid: which cells a
// segment between two cell centres touches, found by testing every cell of
// its bounding box against the segment (closed squares, exact integer
// arithmetic in doubled coordinates), sharing no code with the library's
// supercover walk. Checks any-angle paths segment by segment.
import type { DiagonalRule } from '../../src/index.js';
import { checkLegs, stepCost, type PlainGrid } from './dijkstra-oracle.js';

/** Whether the segment between the centres of (ax, ay) and (bx, by) meets the closed square of cell (x, y). */
function touches(ax: number, ay: number, bx: number, by: number, x: number, y: number): boolean {
  // Doubled coordinates: centres are odd integers, the square is [2x, 2x + 2] x [2y, 2y + 2].
  const [x0, y0, x1, y1] = [2 * ax + 1, 2 * ay + 1, 2 * bx + 1, 2 * by + 1];
  if (Math.max(x0, x1) < 2 * x || Math.min(x0, x1) > 2 * x + 2) return false;
  if (Math.max(y0, y1) < 2 * y || Math.min(y0, y1) > 2 * y + 2) return false;
  // The square's corners lie on both sides of the segment's line, or on it.
  const side = (px: number, py: number): number => Math.sign((x1 - x0) * (py - y0) - (y1 - y0) * (px - x0));
  const sides = new Set([side(2 * x, 2 * y), side(2 * x + 2, 2 * y), side(2 * x, 2 * y + 2), side(2 * x + 2, 2 * y + 2)]);
  return !(sides.size === 1 && !sides.has(0));
}

/** Every cell the segment touches, as [x, y]. */
export function touchedCells(ax: number, ay: number, bx: number, by: number): Array<[number, number]> {
  const cells: Array<[number, number]> = [];
  for (let y = Math.min(ay, by); y <= Math.max(ay, by); y++) {
    for (let x = Math.min(ax, bx); x <= Math.max(ax, bx); x++) if (touches(ax, ay, bx, by, x, y)) cells.push([x, y]);
  }
  return cells;
}

/**
 * The cost of one segment of an any-angle path, or a string saying why it is
 * not allowed: a segment to a neighbour is a grid step (allowed by the rule,
 * costing as in the searches); a longer one must touch only walkable cells and
 * costs its length times the highest cost it touches after its first cell.
 */
export function segmentCostOracle(grid: PlainGrid, ax: number, ay: number, bx: number, by: number, rule: DiagonalRule): number | string {
  const dx = bx - ax;
  const dy = by - ay;
  if (Math.max(Math.abs(dx), Math.abs(dy)) === 1) {
    const step = stepCost(grid, ax, ay, dx, dy, rule);
    return step ?? `step (${ax}, ${ay}) -> (${bx}, ${by}) is not allowed`;
  }
  let highest = 0;
  for (const [x, y] of touchedCells(ax, ay, bx, by)) {
    if (!grid.walkable[y * grid.width + x]) return `segment (${ax}, ${ay}) -> (${bx}, ${by}) cuts blocked cell (${x}, ${y})`;
    if (x !== ax || y !== ay) highest = Math.max(highest, grid.cost[y * grid.width + x]);
  }
  return Math.sqrt(dx * dx + dy * dy) * highest;
}

/**
 * Checks an any-angle path (corners joined by segments): it starts and ends
 * where asked, and every segment is allowed. Returns the cost recomputed
 * from the segments, or a string saying what is wrong.
 */
export function checkCorners(
  grid: PlainGrid, path: Array<[number, number]>, sx: number, sy: number, tx: number, ty: number, rule: DiagonalRule,
): number | string {
  return checkLegs(grid, path, sx, sy, tx, ty, (x0, y0, x1, y1) => segmentCostOracle(grid, x0, y0, x1, y1, rule));
}
