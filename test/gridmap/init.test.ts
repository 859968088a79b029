// Before init(): a wasm-backed GridMap refuses to exist, a js-backed one works.
// (This file never calls init(); vitest gives each file a fresh module state.)
import { expect, it } from 'vitest';
import { GridMap, SpatialError } from '../../src/index.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof SpatialError ? error.code : 'not a SpatialError';
  }
  return undefined;
}

it('throws NOT_INITIALIZED for a wasm-backed grid before init(), and the js backend needs no init()', () => {
  expect(codeOf(() => new GridMap(2, 2))).toBe('NOT_INITIALIZED');
  expect(codeOf(() => GridMap.fromMovingAI('type octile\nheight 1\nwidth 1\nmap\n.'))).toBe('NOT_INITIALIZED');
  const grid = new GridMap(2, 2, { backend: 'js' });
  expect(grid.findPath(0, 0, 1, 1)?.cost).toBe(Math.SQRT2);
});
