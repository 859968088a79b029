// Registers the Moving AI scenario checks for one grid algorithm: every
// scenario on the wasm backend, every 50th on the js backend (the same
// algorithm in TypeScript). The large files are checked in slices so that
// each test stays well inside the timeout on a busy machine; each algorithm
// has its own test file so the two run in parallel.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, type GridAlgorithm } from '../../src/index.js';
import { MOVING_AI_MAPS, checkMovingAI, scenarioCount } from './movingai-oracle.js';

const SLICE = 2000;

export function describeMovingAIScenarios(algorithm: GridAlgorithm, name: string): void {
  beforeAll(() => init());
  describe(`Moving AI scenarios, ${name}`, () => {
    for (const map of MOVING_AI_MAPS) {
      const count = scenarioCount(map);
      for (let from = 0; from < count; from += SLICE) {
        const to = Math.min(from + SLICE, count);
        it(`${map}: scenarios ${from}..${to - 1}, wasm`, { timeout: 300_000 }, () => {
          expect(checkMovingAI(map, 'wasm', algorithm, 1, from, to)).toBe(to - from);
        });
      }
      it(`${map}: every 50th scenario, js`, { timeout: 300_000 }, () => {
        expect(checkMovingAI(map, 'js', algorithm, 50)).toBe(Math.ceil(count / 50));
      });
    }
  });
}
