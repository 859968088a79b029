// Every Moving AI Lab scenario with jump point search: optimal length, valid
// path, no corner cut; and jump point search against A* under the other rules.
import { describe, expect, it } from 'vitest';
import { stride } from '../support/sweep.js';
import { MOVING_AI_MAPS, compareJpsWithAStar } from './movingai-oracle.js';
import { describeMovingAIScenarios } from './movingai-suite.js';

describeMovingAIScenarios('jps', 'jump point search');

describe('Moving AI maps under the other diagonal rules', () => {
  for (const map of MOVING_AI_MAPS) {
    for (const diagonal of ['never', 'always', 'one-obstacle'] as const) {
      it(`${map}, ${diagonal}: jps finds A*'s cost on every ${50 * stride(5)}th scenario's endpoints`, { timeout: 300_000 }, () => {
        expect(compareJpsWithAStar(map, diagonal, 50 * stride(5))).toBeGreaterThan(0);
      });
    }
  }
});
