// Every Moving AI Lab scenario with A* on the wasm backend (every 25th on
// the js backend, which runs the same code path in TypeScript): optimal
// length, valid path, no corner cut.
import { beforeAll, describe, expect, it } from 'vitest';
import { init } from '../src/index.js';
import { MOVING_AI_MAPS, checkMovingAI } from './oracles/grid-movingai.js';

beforeAll(() => init());

describe('Moving AI scenarios, A*', () => {
  for (const map of MOVING_AI_MAPS) {
    it(`${map}: every scenario, wasm`, () => {
      expect(checkMovingAI(map, 'wasm', 'astar')).toBeGreaterThan(0);
    });
    it(`${map}: every 25th scenario, js`, () => {
      expect(checkMovingAI(map, 'js', 'astar', 25)).toBeGreaterThan(0);
    });
  }
});
