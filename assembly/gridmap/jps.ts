import { IndexedHeap } from './indexed-heap';
import {
  DIAGONAL_ALWAYS, DIAGONAL_NEVER, DIAGONAL_ONE_OBSTACLE, Grid, TIE, columnIndex, diagonalAllowed, distance, nodeAt, seed, spend, walkableAt,
} from './map';

// Jump point search on uniform-cost grids (every cell costs 1), under every
// diagonal rule. A* over jump points: from each expanded point, scan straight
// (and, with diagonals, diagonal) lines and stop only where a path could turn
// optimally (a forced neighbour) or at the target. The parent of a jump point
// is the point it was reached from, on one straight or diagonal line;
// writePath fills in the cells between. Under the 'never' and
// 'no-corner-cutting' rules straight scans read eight cells per load: rows in
// the walk array and ('no-corner-cutting') columns in its column-by-column copy.

const ONES: u64 = 0x0101010101010101;

/**
 * Scans along a row of `walk` (rows `stride` apart) from `cell` in steps of
 * `step` (+-1, moving from cell - step into cell). Returns the first jump
 * point, or -1 at a wall. A jump point is the target or a cell beside which a
 * neighbour in the next row up or down opens up that the line's previous cell
 * could not reach directly. Walkability bytes are 0 or 1, so one u64 load
 * holds eight cells of a row and bitwise operations find the first stop among
 * them (a blocked cell, the target or a forced neighbour). The arrays are
 * padded so that loads past either end stay in them.
 */
@inline function jumpRow(walk: usize, cell: i32, step: i32, stride: i32, target: i32): i32 {
  // Many scans start at a wall (the next cell of a corridor's side): one byte settles those.
  if (!walkableAt(walk, cell)) return -1;
  // Eight cells from `low` upward; scanning west they are cell - 7 .. cell.
  let low = step > 0 ? cell : cell - 7;
  while (true) {
    const at = walk + <usize>low;
    const behind = walk + <usize>(low - step); // each cell's previous cell along the scan
    const up = load<u64>(at - <usize>stride);
    const down = load<u64>(at + <usize>stride);
    let stop = (load<u64>(at) ^ ONES)
      | (up & ~load<u64>(behind - <usize>stride))
      | (down & ~load<u64>(behind + <usize>stride));
    const t = <u32>(target - low);
    if (t < 8) stop |= <u64>1 << (<u64>t << 3);
    if (stop != 0) {
      const found = low + <i32>((step > 0 ? ctz(stop) : 63 - clz(stop)) >> 3);
      return walkableAt(walk, found) ? found : -1;
    }
    low += step << 3;
  }
}

/**
 * The 'never' rule's vertical scan (`step` is +-stride): a straight scan that
 * also stops where a horizontal scan from the cell finds a jump point.
 */
function jumpProbing(walk: usize, cell: i32, step: i32, target: i32): i32 {
  const stride = abs(step);
  let behindA = walkableAt(walk, cell - step + 1);
  let behindB = walkableAt(walk, cell - step - 1);
  while (true) {
    if (!walkableAt(walk, cell)) return -1;
    if (cell == target) return cell;
    const a = walkableAt(walk, cell + 1);
    const b = walkableAt(walk, cell - 1);
    if ((a && !behindA) || (b && !behindB)) return cell;
    if (jumpRow(walk, cell + 1, 1, stride, target) >= 0 || jumpRow(walk, cell - 1, -1, stride, target) >= 0) return cell;
    behindA = a;
    behindB = b;
    cell += step;
  }
}

/**
 * Scans diagonally from `cell` (reached by a diagonal step of stepX + stepY;
 * `column` is its index in the column copy). A cell is a jump point when a
 * straight scan along either component finds one. Each next diagonal step
 * needs both orthogonal neighbours walkable.
 */
function jumpDiagonal(grid: Grid, cell: i32, column: i32, stepX: i32, stepY: i32, target: i32, targetColumn: i32): i32 {
  const walk = grid.walk;
  const stride = grid.stride;
  const columns = grid.walkColumns;
  const columnStride = grid.columnStride;
  // The vertical scans run along the column copy, at `column`, cell's index there.
  const down = stepY > 0 ? 1 : -1;
  while (true) {
    if (!walkableAt(walk, cell)) return -1;
    if (cell == target) return cell;
    if (jumpRow(walk, cell + stepX, stepX, stride, target) >= 0) return cell;
    if (jumpRow(columns, column + down, down, columnStride, targetColumn) >= 0) return cell;
    if (!walkableAt(walk, cell + stepX) || !walkableAt(walk, cell + stepY)) return -1;
    cell += stepX + stepY;
    column += down + stepX * columnStride;
  }
}

/**
 * The straight scan of the rules that let a diagonal step pass a corner
 * ('always', 'one-obstacle'): a cell is a jump point when a diagonal step
 * ahead opens beside a blocked side cell, which the line's previous cells
 * cannot reach directly.
 */
@inline function jumpStraightPassing(walk: usize, cell: i32, step: i32, side: i32, target: i32): i32 {
  while (true) {
    if (!walkableAt(walk, cell)) return -1;
    if (cell == target) return cell;
    if (
      (walkableAt(walk, cell + step + side) && !walkableAt(walk, cell + side)) ||
      (walkableAt(walk, cell + step - side) && !walkableAt(walk, cell - side))
    ) return cell;
    cell += step;
  }
}

/**
 * The diagonal scan of the corner-passing rules: a cell is a jump point when
 * a diagonal opens backward past a blocked cell, or a straight scan along
 * either component finds a jump point. Under 'one-obstacle' (`oneOpen`) each
 * next step needs one of its orthogonal neighbours walkable.
 */
function jumpDiagonalPassing(walk: usize, cell: i32, stepX: i32, stepY: i32, stride: i32, target: i32, oneOpen: bool): i32 {
  while (true) {
    if (!walkableAt(walk, cell)) return -1;
    if (cell == target) return cell;
    if (
      (walkableAt(walk, cell - stepX + stepY) && !walkableAt(walk, cell - stepX)) ||
      (walkableAt(walk, cell + stepX - stepY) && !walkableAt(walk, cell - stepY))
    ) return cell;
    if (jumpStraightPassing(walk, cell + stepX, stepX, stride, target) >= 0) return cell;
    if (jumpStraightPassing(walk, cell + stepY, stepY, 1, target) >= 0) return cell;
    if (oneOpen && !walkableAt(walk, cell + stepX) && !walkableAt(walk, cell + stepY)) return -1;
    cell += stepX + stepY;
  }
}

/** Jump point search; a budget (counting jump points) and the result as in bestFirstSearch. */
export function jpsSearch(grid: Grid, start: i32, target: i32, diagonal: i32, budget: i32): i32 {
  const stride = grid.stride;
  const walk = grid.walk;
  const nodes = grid.nodes;
  const open = grid.generation;
  const closed = open + 1;
  const queue = changetype<IndexedHeap>(grid.heap);
  const never = diagonal == DIAGONAL_NEVER;
  const oneObstacle = diagonal == DIAGONAL_ONE_OBSTACLE;
  const cornerPassing = diagonal == DIAGONAL_ALWAYS || oneObstacle;
  const ty = target / stride;
  const tx = target - ty * stride;
  const columns = grid.walkColumns;
  const columnStride = grid.columnStride;
  const targetColumn = columnIndex(grid, tx - 1, ty - 1);
  seed(grid, start, open);
  queue.push(0.0, start);
  let expanded = 0;
  while (!queue.empty) {
    const cell = queue.pop();
    const node = nodeAt(nodes, cell);
    store<u32>(node, closed, 8);
    if (cell == target) return target;
    const cy = cell / stride;
    const cx = cell - cy * stride;
    if (budget > 0 && spend(grid, cell, distance(cx - tx, cy - ty, diagonal), load<f64>(node), budget, expanded++)) return grid.nearestCell;
    const from = load<i32>(node, 12);
    // Direction of arrival (0, 0 at the start), one of 8 unit steps.
    let dx = 0;
    let dy = 0;
    if (from >= 0) {
      const fy = from / stride;
      const fx = from - fy * stride;
      dx = cx > fx ? 1 : cx < fx ? -1 : 0;
      dy = cy > fy ? 1 : cy < fy ? -1 : 0;
    }
    const north = walkableAt(walk, cell - stride);
    const south = walkableAt(walk, cell + stride);
    const west = walkableAt(walk, cell - 1);
    const east = walkableAt(walk, cell + 1);
    // Directions to scan, as bits: 0 N, 1 S, 2 W, 3 E, 4 NW, 5 NE, 6 SW, 7 SE.
    let dirs = 0;
    if (dx == 0 && dy == 0) {
      dirs = 0xf;
      if (!never) dirs |= 0xf0;
    } else if (cornerPassing) {
      // Natural directions, plus each diagonal that opens past a blocked
      // cell (diagonal steps are checked against the rule below).
      if (dx != 0 && dy != 0) {
        dirs = (dy > 0 ? 2 : 1) | (dx > 0 ? 8 : 4) | diagonalBit(dx, dy);
        if (!walkableAt(walk, cell - dx)) dirs |= diagonalBit(-dx, dy);
        if (!walkableAt(walk, cell - dy * stride)) dirs |= diagonalBit(dx, -dy);
      } else if (dx != 0) {
        dirs = dx > 0 ? 8 : 4;
        if (!north) dirs |= diagonalBit(dx, -1);
        if (!south) dirs |= diagonalBit(dx, 1);
      } else {
        dirs = dy > 0 ? 2 : 1;
        if (!west) dirs |= diagonalBit(-1, dy);
        if (!east) dirs |= diagonalBit(1, dy);
      }
    } else if (never) {
      // Straight arrival: keep going, and turn either way.
      dirs = dx != 0 ? (dx > 0 ? 8 : 4) | 3 : (dy > 0 ? 2 : 1) | 12;
    } else if (dx != 0 && dy != 0) {
      // Diagonal arrival: the two straight components and the diagonal itself.
      dirs = (dy > 0 ? 2 : 1) | (dx > 0 ? 8 : 4) | diagonalBit(dx, dy);
    } else if (dx != 0) {
      // Straight arrival: ahead, plus each forced side (open beside, blocked
      // beside the previous cell, so reachable only through this one) with
      // its forward diagonal.
      dirs = dx > 0 ? 8 : 4;
      if (north && !walkableAt(walk, cell - dx - stride)) dirs |= 1 | diagonalBit(dx, -1);
      if (south && !walkableAt(walk, cell - dx + stride)) dirs |= 2 | diagonalBit(dx, 1);
    } else {
      dirs = dy > 0 ? 2 : 1;
      if (west && !walkableAt(walk, cell - dy * stride - 1)) dirs |= 4 | diagonalBit(-1, dy);
      if (east && !walkableAt(walk, cell - dy * stride + 1)) dirs |= 8 | diagonalBit(1, dy);
    }
    const base = load<f64>(node);
    for (let k = 0; k < 8; k++) {
      if ((dirs & (1 << k)) == 0) continue;
      let jump: i32;
      if (k < 4) {
        const step = k == 0 ? -stride : k == 1 ? stride : k == 2 ? -1 : 1;
        const side = k < 2 ? 1 : stride;
        if (cornerPassing) jump = jumpStraightPassing(walk, cell + step, step, side, target);
        else if (never && k < 2) jump = jumpProbing(walk, cell + step, step, target);
        else if (k >= 2) jump = jumpRow(walk, cell + step, step, stride, target);
        else {
          // A column scan along the column copy; the jump point comes back as a cell index.
          const down = k == 1 ? 1 : -1;
          const found = jumpRow(columns, columnIndex(grid, cx - 1, cy - 1) + down, down, columnStride, targetColumn);
          if (found < 0) jump = -1;
          else {
            const x = found / columnStride;
            jump = (found - x * columnStride) * stride + x;
          }
        }
      } else {
        const stepX = (k & 1) == 0 ? -1 : 1;
        const stepY = k < 6 ? -stride : stride;
        if (!diagonalAllowed(k < 6 ? north : south, (k & 1) == 0 ? west : east, diagonal)) continue;
        jump = cornerPassing
          ? jumpDiagonalPassing(walk, cell + stepX + stepY, stepX, stepY, stride, target, oneObstacle)
          : jumpDiagonal(grid, cell + stepX + stepY, columnIndex(grid, cx - 1 + stepX, cy - 1 + (k < 6 ? -1 : 1)), stepX, stepY, target, targetColumn);
      }
      if (jump < 0) continue;
      const jy = jump / stride;
      const jx = jump - jy * stride;
      const reached = nodeAt(nodes, jump);
      const seen = load<u32>(reached, 8);
      if (seen == closed) continue;
      const tentative = base + distance(jx - cx, jy - cy, diagonal);
      const key = tentative + distance(jx - tx, jy - ty, diagonal) - tentative * TIE;
      if (seen == open) {
        if (tentative >= load<f64>(reached)) continue;
        queue.decrease(key, jump);
      } else {
        store<u32>(reached, open, 8);
        queue.push(key, jump);
      }
      store<f64>(reached, tentative);
      store<i32>(reached, cell, 12);
    }
  }
  return -1;
}

@inline function diagonalBit(dx: i32, dy: i32): i32 {
  return 1 << (4 + (dy > 0 ? 2 : 0) + (dx > 0 ? 1 : 0));
}
