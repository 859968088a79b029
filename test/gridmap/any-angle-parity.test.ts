// Random grids, edited between queries: smoothed paths, Theta* and searches
// with a budget agree between the wasm and js backends path for path, every
// segment passes a brute-force line-of-sight check (no blocked cell cut, no
// step the diagonal rule forbids), and no any-angle path costs more than the
// grid optimum the brute-force Dijkstra finds.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, type DiagonalRule, type GridAlgorithm, type GridPath } from '../../src/index.js';
import { checkPath, oracleCost, type PlainGrid } from './dijkstra-oracle.js';
import { checkCorners } from './sight-oracle.js';
import { replay, walledScenario } from './scenarios.js';

beforeAll(() => init());

const ANGLED_RULES: DiagonalRule[] = ['always', 'no-corner-cutting', 'one-obstacle'];
const GRID_ALGORITHMS: GridAlgorithm[] = ['astar', 'dijkstra', 'jps'];

/** The recomputed cost of a returned path (corners for smoothed and Theta* paths, cells otherwise), or why it is wrong. */
function recompute(plain: PlainGrid, result: GridPath, sx: number, sy: number, tx: number, ty: number, rule: DiagonalRule, corners: boolean): number | string {
  return corners ? checkCorners(plain, result.path, sx, sy, tx, ty, rule) : checkPath(plain, result.path, sx, sy, tx, ty, rule);
}

function distanceLeft(x: number, y: number, tx: number, ty: number, rule: DiagonalRule, algorithm: GridAlgorithm): number {
  const dx = Math.abs(x - tx);
  const dy = Math.abs(y - ty);
  if (algorithm === 'theta*') return Math.sqrt(dx * dx + dy * dy);
  if (rule === 'never') return dx + dy;
  return Math.max(dx, dy) + (Math.SQRT2 - 1) * Math.min(dx, dy);
}

describe('GridMap any-angle paths and budgets: wasm, js and brute-force oracles', () => {
  it('smooth and theta* paths never cut a blocked cell and never cost more than the grid optimum', () => {
    fc.assert(
      fc.property(fc.boolean().chain((uniform) => walledScenario(uniform)), (s) => {
        replay(s, (plain, grids, { sx, sy, tx, ty }) => {
          for (const diagonal of ANGLED_RULES) {
            const optimum = oracleCost(plain, sx, sy, tx, ty, diagonal);
            const runs: Array<[GridAlgorithm, boolean]> = [['theta*', false], ['theta*', true], ...GRID_ALGORITHMS.map((a): [GridAlgorithm, boolean] => [a, true])];
            for (const [algorithm, smooth] of runs) {
              const [wasm, js] = grids.map((grid) => grid.findPath(sx, sy, tx, ty, { diagonal, algorithm, smooth }));
              const where = `${algorithm}${smooth ? ' smooth' : ''} ${diagonal} (${sx}, ${sy}) -> (${tx}, ${ty})`;
              expect(js, where).toEqual(wasm);
              if (optimum === Infinity) {
                expect(wasm, where).toBeNull();
                continue;
              }
              expect(wasm, where).not.toBeNull();
              const cost = recompute(plain, wasm!, sx, sy, tx, ty, diagonal, true);
              if (typeof cost === 'string') expect.fail(`${where}: ${cost}`);
              expect(wasm!.cost, where).toBeCloseTo(cost, 9);
              expect(wasm!.cost, where).toBeLessThanOrEqual(optimum + 1e-9);
            }
          }
        });
      }),
      { numRuns: 100 },
    );
  });

  it('a budget gives the full result when it suffices, else a valid path from the start that ends no farther from the target', () => {
    const budgetRun = fc.record({
      algorithm: fc.constantFrom<GridAlgorithm>('astar', 'dijkstra', 'jps', 'theta*'),
      diagonal: fc.constantFrom<DiagonalRule>('never', ...ANGLED_RULES),
      smooth: fc.boolean(),
      budget: fc.integer({ min: 1, max: 30 }),
    });
    fc.assert(
      fc.property(fc.boolean().chain((uniform) => walledScenario(uniform)), budgetRun, (s, run) => {
        const { algorithm, budget } = run;
        const diagonal = run.diagonal === 'never' && (run.smooth || algorithm === 'theta*') ? 'always' : run.diagonal;
        const corners = run.smooth || algorithm === 'theta*';
        replay(s, (plain, grids, { sx, sy, tx, ty }) => {
          const options = { diagonal, algorithm, smooth: run.smooth };
          const [wasm, js] = grids.map((grid) => grid.findPath(sx, sy, tx, ty, { ...options, maxExpansions: budget }));
          const where = `${algorithm} ${diagonal}${run.smooth ? ' smooth' : ''} budget ${budget} (${sx}, ${sy}) -> (${tx}, ${ty})`;
          expect(js, where).toEqual(wasm);
          const full = grids[0].findPath(sx, sy, tx, ty, options);
          expect(grids[0].findPath(sx, sy, tx, ty, { ...options, maxExpansions: s.width * s.height }), where).toEqual(full && { ...full, complete: true });
          if (wasm === null) {
            expect(oracleCost(plain, sx, sy, tx, ty, diagonal), where).toBe(Infinity);
            return;
          }
          if (wasm.complete) {
            expect(wasm, where).toEqual({ ...full, complete: true });
            return;
          }
          const [ex, ey] = wasm.path[wasm.path.length - 1];
          const cost = recompute(plain, wasm, sx, sy, ex, ey, diagonal, corners);
          if (typeof cost === 'string') expect.fail(`${where}: ${cost}`);
          expect(wasm.cost, where).toBeCloseTo(cost, 9);
          expect(distanceLeft(ex, ey, tx, ty, diagonal, algorithm), where).toBeLessThanOrEqual(distanceLeft(sx, sy, tx, ty, diagonal, algorithm));
          // A* and Dijkstra expand cells in cost order: the cell reached is reached optimally.
          if (!corners && algorithm !== 'jps') expect(wasm.cost, where).toBeCloseTo(oracleCost(plain, sx, sy, ex, ey, diagonal), 9);
        });
      }),
      { numRuns: 300 },
    );
  });
});
