// GridMap on both backends: worked examples of the contract's step costs and
// diagonal rules, the Moving AI map format, bad input rejected with the grid
// unchanged, use after dispose, and a 2048 x 2048 grid.
import { beforeAll, describe, expect, it } from 'vitest';
import { GridMap, init, type Backend, type DiagonalRule } from '../../src/index.js';
import { expectCode, snapshot } from './helpers.js';

beforeAll(() => init());

const BACKENDS: Backend[] = ['wasm', 'js'];
const S = Math.SQRT2;

describe.each(BACKENDS)('GridMap (%s backend)', (backend) => {
  it('starts all walkable at cost 1 and walks diagonally on an open grid', () => {
    const grid = new GridMap(3, 3, { backend });
    expect(grid.isWalkable(2, 1)).toBe(true);
    expect(grid.getCost(2, 1)).toBe(1);
    expect(grid.findPath(0, 0, 2, 2)).toEqual({ path: [[0, 0], [1, 1], [2, 2]], cost: 2 * S });
    const never = grid.findPath(0, 0, 2, 2, { diagonal: 'never' });
    expect(never?.cost).toBe(4);
    expect(never?.path).toHaveLength(5);
    grid.dispose();
  });

  it('start == target is a one-cell path of cost 0; blocked ends give null', () => {
    const grid = new GridMap(4, 4, { backend });
    expect(grid.findPath(2, 3, 2, 3)).toEqual({ path: [[2, 3]], cost: 0 });
    grid.setWalkable(1, 1, false);
    expect(grid.findPath(1, 1, 1, 1)).toBeNull();
    expect(grid.findPath(1, 1, 3, 3)).toBeNull();
    expect(grid.findPath(3, 3, 1, 1)).toBeNull();
    grid.dispose();
  });

  it('applies the four diagonal rules at a corner', () => {
    // . #      a step (0,0) -> (1,1) passes the corner of the blocked (1,0)
    // . .
    const grid = new GridMap(2, 2, { backend });
    grid.setWalkable(1, 0, false);
    const cost = (diagonal: DiagonalRule): number | undefined => grid.findPath(0, 0, 1, 1, { diagonal })?.cost;
    expect(cost('always')).toBe(S);
    expect(cost('one-obstacle')).toBe(S);
    expect(cost('no-corner-cutting')).toBe(2);
    expect(cost('never')).toBe(2);
    // . #      both orthogonal neighbours blocked: only 'always' squeezes through
    // # .
    grid.setWalkable(0, 1, false);
    expect(cost('always')).toBe(S);
    expect(cost('one-obstacle')).toBeUndefined();
    expect(cost('no-corner-cutting')).toBeUndefined();
    expect(cost('never')).toBeUndefined();
    grid.dispose();
  });

  it('multiplies each step by the cost of the cell entered, and detours when cheaper', () => {
    const grid = new GridMap(3, 2, { backend });
    grid.setCost(1, 0, 5);
    expect(grid.findPath(0, 0, 2, 0, { diagonal: 'never' })?.cost).toBe(4); // around through row 1
    grid.setCost(1, 1, 5);
    expect(grid.findPath(0, 0, 2, 0, { diagonal: 'never' })).toEqual({ path: [[0, 0], [1, 0], [2, 0]], cost: 6 });
    // Leaving an expensive cell is free: only the entered cell's cost counts.
    expect(grid.findPath(1, 0, 2, 0, { diagonal: 'never' })?.cost).toBe(1);
    grid.setCost(2, 1, 3);
    grid.setCost(2, 0, 10); // a diagonal step into (2, 1) now beats (2, 0) then down (10 + 3)
    expect(grid.findPath(1, 0, 2, 1, { diagonal: 'always' })?.cost).toBeCloseTo(3 * S, 12);
    grid.dispose();
  });

  it('jps gives A*\'s cost on uniform grids and falls back to A* when cells have costs', () => {
    const grid = new GridMap(8, 8, { backend });
    for (let y = 0; y < 6; y++) grid.setWalkable(4, y, false);
    for (const diagonal of ['never', 'always', 'no-corner-cutting', 'one-obstacle'] as const) {
      const astar = grid.findPath(0, 0, 7, 0, { diagonal })!;
      const jps = grid.findPath(0, 0, 7, 0, { diagonal, algorithm: 'jps' })!;
      expect(jps.cost).toBeCloseTo(astar.cost, 12);
    }
    grid.setCost(3, 7, 2);
    expect(grid.findPath(0, 0, 7, 0, { algorithm: 'jps' })).toEqual(grid.findPath(0, 0, 7, 0));
    grid.setCost(3, 7, 1); // back to uniform: jump point search runs again
    expect(grid.findPath(0, 0, 7, 0, { algorithm: 'jps' })?.cost).toBeCloseTo(grid.findPath(0, 0, 7, 0)!.cost, 12);
    grid.dispose();
  });

  it('reads a Moving AI map: passable and blocked characters, CRLF', () => {
    const text = 'type octile\r\nheight 2\r\nwidth 4\r\nmap\r\n.GS@\r\nOTW.\r\n';
    const grid = GridMap.fromMovingAI(text, { backend });
    expect([grid.width, grid.height]).toEqual([4, 2]);
    const walkable = [0, 1].map((y) => [0, 1, 2, 3].map((x) => grid.isWalkable(x, y)));
    expect(walkable).toEqual([[true, true, true, false], [false, false, false, true]]);
    expect(grid.findPath(0, 0, 3, 1)).toBeNull();
    expect(grid.findPath(0, 0, 2, 0)?.cost).toBe(2);
    grid.dispose();
  });

  it('rejects malformed Moving AI maps', () => {
    const bad = [
      '',
      'type tile\nheight 1\nwidth 1\nmap\n.',
      'type octile\nwidth 1\nheight 1\nmap\n.',
      'type octile\nheight 1\nwidth 2\nmap\n.',
      'type octile\nheight 2\nwidth 1\nmap\n.',
      'type octile\nheight 1\nwidth 1\nmap\n.\n.',
      'type octile\nheight 1\nwidth 1\nmap\nx',
      'type octile\nheight 0\nwidth 1\nmap\n',
      'type octile\nheight 1\nwidth 1\n\n.',
    ];
    for (const text of bad) expectCode(() => GridMap.fromMovingAI(text, { backend }), 'INVALID_ARGUMENT');
  });

  it('rejects bad input with a code and leaves the grid unchanged', () => {
    const grid = new GridMap(4, 3, { backend });
    grid.setWalkable(1, 1, false);
    grid.setCost(2, 2, 3);
    const before = snapshot(grid);
    const g = grid as unknown as Record<string, (...args: unknown[]) => unknown>;
    const rejected: Array<[() => unknown, string]> = [
      [() => grid.setWalkable(4, 0, false), 'OUT_OF_GRID'],
      [() => grid.setWalkable(0, -1, false), 'OUT_OF_GRID'],
      [() => grid.setWalkable(Number.NaN, 0, false), 'INVALID_NUMBER'],
      [() => grid.setWalkable(0, Infinity, false), 'INVALID_NUMBER'],
      [() => grid.setWalkable(0.5, 0, false), 'INVALID_ARGUMENT'],
      [() => g.setWalkable(0, 0, 0), 'INVALID_ARGUMENT'],
      [() => grid.setCost(0, 0, 0.5), 'INVALID_ARGUMENT'],
      [() => grid.setCost(0, 0, 0), 'INVALID_ARGUMENT'],
      [() => grid.setCost(0, 0, -2), 'INVALID_ARGUMENT'],
      [() => grid.setCost(0, 0, Number.NaN), 'INVALID_NUMBER'],
      [() => grid.setCost(0, 0, Infinity), 'INVALID_NUMBER'],
      [() => grid.setCost(0, 3, 2), 'OUT_OF_GRID'],
      [() => grid.isWalkable(-1, 0), 'OUT_OF_GRID'],
      [() => grid.getCost(0, 3), 'OUT_OF_GRID'],
      [() => grid.findPath(0, 0, 4, 0), 'OUT_OF_GRID'],
      [() => grid.findPath(-1, 0, 0, 0), 'OUT_OF_GRID'],
      [() => grid.findPath(0, 0, 0, Number.NaN), 'INVALID_NUMBER'],
      [() => g.findPath(0, 0, 1, 0, { diagonal: 'sometimes' }), 'INVALID_ARGUMENT'],
      [() => g.findPath(0, 0, 1, 0, { algorithm: 'bfs' }), 'INVALID_ARGUMENT'],
      [() => g.findPath(0, 0, 3, 2, { allowDiagonal: false }), 'INVALID_ARGUMENT'],
      [() => g.findPath(0, 0, 3, 2, { diagonal: 'never', Algorithm: 'jps' }), 'INVALID_ARGUMENT'],
      [() => g.findPath(0, 0, 3, 2, null), 'INVALID_ARGUMENT'],
      [() => g.findPath(0, 0, 3, 2, 'never'), 'INVALID_ARGUMENT'],
    ];
    for (const [fn, code] of rejected) {
      expectCode(fn, code);
      expect(snapshot(grid)).toEqual(before);
    }
    grid.dispose();
  });

  it('rejects bad sizes', () => {
    for (const [w, h] of [[0, 1], [1, 0], [-1, 5], [1.5, 2], [Number.NaN, 2]]) {
      expectCode(() => new GridMap(w, h, { backend }), 'INVALID_ARGUMENT');
    }
    // More cells than the limit (MAX_GRID_CELLS) is a limit, not a bad size.
    expectCode(() => new GridMap(4097, 4097, { backend }), 'LIMIT_EXCEEDED');
  });

  it('throws DISPOSED after dispose, and disposing twice is harmless', () => {
    const grid = new GridMap(2, 2, { backend });
    grid.findPath(0, 0, 1, 1);
    grid.dispose();
    grid.dispose();
    expectCode(() => grid.findPath(0, 0, 1, 1), 'DISPOSED');
    expectCode(() => grid.setWalkable(0, 0, false), 'DISPOSED');
    expectCode(() => grid.isWalkable(0, 0), 'DISPOSED');
    expectCode(() => grid.setCost(0, 0, 2), 'DISPOSED');
  });

  it('works on a 2048 x 2048 grid', () => {
    // A wall down x = 1024 with one gap at the bottom row: the path must go
    // through (1023, 2047) -> (1024, 2047) -> (1025, 2047), straight in and out
    // (the wall's end blocks both diagonals under no-corner-cutting).
    const n = 2048;
    const grid = new GridMap(n, n, { backend });
    for (let y = 0; y < n - 1; y++) grid.setWalkable(1024, y, false);
    const expected = 1023 * S + 1024 + 2 + (1022 * S + 1025);
    for (const algorithm of ['astar', 'jps'] as const) {
      const result = grid.findPath(0, 0, n - 1, 0, { algorithm })!;
      expect(result.cost).toBeCloseTo(expected, 6);
      expect(result.path[0]).toEqual([0, 0]);
      expect(result.path.at(-1)).toEqual([n - 1, 0]);
      expect(result.path).toContainEqual([1024, n - 1]);
    }
    grid.setWalkable(1024, n - 1, false);
    expect(grid.findPath(0, 0, n - 1, 0, { algorithm: 'jps' })).toBeNull();
    grid.dispose();
  });
});

it('rejects an unknown backend', () => {
  expectCode(() => new GridMap(2, 2, { backend: 'gpu' as Backend }), 'INVALID_ARGUMENT');
});
