// Random grids with obstacles and costs, edited between queries: every
// algorithm under every diagonal rule, on both backends, agrees with the
// brute-force Dijkstra on cost, returns a valid path of that cost, and the
// two backends return the very same path.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { GridMap, init, type DiagonalRule } from '../../src/index.js';
import { checkScenario, RULES } from './check.js';
import { scenario } from './scenarios.js';

beforeAll(() => init());

describe('GridMap parity: wasm, js and a brute-force Dijkstra', () => {
  it('uniform-cost grids (jump point search runs under every rule)', () => {
    fc.assert(fc.property(scenario(true), checkScenario), { numRuns: 150 });
  });

  it('grids with per-cell costs (jps falls back to A*)', () => {
    fc.assert(fc.property(scenario(false), checkScenario), { numRuns: 150 });
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
