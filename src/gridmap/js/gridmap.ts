// The pure-TypeScript GridMap backend: the same design as the wasm core
// (assembly/gridmap/map.ts, grid-search.ts, grid-jps.ts; Theta* and line of sight
// in grid-theta.ts and grid-sight.ts beside this file). Cells live in typed
// arrays with a one-cell blocked border (stride = width + 2); search state is
// reused between queries through a generation stamp; A* breaks f ties toward
// the larger g and holds its best successor out of the heap; the open list is
// an indexed heap with decrease-key; jump point search runs on uniform-cost
// grids under every diagonal rule and A* runs in its place otherwise.
import type { GridBackend, GridPath } from '../backend.js';
import { pullString } from './sight.js';
import { ALWAYS, NEVER, ONE_OBSTACLE, SQRT2, TIE, diagonalAllowed, distance, neighbour } from './steps.js';
import { thetaStar } from './theta.js';
import { IndexedHeap } from './indexed-heap.js';
import { Nearest } from './nearest.js';

const DIJKSTRA = 1;
const SPFA = 2;
const JPS = 3;
const THETA = 4;

export class ReferenceGrid implements GridBackend {
  // Cells and search state are read by the searches in their own files (grid-theta.ts).
  readonly stride: number;
  readonly walk: Uint8Array;
  readonly cost: Float64Array;
  private nonUnit = 0;
  // Search state, allocated on the first query.
  g: Float64Array | null = null;
  parent = new Int32Array(0);
  stamp = new Uint32Array(0);
  generation = 0;
  heap = new IndexedHeap(0);
  private ring: Int32Array | null = null;
  /** The expanded cell nearest the target, kept while a search has a budget. */
  readonly nearest = new Nearest();
  /** Whether the last search stopped at its budget before reaching the target. */
  partial = false;

  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {
    this.stride = width + 2;
    const cells = this.stride * (height + 2);
    this.walk = new Uint8Array(cells);
    for (let y = 0; y < height; y++) this.walk.fill(1, this.index(0, y), this.index(0, y) + width);
    this.cost = new Float64Array(cells).fill(1);
  }

  private index(x: number, y: number): number {
    return (y + 1) * this.stride + x + 1;
  }

  setWalkable(x: number, y: number, walkable: boolean): void {
    this.walk[this.index(x, y)] = walkable ? 1 : 0;
  }

  isWalkable(x: number, y: number): boolean {
    return this.walk[this.index(x, y)] !== 0;
  }

  loadWalkable(cells: Uint8Array): void {
    for (let y = 0; y < this.height; y++) {
      const row = this.index(0, y);
      for (let x = 0; x < this.width; x++) this.walk[row + x] = cells[y * this.width + x] !== 0 ? 1 : 0;
    }
  }

  loadCosts(costs: Float64Array): void {
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) this.setCost(x, y, costs[y * this.width + x]);
    }
  }

  setCost(x: number, y: number, cost: number): void {
    const i = this.index(x, y);
    if (this.cost[i] !== 1) this.nonUnit--;
    if (cost !== 1) this.nonUnit++;
    this.cost[i] = cost;
  }

  getCost(x: number, y: number): number {
    return this.cost[this.index(x, y)];
  }

  findPath(
    sx: number, sy: number, tx: number, ty: number, diagonal: number, algorithm: number, budget: number, smooth: boolean,
  ): GridPath | null {
    const start = this.index(sx, sy);
    const target = this.index(tx, ty);
    if (this.walk[start] === 0 || this.walk[target] === 0) return null;
    this.beginSearch();
    let end: number;
    if (algorithm === THETA) {
      end = thetaStar(this, start, target, diagonal, budget);
    } else if (algorithm === JPS && this.nonUnit === 0) {
      end = this.jps(start, target, diagonal, budget);
    } else if (algorithm === SPFA) {
      end = this.spfa(start, target, diagonal) ? target : -1;
    } else {
      end = this.bestFirst(start, target, diagonal, algorithm !== DIJKSTRA, budget);
    }
    if (end < 0) return null;
    const cells = this.chain(end, algorithm !== THETA);
    let result: GridPath;
    if (smooth) {
      const { corners, cost } = pullString(this, cells);
      result = { path: corners.map((cell) => this.point(cell)), cost };
    } else {
      result = { path: cells.map((cell) => this.point(cell)), cost: this.g![end] };
    }
    if (budget > 0) result.complete = !this.partial;
    return result;
  }

  dispose(): void {
    this.g = null;
    this.ring = null;
    this.heap = new IndexedHeap(0);
  }

  private beginSearch(): void {
    if (this.g === null) {
      const cells = this.walk.length;
      this.g = new Float64Array(cells);
      this.parent = new Int32Array(cells);
      this.stamp = new Uint32Array(cells);
      this.heap = new IndexedHeap(cells);
      this.generation = 0;
    }
    if (this.generation >= 0xfffffff0) {
      this.stamp.fill(0);
      this.generation = 0;
    }
    this.generation += 2;
    this.heap.clear();
    this.nearest.clear();
    this.partial = false;
  }

  /** Puts the start cell in the search at cost 0, without a parent, with the given stamp. */
  seed(start: number, stamp: number): void {
    this.g![start] = 0;
    this.parent[start] = -1;
    this.stamp[start] = stamp;
  }

  /**
   * Bookkeeping for a budget, when a search closes a cell other than the
   * target: offers the cell as the nearest so far, and says whether the
   * budget is spent (then the search ends at the nearest cell).
   */
  spend(cell: number, distance: number, budget: number, expanded: number): boolean {
    this.nearest.offer(cell, distance, this.g![cell]);
    if (expanded < budget) return false;
    this.partial = true;
    return true;
  }

  /**
   * A* (with a heuristic) or Dijkstra (without) from start, stopping when
   * target is closed, or when `budget` cells (0: no limit) have been
   * expanded. Returns the cell to read the path back from: the target, the
   * nearest cell at a spent budget, or -1 when the target is unreachable.
   */
  private bestFirst(start: number, target: number, diagonal: number, heuristic: boolean, budget: number): number {
    const { stride, walk, cost, parent, stamp, heap } = this;
    const g = this.g!;
    const open = this.generation;
    const closed = open + 1;
    const ty = Math.floor(target / stride);
    const tx = target - ty * stride;
    this.seed(start, open);
    // The best successor of the cell being expanded is held out of the heap:
    // on open ground it is usually the very next cell to expand (same f,
    // larger g), and holding it saves a push and a pop per step.
    let held = start;
    let heldKey = 0;
    // Lowers next's g to tentative when that improves it (or next is new).
    // A new cell is queued, or held when its key beats the held one; an open
    // one takes the lower key in its heap entry (or the held slot).
    const relax = (cell: number, next: number, tentative: number, dx: number, dy: number): void => {
      const seen = stamp[next];
      if (seen === closed) return;
      if (seen === open && tentative >= g[next]) return;
      g[next] = tentative;
      parent[next] = cell;
      stamp[next] = open;
      const key = heuristic ? tentative + distance(dx, dy, diagonal) - tentative * TIE : tentative;
      if (seen === open) {
        if (next === held) heldKey = key;
        else heap.decrease(key, next);
      } else if (held < 0 || key < heldKey) {
        if (held >= 0) heap.push(heldKey, held);
        held = next;
        heldKey = key;
      } else {
        heap.push(key, next);
      }
    };
    let expanded = 0;
    while (held >= 0 || !heap.empty) {
      let cell = held;
      if (cell >= 0) held = -1;
      else cell = heap.pop();
      stamp[cell] = closed;
      if (cell === target) return target;
      const cy = Math.floor(cell / stride);
      const cx = cell - cy * stride;
      if (budget > 0 && this.spend(cell, distance(cx - tx, cy - ty, diagonal), budget, expanded++)) return this.nearest.cell;
      const base = g[cell];
      const north = walk[cell - stride] !== 0;
      const south = walk[cell + stride] !== 0;
      const west = walk[cell - 1] !== 0;
      const east = walk[cell + 1] !== 0;
      if (north) relax(cell, cell - stride, base + cost[cell - stride], cx - tx, cy - 1 - ty);
      if (south) relax(cell, cell + stride, base + cost[cell + stride], cx - tx, cy + 1 - ty);
      if (west) relax(cell, cell - 1, base + cost[cell - 1], cx - 1 - tx, cy - ty);
      if (east) relax(cell, cell + 1, base + cost[cell + 1], cx + 1 - tx, cy - ty);
      for (let k = 4; k < 8 && diagonal !== NEVER; k++) {
        const stepY = k < 6 ? -1 : 1;
        const stepX = (k & 1) === 0 ? -1 : 1;
        const next = cell + stepY * stride + stepX;
        if (walk[next] !== 0 && diagonalAllowed(stepY < 0 ? north : south, stepX < 0 ? west : east, diagonal)) {
          relax(cell, next, base + SQRT2 * cost[next], cx + stepX - tx, cy + stepY - ty);
        }
      }
      // The held successor goes next only if nothing queued comes before it.
      if (held >= 0 && !heap.empty && heldKey > heap.topKey) {
        heap.push(heldKey, held);
        held = -1;
      }
    }
    return -1;
  }

  /** SPFA: a FIFO of cells, each queued at most once at a time, until no g can drop. */
  private spfa(start: number, target: number, diagonal: number): boolean {
    const { stride, walk, cost, parent, stamp } = this;
    const g = this.g!;
    const cells = walk.length;
    const ring = (this.ring ??= new Int32Array(cells));
    const seen = this.generation; // reached, not queued
    const queued = seen + 1;
    this.seed(start, queued);
    ring[0] = start;
    let head = 0;
    let tail = 1;
    let count = 1;
    while (count > 0) {
      const cell = ring[head];
      if (++head === cells) head = 0;
      count--;
      stamp[cell] = seen;
      const base = g[cell];
      const north = walk[cell - stride] !== 0;
      const south = walk[cell + stride] !== 0;
      const west = walk[cell - 1] !== 0;
      const east = walk[cell + 1] !== 0;
      for (let k = 0; k < 8; k++) {
        const next = neighbour(walk, stride, cell, k, north, south, west, east, diagonal);
        if (next < 0) continue;
        const step = k < 4 ? 1 : SQRT2;
        const tentative = base + step * cost[next];
        const state = stamp[next];
        if (state >= seen && tentative >= g[next]) continue;
        g[next] = tentative;
        parent[next] = cell;
        if (state !== queued) {
          stamp[next] = queued;
          ring[tail] = next;
          if (++tail === cells) tail = 0;
          count++;
        }
      }
    }
    return stamp[target] >= seen;
  }

  /**
   * Scans from cell in steps of `step`; `side` is the perpendicular offset.
   * Returns the first jump point (the target, or a cell beside which a
   * neighbour opens up that the previous cell could not reach), or -1 at a
   * wall. With `probe` (the 'never' rule, vertical scans) every cell also
   * probes horizontally.
   */
  private jumpStraight(cell: number, step: number, side: number, target: number, probe: boolean): number {
    const walk = this.walk;
    for (;;) {
      if (walk[cell] === 0) return -1;
      if (cell === target) return cell;
      if ((walk[cell + side] !== 0 && walk[cell - step + side] === 0) || (walk[cell - side] !== 0 && walk[cell - step - side] === 0)) {
        return cell;
      }
      const across = Math.abs(step);
      if (probe && (this.jumpStraight(cell + 1, 1, across, target, false) >= 0 || this.jumpStraight(cell - 1, -1, across, target, false) >= 0)) {
        return cell;
      }
      cell += step;
    }
  }

  /** Scans diagonally; a cell is a jump point when a straight scan along either component finds one. */
  private jumpDiagonal(cell: number, stepX: number, stepY: number, target: number): number {
    const walk = this.walk;
    for (;;) {
      if (walk[cell] === 0) return -1;
      if (cell === target) return cell;
      if (this.jumpStraight(cell + stepX, stepX, this.stride, target, false) >= 0) return cell;
      if (this.jumpStraight(cell + stepY, stepY, 1, target, false) >= 0) return cell;
      if (walk[cell + stepX] === 0 || walk[cell + stepY] === 0) return -1;
      cell += stepX + stepY;
    }
  }

  /**
   * The scans of the rules that let a diagonal step pass a corner ('always',
   * 'one-obstacle'). Straight: a cell is a jump point when a diagonal step
   * ahead opens beside a blocked side cell. Diagonal: when a diagonal opens
   * backward past a blocked cell, or a straight scan along either component
   * finds a jump point; under 'one-obstacle' (`oneOpen`) each next step needs
   * one of its orthogonal neighbours walkable.
   */
  private jumpStraightPassing(cell: number, step: number, side: number, target: number): number {
    const walk = this.walk;
    for (;;) {
      if (walk[cell] === 0) return -1;
      if (cell === target) return cell;
      if ((walk[cell + step + side] !== 0 && walk[cell + side] === 0) || (walk[cell + step - side] !== 0 && walk[cell - side] === 0)) {
        return cell;
      }
      cell += step;
    }
  }

  private jumpDiagonalPassing(cell: number, stepX: number, stepY: number, target: number, oneOpen: boolean): number {
    const walk = this.walk;
    for (;;) {
      if (walk[cell] === 0) return -1;
      if (cell === target) return cell;
      if ((walk[cell - stepX + stepY] !== 0 && walk[cell - stepX] === 0) || (walk[cell + stepX - stepY] !== 0 && walk[cell - stepY] === 0)) {
        return cell;
      }
      if (this.jumpStraightPassing(cell + stepX, stepX, this.stride, target) >= 0) return cell;
      if (this.jumpStraightPassing(cell + stepY, stepY, 1, target) >= 0) return cell;
      if (oneOpen && walk[cell + stepX] === 0 && walk[cell + stepY] === 0) return -1;
      cell += stepX + stepY;
    }
  }

  /** Jump point search: A* over jump points on a uniform-cost grid; a budget and the result as in bestFirst. */
  private jps(start: number, target: number, diagonal: number, budget: number): number {
    const { stride, walk, parent, stamp, heap } = this;
    const g = this.g!;
    const open = this.generation;
    const closed = open + 1;
    const never = diagonal === NEVER;
    const oneObstacle = diagonal === ONE_OBSTACLE;
    const cornerPassing = diagonal === ALWAYS || oneObstacle;
    const ty = Math.floor(target / stride);
    const tx = target - ty * stride;
    this.seed(start, open);
    heap.push(0, start);
    let expanded = 0;
    while (!heap.empty) {
      const cell = heap.pop();
      stamp[cell] = closed;
      if (cell === target) return target;
      const cy = Math.floor(cell / stride);
      const cx = cell - cy * stride;
      if (budget > 0 && this.spend(cell, distance(cx - tx, cy - ty, diagonal), budget, expanded++)) return this.nearest.cell;
      const from = parent[cell];
      let dx = 0;
      let dy = 0;
      if (from >= 0) {
        const fy = Math.floor(from / stride);
        dx = Math.sign(cx - (from - fy * stride));
        dy = Math.sign(cy - fy);
      }
      const north = walk[cell - stride] !== 0;
      const south = walk[cell + stride] !== 0;
      const west = walk[cell - 1] !== 0;
      const east = walk[cell + 1] !== 0;
      // Directions to scan, as bits: 0 N, 1 S, 2 W, 3 E, 4 NW, 5 NE, 6 SW, 7 SE.
      let dirs: number;
      if (dx === 0 && dy === 0) dirs = never ? 0xf : 0xff;
      else if (cornerPassing) {
        // Natural directions, plus each diagonal that opens past a blocked
        // cell (diagonal steps are checked against the rule below).
        if (dx !== 0 && dy !== 0) {
          dirs = (dy > 0 ? 2 : 1) | (dx > 0 ? 8 : 4) | diagonalBit(dx, dy);
          if (walk[cell - dx] === 0) dirs |= diagonalBit(-dx, dy);
          if (walk[cell - dy * stride] === 0) dirs |= diagonalBit(dx, -dy);
        } else if (dx !== 0) {
          dirs = dx > 0 ? 8 : 4;
          if (!north) dirs |= diagonalBit(dx, -1);
          if (!south) dirs |= diagonalBit(dx, 1);
        } else {
          dirs = dy > 0 ? 2 : 1;
          if (!west) dirs |= diagonalBit(-1, dy);
          if (!east) dirs |= diagonalBit(1, dy);
        }
      } else if (never) dirs = dx !== 0 ? (dx > 0 ? 8 : 4) | 3 : (dy > 0 ? 2 : 1) | 12;
      else if (dx !== 0 && dy !== 0) dirs = (dy > 0 ? 2 : 1) | (dx > 0 ? 8 : 4) | diagonalBit(dx, dy);
      else if (dx !== 0) {
        // Straight arrival: ahead, plus each forced side (open beside, blocked beside
        // the previous cell, so reachable only through this one) with its forward diagonal.
        dirs = dx > 0 ? 8 : 4;
        if (north && walk[cell - dx - stride] === 0) dirs |= 1 | diagonalBit(dx, -1);
        if (south && walk[cell - dx + stride] === 0) dirs |= 2 | diagonalBit(dx, 1);
      } else {
        dirs = dy > 0 ? 2 : 1;
        if (west && walk[cell - dy * stride - 1] === 0) dirs |= 4 | diagonalBit(-1, dy);
        if (east && walk[cell - dy * stride + 1] === 0) dirs |= 8 | diagonalBit(1, dy);
      }
      const base = g[cell];
      for (let k = 0; k < 8; k++) {
        if ((dirs & (1 << k)) === 0) continue;
        let jump: number;
        if (k < 4) {
          const step = k === 0 ? -stride : k === 1 ? stride : k === 2 ? -1 : 1;
          const side = k < 2 ? 1 : stride;
          jump = cornerPassing ? this.jumpStraightPassing(cell + step, step, side, target) : this.jumpStraight(cell + step, step, side, target, never && k < 2);
        } else {
          const stepX = (k & 1) === 0 ? -1 : 1;
          const stepY = k < 6 ? -stride : stride;
          if (!diagonalAllowed(k < 6 ? north : south, (k & 1) === 0 ? west : east, diagonal)) continue;
          jump = cornerPassing
            ? this.jumpDiagonalPassing(cell + stepX + stepY, stepX, stepY, target, oneObstacle)
            : this.jumpDiagonal(cell + stepX + stepY, stepX, stepY, target);
        }
        if (jump < 0) continue;
        const jy = Math.floor(jump / stride);
        const jx = jump - jy * stride;
        const seen = stamp[jump];
        if (seen === closed) continue;
        const tentative = base + distance(jx - cx, jy - cy, diagonal);
        if (seen === open && tentative >= g[jump]) continue;
        g[jump] = tentative;
        parent[jump] = cell;
        const key = tentative + distance(jx - tx, jy - ty, diagonal) - tentative * TIE;
        if (seen === open) heap.decrease(key, jump);
        else heap.push(key, jump);
        stamp[jump] = open;
      }
    }
    return -1;
  }

  /**
   * Follows parents back from `end` and returns the cells from the start to
   * it; with `fill`, the cells between jump points too (one straight or
   * diagonal line each), without it the parents alone (Theta*'s corners).
   */
  private chain(end: number, fill: boolean): number[] {
    const { stride, parent } = this;
    const cells = [end];
    for (let cell = end, from = parent[end]; from >= 0; cell = from, from = parent[from]) {
      if (fill) {
        const fy = Math.floor(from / stride);
        const cy = Math.floor(cell / stride);
        const step = Math.sign(fy - cy) * stride + Math.sign(from - fy * stride - (cell - cy * stride));
        for (let between = cell + step; between !== from; between += step) cells.push(between);
      }
      cells.push(from);
    }
    return cells.reverse();
  }

  /** A padded cell index as [x, y] on the grid. */
  private point(cell: number): [number, number] {
    const y = Math.floor(cell / this.stride);
    return [cell - y * this.stride - 1, y - 1];
  }
}

function diagonalBit(dx: number, dy: number): number {
  return 1 << (4 + (dy > 0 ? 2 : 0) + (dx > 0 ? 1 : 0));
}
