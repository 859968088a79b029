// GridMap: tile-map walking. The facade validates every argument, then hands
// the call to the wasm core or the TypeScript reference, which run the same
// algorithms and return the same paths.
import { SpatialError } from '../core/errors.js';
import { checkLimit, limits, outOfMemory } from '../core/limits.js';
import { INSPECT, summary, keepName } from '../core/inspect.js';
import {
  ALGORITHM_CODES,
  DIAGONAL_CODES,
  type DiagonalRule,
  type GridAlgorithm,
  type GridBackend,
  type GridPath,
} from './backend.js';
import { readCosts, readWalkable, type GridCells } from './array.js';
import { WasmGrid } from './wasm.js';
import { parseMovingAIMap } from './movingai.js';
import { ReferenceGrid } from './js/gridmap.js';
import { checkAlive, checkFinite, checkOptions, checkPositiveInteger } from '../core/validate.js';
import { resolveBackend, type Backend } from '../core/wasm.js';

export type { DiagonalRule, GridAlgorithm, GridPath } from './backend.js';
export type { GridCells } from './array.js';

/**
 * The largest grid: 16,777,216 cells (4096 x 4096); a larger one is
 * LIMIT_EXCEEDED (see docs/limits.md). The wasm core holds 10
 * bytes per cell (walkability by rows and by columns, 1 byte each, and an f64
 * cost), 30 once searched (a 16-byte search record and a 4-byte open-list
 * position), 34 once SPFA ran (a 4-byte queue entry), over the grid plus a
 * one-cell border.
 */
export const MAX_GRID_CELLS = 1 << 24;

/** Options of the {@link GridMap} constructor and of {@link GridMap.fromMovingAI}. */
export interface GridMapOptions {
  /** 'wasm' (default) or 'js'. */
  backend?: Backend;
}

/** Options of {@link GridMap.fromArray}. */
export interface FromArrayOptions extends GridMapOptions {
  /**
   * Which cell values are walkable. Default: 0 is walkable and every other
   * value blocked (PathFinding.js's matrix convention). Called once per cell,
   * row by row; it must return a boolean.
   */
  walkable?: (value: number) => boolean;
  /** Each cell's cost multiplier, in the same shape as the cells: finite numbers >= 1. Default: all 1. */
  costs?: GridCells;
}

/** How findPath treats start and target coordinates that are not integers. */
export type FractionalCoordinates = 'reject' | 'floor';

/** Options of {@link GridMap.findPath}. */
export interface FindPathOptions {
  /**
   * When a diagonal step is allowed (default 'no-corner-cutting'): 'never';
   * 'always' (the diagonal cell must be walkable); 'no-corner-cutting' (both
   * orthogonal neighbours walkable too: the Moving AI rule); 'one-obstacle'
   * (at least one of them walkable).
   */
  diagonal?: DiagonalRule;
  /**
   * 'astar' (default), 'dijkstra', 'spfa', 'jps' or 'theta*'. Jump point
   * search runs when every cell costs 1, under any rule; on a grid with costs
   * A* runs in its place and returns A*'s path. 'theta*' is an any-angle
   * search (Theta*): its path lists corners joined by straight segments that
   * pass the line-of-sight test described under `smooth` (with the same
   * segment costs), and its cost is never above A*'s; not with the 'never'
   * rule (INVALID_ARGUMENT).
   */
  algorithm?: GridAlgorithm;
  /**
   * String pulling (default false): the path found is reduced to its corners,
   * each skipped stretch replaced by a straight segment between cell centres
   * that the line-of-sight test passes and that costs no more than the
   * stretch. The test walks the segment's supercover: every cell whose closed
   * square it touches (both cells beside a grid corner it passes exactly
   * through) must be walkable, so a segment never cuts a blocked cell and
   * passes a corner only where all four cells around it are walkable. A
   * segment costs its length times the highest cost among the cells it
   * touches after its first. `path` then lists corners only. Not with the
   * 'never' rule (INVALID_ARGUMENT), which forbids moving diagonally.
   */
  smooth?: boolean;
  /**
   * A search budget: the most cells to expand (an integer >= 1; jump point
   * search counts jump points). The result then carries `complete`: true
   * when the target was reached within the budget; false when the budget ran
   * out first, and `path` leads from the start to the expanded cell nearest
   * the target (by the search's estimate of the distance left: octile,
   * manhattan under 'never', straight-line for Theta*; the cheaper on a tie)
   * with `cost` its cost. An agent can walk that path and search again from
   * where it stands on a later tick. null still means unreachable (the
   * search ran out of cells within the budget). Not with 'spfa', which has no
   * nearest-first order to cut (INVALID_ARGUMENT).
   */
  maxExpansions?: number;
  /**
   * Start and target coordinates that are not integers: 'reject' (default)
   * throws INVALID_ARGUMENT; 'floor' rounds them down to the cell that holds
   * the point (x = 2.7 is in cell 2).
   */
  fractional?: FractionalCoordinates;
}

/** Every key each options object may have. */
const GRID_OPTION_KEYS = ['backend'];
const FIND_PATH_OPTION_KEYS = ['diagonal', 'algorithm', 'smooth', 'maxExpansions', 'fractional'];
const FROM_ARRAY_OPTION_KEYS = ['backend', 'walkable', 'costs'];

/** Option names other path-finding libraries use (allowDiagonal: PathFinding.js) and what they mean here. */
const FIND_PATH_OPTION_ALIASES = { allowDiagonal: 'diagonal', dontCrossCorners: 'diagonal' };

const FRACTIONAL_CODES: Record<FractionalCoordinates, number> = { reject: 0, floor: 1 };

function checkOption<T extends string>(name: string, value: unknown, allowed: Record<T, number>, fallback: T): number {
  if (value === undefined) return allowed[fallback];
  if (typeof value === 'string' && Object.prototype.hasOwnProperty.call(allowed, value)) return allowed[value as T];
  throw new SpatialError('INVALID_ARGUMENT', `${name} must be one of ${Object.keys(allowed).join(', ')}, got ${String(value)}`);
}

/**
 * A width x height tile map: cells are walkable or blocked and carry an
 * entering cost.
 *
 * Creating a map, or searching one, with memory the host will not give
 * throws OUT_OF_MEMORY and changes nothing; the cell limit is in
 * docs/limits.md.
 *
 * @example
 * ```ts
 * import { init, GridMap } from 'spatialkit';
 * await init();
 *
 * const grid = GridMap.fromArray(5, 3, [
 *   [0, 0, 0, 0, 0],
 *   [0, 1, 1, 1, 0],   // 1: blocked
 *   [0, 0, 0, 0, 0],
 * ]);
 * const route = grid.findPath(0, 1, 4, 1);  // around the wall, above or below it
 * route?.cost;                              // -> 6
 * route?.path.length;                       // -> 7: every cell from start to target
 * grid.isWalkable(2, 1);                    // -> false
 * ```
 */
export class GridMap {
  static {
    keepName(this, 'GridMap');
  }

  /** Columns: x runs over 0 .. width - 1. */
  readonly width: number;
  /** Rows: y runs over 0 .. height - 1. */
  readonly height: number;
  private readonly impl: GridBackend;
  /** Which core runs the grid, for inspection. */
  private readonly backend: Backend;
  private disposed = false;

  /**
   * Creates a grid with every cell walkable at cost 1. Width and height are
   * integers >= 1 (INVALID_ARGUMENT) with at most {@link MAX_GRID_CELLS}
   * cells (LIMIT_EXCEEDED); memory the host will not give is OUT_OF_MEMORY.
   * On the default wasm backend, await init() first (NOT_INITIALIZED
   * otherwise); `backend: 'js'` needs no init(). Unknown option keys throw
   * INVALID_ARGUMENT.
   */
  constructor(width: number, height: number, options: GridMapOptions = {}) {
    checkOptions('GridMap', options, GRID_OPTION_KEYS);
    GridMap.checkSize(width, height);
    this.backend = resolveBackend(options.backend);
    this.width = width;
    this.height = height;
    try {
      this.impl = this.backend === 'wasm' ? new WasmGrid(width, height) : new ReferenceGrid(width, height);
    } catch (error) {
      throw outOfMemory(error, 'creating a GridMap') ?? error;
    }
  }

  /** @internal What console.log and util.inspect print in Node: the class name and a summary, not the arrays inside. */
  [INSPECT](): string {
    if (this.disposed) return summary('GridMap', 'disposed');
    return summary('GridMap', { width: this.width, height: this.height, backend: this.backend });
  }

  /**
   * Reads a Moving AI Lab `.map` file ('.', 'G', 'S' passable; '@', 'O', 'T',
   * 'W' blocked; CRLF accepted). Malformed text and unknown option keys
   * throw INVALID_ARGUMENT; sizes as for the constructor (LIMIT_EXCEEDED past
   * {@link MAX_GRID_CELLS} cells).
   */
  static fromMovingAI(mapText: string, options: GridMapOptions = {}): GridMap {
    checkOptions('GridMap.fromMovingAI', options, GRID_OPTION_KEYS);
    const map = parseMovingAIMap(mapText);
    const grid = new GridMap(map.width, map.height, options);
    grid.load(() => grid.impl.loadWalkable(map.cells));
    return grid;
  }

  /**
   * Builds a grid from cell values: `cells` is flat and row-major
   * (cells[y * width + x], a number[] or a typed array such as Uint8Array)
   * or an array of `height` rows of `width` values each. By default 0 is
   * walkable and anything else blocked; `options.walkable` names another
   * rule, `options.costs` gives cost multipliers in the same shape. A wrong
   * length or a ragged row is INVALID_ARGUMENT, a value that is not a finite
   * number INVALID_NUMBER; sizes as for the constructor.
   */
  static fromArray(width: number, height: number, cells: GridCells, options: FromArrayOptions = {}): GridMap {
    checkOptions('GridMap.fromArray', options, FROM_ARRAY_OPTION_KEYS);
    GridMap.checkSize(width, height);
    const { walkable = (value: number) => value === 0, costs } = options ?? {};
    if (typeof walkable !== 'function') throw new SpatialError('INVALID_ARGUMENT', 'walkable must be a function');
    const open = readWalkable(width, height, cells, walkable);
    const multipliers = costs === undefined ? null : readCosts(width, height, costs);
    const grid = new GridMap(width, height, { backend: options?.backend });
    grid.load(() => {
      grid.impl.loadWalkable(open);
      if (multipliers !== null) grid.impl.loadCosts(multipliers);
    });
    return grid;
  }

  /** Makes a cell walkable or blocked; its cost is kept either way. */
  setWalkable(x: number, y: number, walkable: boolean): void {
    this.checkCell(x, y);
    if (typeof walkable !== 'boolean') throw new SpatialError('INVALID_ARGUMENT', `walkable must be a boolean, got ${String(walkable)}`);
    this.impl.setWalkable(x, y, walkable);
  }

  /** Whether a cell is walkable. */
  isWalkable(x: number, y: number): boolean {
    this.checkCell(x, y);
    return this.impl.isWalkable(x, y);
  }

  /**
   * Sets the multiplier on the cost of entering a cell: a finite number >= 1
   * (INVALID_NUMBER for NaN or infinite, INVALID_ARGUMENT below 1, which would
   * make the A* heuristics overestimate). Block a cell with setWalkable instead.
   */
  setCost(x: number, y: number, cost: number): void {
    this.checkCell(x, y);
    checkFinite('cost', cost);
    if (cost < 1) throw new SpatialError('INVALID_ARGUMENT', `cost must be >= 1, got ${cost}`);
    this.impl.setCost(x, y, cost);
  }

  /** The cost multiplier of a cell (1 unless set). */
  getCost(x: number, y: number): number {
    this.checkCell(x, y);
    return this.impl.getCost(x, y);
  }

  /**
   * The cheapest path from (sx, sy) to (tx, ty): every cell from start to
   * target as [x, y], and its cost (an orthogonal step costs 1, a diagonal
   * one sqrt(2), each times the cost of the cell entered). Start == target
   * gives a one-cell path of cost 0. Returns null when the target cannot be
   * reached, including when the start or the target cell is blocked.
   * Cells off the grid throw OUT_OF_GRID; coordinates that are not integers
   * throw INVALID_ARGUMENT unless `fractional: 'floor'`; unknown option keys
   * throw INVALID_ARGUMENT. With `smooth` or
   * Theta* the path lists corners only; with `maxExpansions` the result may
   * be partial (see {@link FindPathOptions}).
   *
   * @example
   * ```ts
   * import { init, GridMap } from 'spatialkit';
   * await init();
   *
   * const grid = new GridMap(10, 10);
   * for (let y = 0; y < 9; y++) grid.setWalkable(5, y, false);     // a wall, open at the bottom
   * grid.findPath(0, 0, 9, 0)?.cost;                               // -> 22.899
   * grid.findPath(0, 0, 9, 0, { algorithm: 'jps' })?.cost;         // -> 22.899: the same optimum
   * grid.findPath(0, 0, 9, 0, { diagonal: 'never' })?.cost;        // -> 27
   * grid.findPath(0, 0, 5, 0);                                     // -> null: a blocked target
   * ```
   */
  findPath(sx: number, sy: number, tx: number, ty: number, options: FindPathOptions = {}): GridPath | null {
    checkAlive(this.disposed, 'GridMap');
    checkOptions('GridMap.findPath', options, FIND_PATH_OPTION_KEYS, FIND_PATH_OPTION_ALIASES);
    const { diagonal: rule, algorithm: name, smooth = false, maxExpansions, fractional } = options ?? {};
    const ends = [sx, sy, tx, ty];
    if (checkOption('fractional', fractional, FRACTIONAL_CODES, 'reject') === FRACTIONAL_CODES.floor) {
      [sx, sy, tx, ty] = ends.map((v) => (typeof v === 'number' ? Math.floor(v) : v));
    } else if (ends.some((v) => Number.isFinite(v) && !Number.isInteger(v))) {
      throw new SpatialError(
        'INVALID_ARGUMENT',
        `start and target must be integer cells, got (${sx}, ${sy}) -> (${tx}, ${ty}); the option fractional: 'floor' takes the cells holding those points`,
      );
    }
    this.checkCell(sx, sy);
    this.checkCell(tx, ty);
    const diagonal = checkOption('diagonal', rule, DIAGONAL_CODES, 'no-corner-cutting');
    const algorithm = checkOption('algorithm', name, ALGORITHM_CODES, 'astar');
    if (typeof smooth !== 'boolean') throw new SpatialError('INVALID_ARGUMENT', `smooth must be a boolean, got ${String(smooth)}`);
    if ((smooth || algorithm === ALGORITHM_CODES['theta*']) && diagonal === DIAGONAL_CODES.never) {
      throw new SpatialError('INVALID_ARGUMENT', "smooth and theta* move in straight lines at any angle, which the 'never' diagonal rule forbids");
    }
    let budget = 0;
    if (maxExpansions !== undefined) {
      checkPositiveInteger('maxExpansions', maxExpansions);
      if (maxExpansions > 0x7fffffff) throw new SpatialError('INVALID_ARGUMENT', `maxExpansions must be at most 2^31 - 1, got ${maxExpansions}`);
      if (algorithm === ALGORITHM_CODES.spfa) throw new SpatialError('INVALID_ARGUMENT', 'maxExpansions does not apply to spfa');
      budget = maxExpansions;
    }
    try {
      return this.impl.findPath(sx, sy, tx, ty, diagonal, algorithm, budget, smooth);
    } catch (error) {
      // A search changes nothing of the grid, whether or not it completes.
      throw outOfMemory(error, 'this GridMap search') ?? error;
    }
  }

  /**
   * Frees the grid's wasm memory now; every later call throws DISPOSED.
   * Disposing twice is harmless. A grid dropped without dispose() is freed
   * once garbage-collected, which may be much later.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.impl.dispose();
  }

  /** Fills a grid being built; should memory run out, the grid is freed and OUT_OF_MEMORY thrown. */
  private load(fill: () => void): void {
    try {
      fill();
    } catch (error) {
      this.dispose();
      throw outOfMemory(error, 'building a GridMap') ?? error;
    }
  }

  private static checkSize(width: number, height: number): void {
    checkPositiveInteger('width', width);
    checkPositiveInteger('height', height);
    checkLimit(`the cells of a ${width} x ${height} grid`, width * height, limits.gridCells);
  }

  private checkCell(x: number, y: number): void {
    checkAlive(this.disposed, 'GridMap');
    checkFinite('x', x);
    checkFinite('y', y);
    if (!Number.isInteger(x) || !Number.isInteger(y)) {
      throw new SpatialError('INVALID_ARGUMENT', `cell coordinates must be integers, got (${x}, ${y})`);
    }
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) {
      throw new SpatialError('OUT_OF_GRID', `(${x}, ${y}) is outside the ${this.width} x ${this.height} grid`);
    }
  }
}
