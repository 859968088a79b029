// Registers the Moving AI scenario checks for one grid algorithm: every
// scenario on the wasm backend and every 50th on the js backend (the same
// algorithm in TypeScript) in a full run, every 10th and every 500th in
// `npm test` (test/support/sweep.ts). A full run checks the large files in
// slices so that each test stays well inside the timeout on a busy machine;
// each algorithm has its own test file so the two run in parallel.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, type GridAlgorithm } from '../../src/index.js';
import { FULL, stride } from '../support/sweep.js';
import { MOVING_AI_MAPS, checkMovingAI, scenarioCount } from './movingai-oracle.js';

const SLICE = FULL ? 2000 : Infinity;

export function describeMovingAIScenarios(algorithm: GridAlgorithm, name: string): void {
  beforeAll(() => init());
  describe(`Moving AI scenarios, ${name}`, () => {
    for (const map of MOVING_AI_MAPS) {
      const count = scenarioCount(map);
      const wasmEvery = stride(10);
      const jsEvery = 50 * stride(10);
      for (let from = 0; from < count; from += SLICE) {
        const to = Math.min(from + SLICE, count);
        it(`${map}: every ${wasmEvery === 1 ? '' : `${wasmEvery}th `}scenario of ${from}..${to - 1}, wasm`, { timeout: 300_000 }, () => {
          expect(checkMovingAI(map, 'wasm', algorithm, wasmEvery, from, to)).toBe(Math.ceil((to - from) / wasmEvery));
        });
      }
      it(`${map}: every ${jsEvery}th scenario, js`, { timeout: 300_000 }, () => {
        expect(checkMovingAI(map, 'js', algorithm, jsEvery)).toBe(Math.ceil(count / jsEvery));
      });
    }
  });
}
