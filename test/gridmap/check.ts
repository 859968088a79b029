// The GridMap parity check (of the parity tests and of npm run fuzz): every
// algorithm under every diagonal rule, on both backends, against the
// brute-force Dijkstra, for each path query of a scenario.
import { expect } from 'vitest';
import type { DiagonalRule, GridAlgorithm } from '../../src/index.js';
import { checkPath, oracleCost } from './dijkstra-oracle.js';
import { replay, type Scenario } from './scenarios.js';

export const RULES: DiagonalRule[] = ['never', 'always', 'no-corner-cutting', 'one-obstacle'];
const ALGORITHMS: GridAlgorithm[] = ['astar', 'dijkstra', 'spfa', 'jps'];

export function checkScenario(s: Scenario): void {
  replay(s, (plain, grids, { sx, sy, tx, ty }) => {
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
  });
}
