// Line of sight between cell centres, and string pulling along a path: the
// same design as assembly/gridmap/sight.ts. Cells are indices into a padded
// array (stride = width + 2, blocked border), as in the reference grid.
//
// The sight test is a supercover walk: it visits every cell whose closed
// square the segment between the two centres touches, including the two
// cells beside a grid corner the segment passes exactly through. Sight holds
// when every visited cell is walkable; so a segment never cuts a blocked cell
// and passes a corner only where all four cells around it are walkable, which
// every diagonal rule allows.

/** What the sight test reads of a grid. */
export interface SightCells {
  readonly stride: number;
  readonly walk: Uint8Array;
  readonly cost: Float64Array;
}

/** Relative slack when comparing a shortcut with the path it replaces: collinear sums round differently. */
export const PULL_SLACK = 1e-12;

/**
 * The highest cost among the cells the segment from a's centre to b's centre
 * touches, a excluded; -1 when one of them is blocked.
 */
export function sight(grid: SightCells, a: number, b: number): number {
  const { stride, walk, cost } = grid;
  const ay = Math.floor(a / stride);
  const ax = a - ay * stride;
  const by = Math.floor(b / stride);
  const bx = b - by * stride;
  const nx = Math.abs(bx - ax);
  const ny = Math.abs(by - ay);
  const sx = bx > ax ? 1 : -1;
  const sy = by > ay ? stride : -stride;
  let cell = a;
  let highest = 0;
  // ix, iy: grid lines crossed so far. The next x line lies at (1 + 2 ix) / (2 nx)
  // of the way, the next y line at (1 + 2 iy) / (2 ny): compared exactly by cross-multiplying.
  for (let ix = 0, iy = 0; ix < nx || iy < ny; ) {
    const order = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx;
    if (order === 0) {
      // Exactly through a corner: the two cells beside it are touched too.
      if (walk[cell + sx] === 0 || walk[cell + sy] === 0) return -1;
      highest = Math.max(highest, cost[cell + sx], cost[cell + sy]);
      cell += sx + sy;
      ix++;
      iy++;
    } else if (order < 0) {
      cell += sx;
      ix++;
    } else {
      cell += sy;
      iy++;
    }
    if (walk[cell] === 0) return -1;
    highest = Math.max(highest, cost[cell]);
  }
  return highest;
}

/**
 * The cost of a straight segment a -> b: a grid step (b adjacent to a) costs
 * its length (1 or sqrt 2) times b's cost, as in the grid searches; a longer
 * segment costs its euclidean length times the highest cost it touches
 * (`highest`, from sight()).
 */
export function segmentCost(grid: SightCells, a: number, b: number, highest: number): number {
  const stride = grid.stride;
  const ay = Math.floor(a / stride);
  const by = Math.floor(b / stride);
  const dx = Math.abs(b - by * stride - (a - ay * stride));
  const dy = Math.abs(by - ay);
  if (dx <= 1 && dy <= 1) return (dx + dy === 2 ? Math.SQRT2 : 1) * grid.cost[b];
  return Math.sqrt(dx * dx + dy * dy) * highest;
}

/** Whether b is one of a's eight neighbours. */
function adjacent(stride: number, a: number, b: number): boolean {
  const d = Math.abs(b - a);
  return d === 1 || d === stride - 1 || d === stride || d === stride + 1;
}

/** The cost of a segment of a path already found (a grid step, or a segment sight holds for). */
export function legCost(grid: SightCells, a: number, b: number): number {
  return segmentCost(grid, a, b, adjacent(grid.stride, a, b) ? 0 : sight(grid, a, b));
}

/**
 * String pulling: walks the path from its start and skips each corner the
 * current anchor sees past, as long as the straight segment costs no more
 * than the stretch of path it replaces; the first cell that cannot be seen
 * (or reached as cheaply) makes the previous one a corner and the new anchor.
 * Returns the corners (start and end included) and the total cost.
 */
export function pullString(grid: SightCells, cells: number[]): { corners: number[]; cost: number } {
  const corners = [cells[0]];
  if (cells.length === 1) return { corners, cost: 0 };
  let total = 0;
  let anchor = cells[0];
  let last = cells[1];
  let lastCost = legCost(grid, anchor, last);
  let along = lastCost;
  for (let j = 2; j < cells.length; j++) {
    const leg = legCost(grid, cells[j - 1], cells[j]);
    along += leg;
    const highest = sight(grid, anchor, cells[j]);
    if (highest >= 0) {
      const shortcut = segmentCost(grid, anchor, cells[j], highest);
      if (shortcut <= along * (1 + PULL_SLACK)) {
        last = cells[j];
        lastCost = shortcut;
        continue;
      }
    }
    corners.push(last);
    total += lastCost;
    anchor = last;
    last = cells[j];
    lastCost = leg;
    along = leg;
  }
  corners.push(last);
  return { corners, cost: total + lastCost };
}
