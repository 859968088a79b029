// Helpers shared by the GridMap tests: the expected SpatialError code, and a
// grid's whole observable state for before / after comparisons.
import { expect } from 'vitest';
import { SpatialError, type GridMap } from '../../src/index.js';

/** Fails unless fn throws a SpatialError with this code. */
export function expectCode(fn: () => unknown, code: string): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SpatialError);
    expect((error as SpatialError).code).toBe(code);
    return;
  }
  expect.fail(`expected SpatialError ${code}`);
}

/** Every cell's walkability and cost, and the corner-to-corner path: the observable state of a grid. */
export function snapshot(grid: GridMap): unknown {
  const cells: Array<[boolean, number]> = [];
  for (let y = 0; y < grid.height; y++) for (let x = 0; x < grid.width; x++) cells.push([grid.isWalkable(x, y), grid.getCost(x, y)]);
  return { cells, path: grid.findPath(0, 0, grid.width - 1, grid.height - 1) };
}
