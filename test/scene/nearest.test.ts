// Scene.nearest, nearest3 and ids: random scenes driven through wasm and js
// on both indexes and answered by the brute-force oracle, facts a user relies
// on (ties by id, closed maxDistance, k beyond the scene), and bad input.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, SpatialError, type NearestOptions, type SceneIndex } from '../../src/index.js';
import { AoiOracle } from './oracle.js';

beforeAll(() => init());

type Vec = [number, number, number];
type Op =
  | { kind: 'add'; id: number; p: Vec; range: number }
  | { kind: 'move'; id: number; p: Vec }
  | { kind: 'remove'; id: number }
  | { kind: 'addMany'; ids: number[]; p: Vec[]; range: number }
  | { kind: 'nearest'; q: Vec; k: number; options: NearestOptions | undefined };

// Halves on a small board: many entities at equal distances, so ties by id are common.
const coord = fc.integer({ min: -16, max: 16 }).map((v) => v / 2);
// Far values: clamped grid cells (beyond 2^30 cells of side 1), squares that overflow to Infinity.
const far = fc.constantFrom(1e9, -1e9, 3e9 + 0.5, 1e15, -1e15, 1e160, -1e200, 1.7e308);
const anyCoord = fc.oneof({ weight: 8, arbitrary: coord }, { weight: 1, arbitrary: far });
const vec = fc.tuple(anyCoord, anyCoord, anyCoord);
const id = fc.integer({ min: 0, max: 40 });
// Ranges sort entities into the grid's levels: several levels hold entities at once.
const range = fc.constantFrom(0, 1, 2, 9, 40);
const options: fc.Arbitrary<NearestOptions | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({ maxDistance: fc.constantFrom(0, 0.5, 1, 2.5, 5, 1e12, Infinity) }, { requiredKeys: [] }),
  fc.record({ maxDistance: fc.constantFrom(0, 3, Infinity), layer: fc.constantFrom(1, 2, -1, 0, 0xffffffff, 3) }, { requiredKeys: [] }),
);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('add' as const), id, p: vec, range }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('move' as const), id, p: vec }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id }) },
  {
    weight: 1,
    arbitrary: fc
      .uniqueArray(fc.integer({ min: 100, max: 400 }), { maxLength: 70 })
      .chain((ids) => fc.record({ kind: fc.constant('addMany' as const), ids: fc.constant(ids), p: fc.array(fc.tuple(coord, coord, coord), { minLength: ids.length, maxLength: ids.length }), range })),
  },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('nearest' as const), q: vec, k: fc.integer({ min: 0, max: 50 }), options }) },
);

const CORES: Array<{ backend: 'wasm' | 'js'; index: SceneIndex }> = [
  { backend: 'wasm', index: 'lists' },
  { backend: 'js', index: 'lists' },
  { backend: 'wasm', index: 'grid' },
  { backend: 'js', index: 'grid' },
];

function run(dimensions: 2 | 3, ops: Op[], cellSize: number | undefined): void {
  const scenes = CORES.map(({ backend, index }) => new Scene({ backend, index, dimensions, cellSize }));
  const oracle = new AoiOracle(dimensions);
  const flat = (p: Vec): Vec => (dimensions === 2 ? [p[0], p[1], 0] : p);
  for (const op of ops) {
    switch (op.kind) {
      case 'add':
        if (oracle.entities.has(op.id)) continue;
        for (const s of scenes) {
          if (dimensions === 3) s.add3(op.id, op.p[0], op.p[1], op.p[2], op.range);
          else s.add(op.id, op.p[0], op.p[1], op.range);
        }
        oracle.add(op.id, flat(op.p), [op.range, op.range, dimensions === 3 ? op.range : 0]);
        break;
      case 'move':
        if (!oracle.entities.has(op.id)) continue;
        for (const s of scenes) s.move(op.id, op.p[0], op.p[1], op.p[2]);
        oracle.move(op.id, flat(op.p));
        break;
      case 'remove':
        for (const s of scenes) s.remove(op.id);
        if (oracle.entities.has(op.id)) oracle.remove(op.id);
        break;
      case 'addMany': {
        const ids = op.ids.filter((i) => !oracle.entities.has(i));
        const p = op.p.filter((_, k) => !oracle.entities.has(op.ids[k]));
        const column = (a: number): Float64Array => Float64Array.from(p, (v) => v[a]);
        for (const s of scenes) s.addMany(ids, column(0), column(1), dimensions === 3 ? column(2) : undefined, new Float64Array(ids.length).fill(op.range));
        ids.forEach((i, k) => oracle.add(i, flat(p[k]), [op.range, op.range, dimensions === 3 ? op.range : 0]));
        break;
      }
      case 'nearest': {
        const expected = oracle.nearest(flat(op.q), op.k, op.options?.maxDistance, op.options?.layer);
        for (const s of scenes) {
          const got = dimensions === 3 ? s.nearest3(op.q[0], op.q[1], op.q[2], op.k, op.options) : s.nearest(op.q[0], op.q[1], op.k, op.options);
          expect(got).toBeInstanceOf(Int32Array);
          expect(Array.from(got)).toEqual(expected);
        }
        break;
      }
    }
    oracle.drain();
    for (const s of scenes) s.drain();
  }
  for (const s of scenes) {
    expect(s.ids()).toEqual(oracle.ids());
    s.dispose();
  }
}

describe('Scene.nearest: wasm and js, lists and grid, against a brute-force oracle', () => {
  for (const dimensions of [2, 3] as const) {
    for (const cellSize of [undefined, 0.5]) {
      it(`${dimensions}-D, random scenes with ties and far coordinates${cellSize ? `, cellSize ${cellSize}` : ''}`, () => {
        fc.assert(
          fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) => run(dimensions, ops, cellSize)),
          { numRuns: 120 },
        );
      });
    }
  }

  it('a large scene (bands on the lists, several cells per level on the grid), many queries', () => {
    const random = fc.sample(fc.tuple(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 4000 })), { numRuns: 3000, seed: 7 });
    const ops: Op[] = random.map(([x, y], i) => ({ kind: 'add', id: i, p: [x / 16, y / 16, 0], range: i % 50 === 0 ? 10 : 2 }));
    const queries = fc.sample(fc.tuple(fc.integer({ min: -50, max: 300 }), fc.integer({ min: -50, max: 300 }), fc.integer({ min: 0, max: 12 })), { numRuns: 400, seed: 8 });
    for (const [x, y, k] of queries) ops.push({ kind: 'nearest', q: [x, y, 0], k, options: k % 3 === 0 ? { maxDistance: 20 } : undefined });
    run(2, ops, undefined);
  });
});

describe.each(CORES)('Scene.nearest facts ($backend, $index)', ({ backend, index }) => {
  function scene(): Scene {
    const s = new Scene({ backend, index, defaultRange: 10 });
    // Four entities 5 away from the origin, one at it, one far.
    s.add(7, 3, 4);
    s.add(2, 5, 0);
    s.add(9, 0, -5);
    s.add(4, -4, 3);
    s.add(8, 0, 0);
    s.add(1, 100, 100);
    return s;
  }

  it('keeps only entities whose layer meets the mask, and follows setLayers', () => {
    const s = new Scene({ backend, index, defaultRange: 10 });
    s.add(1, 1, 0, null, { layer: 1 });
    s.add(2, 2, 0, null, { layer: 2 });
    s.add(3, 3, 0, null, { layer: 4 });
    s.add(4, 4, 0, null, { layer: 2 | 4 });
    expect(Array.from(s.nearest(0, 0, 4, { layer: 2 }))).toEqual([2, 4]);
    expect(Array.from(s.nearest(0, 0, 4, { layer: 4 }))).toEqual([3, 4]);
    expect(Array.from(s.nearest(0, 0, 1, { layer: 6 }))).toEqual([2]);
    s.setLayers(1, 4, -1);
    expect(Array.from(s.nearest(0, 0, 4, { layer: 4 }))).toEqual([1, 3, 4]);
    expect(Array.from(s.nearest(0, 0, 4, { layer: 1 }))).toEqual([]);
  });

  it('orders by distance, then by id', () => {
    expect(Array.from(scene().nearest(0, 0, 6))).toEqual([8, 2, 4, 7, 9, 1]);
    expect(Array.from(scene().nearest(0, 0, 3))).toEqual([8, 2, 4]);
  });

  it('returns every entity when k exceeds the scene, none when k is 0', () => {
    expect(scene().nearest(50, 50, 100).length).toBe(6);
    expect(Array.from(scene().nearest(0, 0, 0))).toEqual([]);
    expect(Array.from(new Scene({ backend, index }).nearest(0, 0, 3))).toEqual([]);
  });

  it('keeps maxDistance closed: 5 holds the entities exactly 5 away, 0 only the one at the point', () => {
    expect(Array.from(scene().nearest(0, 0, 10, { maxDistance: 5 }))).toEqual([8, 2, 4, 7, 9]);
    expect(Array.from(scene().nearest(0, 0, 10, { maxDistance: 4.999 }))).toEqual([8]);
    expect(Array.from(scene().nearest(0, 0, 10, { maxDistance: 0 }))).toEqual([8]);
    expect(Array.from(scene().nearest(0.5, 0, 10, { maxDistance: 0 }))).toEqual([]);
  });

  it('filters by layer: every entity is on layer 1', () => {
    expect(Array.from(scene().nearest(0, 0, 2, { layer: 1 }))).toEqual([8, 2]);
    expect(Array.from(scene().nearest(0, 0, 2, { layer: 0xffffffff }))).toEqual([8, 2]);
    expect(Array.from(scene().nearest(0, 0, 2, { layer: 2 }))).toEqual([]);
  });

  it('measures from the position, not the view range', () => {
    const s = new Scene({ backend, index });
    s.add(1, 10, 0, 500);
    s.add(2, 0, 6, null);
    expect(Array.from(s.nearest(0, 0, 1))).toEqual([2]);
  });

  it('answers in 3-D with z in the distance', () => {
    const s = new Scene({ backend, index, dimensions: 3 });
    s.add3(1, 0, 0, 10);
    s.add3(2, 3, 0, 0);
    s.add3(3, 0, 0, -2);
    expect(Array.from(s.nearest3(0, 0, 0, 3))).toEqual([3, 2, 1]);
    expect(Array.from(s.nearest3(0, 0, 9, 1))).toEqual([1]);
  });

  it('ids lists every id ascending, after adds and removes', () => {
    const s = scene();
    s.remove(9);
    expect(s.ids()).toEqual([1, 2, 4, 7, 8]);
    s.clear();
    expect(s.ids()).toEqual([]);
  });

  it('rejects bad input with a code and changes nothing', () => {
    // s and its twin take the same moves; only s takes the bad calls.
    const s = scene();
    const twin = scene();
    for (const t of [s, twin]) {
      t.drain();
      t.move(7, 3, 5);
    }
    const three = new Scene({ backend, index, dimensions: 3 });
    const cases: Array<[() => unknown, string]> = [
      [() => s.nearest(0, 0, -1), 'INVALID_ARGUMENT'],
      [() => s.nearest(0, 0, 1.5), 'INVALID_ARGUMENT'],
      [() => s.nearest(0, 0, NaN), 'INVALID_ARGUMENT'],
      [() => s.nearest(0, 0, '2' as unknown as number), 'INVALID_ARGUMENT'],
      [() => s.nearest(NaN, 0, 1), 'INVALID_NUMBER'],
      [() => s.nearest(0, Infinity, 1), 'INVALID_NUMBER'],
      [() => s.nearest(0, 0, 1, { maxDistance: -1 }), 'NEGATIVE_RANGE'],
      [() => s.nearest(0, 0, 1, { maxDistance: NaN }), 'INVALID_NUMBER'],
      [() => s.nearest(0, 0, 1, { maxDistance: null as unknown as number }), 'INVALID_NUMBER'],
      [() => s.nearest(0, 0, 1, { layer: 1.5 }), 'INVALID_ARGUMENT'],
      [() => s.nearest(0, 0, 1, { layer: 2 ** 32 }), 'INVALID_ARGUMENT'],
      [() => s.nearest(0, 0, 1, { layer: -(2 ** 31) - 1 }), 'INVALID_ARGUMENT'],
      [() => s.nearest(0, 0, 1, { layer: '1' as unknown as number }), 'INVALID_ARGUMENT'],
      [() => s.nearest(0, 0, 1, { radius: 3 } as NearestOptions), 'INVALID_ARGUMENT'],
      [() => s.nearest(0, 0, 1, 5 as unknown as NearestOptions), 'INVALID_ARGUMENT'],
      [() => s.nearest3(0, 0, 0, 1), 'INVALID_ARGUMENT'],
      [() => three.nearest(0, 0, 1), 'INVALID_ARGUMENT'],
      [() => three.nearest3(0, 0, NaN, 1), 'INVALID_NUMBER'],
    ];
    for (const [call, code] of cases) {
      let error: unknown;
      try {
        call();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SpatialError);
      expect((error as SpatialError).code).toBe(code);
    }
    expect(s.ids()).toEqual([1, 2, 4, 7, 8, 9]);
    expect(s.position(7)).toEqual({ x: 3, y: 5, z: 0 });
    const events = s.drainArray();
    expect(events.length).toBeGreaterThan(0);
    expect(events).toEqual(twin.drainArray());
    expect(Array.from(s.nearest(0, 0, 2))).toEqual(Array.from(twin.nearest(0, 0, 2)));
    s.dispose();
    expect(() => s.nearest(0, 0, 1)).toThrow(SpatialError);
    expect(() => s.ids()).toThrow(SpatialError);
  });
});
