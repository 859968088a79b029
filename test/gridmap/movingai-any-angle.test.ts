// Smoothed A* and Theta* on the Moving AI Lab maps: never a blocked cell cut,
// never longer than the published optimal grid path, wasm and js alike.
import { beforeAll, describe, expect, it } from 'vitest';
import { init } from '../../src/index.js';
import { MOVING_AI_MAPS, checkAnyAngle } from './movingai-oracle.js';

beforeAll(() => init());

describe('Moving AI scenarios, any-angle paths', () => {
  for (const map of MOVING_AI_MAPS) {
    it(`${map}: every 200th scenario, smooth and theta*, both backends`, { timeout: 300_000 }, () => {
      expect(checkAnyAngle(map, 200)).toBeGreaterThan(0);
    });
  }
});
