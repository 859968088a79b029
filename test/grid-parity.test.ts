// Random grids with obstacles and costs, edited between queries: every
// algorithm under every diagonal rule, on both backends, agrees with the
// brute-force Dijkstra on cost, returns a valid path of that cost, and the
// two backends return the very same path.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { GridMap, init, type DiagonalRule, type GridAlgorithm } from '../src/index.js';
import { checkPath, oracleCost, type PlainGrid } from './oracles/grid-dijkstra.js';

beforeAll(() => init());

const RULES: DiagonalRule[] = ['never', 'always', 'no-corner-cutting', 'one-obstacle'];
const ALGORITHMS: GridAlgorithm[] = ['astar', 'dijkstra', 'spfa', 'jps'];

type Op =
  | { kind: 'walk'; x: number; y: number; walkable: boolean }
  | { kind: 'cost'; x: number; y: number; cost: number }
  | { kind: 'path'; sx: number; sy: number; tx: number; ty: number };

interface Scenario {
  width: number;
  height: number;
  blocked: number[]; // cell indices blocked at the start
  costs: Array<[number, number]>; // [cell index, cost] set at the start
  ops: Op[];
}

// Coordinates are drawn in [0, 1) and scaled to the grid, so one arbitrary fits every size.
const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const costValue = fc.oneof(fc.constantFrom(1, 2, 3, 1.5), fc.double({ min: 1, max: 20, noNaN: true }));

function scenario(uniform: boolean): fc.Arbitrary<Scenario> {
  return fc
    .record({
      width: fc.integer({ min: 1, max: 11 }),
      height: fc.integer({ min: 1, max: 11 }),
      density: fc.double({ min: 0, max: 0.45, noNaN: true }),
      cells: fc.array(fc.tuple(unit, unit, costValue), { maxLength: 121 }),
      rawOps: fc.array(
        fc.oneof(
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('walk' as const), u: unit, v: unit, walkable: fc.boolean() }) },
          { weight: uniform ? 0 : 1, arbitrary: fc.record({ kind: fc.constant('cost' as const), u: unit, v: unit, cost: costValue }) },
          { weight: 3, arbitrary: fc.record({ kind: fc.constant('path' as const), u: unit, v: unit, s: unit, t: unit }) },
        ),
        { minLength: 1, maxLength: 8 },
      ),
    })
    .map(({ width, height, density, cells, rawOps }) => {
      const at = (u: number, v: number): [number, number] => [Math.floor(u * width), Math.floor(v * height)];
      const blocked: number[] = [];
      const costs: Array<[number, number]> = [];
      cells.forEach(([u, v, cost], i) => {
        const [x, y] = at(u, v);
        if (i / Math.max(cells.length, 1) < density) blocked.push(y * width + x);
        else if (!uniform) costs.push([y * width + x, cost]);
      });
      const ops: Op[] = rawOps.map((op) => {
        if (op.kind === 'walk') {
          const [x, y] = at(op.u, op.v);
          return { kind: 'walk', x, y, walkable: op.walkable };
        }
        if (op.kind === 'cost') {
          const [x, y] = at(op.u, op.v);
          return { kind: 'cost', x, y, cost: op.cost };
        }
        const [sx, sy] = at(op.u, op.v);
        const [tx, ty] = at(op.s, op.t);
        return { kind: 'path', sx, sy, tx, ty };
      });
      return { width, height, blocked, costs, ops };
    });
}

function run(s: Scenario): void {
  const plain: PlainGrid = {
    width: s.width,
    height: s.height,
    walkable: new Array<boolean>(s.width * s.height).fill(true),
    cost: new Array<number>(s.width * s.height).fill(1),
  };
  const grids = [new GridMap(s.width, s.height), new GridMap(s.width, s.height, { backend: 'js' })];
  const apply = (op: Op): void => {
    if (op.kind === 'walk') {
      plain.walkable[op.y * s.width + op.x] = op.walkable;
      for (const grid of grids) grid.setWalkable(op.x, op.y, op.walkable);
    } else if (op.kind === 'cost') {
      plain.cost[op.y * s.width + op.x] = op.cost;
      for (const grid of grids) grid.setCost(op.x, op.y, op.cost);
    }
  };
  for (const i of s.blocked) apply({ kind: 'walk', x: i % s.width, y: Math.floor(i / s.width), walkable: false });
  for (const [i, cost] of s.costs) apply({ kind: 'cost', x: i % s.width, y: Math.floor(i / s.width), cost });
  for (const op of s.ops) {
    if (op.kind !== 'path') {
      apply(op);
      continue;
    }
    const { sx, sy, tx, ty } = op;
    for (const diagonal of RULES) {
      const expected = oracleCost(plain, sx, sy, tx, ty, diagonal);
      for (const algorithm of ALGORITHMS) {
        const [wasm, js] = grids.map((grid) => grid.findPath(sx, sy, tx, ty, { diagonal, algorithm }));
        const where = `${algorithm} ${diagonal} (${sx}, ${sy}) -> (${tx}, ${ty})`;
        expect(js, where).toEqual(wasm);
        if (expected === Infinity) {
          expect(wasm, where).toBeNull();
          continue;
        }
        expect(wasm, where).not.toBeNull();
        expect(wasm!.cost, where).toBeCloseTo(expected, 9);
        const recomputed = checkPath(plain, wasm!.path, sx, sy, tx, ty, diagonal);
        expect(typeof recomputed === 'number' ? recomputed : Number.NaN, `${where}: ${String(recomputed)}`).toBeCloseTo(expected, 9);
      }
    }
  }
  for (const grid of grids) grid.dispose();
}

describe('GridMap parity: wasm, js and a brute-force Dijkstra', () => {
  it('uniform-cost grids (jump point search runs under every rule)', () => {
    fc.assert(fc.property(scenario(true), run), { numRuns: 150 });
  });

  it('grids with per-cell costs (jps falls back to A*)', () => {
    fc.assert(fc.property(scenario(false), run), { numRuns: 150 });
  });

  it('jps on a grid with costs returns exactly the A* path', () => {
    fc.assert(
      fc.property(scenario(false), fc.constantFrom<DiagonalRule>(...RULES), (s, diagonal) => {
        if (s.costs.every(([, cost]) => cost === 1)) return; // uniform: jump point search itself runs
        for (const backend of ['wasm', 'js'] as const) {
          const grid = new GridMap(s.width, s.height, { backend });
          for (const i of s.blocked) grid.setWalkable(i % s.width, Math.floor(i / s.width), false);
          for (const [i, cost] of s.costs) grid.setCost(i % s.width, Math.floor(i / s.width), cost);
          for (const op of s.ops) {
            if (op.kind !== 'path') continue;
            const jps = grid.findPath(op.sx, op.sy, op.tx, op.ty, { diagonal, algorithm: 'jps' });
            expect(jps).toEqual(grid.findPath(op.sx, op.sy, op.tx, op.ty, { diagonal, algorithm: 'astar' }));
          }
          grid.dispose();
        }
      }),
      { numRuns: 100 },
    );
  });
});
