// Every Moving AI Lab scenario with jump point search on the wasm backend (every 50th on
// the js backend, which runs the same algorithm in TypeScript): optimal
// length, valid path, no corner cut. The large files are checked in slices
// so that each test stays well inside the timeout on a busy machine.
import { beforeAll, describe, expect, it } from 'vitest';
import { init } from '../src/index.js';
import { MOVING_AI_MAPS, checkMovingAI, compareJpsWithAStar, scenarioCount } from './oracles/grid-movingai.js';

beforeAll(() => init());

const SLICE = 2000;

describe('Moving AI scenarios, jump point search', () => {
  for (const map of MOVING_AI_MAPS) {
    const count = scenarioCount(map);
    for (let from = 0; from < count; from += SLICE) {
      const to = Math.min(from + SLICE, count);
      it(`${map}: scenarios ${from}..${to - 1}, wasm`, { timeout: 300_000 }, () => {
        expect(checkMovingAI(map, 'wasm', 'jps', 1, from, to)).toBe(to - from);
      });
    }
    it(`${map}: every 50th scenario, js`, { timeout: 300_000 }, () => {
      expect(checkMovingAI(map, 'js', 'jps', 50)).toBe(Math.ceil(count / 50));
    });
  }
});

describe('Moving AI maps under the other diagonal rules', () => {
  for (const map of MOVING_AI_MAPS) {
    for (const diagonal of ['never', 'always', 'one-obstacle'] as const) {
      it(`${map}, ${diagonal}: jps finds A*'s cost on every 50th scenario's endpoints`, { timeout: 300_000 }, () => {
        expect(compareJpsWithAStar(map, diagonal, 50)).toBeGreaterThan(0);
      });
    }
  }
});
