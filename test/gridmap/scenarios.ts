// Random grid scenarios for the GridMap parity tests: a size, cells blocked
// and costed at the start, then edits and path queries.
import fc from 'fast-check';
import { GridMap } from '../../src/index.js';
import type { PlainGrid } from './dijkstra-oracle.js';

export type Op =
  | { kind: 'walk'; x: number; y: number; walkable: boolean }
  | { kind: 'cost'; x: number; y: number; cost: number }
  | { kind: 'path'; sx: number; sy: number; tx: number; ty: number };

export interface Scenario {
  width: number;
  height: number;
  blocked: number[]; // cell indices blocked at the start
  costs: Array<[number, number]>; // [cell index, cost] set at the start
  ops: Op[];
}

// Coordinates are drawn in [0, 1) and scaled to the grid, so one arbitrary fits every size.
const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const costValue = fc.oneof(fc.constantFrom(1, 2, 3, 1.5), fc.double({ min: 1, max: 20, noNaN: true }));

/** A scenario on a grid of at most 11 x 11 cells; `uniform` leaves every cost at 1. */
export function scenario(uniform: boolean): fc.Arbitrary<Scenario> {
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

type PathOp = Extract<Op, { kind: 'path' }>;

/**
 * Builds the scenario's grid three ways (the oracles' plain grid, a wasm and
 * a js GridMap), applies its edits to all three in order, and calls `query`
 * at each path query. Disposes the grids at the end.
 */
export function replay(s: Scenario, query: (plain: PlainGrid, grids: GridMap[], op: PathOp) => void): void {
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
    } else {
      query(plain, grids, op);
    }
  };
  for (const i of s.blocked) apply({ kind: 'walk', x: i % s.width, y: Math.floor(i / s.width), walkable: false });
  for (const [i, cost] of s.costs) apply({ kind: 'cost', x: i % s.width, y: Math.floor(i / s.width), cost });
  for (const op of s.ops) apply(op);
  for (const grid of grids) grid.dispose();
}

/**
 * A scenario built for long paths around walls: a grid of 6 to `size` cells
 * a side with up to 10 blocked rectangles, costs (unless `uniform`), then
 * path queries between random cells, with a few edits between them.
 */
export function walledScenario(uniform: boolean, size = 24): fc.Arbitrary<Scenario> {
  const rect = fc.tuple(unit, unit, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 3 }), fc.boolean());
  return fc
    .record({
      width: fc.integer({ min: 6, max: size }),
      height: fc.integer({ min: 6, max: size }),
      walls: fc.array(rect, { maxLength: 10 }),
      costs: fc.array(fc.tuple(unit, unit, costValue), { maxLength: uniform ? 0 : 60 }),
      queries: fc.array(fc.tuple(unit, unit, unit, unit), { minLength: 1, maxLength: 4 }),
    })
    .map(({ width, height, walls, costs, queries }) => {
      const at = (u: number, v: number): [number, number] => [Math.floor(u * width), Math.floor(v * height)];
      const blocked: number[] = [];
      for (const [u, v, long, thick, vertical] of walls) {
        const [x0, y0] = at(u, v);
        const [w, h] = vertical ? [thick, long] : [long, thick];
        for (let y = y0; y < Math.min(height, y0 + h); y++) for (let x = x0; x < Math.min(width, x0 + w); x++) blocked.push(y * width + x);
      }
      const ops: Op[] = [];
      for (const [a, b, c, d] of queries) {
        const [sx, sy] = at(a, b);
        const [tx, ty] = at(c, d);
        ops.push({ kind: 'walk', x: sx, y: sy, walkable: true }, { kind: 'walk', x: tx, y: ty, walkable: true }, { kind: 'path', sx, sy, tx, ty });
      }
      return { width, height, blocked, costs: costs.map(([u, v, cost]) => { const [x, y] = at(u, v); return [y * width + x, cost] as [number, number]; }), ops };
    });
}
