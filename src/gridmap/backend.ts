// What the GridMap facade asks of a backend. Arguments arrive validated:
// coordinates are integers on the grid, costs are finite and >= 1.

/** Diagonal rules and algorithms as small integers, shared by both backends and the wasm core. */
export const DIAGONAL_CODES = { never: 0, always: 1, 'no-corner-cutting': 2, 'one-obstacle': 3 } as const;
export const ALGORITHM_CODES = { astar: 0, dijkstra: 1, spfa: 2, jps: 3, 'theta*': 4 } as const;

/**
 * When a diagonal step is allowed: 'never', 'always', 'no-corner-cutting' or
 * 'one-obstacle' (see {@link FindPathOptions.diagonal}).
 * @useDeclaredType
 */
export type DiagonalRule = keyof typeof DIAGONAL_CODES;
/**
 * The search {@link GridMap.findPath} runs: 'astar', 'dijkstra', 'spfa' or
 * 'jps' (see {@link FindPathOptions.algorithm}).
 * @useDeclaredType
 */
export type GridAlgorithm = keyof typeof ALGORITHM_CODES;

/**
 * A path from the start cell to the target cell, each cell as [x, y], with its
 * total cost. Smoothed and Theta* paths list only their corners: consecutive
 * entries are joined by straight segments between cell centres.
 */
export interface GridPath {
  /** Every cell from the start to the target, both included, as [x, y]; consecutive cells are neighbours. */
  path: Array<[number, number]>;
  /** The path's cost: 1 per orthogonal step and sqrt(2) per diagonal step, each times the cost of the cell entered. */
  cost: number;
  /**
   * Present when the search had a `maxExpansions` budget: true when the path
   * reaches the target, false when the budget ran out first and the path
   * ends at the expanded cell nearest the target instead.
   */
  complete?: boolean;
}

export interface GridBackend {
  setWalkable(x: number, y: number, walkable: boolean): void;
  isWalkable(x: number, y: number): boolean;
  /** Sets every cell from width * height bytes, row-major, nonzero = walkable. */
  loadWalkable(cells: Uint8Array): void;
  /** Sets every cell's cost from width * height values, row-major, each finite and >= 1. */
  loadCosts(costs: Float64Array): void;
  setCost(x: number, y: number, cost: number): void;
  getCost(x: number, y: number): number;
  /**
   * `budget`: the most cells to expand, 0 for no limit (never with SPFA);
   * `smooth`: pull the path's string. Theta* and `smooth` come with a diagonal
   * rule other than 'never'.
   */
  findPath(
    sx: number, sy: number, tx: number, ty: number, diagonal: number, algorithm: number, budget: number, smooth: boolean,
  ): GridPath | null;
  dispose(): void;
}
