// Margins on the grid index in crowds large enough that a step reads its
// region cell by cell (small scenes read the level's whole table instead):
// wasm, js and the brute-force oracle agree on every event, and on every
// query and watchers answer at the end.
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { init, type AoiRange } from '../src/index.js';
import { run, type Op, type Vec } from './scene-ops.js';

beforeAll(() => init());

/** A crowd of `count` on the half lattice: every watcher with a margin, then ticks of walkers, teleports and range changes. */
function crowd(seed: number, dimensions: 2 | 3, count: number): Op[] {
  let state = seed;
  const rand = (): number => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
  const half = (span: number): number => Math.round((rand() * 2 - 1) * span) / 2;
  const place = (span: number): Vec => [half(span), half(span), dimensions === 3 ? half(span) : 0];
  const pick = <T>(values: T[]): T => values[(rand() * values.length) | 0];
  const margins = [0, 0.5, 1, 2.5];
  const ops: Op[] = [];
  ops.push({ kind: 'addMany', adds: Array.from({ length: count - 20 }, (_, i) => ({ id: i, p: place(60), range: pick([1, 2, 3, 4]) })) });
  for (let i = 0; i < count - 20; i++) {
    const range: AoiRange = rand() < 0.2 ? { radius: pick([2, 3.5]) } : pick([1, 2, 3, 4]);
    ops.push({ kind: 'setRange', id: i, range, options: { margin: pick(margins) } });
  }
  for (let i = count - 20; i < count; i++) ops.push({ kind: 'add', id: i, p: place(60), range: rand() < 0.3 ? null : 2, options: { margin: pick(margins) } });
  for (let tick = 0; tick < 25; tick++) {
    const moves = Array.from({ length: 40 }, () => {
      const teleport = rand() < 0.05;
      return { id: (rand() * count) | 0, p: teleport ? place(60) : place(1.5), relative: !teleport };
    });
    ops.push({ kind: 'moveMany', moves });
    if (tick % 5 === 0) ops.push({ kind: 'remove', id: (rand() * count) | 0 });
    if (tick % 4 === 0) ops.push({ kind: 'setRange', id: (rand() * count) | 0, range: pick<AoiRange>([1, 3, { radius: 2.5 }]), options: { margin: pick(margins) } });
    if (tick % 6 === 0) ops.push({ kind: 'setLayers', id: (rand() * count) | 0, layer: pick([1, 2]), sees: pick([1, -1]) });
  }
  return ops;
}

describe('Scene margins on the grid index, cell by cell', () => {
  it.each([2, 3] as const)('%i-D: a crowd of 300, margins on every watcher, walking and teleporting', (dimensions) => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => run(dimensions, crowd(seed, dimensions, 300), 'abs', 'grid')),
      { numRuns: 4 },
    );
  });
});
