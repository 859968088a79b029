// GridMap.fromArray, fractional coordinates, smoothing, Theta* and search
// budgets on both backends: worked examples a user can check by hand, and
// bad input rejected with a code, the grid (and the caller's arrays) unchanged.
import { beforeAll, describe, expect, it } from 'vitest';
import { GridMap, init, parseMovingAIScenarios, type Backend, type FindPathOptions } from '../../src/index.js';
import { expectCode, snapshot } from './helpers.js';

beforeAll(() => init());

const BACKENDS: Backend[] = ['wasm', 'js'];
const S = Math.SQRT2;

// PathFinding.js's matrix convention: 0 walkable, anything else blocked.
const ROWS = [
  [0, 0, 0, 0, 0],
  [0, 1, 1, 1, 0],
  [0, 0, 0, 2, 0],
];

describe.each(BACKENDS)('GridMap conveniences (%s backend)', (backend) => {
  it('fromArray reads rows, flat arrays and Uint8Arrays alike: 0 walkable, anything else blocked', () => {
    const flat = ROWS.flat();
    const grids = [
      GridMap.fromArray(5, 3, ROWS, { backend }),
      GridMap.fromArray(5, 3, flat, { backend }),
      GridMap.fromArray(5, 3, Uint8Array.from(flat), { backend }),
    ];
    const expected = new GridMap(5, 3, { backend });
    for (const [x, y] of [[1, 1], [2, 1], [3, 1], [3, 2]]) expected.setWalkable(x, y, false);
    for (const grid of grids) {
      expect([grid.width, grid.height]).toEqual([5, 3]);
      expect(snapshot(grid)).toEqual(snapshot(expected));
      expect(grid.findPath(0, 2, 2, 2)).toEqual(expected.findPath(0, 2, 2, 2));
      grid.dispose();
    }
    expected.dispose();
  });

  it('fromArray takes another walkable rule and a cost array', () => {
    // Moving AI style tiles as character codes, '.' walkable; the costs as rows.
    const tiles = [...'..@..'].map((c) => c.charCodeAt(0));
    const grid = GridMap.fromArray(5, 1, tiles, { backend, walkable: (v) => v === 46, costs: [[1, 4, 1, 2.5, 1]] });
    expect([0, 1, 2, 3, 4].map((x) => grid.isWalkable(x, 0))).toEqual([true, true, false, true, true]);
    expect([0, 1, 2, 3, 4].map((x) => grid.getCost(x, 0))).toEqual([1, 4, 1, 2.5, 1]);
    expect(grid.findPath(3, 0, 4, 0)?.cost).toBe(1);
    expect(grid.findPath(4, 0, 3, 0)?.cost).toBe(2.5);
    grid.dispose();
  });

  it('fromArray rejects mismatched sizes, ragged rows, non-numbers and bad costs, leaving the arrays untouched', () => {
    const rows = ROWS.map((row) => [...row]);
    const before = JSON.stringify(rows);
    const bad: Array<[() => unknown, string]> = [
      [() => GridMap.fromArray(5, 4, rows, { backend }), 'INVALID_ARGUMENT'],
      [() => GridMap.fromArray(4, 3, rows, { backend }), 'INVALID_ARGUMENT'],
      [() => GridMap.fromArray(5, 3, [...rows.slice(0, 2), [0, 0, 0, 0]], { backend }), 'INVALID_ARGUMENT'],
      [() => GridMap.fromArray(5, 3, [...rows.slice(0, 2), 0 as unknown as number[]], { backend }), 'INVALID_ARGUMENT'],
      [() => GridMap.fromArray(5, 3, rows.flat().slice(1), { backend }), 'INVALID_ARGUMENT'],
      [() => GridMap.fromArray(5, 3, [], { backend }), 'INVALID_ARGUMENT'],
      [() => GridMap.fromArray(5, 3, 'x'.repeat(15) as unknown as number[], { backend }), 'INVALID_ARGUMENT'],
      [() => GridMap.fromArray(5, 3, [...rows.flat().slice(1), Number.NaN], { backend }), 'INVALID_NUMBER'],
      [() => GridMap.fromArray(5, 3, [...rows.flat().slice(1), '0' as unknown as number], { backend }), 'INVALID_NUMBER'],
      [() => GridMap.fromArray(5, 3, rows, { backend, walkable: (v) => (v === 0 ? 1 : 0) as unknown as boolean }), 'INVALID_ARGUMENT'],
      [() => GridMap.fromArray(5, 3, rows, { backend, walkable: 0 as unknown as () => boolean }), 'INVALID_ARGUMENT'],
      [() => GridMap.fromArray(5, 3, rows, { backend, costs: rows.map((row) => row.map(() => 0.5)) }), 'INVALID_ARGUMENT'],
      [() => GridMap.fromArray(5, 3, rows, { backend, costs: new Float64Array(15).fill(Infinity) }), 'INVALID_NUMBER'],
      [() => GridMap.fromArray(5, 3, rows, { backend, costs: [1, 2] }), 'INVALID_ARGUMENT'],
      [() => GridMap.fromArray(0, 3, [], { backend }), 'INVALID_ARGUMENT'],
      [() => GridMap.fromArray(1.5, 2, [0, 0, 0], { backend }), 'INVALID_ARGUMENT'],
    ];
    for (const [fn, code] of bad) {
      expectCode(fn, code);
      expect(JSON.stringify(rows)).toBe(before);
    }
  });

  it("fractional start and target coordinates are rejected by default and floored with fractional: 'floor'", () => {
    const grid = new GridMap(4, 4, { backend });
    expectCode(() => grid.findPath(0.5, 0, 3, 3), 'INVALID_ARGUMENT');
    expect(() => grid.findPath(0, 0, 2.25, 3)).toThrow(/fractional: 'floor'/);
    expect(grid.findPath(0.5, 0.99, 3.7, 3.01, { fractional: 'floor' })).toEqual(grid.findPath(0, 0, 3, 3));
    expect(grid.findPath(2, 1, 2, 1, { fractional: 'floor' })).toEqual({ path: [[2, 1]], cost: 0 });
    // Flooring can leave the grid: -0.5 is in cell -1.
    expectCode(() => grid.findPath(-0.5, 0, 3, 3, { fractional: 'floor' }), 'OUT_OF_GRID');
    expectCode(() => grid.findPath(0, 0, 3.5, 4, { fractional: 'floor' }), 'OUT_OF_GRID');
    grid.dispose();
  });

  it('smooth pulls the string around a wall and never cuts its corner', () => {
    // . . . . . . .      A* steps around the wall's end at (3, 2). Any-angle,
    // . . a . b . .      the path is S -> a -> b -> T: S -> (3, 1) would pass
    // . . . # . . .      exactly through the wall's top corner, which the
    // . . . # . . .      line-of-sight test refuses.
    // S . . # . . T
    const grid = new GridMap(7, 5, { backend });
    for (const y of [2, 3, 4]) grid.setWalkable(3, y, false);
    const astar = grid.findPath(0, 4, 6, 4)!;
    const smooth = grid.findPath(0, 4, 6, 4, { smooth: true })!;
    const theta = grid.findPath(0, 4, 6, 4, { algorithm: 'theta*' })!;
    expect(astar.cost).toBeCloseTo(4 + 4 * S, 12);
    for (const result of [smooth, theta]) {
      expect(result.path[0]).toEqual([0, 4]);
      expect(result.path.at(-1)).toEqual([6, 4]);
      expect(result.path.length).toBeLessThan(astar.path.length);
      expect(result.cost).toBeLessThan(astar.cost);
    }
    for (const result of [smooth, theta]) {
      expect(result.path).toEqual([[0, 4], [2, 1], [4, 1], [6, 4]]);
      expect(result.cost).toBeCloseTo(2 * Math.hypot(2, 3) + 2, 12);
    }
    grid.dispose();
  });

  it('maxExpansions returns a partial path toward the target, flagged complete: false', () => {
    const grid = new GridMap(20, 1, { backend });
    const partial = grid.findPath(0, 0, 19, 0, { maxExpansions: 5, algorithm: 'dijkstra' })!;
    // Five cells expanded (0..4); the sixth popped, (5, 0), is the nearest reached.
    expect(partial).toEqual({ path: [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]], cost: 5, complete: false });
    expect(grid.findPath(0, 0, 19, 0, { maxExpansions: 19 })).toEqual({ ...grid.findPath(0, 0, 19, 0), complete: true });
    // Walled off: within the budget the search cannot know, so it reports progress; past it, null.
    grid.setWalkable(10, 0, false);
    expect(grid.findPath(0, 0, 19, 0, { maxExpansions: 3 })?.complete).toBe(false);
    expect(grid.findPath(0, 0, 19, 0, { maxExpansions: 100 })).toBeNull();
    grid.dispose();
  });

  it('rejects bad findPath options with a code and leaves the grid unchanged', () => {
    const grid = new GridMap(4, 3, { backend });
    grid.setWalkable(1, 1, false);
    grid.setCost(2, 2, 3);
    grid.findPath(0, 0, 3, 2);
    const before = snapshot(grid);
    const bad: Array<[FindPathOptions, string]> = [
      [{ smooth: 1 as unknown as boolean }, 'INVALID_ARGUMENT'],
      [{ smooth: true, diagonal: 'never' }, 'INVALID_ARGUMENT'],
      [{ algorithm: 'theta*', diagonal: 'never' }, 'INVALID_ARGUMENT'],
      [{ maxExpansions: 0 }, 'INVALID_ARGUMENT'],
      [{ maxExpansions: -3 }, 'INVALID_ARGUMENT'],
      [{ maxExpansions: 2.5 }, 'INVALID_ARGUMENT'],
      [{ maxExpansions: Number.NaN }, 'INVALID_ARGUMENT'],
      [{ maxExpansions: '5' as unknown as number }, 'INVALID_ARGUMENT'],
      [{ maxExpansions: 2 ** 31 }, 'INVALID_ARGUMENT'],
      [{ maxExpansions: 10, algorithm: 'spfa' }, 'INVALID_ARGUMENT'],
      [{ fractional: 'round' as 'floor' }, 'INVALID_ARGUMENT'],
    ];
    for (const [options, code] of bad) {
      expectCode(() => grid.findPath(0, 0, 3, 2, options), code);
      expect(snapshot(grid)).toEqual(before);
    }
    expect(grid.findPath(0, 0, 3, 2)?.cost).toBeCloseTo(3 + S, 12); // (0, 0) (1, 0) (2, 0) (3, 1) (3, 2)
    grid.dispose();
    expectCode(() => grid.findPath(0.5, 0, 1, 1, { fractional: 'floor' }), 'DISPOSED');
  });
});

describe('parseMovingAIScenarios', () => {
  it('reads scenario lines, CRLF and blank lines included', () => {
    const text = 'version 1\r\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1.00000000\r\n\r\n3\tarena.map\t49\t49\t20\t5\t33\t9\t14.65685425\r\n';
    expect(parseMovingAIScenarios(text)).toEqual([
      { bucket: 0, map: 'arena.map', mapWidth: 49, mapHeight: 49, startX: 1, startY: 11, goalX: 1, goalY: 12, optimalLength: 1 },
      { bucket: 3, map: 'arena.map', mapWidth: 49, mapHeight: 49, startX: 20, startY: 5, goalX: 33, goalY: 9, optimalLength: 14.65685425 },
    ]);
  });

  it('rejects malformed files', () => {
    const line = '0\tarena.map\t49\t49\t1\t11\t1\t12\t1.00000000';
    const bad = ['', line, `version 1\n${line}\textra`, `version 1\n${line.replace('\t11\t', '\tx\t')}`, `version 1\n${line.replace('\t11\t', '\t-1\t')}`, `version 1\n${line.replace('1.00000000', 'NaN')}`, 7];
    for (const text of bad) expectCode(() => parseMovingAIScenarios(text as string), 'INVALID_ARGUMENT');
  });
});
