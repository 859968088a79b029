// Random operation sequences driven through the wasm backend, the js backend
// and the brute-force oracle: every drained event multiset and every
// query / watchers / queryBox answer must agree.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, type AoiRange } from '../../src/index.js';
import { CORE } from '../../src/core/internals.js';
import type { GridIndexCore } from '../../src/scene/js/grid.js';
import type { ListsIndexCore } from '../../src/scene/js/lists.js';
import { addOptions, coord, extent, id, mask, opArb, run, step, vec, type Op, type Vec } from './ops.js';
import { runs } from '../support/sweep.js';

beforeAll(() => init());

/** The cut of the js lists core's x list (banded by y), read through the test hook. */
function xCut(scene: Scene): ReturnType<ListsIndexCore['xCut']> {
  return (scene[CORE] as ListsIndexCore).xCut();
}

function bandsOf(scene: Scene): number {
  return xCut(scene).bands;
}

describe.each(['lists', 'grid'] as const)('Scene parity (%s index): wasm, js and a brute-force oracle on random operation sequences', (index) => {
  for (const dimensions of [2, 3] as const) {
    for (const equal of [false, true]) {
      it(`${dimensions}-D, ${equal ? 'equal' : 'mixed'} ranges`, () => {
        fc.assert(
          fc.property(fc.array(opArb(dimensions, equal), { minLength: 1, maxLength: 80 }), (ops) => run(dimensions, ops, 'abs', index)),
          { numRuns: runs(150) },
        );
      });
    }
  }

  it('far from the origin with decimal coordinates (rounding in every bound), judged as W - r <= T <= W + r', () => {
    // Around 1e6, tenths are not exact and f32 keeps no decimals: the core's
    // f32 extents on list nodes must stay conservative for nothing to be missed.
    const tenth = fc.integer({ min: -12, max: 12 }).map((v) => 1_000_000 + v / 10);
    const arb = fc.array(
      fc.oneof(
        fc.record({ kind: fc.constant('add' as const), id, p: fc.tuple(tenth, tenth, tenth) as fc.Arbitrary<Vec>, range: fc.constantFrom(0.1, 0.2, 0.3, 0.5) as fc.Arbitrary<AoiRange> }),
        fc.record({ kind: fc.constant('move' as const), id, p: fc.tuple(tenth, tenth, tenth) as fc.Arbitrary<Vec>, relative: fc.constant(false) }),
        fc.record({ kind: fc.constant('setRange' as const), id, range: fc.constantFrom(0.2, 0.4, null) as fc.Arbitrary<AoiRange> }),
      ),
      { minLength: 1, maxLength: 60 },
    );
    for (const dimensions of [2, 3] as const) {
      fc.assert(fc.property(arb, (ops) => run(dimensions, ops, 'bounds', index)), { numRuns: runs(100) });
    }
  });

  it('coordinates and ranges at the ends of the doubles, in bulk and one by one', () => {
    const huge = fc.constantFrom(-1.7e308, -1e300, -3, 0, 2.5, 1e300, 1.7e308);
    const big = fc.constantFrom(0, 1, 1e300, 1.7e308);
    const arb = fc.tuple(
      fc.array(fc.record({ id: fc.integer({ min: 0, max: 80 }), p: fc.tuple(huge, huge, huge) as fc.Arbitrary<Vec>, range: big }), { minLength: 32, maxLength: 45 }),
      fc.array(fc.record({ kind: fc.constant('move' as const), id: fc.integer({ min: 0, max: 80 }), p: fc.tuple(huge, huge, huge) as fc.Arbitrary<Vec>, relative: fc.constant(false) }), { maxLength: 20 }),
    );
    fc.assert(fc.property(arb, ([adds, moves]) => run(2, [{ kind: 'addMany', adds }, ...moves], 'bounds', index)), { numRuns: runs(60) });
  });

  it('where f32 saturates, and keys that tie as f32 while walking', () => {
    // The core's list nodes keep keys and filter coordinates as f32: above
    // 3.4e38 they saturate, and near 1e6 neighbours share one f32 value.
    const edge = fc.constantFrom(-3.5e38, -9.9e36, 0, 1e37, 3.4028234e38, 3.4028236e38, 3.5e38, 1e39);
    const near = fc.integer({ min: -8, max: 8 }).map((v) => 1_000_000 + v / 64);
    const arb = (c: fc.Arbitrary<number>, ranges: number[], steps: fc.Arbitrary<number>) =>
      fc.array(
        fc.oneof(
          fc.record({ kind: fc.constant('add' as const), id, p: fc.tuple(c, c, c) as fc.Arbitrary<Vec>, range: fc.constantFrom(...ranges) as fc.Arbitrary<AoiRange> }),
          fc.record({ kind: fc.constant('move' as const), id, p: fc.tuple(c, c, c) as fc.Arbitrary<Vec>, relative: fc.constant(false) }),
          fc.record({ kind: fc.constant('move' as const), id, p: fc.tuple(steps, steps, steps) as fc.Arbitrary<Vec>, relative: fc.constant(true) }),
          fc.record({ kind: fc.constant('setRange' as const), id, range: fc.constantFrom(...ranges, null) as fc.Arbitrary<AoiRange> }),
        ),
        { minLength: 1, maxLength: 60 },
      );
    const tiny = fc.integer({ min: -3, max: 3 }).map((v) => v / 128);
    const bigStep = fc.constantFrom(-1e37, 0, 1e37);
    for (const dimensions of [2, 3] as const) {
      fc.assert(fc.property(arb(edge, [0, 1e36, 1e37, 2e38], bigStep), (ops) => run(dimensions, ops, 'bounds', index)), { numRuns: runs(60) });
      fc.assert(fc.property(arb(near, [0, 1 / 64, 3 / 64, 0.1], tiny), (ops) => run(dimensions, ops, 'bounds', index)), { numRuns: runs(300) });
    }
  });

  it('banded lists: steps across band borders and corners, boxes entering and leaving bands, re-cuts and entities beyond the cut', () => {
    // 2.5-unit bands (five ranges of 0.5 at the cut): moves of up to 3 units
    // cross borders on both axes at once; a range of 4 later overlaps more
    // than two bands and forces a re-cut; moves to +-90 land beyond it.
    const lattice = fc.integer({ min: -20, max: 20 }).map((v) => v / 2);
    const step3 = fc.integer({ min: -6, max: 6 }).map((v) => v / 2);
    const arb = (dimensions: 2 | 3) => fc.tuple(
      fc.array(fc.record({ id: fc.integer({ min: 20, max: 79 }), p: fc.tuple(lattice, lattice, lattice) as fc.Arbitrary<Vec>, range: fc.constant(0.5) }), { minLength: 40, maxLength: 60 }),
      fc.array(
        fc.oneof(
          { weight: 8, arbitrary: fc.record({ kind: fc.constant('move' as const), id: fc.integer({ min: 20, max: 79 }), p: fc.tuple(step3, step3, step3) as fc.Arbitrary<Vec>, relative: fc.constant(true) }) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('move' as const), id: fc.integer({ min: 20, max: 79 }), p: fc.tuple(fc.constantFrom(-90, 90), lattice, lattice) as fc.Arbitrary<Vec>, relative: fc.constant(false) }) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('setRange' as const), id: fc.integer({ min: 20, max: 79 }), range: fc.constantFrom(0, 1, 4, dimensions === 3 ? { x: 0.5, y: 2, z: 1 } : { x: 0.5, y: 2 }) as fc.Arbitrary<AoiRange> }) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('add' as const), id: fc.integer({ min: 0, max: 19 }), p: fc.tuple(lattice, lattice, lattice) as fc.Arbitrary<Vec>, range: fc.constantFrom(0.5, 1.5, null) as fc.Arbitrary<AoiRange> }) },
        ),
        { minLength: 20, maxLength: 120 },
      ),
    );
    for (const dimensions of [2, 3] as const) {
      fc.assert(fc.property(arb(dimensions), ([adds, ops]) => run(dimensions, [{ kind: 'addMany', adds }, ...ops], 'abs', index)), { numRuns: runs(40) });
    }
    // The workload above is cut into bands (the cut depends only on the scene's contents).
    if (index === 'grid') return;
    const scene = new Scene({ backend: 'js', index: 'lists', defaultRange: 0.5 });
    scene.addMany(Int32Array.from({ length: 40 }, (_, i) => i), Float64Array.from({ length: 40 }, (_, i) => i % 7), Float64Array.from({ length: 40 }, (_, i) => (i * 3) % 20));
    expect(bandsOf(scene)).toBeGreaterThan(1);
  });

  it('a population that migrates beyond its cut, without growing, is re-cut, unless it parks far away: events unchanged', () => {
    // 2.5-unit bands around a 10 x 20 lattice; every entity then leaves by
    // 30 or 60 units on x or y (a re-cut), or parks a million units away
    // (none), alone or in batches, while others walk.
    const lattice = fc.integer({ min: 0, max: 20 }).map((v) => v / 2);
    const step3 = fc.integer({ min: -6, max: 6 }).map((v) => v / 2);
    const shift = fc.constantFrom(-60, -30, 30, 60, 1e6);
    const arb = (dimensions: 2 | 3) =>
      fc.tuple(
        fc.uniqueArray(fc.integer({ min: 20, max: 79 }), { minLength: 40, maxLength: 60 }),
        fc.tuple(lattice, lattice, lattice),
        fc.tuple(shift, fc.constantFrom(0, 1, 2)),
        fc.array(fc.tuple(fc.integer({ min: 20, max: 79 }), fc.tuple(step3, step3, step3)), { minLength: 60, maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
      ).map(([ids, origin, [distance, axis], walks, batch]): Op[] => {
        const adds = ids.map((id, k) => ({ id, p: [(origin[0] + k) % 10, (origin[1] + 3 * k) % 20, (origin[2] + k) % (dimensions === 3 ? 10 : 1)] as Vec, range: 0.5 }));
        const offset: Vec = [0, 0, 0];
        offset[dimensions === 3 ? axis : axis % 2] = distance;
        const ops: Op[] = [{ kind: 'addMany', adds }];
        for (let k = 0; k < ids.length; k += batch) {
          const leaving = ids.slice(k, k + batch).map((id) => ({ id, p: offset, relative: true }));
          ops.push(leaving.length === 1 ? { kind: 'move', ...leaving[0] } : { kind: 'moveMany', moves: leaving });
          const [id, p] = walks[k % walks.length];
          ops.push({ kind: 'move', id, p, relative: true });
        }
        return ops;
      });
    for (const dimensions of [2, 3] as const) {
      fc.assert(fc.property(arb(dimensions), (ops) => run(dimensions, ops, 'abs', index)), { numRuns: runs(30) });
    }
    if (index === 'grid') return;
    // The js core's x list (banded by y) follows the population: its first
    // cut ends well below y = 100; after the move every entity is inside the
    // cut, none beyond it.
    const scene = new Scene({ backend: 'js', index: 'lists', defaultRange: 0.5 });
    const n = 48;
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    scene.addMany(ids, Float64Array.from(ids, (i) => i % 10), Float64Array.from(ids, (i) => (3 * i) % 20));
    const before = xCut(scene);
    expect(before.bands).toBeGreaterThan(1);
    expect(before.origin + (before.bands + 1) * before.height).toBeLessThan(100);
    scene.moveMany(ids, Float64Array.from(ids, (i) => i % 10), Float64Array.from(ids, (i) => 100 + ((3 * i) % 20)));
    const after = xCut(scene);
    expect(after.bands).toBeGreaterThan(1);
    expect(after.origin).toBeLessThanOrEqual(100);
    expect(after.origin + after.bands * after.height).toBeGreaterThan(119);
    expect(after.outside).toBe(0);
    // Parking 30 of them a million units up leaves that cut alone: reaching
    // them would make every band taller.
    const parked = ids.subarray(0, 30);
    scene.moveMany(parked, Float64Array.from(parked, (i) => i % 10), new Float64Array(parked.length).fill(1e6));
    expect(xCut(scene)).toEqual({ ...after, outside: 30 });
  });

  it('circles and boxes mixed: steps across the rim of a circle inside its bounding box, shapes switched by setRange', () => {
    // Radii on the half lattice and steps of a half: a walker often stays in
    // a watcher's bounding box while it crosses the circle, where no box edge is crossed.
    const lattice = fc.integer({ min: -8, max: 8 }).map((v) => v / 2);
    const small = fc.integer({ min: -2, max: 2 }).map((v) => v / 2);
    const shape = fc.oneof(fc.constantFrom(2, 3).map((radius) => ({ radius })), fc.constantFrom(1, 2.5)) as fc.Arbitrary<AoiRange>;
    const arb = (dimensions: 2 | 3) =>
      fc.array(
        fc.oneof(
          { weight: 2, arbitrary: fc.record({ kind: fc.constant('add' as const), id, p: vec(lattice), range: shape }) },
          { weight: 8, arbitrary: fc.record({ kind: fc.constant('move' as const), id, p: vec(small), relative: fc.constant(true) }) },
          { weight: 2, arbitrary: fc.array(fc.record({ id, p: vec(small), relative: fc.constant(true) }), { maxLength: 6 }).map((moves) => ({ kind: 'moveMany' as const, moves })) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('setRange' as const), id, range: fc.oneof(shape, fc.constant(null)) }) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id }) },
        ),
        { minLength: 10, maxLength: 80 },
      );
    for (const dimensions of [2, 3] as const) fc.assert(fc.property(arb(dimensions), (ops) => run(dimensions, ops, 'abs', index)), { numRuns: runs(80) });
  });

  it('layers: masks set on add and changed by setLayers in a crowd, with walkers, circles and markers', () => {
    // Everyone within a few units of everyone: most mask changes flip some pair, either way.
    const lattice = fc.integer({ min: -4, max: 4 }).map((v) => v / 2);
    const small = fc.integer({ min: -2, max: 2 }).map((v) => v / 2);
    const shape = fc.constantFrom(2, 3, { radius: 3 }, null) as fc.Arbitrary<AoiRange>;
    const arb = (dimensions: 2 | 3) =>
      fc.array(
        fc.oneof(
          { weight: 3, arbitrary: fc.record({ kind: fc.constant('add' as const), id, p: vec(lattice), range: shape, options: addOptions }) },
          { weight: 3, arbitrary: fc.record({ kind: fc.constant('setLayers' as const), id, layer: mask, sees: mask }) },
          { weight: 3, arbitrary: fc.record({ kind: fc.constant('move' as const), id, p: vec(small), relative: fc.constant(true) }) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('setRange' as const), id, range: shape }) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id }) },
        ),
        { minLength: 10, maxLength: 60 },
      );
    for (const dimensions of [2, 3] as const) fc.assert(fc.property(arb(dimensions), (ops) => run(dimensions, ops, 'abs', index)), { numRuns: runs(60) });
  });

  it('a larger crowd: 300 entities, many walking steps and teleports', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
        let state = seed;
        const rand = (): number => {
          state = (state * 1103515245 + 12345) & 0x7fffffff;
          return state / 0x80000000;
        };
        const half = (span: number): number => Math.round((rand() * 2 - 1) * span) / 2;
        const ops: Op[] = [];
        const adds = [];
        for (let i = 0; i < 280; i++) adds.push({ id: i, p: [half(60), half(60), 0] as Vec, range: [1, 2, 3, 4][(rand() * 4) | 0] });
        ops.push({ kind: 'addMany', adds });
        for (let i = 280; i < 300; i++) ops.push({ kind: 'add', id: i, p: [half(60), half(60), 0], range: rand() < 0.5 ? null : 2 });
        for (let i = 0; i < 30; i++) {
          const moves = [];
          for (let k = 0; k < 40; k++) {
            const teleport = rand() < 0.05;
            moves.push({ id: (rand() * 300) | 0, p: (teleport ? [half(60), half(60), 0] : [half(3), half(3), 0]) as Vec, relative: !teleport });
          }
          ops.push({ kind: 'moveMany', moves });
          if (i % 5 === 0) ops.push({ kind: 'remove', id: (rand() * 300) | 0 });
          if (i % 7 === 0) ops.push({ kind: 'setRange', id: (rand() * 300) | 0, range: { x: 5, y: 1 } });
        }
        run(2, ops, 'abs', index);
      }),
      { numRuns: runs(5) },
    );
  });
});

describe('Scene parity (grid index): cell sizes, cell borders, teleports and far coordinates', () => {
  const sizes = [0.01, 0.5, 1, 3, 1000];
  it('cellSize tiny, equal to the coordinate lattice (entities and box edges on cell borders), and huge: 2-D and 3-D, mixed ranges wider than a cell', () => {
    for (const dimensions of [2, 3] as const) {
      for (const equal of [false, true]) {
        fc.assert(
          fc.property(fc.constantFrom(...sizes), fc.array(opArb(dimensions, equal), { minLength: 1, maxLength: 60 }), (cellSize, ops) => run(dimensions, ops, 'abs', 'grid', cellSize)),
          { numRuns: runs(40) },
        );
      }
    }
  });

  it('exact border crossings: steps of whole cells onto and off cell borders, with boxes whose edges sit on borders', () => {
    // cellSize 2 and ranges 0, 2, 4: every coordinate below is on or half a cell from a border.
    const onBorder = fc.integer({ min: -8, max: 8 }).map((v) => v);
    const arb = (dimensions: 2 | 3) =>
      fc.array(
        fc.oneof(
          fc.record({ kind: fc.constant('add' as const), id, p: vec(onBorder), range: fc.constantFrom(0, 2, 4, null) as fc.Arbitrary<AoiRange> }),
          fc.record({ kind: fc.constant('move' as const), id, p: vec(fc.constantFrom(-2, -1, 0, 1, 2)), relative: fc.constant(true) }),
          fc.record({ kind: fc.constant('setRange' as const), id, range: fc.constantFrom(0, 1, 2, 4, 9, null) as fc.Arbitrary<AoiRange> }),
        ),
        { minLength: 1, maxLength: 80 },
      );
    for (const dimensions of [2, 3] as const) fc.assert(fc.property(arb(dimensions), (ops) => run(dimensions, ops, 'abs', 'grid', 2)), { numRuns: runs(80) });
  });

  it('teleports across the world and coordinates near +-1e300, with ranges of every size', () => {
    const anywhere = fc.constantFrom(-1e300, -9.99e299, -1e6, -3, 0, 2.5, 1e6, 1e300, 1.0000000000000001e300);
    const ranges = fc.constantFrom(0, 1, 1e6, 1e300, null) as fc.Arbitrary<AoiRange>;
    const arb = (dimensions: 2 | 3) =>
      fc.array(
        fc.oneof(
          fc.record({ kind: fc.constant('add' as const), id, p: vec(anywhere), range: ranges }),
          fc.record({ kind: fc.constant('move' as const), id, p: vec(anywhere), relative: fc.constant(false) }),
          fc.record({ kind: fc.constant('move' as const), id, p: vec(step), relative: fc.constant(true) }),
          fc.record({ kind: fc.constant('setRange' as const), id, range: ranges }),
          fc.record({ kind: fc.constant('remove' as const), id }),
        ),
        { minLength: 1, maxLength: 60 },
      );
    for (const dimensions of [2, 3] as const) {
      for (const cellSize of [1, 1e-3]) fc.assert(fc.property(arb(dimensions), (ops) => run(dimensions, ops, 'bounds', 'grid', cellSize)), { numRuns: runs(60) });
    }
  });
});

describe('Scene grid: a sparse level takes cells twice its base, and goes back once it fills up', () => {
  const levelSize = (scene: Scene): number => (scene[CORE] as GridIndexCore).baseCellSize();

  it('the cell side follows the density, with the events of the oracle throughout', () => {
    // 64 entities on a 10-unit lattice (one per cell of side 1), then 400 more
    // packed within 2.5 units (eighths keep every sum exact); random walks around both crowds.
    const sparse = Array.from({ length: 64 }, (_, i) => ({ id: 100 + i, p: [(i % 8) * 10, Math.floor(i / 8) * 10, 0] as Vec, range: 1 }));
    const dense = Array.from({ length: 400 }, (_, i) => ({ id: 200 + i, p: [(i % 20) / 8, Math.floor(i / 20) / 8, 0] as Vec, range: 1 }));
    const walk = fc.array(fc.record({ kind: fc.constant('move' as const), id: fc.integer({ min: 100, max: 599 }), p: vec(step), relative: fc.constant(true) }), { maxLength: 30 });
    fc.assert(
      fc.property(walk, walk, (first, second) => run(2, [{ kind: 'addMany', adds: sparse }, ...first, { kind: 'addMany', adds: dense }, ...second], 'abs', 'grid', 1)),
      { numRuns: runs(10) },
    );
    const scene = new Scene({ backend: 'js', index: 'grid', cellSize: 1, defaultRange: 1 });
    const column = (list: typeof sparse, k: number): Float64Array => Float64Array.from(list, (a) => a.p[k]);
    scene.addMany(Int32Array.from(sparse, (a) => a.id), column(sparse, 0), column(sparse, 1));
    expect(levelSize(scene)).toBe(2);
    scene.addMany(Int32Array.from(dense, (a) => a.id), column(dense, 0), column(dense, 1));
    expect(levelSize(scene)).toBe(1);
  });
});
