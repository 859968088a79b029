// PathFinding.js (npm `pathfinding` 0.4.18) as a contender: its grid, its
// A* and its jump point finder, both with diagonal steps only when no corner
// is cut (the Moving AI rule). Its finders mark nodes on the grid they search,
// so every search needs a fresh grid.clone(): that clone is part of its cost.
import { createRequire } from 'node:module';

interface PFGrid {
  setWalkableAt(x: number, y: number, walkable: boolean): void;
  clone(): PFGrid;
}
interface PFFinder {
  findPath(sx: number, sy: number, tx: number, ty: number, grid: PFGrid): number[][];
}
interface PathFindingModule {
  Grid: new (width: number, height: number) => PFGrid;
  AStarFinder: new (options: { diagonalMovement: number }) => PFFinder;
  JumpPointFinder: new (options: { diagonalMovement: number }) => PFFinder;
  DiagonalMovement: { OnlyWhenNoObstacles: number };
  Util: { smoothenPath(grid: PFGrid, path: number[][]): number[][] };
}

const PF = createRequire(import.meta.url)('pathfinding') as PathFindingModule;

/** A PathFinding.js grid with the given cells blocked (walkable[y * width + x] === 0). */
export function pathfindingGrid(width: number, height: number, walkable: Uint8Array): PFGrid {
  const grid = new PF.Grid(width, height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (walkable[y * width + x] === 0) grid.setWalkableAt(x, y, false);
  return grid;
}

/** A finder with PathFinding.js's defaults (A*: octile heuristic; JPS: manhattan) and the no-corner-cutting rule. */
export function pathfindingFinder(kind: 'astar' | 'jps'): PFFinder {
  const options = { diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles };
  return kind === 'astar' ? new PF.AStarFinder(options) : new PF.JumpPointFinder(options);
}

/**
 * PathFinding.js's string pulling (Util.smoothenPath): its line test walks
 * the cells of a Bresenham-style line between corners, on the grid searched.
 */
export function pathfindingSmoothen(grid: PFGrid, path: number[][]): number[][] {
  return path.length === 0 ? path : PF.Util.smoothenPath(grid, path);
}

/** Length of a polyline through cell centres, given as [x, y] corners. */
export function polylineLength(path: ArrayLike<ArrayLike<number>>): number {
  let length = 0;
  for (let i = 1; i < path.length; i++) length += Math.hypot(path[i][0] - path[i - 1][0], path[i][1] - path[i - 1][1]);
  return length;
}

/** Length of a path given as [x, y] steps (PathFinding.js returns [] when there is none). */
export function stepsLength(path: number[][]): number {
  let length = 0;
  for (let i = 1; i < path.length; i++) {
    const diagonal = path[i][0] !== path[i - 1][0] && path[i][1] !== path[i - 1][1];
    length += diagonal ? Math.SQRT2 : 1;
  }
  return length;
}
