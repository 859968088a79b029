import { Grid, SQRT2, cellIndex } from './map';

// Line of sight between cell centres, and string pulling along a path in the
// result block. The sight test is a supercover walk: it visits every cell
// whose closed square the segment between the two centres touches, including
// the two cells beside a grid corner the segment passes exactly through.
// Sight holds when every visited cell is walkable: a segment never cuts a
// blocked cell and passes a corner only where all four cells around it are
// walkable, which every diagonal rule allows. The reference backend mirrors
// this file (src/gridmap/js/sight.ts).

/** Relative slack when comparing a shortcut with the path it replaces: collinear sums round differently. */
const PULL_SLACK: f64 = 1e-12;

@inline function walkable(walk: usize, cell: i32): bool {
  return load<u8>(walk + <usize>cell) != 0;
}

@inline function costAt(cost: usize, cell: i32): f64 {
  return load<f64>(cost + (<usize>cell << 3));
}

/**
 * The highest cost among the cells the segment from a's centre to b's centre
 * touches, a excluded; -1 when one of them is blocked. On a uniform-cost grid
 * the costs are not read: the answer is 1.
 */
export function sight(grid: Grid, a: i32, b: i32): f64 {
  const stride = grid.stride;
  const walk = grid.walk;
  const cost = grid.cost;
  const uniform = grid.nonUnit == 0;
  const ay = a / stride;
  const ax = a - ay * stride;
  const by = b / stride;
  const bx = b - by * stride;
  const nx = abs(bx - ax);
  const ny = abs(by - ay);
  const sx = bx > ax ? 1 : -1;
  const sy = by > ay ? stride : -stride;
  let cell = a;
  let highest: f64 = 0.0;
  let ix = 0;
  let iy = 0;
  // ix, iy: grid lines crossed so far. The next x line lies at (1 + 2 ix) / (2 nx)
  // of the way, the next y line at (1 + 2 iy) / (2 ny): compared exactly by cross-multiplying.
  while (ix < nx || iy < ny) {
    const order = <i64>(1 + 2 * ix) * <i64>ny - <i64>(1 + 2 * iy) * <i64>nx;
    if (order == 0) {
      // Exactly through a corner: the two cells beside it are touched too.
      if (!walkable(walk, cell + sx) || !walkable(walk, cell + sy)) return -1.0;
      if (!uniform) highest = max(highest, max(costAt(cost, cell + sx), costAt(cost, cell + sy)));
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
    if (!walkable(walk, cell)) return -1.0;
    if (!uniform) highest = max(highest, costAt(cost, cell));
  }
  return uniform && (nx | ny) != 0 ? 1.0 : highest;
}

/**
 * The cost of a straight segment a -> b: a grid step (b adjacent to a) costs
 * its length (1 or sqrt 2) times b's cost, as in the grid searches; a longer
 * segment costs its euclidean length times `highest` (from sight()).
 */
export function segmentCost(grid: Grid, a: i32, b: i32, highest: f64): f64 {
  const stride = grid.stride;
  const ay = a / stride;
  const by = b / stride;
  const dx = abs(b - by * stride - (a - ay * stride));
  const dy = abs(by - ay);
  if (dx <= 1 && dy <= 1) return (dx + dy == 2 ? SQRT2 : 1.0) * costAt(grid.cost, b);
  return Math.sqrt(<f64>(dx * dx + dy * dy)) * highest;
}

/** The cost of a segment of a path already found (a grid step, or a segment sight holds for). */
function legCost(grid: Grid, a: i32, b: i32): f64 {
  const d = abs(b - a);
  const stride = grid.stride;
  const adjacent = d == 1 || d == stride - 1 || d == stride || d == stride + 1;
  return segmentCost(grid, a, b, adjacent ? 0.0 : sight(grid, a, b));
}

@inline function entryCell(grid: Grid, at: usize): i32 {
  return cellIndex(grid, load<i32>(at), load<i32>(at, 4));
}

/**
 * String pulling over the path in the result block, in place: walks the path
 * from its start and skips each corner the current anchor sees past, as long
 * as the straight segment costs no more than the stretch of path it replaces;
 * the first cell that cannot be seen (or reached as cheaply) makes the
 * previous one a corner and the new anchor. Leaves the corners (start and end
 * included) and their total cost in the block.
 */
export function pullString(grid: Grid): void {
  const out = grid.out;
  const count = load<i32>(out);
  if (count == 1) return;
  const entries = out + 16;
  let corners = 1; // the start stays where it is
  let total: f64 = 0.0;
  let anchor = entryCell(grid, entries);
  let last = entryCell(grid, entries + 8);
  let lastCost = legCost(grid, anchor, last);
  let along = lastCost;
  for (let j = 2; j < count; j++) {
    const cell = entryCell(grid, entries + (<usize>j << 3));
    const leg = legCost(grid, last, cell); // last is entry j - 1
    along += leg;
    const highest = sight(grid, anchor, cell);
    if (highest >= 0.0) {
      const shortcut = segmentCost(grid, anchor, cell, highest);
      if (shortcut <= along * (1.0 + PULL_SLACK)) {
        last = cell;
        lastCost = shortcut;
        continue;
      }
    }
    writeEntry(grid, entries + (<usize>(corners++) << 3), last);
    total += lastCost;
    anchor = last;
    last = cell;
    lastCost = leg;
    along = leg;
  }
  writeEntry(grid, entries + (<usize>(corners++) << 3), last);
  store<i32>(out, corners);
  store<f64>(out + 8, total + lastCost);
}

@inline function writeEntry(grid: Grid, at: usize, cell: i32): void {
  const y = cell / grid.stride;
  store<i32>(at, cell - y * grid.stride - 1);
  store<i32>(at + 4, y - 1);
}
