// Hysteresis margins in crowds large enough for the lists index to cut its
// axes into bands and for the grid index to read a step's region cell by
// cell (small scenes read a level's whole table): hundreds of watchers with
// margins walk, teleport, change ranges, margins and masks and leave, and
// both backends must report exactly the events of the brute-force oracle,
// which keeps each pair's visibility.
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { init, type AoiRange, type SceneIndex } from '../../src/index.js';
import { mulberry32 } from '../../bench/random.js';
import { run, type Op, type Vec } from './ops.js';
import { runs } from '../support/sweep.js';

beforeAll(() => init());

/** A deterministic crowd from a seed: adds, then ticks of moveMany, each followed by a few setRange, setLayers and remove calls. */
function crowd(seed: number, dimensions: 2 | 3): Op[] {
  const uniform = mulberry32(seed);
  const pick = <T>(values: T[]): T => values[Math.floor(uniform() * values.length)];
  // Halves keep every coordinate, range + margin and distance test exact.
  const half = (limit: number): number => Math.round((uniform() * 2 - 1) * limit * 2) / 2;
  const count = 150 + Math.floor(uniform() * 100);
  const extent = 25 + Math.floor(uniform() * 35);
  const ops: Op[] = [];
  const place = (): Vec => [half(extent), half(extent), dimensions === 3 ? half(extent / 4) : 0];
  const range = (): AoiRange => {
    const r = pick([1, 2, 4, 6]);
    const shape = uniform();
    if (shape < 0.1) return null;
    if (shape < 0.35) return { radius: r };
    return dimensions === 3 ? { x: r, y: pick([1, 2, 4]), z: pick([1, 2]) } : { x: r, y: pick([1, 2, 4, 6]) };
  };
  const ranges: AoiRange[] = [];
  for (let id = 0; id < count; id++) {
    ranges.push(range());
    ops.push({ kind: 'add', id, p: place(), range: ranges[id], options: { margin: pick([0, 0, 0.5, 1, 2.5, 5]) } });
  }
  for (let tick = 0; tick < 10; tick++) {
    const moves: Array<{ id: number; p: Vec; relative: boolean }> = [];
    for (let id = 0; id < count; id++) {
      if (uniform() < 0.3) continue;
      // Now and then a teleport: the mover re-scans instead of walking.
      if (uniform() < 0.03) moves.push({ id, p: place(), relative: false });
      else moves.push({ id, p: [half(3), half(3), dimensions === 3 ? half(1) : 0], relative: true });
    }
    ops.push({ kind: 'moveMany', moves });
    for (let k = 0; k < 4; k++) {
      const id = Math.floor(uniform() * count);
      if (uniform() < 0.2) {
        ops.push({ kind: 'remove', id });
        continue;
      }
      if (uniform() < 0.15) {
        ops.push({ kind: 'setLayers', id, layer: pick([1, 2]), sees: pick([1, -1]) });
        continue;
      }
      // Mostly a new margin on the same range (pairs held by the old margin may end), else a new range.
      if (uniform() < 0.3) ranges[id] = range();
      ops.push({ kind: 'setRange', id, range: ranges[id], options: uniform() < 0.8 ? { margin: pick([0, 1, 3, 6]) } : undefined });
    }
  }
  return ops;
}

const INDEXES: SceneIndex[] = ['lists', 'grid'];

describe.each(INDEXES)('Scene margins in crowds (%s index)', (index) => {
  it.each([2, 3] as const)('%i-D: walkers, teleports, range and margin changes and removals give the oracle\'s events', (dimensions) => {
    fc.assert(fc.property(fc.integer(), (seed) => run(dimensions, crowd(seed, dimensions), 'abs', index)), { numRuns: runs(12) });
  });
});
