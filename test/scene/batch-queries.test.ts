// Scene.nearestMany and queryBoxMany: many searches in one call, answered as
// offsets plus ids. Random scenes driven through wasm and js on both indexes,
// each answer checked against the brute-force oracle; caller arrays; bad
// input rejected with a code, writing nothing.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, Scene, type QueryResults, type SceneIndex, type SceneNearestManyOptions } from '../../src/index.js';
import { codeOf } from '../support/codes.js';
import { AoiOracle } from './oracle.js';

beforeAll(() => init());

const CORES: Array<{ backend: 'wasm' | 'js'; index: SceneIndex }> = [
  { backend: 'wasm', index: 'lists' },
  { backend: 'js', index: 'lists' },
  { backend: 'wasm', index: 'grid' },
  { backend: 'js', index: 'grid' },
];

/** Query q's ids of a batch answer. */
const answer = (r: QueryResults, q: number): number[] => Array.from(r.ids.subarray(r.offsets[q], r.offsets[q + 1]));

// Halves on a small board: ties by distance are common; a few far points.
const coord = fc.oneof({ weight: 9, arbitrary: fc.integer({ min: -20, max: 20 }).map((v) => v / 2) }, { weight: 1, arbitrary: fc.constantFrom(1e9, -3e9, 1e15) });
const entity = fc.record({ x: coord, y: coord, range: fc.constantFrom(0, 1, 3, 12), layer: fc.constantFrom(1, 2, 4, 6) });
const world = fc.dictionary(fc.integer({ min: 0, max: 60 }).map(String), entity, { maxKeys: 60 });
const point = fc.tuple(coord, coord);
const box = fc.tuple(coord, coord, fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 })).map(([x, y, w, h]) => [x, y, x + w / 2, y + h / 2]);
const nearestOptions: fc.Arbitrary<SceneNearestManyOptions | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({ maxDistance: fc.constantFrom(0, 2.5, 8, Infinity), layer: fc.constantFrom(1, 2, 6, -1) }, { requiredKeys: [] }),
);

function build(backend: 'wasm' | 'js', index: SceneIndex, entities: Record<string, { x: number; y: number; range: number; layer: number }>, oracle?: AoiOracle): Scene {
  const scene = new Scene({ backend, index });
  for (const [key, e] of Object.entries(entities)) {
    scene.add(Number(key), e.x, e.y, e.range, { layer: e.layer });
    oracle?.add(Number(key), [e.x, e.y, 0], [e.range, e.range, 0], false, e.layer);
  }
  return scene;
}

describe('Scene batch queries: wasm and js, lists and grid, against a brute-force oracle', () => {
  it('nearestMany answers each point as the oracle does, nearest first, ties by id', () => {
    fc.assert(
      fc.property(world, fc.array(point, { maxLength: 30 }), fc.integer({ min: 0, max: 70 }), nearestOptions, (entities, points, k, options) => {
        const oracle = new AoiOracle(2);
        const scenes = CORES.map(({ backend, index }, i) => build(backend, index, entities, i === 0 ? oracle : undefined));
        const xs = points.map((p) => p[0]);
        const ys = points.map((p) => p[1]);
        for (const scene of scenes) {
          const result = scene.nearestMany(xs, ys, k, options);
          expect(result.offsets.length).toBe(points.length + 1);
          points.forEach(([x, y], q) => {
            expect(answer(result, q)).toEqual(oracle.nearest([x, y, 0], k, options?.maxDistance, options?.layer));
          });
          scene.dispose();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('queryBoxMany answers each box as the oracle does, ids ascending', () => {
    fc.assert(
      fc.property(world, fc.array(box, { maxLength: 30 }), (entities, boxes) => {
        const oracle = new AoiOracle(2);
        const scenes = CORES.map(({ backend, index }, i) => build(backend, index, entities, i === 0 ? oracle : undefined));
        for (const scene of scenes) {
          const result = scene.queryBoxMany(boxes.flat());
          boxes.forEach(([x0, y0, x1, y1], q) => expect(answer(result, q)).toEqual(oracle.queryBox([x0, y0], [x1, y1])));
          scene.dispose();
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe.each(CORES)('Scene batch query facts ($backend, $index)', ({ backend, index }) => {
  function scene(): Scene {
    const s = new Scene({ backend, index, defaultRange: 10 });
    s.addMany([1, 2, 3, 4], [0, 5, 40, 41], [0, 0, 0, 1]);
    return s;
  }

  it('answers the same as one search at a time, as moves go on', () => {
    const s = scene();
    s.moveMany([1, 3], [39, 2], [0, 0]);
    const { offsets, ids } = s.nearestMany([0, 40, 100], [0, 0, 100], 2);
    expect([0, 1, 2].map((q) => Array.from(ids.subarray(offsets[q], offsets[q + 1])))).toEqual([
      Array.from(s.nearest(0, 0, 2)),
      Array.from(s.nearest(40, 0, 2)),
      Array.from(s.nearest(100, 100, 2)),
    ]);
    const boxes = s.queryBoxMany([0, 0, 10, 10, 38, -1, 42, 1]);
    expect(answer(boxes, 0)).toEqual(s.queryBox(0, 0, 10, 10));
    expect(answer(boxes, 1)).toEqual(s.queryBox(38, -1, 42, 1));
  });

  it('writes into caller arrays, which may be longer than the answer', () => {
    const into = { offsets: new Int32Array(5), ids: new Int32Array(16) };
    const result = scene().queryBoxMany([-1, -1, 6, 1, 100, 100, 101, 101], into);
    expect(result).toBe(into);
    expect(Array.from(into.offsets.subarray(0, 3))).toEqual([0, 2, 2]);
    expect(Array.from(into.ids.subarray(0, 2))).toEqual([1, 2]);
    const near = scene().nearestMany([41], [1], 1, { into });
    expect(near).toBe(into);
    expect(answer(into, 0)).toEqual([4]);
  });

  it('answers an empty batch, and k = 0, with empty answers', () => {
    expect(Array.from(scene().nearestMany([], [], 3).offsets)).toEqual([0]);
    const none = scene().nearestMany([1, 2], [1, 2], 0);
    expect(Array.from(none.offsets)).toEqual([0, 0, 0]);
    expect(Array.from(scene().queryBoxMany([]).offsets)).toEqual([0]);
  });

  it('rejects bad input with a code, writing nothing into the caller arrays', () => {
    const s = scene();
    const into = { offsets: new Int32Array(3).fill(-7), ids: new Int32Array(1).fill(-7) };
    expect(codeOf(() => s.nearestMany([1, 2], [1], 1))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => s.nearestMany([1, NaN], [1, 2], 1))).toBe('INVALID_NUMBER');
    expect(codeOf(() => s.nearestMany([1], [1], -1))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => s.nearestMany([1], [1], 1, { maxDistance: -1 }))).toBe('NEGATIVE_RANGE');
    expect(codeOf(() => s.nearestMany([1], [1], 1, { radius: 3 } as SceneNearestManyOptions))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => s.nearestMany([0, 40], [0, 0], 2, { into }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => s.queryBoxMany([0, 0, 1]))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => s.queryBoxMany([5, 0, 1, 1]))).toBe('INVALID_RECT');
    expect(codeOf(() => s.queryBoxMany([0, 0, 1, Infinity]))).toBe('INVALID_NUMBER');
    expect(codeOf(() => s.queryBoxMany([-1, -1, 50, 50], into))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => s.queryBoxMany([0, 0, 1, 1], { offsets: [0, 0] } as unknown as QueryResults))).toBe('INVALID_ARGUMENT');
    expect(Array.from(into.offsets)).toEqual([-7, -7, -7]);
    expect(Array.from(into.ids)).toEqual([-7]);
    expect(codeOf(() => new Scene({ backend, index, dimensions: 3 }).nearestMany([0], [0], 1))).toBe('INVALID_ARGUMENT');
    s.dispose();
    expect(codeOf(() => s.queryBoxMany([0, 0, 1, 1]))).toBe('DISPOSED');
  });
});
