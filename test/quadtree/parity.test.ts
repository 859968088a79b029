// wasm, js and a brute-force oracle driven by identical random operation
// sequences: every answer must agree, id for id. Trees with bounds, with
// bounds far smaller than their items and without bounds; sequences that
// empty the tree and fill it again.
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { init } from '../../src/index.js';
import { box, config, coord, extent, op, rect, run, searchOps } from './ops.js';
import type { Rect } from './rect-oracle.js';
import { runs } from '../support/sweep.js';

beforeAll(() => init());

describe('QuadTree parity: wasm, js and brute force', () => {
  it('agree on random insert / update / remove / setCapacity / setBounds / query sequences', () => {
    fc.assert(
      fc.property(config, fc.array(op, { maxLength: 80, size: 'max' }), (cfg, ops) => run(cfg, ops)),
      { numRuns: runs(500) },
    );
  });

  it('agree on bulk-built trees followed by updates, removes and single inserts, and on trees cleared and refilled in bulk', () => {
    const bulkOp = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('insert' as const), id: fc.integer({ min: 0, max: 300 }), rect }) },
      { weight: 8, arbitrary: fc.record({ kind: fc.constant('update' as const), id: fc.integer({ min: 0, max: 150 }), rect }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 150 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('capacity' as const), capacity: fc.integer({ min: 1, max: 9 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('query' as const), rect: box, stopAfter: fc.integer({ min: 0, max: 20 }) }) },
      ...searchOps,
    );
    const batch = fc.uniqueArray(fc.record({ id: fc.integer({ min: 0, max: 150 }), rect }), { minLength: 20, maxLength: 150, selector: (item) => item.id });
    fc.assert(
      fc.property(config, batch, fc.array(bulkOp, { maxLength: 120 }), (cfg, items, ops) => run(cfg, [{ kind: 'insertMany', items }, ...ops])),
      { numRuns: runs(80) },
    );
    // Refilled in bulk after a clear, as a game rebuilding its index each frame does: the kept tables must not leak old items or homes.
    fc.assert(
      fc.property(config, batch, fc.array(bulkOp, { maxLength: 40 }), batch, fc.array(bulkOp, { maxLength: 60 }), (cfg, first, ops, second, more) =>
        run(cfg, [{ kind: 'insertMany', items: first }, ...ops, { kind: 'clear' }, { kind: 'insertMany', items: second }, ...more]),
      ),
      { numRuns: runs(40) },
    );
  });

  it('agree when items land far beyond the bounds, and through fill / empty / refill cycles, with bounds and without', () => {
    // Coordinates up to a million times the bounds, and a few at the edge of what a double holds.
    const far = fc.oneof(
      { weight: 6, arbitrary: coord },
      { weight: 3, arbitrary: fc.integer({ min: -40, max: 40 }).map((v) => v * 25_000) },
      { weight: 1, arbitrary: fc.constantFrom(-1e300, -3e15, 3e15, 1e300, Number.MAX_VALUE / 2) },
    );
    const farRect = fc.tuple(far, far, extent, extent).map(([x, y, w, h]): Rect => [x, y, x + w, y + h]);
    const cycleOp = fc.oneof(
      { weight: 12, arbitrary: fc.record({ kind: fc.constant('insert' as const), id: fc.integer({ min: 0, max: 60 }), rect: farRect }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('insertMany' as const), items: fc.array(fc.record({ id: fc.integer({ min: 0, max: 60 }), rect: farRect }), { maxLength: 40 }) }) },
      { weight: 8, arbitrary: fc.record({ kind: fc.constant('update' as const), id: fc.integer({ min: 0, max: 60 }), rect: farRect }) },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 60 }) }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('query' as const), rect: box, stopAfter: fc.integer({ min: 0, max: 6 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('bounds' as const), rect: fc.option(rect, { nil: null }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('capacity' as const), capacity: fc.integer({ min: 1, max: 9 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('removeAll' as const) }) },
      ...searchOps,
    );
    fc.assert(
      fc.property(config, fc.array(cycleOp, { minLength: 40, maxLength: 200, size: 'max' }), (cfg, ops) => run(cfg, ops)),
      { numRuns: runs(120) },
    );
  });

  it('agree on dense scenes with many moves (both modes)', () => {
    const denseOp = fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('insert' as const), id: fc.integer({ min: 0, max: 150 }), rect }) },
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('update' as const), id: fc.integer({ min: 0, max: 150 }), rect }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 150 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('query' as const), rect: box, stopAfter: fc.integer({ min: 0, max: 20 }) }) },
      ...searchOps,
    );
    fc.assert(
      fc.property(config, fc.array(denseOp, { minLength: 100, maxLength: 400, size: 'max' }), (cfg, ops) => run(cfg, ops)),
      { numRuns: runs(60) },
    );
  });
});
