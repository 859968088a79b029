// StaticQuadTree and the batch queries of QuadTree and StaticQuadTree: the
// static tree on both backends, the dynamic tree's batch forms and a brute
// force oracle answer the same randomized queries alike; snapshots restore
// the same tree from either backend's bytes and reject damaged ones; bad
// batch input throws a coded error and writes nothing.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, QuadTree, StaticQuadTree, type QueryResults } from '../../src/index.js';
import { codeOf } from '../support/codes.js';
import { RectOracle, type Rect } from './rect-oracle.js';
import { V1_BYTES, V1_IDS, V1_RECTS } from './static-v1-bytes.js';

beforeAll(() => init());

const backends = ['wasm', 'js'] as const;

/** Integer coordinates on a small field: equal distances and shared edges are common. */
const rectArb = fc
  .tuple(fc.integer({ min: -20, max: 120 }), fc.integer({ min: -20, max: 120 }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }))
  .map(([x, y, w, h]): Rect => [x, y, x + w, y + h]);
const itemsArb = fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 5000 }), rectArb), { selector: ([id]) => id, maxLength: 600, size: 'max' });
/** Points only (kept in a k-d tree), often sharing a coordinate or a place. */
const pointItemsArb = fc.uniqueArray(
  fc.tuple(fc.integer({ min: 0, max: 5000 }), fc.tuple(fc.integer({ min: -20, max: 120 }), fc.integer({ min: -20, max: 120 })).map(([x, y]): Rect => [x, y, x, y])),
  { selector: ([id]) => id, maxLength: 600, size: 'max' },
);
/** Points sharing one y: every split on y meets equal coordinates. */
const lineItemsArb = fc.uniqueArray(
  fc.tuple(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: -20, max: 120 }).map((x): Rect => [x, 50, x, 50])),
  { selector: ([id]) => id, maxLength: 600, size: 'max' },
);
const pointArb = fc.tuple(fc.integer({ min: -40, max: 140 }), fc.integer({ min: -40, max: 140 }));

function flat(items: Array<[number, Rect]>): [Int32Array, Float64Array] {
  return [Int32Array.from(items, ([id]) => id), Float64Array.from(items.flatMap(([, r]) => r))];
}

/** Query q's answer from batch results. */
const answer = (r: QueryResults, q: number): number[] => Array.from(r.ids.subarray(r.offsets[q], r.offsets[q + 1]));
const ascending = (ids: ArrayLike<number>): number[] => Array.from(ids).sort((a, b) => a - b);

describe('StaticQuadTree', () => {
  it.each([
    ['rects', itemsArb],
    ['points', pointItemsArb],
    ['points on a line', lineItemsArb],
  ] as const)('answers box, disc and nearest queries among %s as brute force does, on both backends, one at a time and in batches', (what, arb) => {
    fc.assert(
      fc.property(arb, fc.array(pointArb, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 30 }), (items, points, k, r) => {
        const oracle = new RectOracle();
        for (const [id, rect] of items) oracle.insert(id, rect);
        const [ids, rects] = flat(items);
        const xs = points.map(([x]) => x), ys = points.map(([, y]) => y);
        const boxes = points.flatMap(([x, y]) => [x, y, x + r, y + r / 2]);
        const dynamic = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 }, capacity: 4, backend: 'wasm' });
        dynamic.insertMany(ids, rects);
        const trees = [...backends.map((backend) => StaticQuadTree.build(ids, rects, { backend })), dynamic.freeze({ backend: 'js' })];
        for (const tree of trees) {
          const near = tree.nearestMany(xs, ys, k);
          const nearWithin = tree.nearestMany(xs, ys, k, { maxDistance: r });
          const discs = tree.queryCircleMany(xs, ys, r);
          const inBoxes = tree.queryMany(boxes);
          points.forEach(([x, y], q) => {
            const box: Rect = [x, y, x + r, y + r / 2];
            expect(answer(nearWithin, q)).toEqual(oracle.nearest(x, y, k, r));
            expect(tree.nearest(x, y, k)).toEqual(oracle.nearest(x, y, k));
            expect(tree.nearest(x, y, k, r)).toEqual(oracle.nearest(x, y, k, r));
            expect(answer(near, q)).toEqual(oracle.nearest(x, y, k));
            expect(tree.queryCircle(x, y, r)).toEqual(oracle.circle(x, y, r));
            expect(ascending(answer(discs, q))).toEqual(oracle.circle(x, y, r));
            expect(tree.query(...box)).toEqual(oracle.query(box));
            expect(ascending(answer(inBoxes, q))).toEqual(oracle.query(box));
          });
        }
        // The dynamic tree's batch forms agree with its single searches and the oracle.
        for (const backend of backends) {
          const tree = backend === 'wasm' ? dynamic : QuadTree.fromBuffer(dynamic.toBuffer(), { backend });
          const near = tree.nearestMany(xs, ys, k, { maxDistance: r });
          const discs = tree.queryCircleMany(xs, ys, Float64Array.from(points, () => r));
          const inBoxes = tree.queryMany(boxes);
          points.forEach(([x, y], q) => {
            expect(answer(near, q)).toEqual(oracle.nearest(x, y, k, r));
            expect(ascending(answer(discs, q))).toEqual(oracle.circle(x, y, r));
            expect(ascending(answer(inBoxes, q))).toEqual(oracle.query([x, y, x + r, y + r / 2]));
          });
          if (tree !== dynamic) tree.dispose();
        }
        // Both backends build the same bytes, and either restores the other's.
        const [wasm, js] = trees;
        expect(wasm.toBuffer()).toEqual(js.toBuffer());
        if (what !== 'rects' && items.length > 0) expect(wasm.byteSize).toBeLessThan(24 * items.length + 40); // a k-d tree of points: no boxes, no nodes
        for (const backend of backends) {
          const restored = StaticQuadTree.fromBuffer(wasm.toBuffer(), { backend });
          expect(restored.size).toBe(items.length);
          expect(restored.nearestMany(xs, ys, k)).toEqual(js.nearestMany(xs, ys, k));
          expect(restored.queryMany(boxes)).toEqual(js.queryMany(boxes));
          expect(restored.toBuffer()).toEqual(js.toBuffer());
          restored.dispose();
        }
        for (const tree of trees) tree.dispose();
        dynamic.dispose();
      }),
      { numRuns: 25 },
    );
  });

  it.each(backends)('an empty tree and a tree of one item (%s backend)', (backend) => {
    const empty = StaticQuadTree.build([], [], { backend });
    expect(empty.size).toBe(0);
    expect(empty.nearest(0, 0, 3)).toEqual([]);
    expect(empty.query(-10, -10, 10, 10)).toEqual([]);
    expect(empty.nearestMany([1, 2], [3, 4], 2)).toEqual({ offsets: Int32Array.of(0, 0, 0), ids: new Int32Array(0) });
    expect(StaticQuadTree.fromBuffer(empty.toBuffer(), { backend }).size).toBe(0);
    const one = StaticQuadTree.build([7], [5, 5, 6, 6], { backend });
    expect(one.nearest(0, 0, 3)).toEqual([7]);
    expect(one.queryCircle(0, 0, Math.hypot(5, 5))).toEqual([7]); // closed disc: the corner at exactly r
    expect(one.queryCircle(0, 0, Math.hypot(5, 5) - 1e-9)).toEqual([]);
    expect(one.query(6, 6, 9, 9)).toEqual([7]); // closed box: a shared corner
  });

  it.each(backends)('rejects bad input with a code and leaves caller arrays unwritten (%s backend)', (backend) => {
    const tree = StaticQuadTree.build([1, 2, 3], [0, 0, 1, 1, 5, 5, 6, 6, 9, 9, 9, 9], { backend });
    const dynamic = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 10, maxY: 10 }, backend });
    dynamic.insertMany([1, 2, 3], [0, 0, 1, 1, 5, 5, 6, 6, 9, 9, 9, 9]);
    for (const t of [tree, dynamic]) {
      const into = { offsets: new Int32Array(3).fill(-5), ids: new Int32Array(1).fill(-5) };
      const untouched = (): void => {
        expect(Array.from(into.offsets)).toEqual([-5, -5, -5]);
        expect(Array.from(into.ids)).toEqual([-5]);
      };
      expect(codeOf(() => t.nearestMany([1, 2], [1], 1, { into }))).toBe('INVALID_ARGUMENT'); // mismatched lengths
      expect(codeOf(() => t.nearestMany([1, NaN], [1, 2], 1, { into }))).toBe('INVALID_NUMBER');
      expect(codeOf(() => t.nearestMany([1, 2], [1, 2], -1, { into }))).toBe('INVALID_ARGUMENT');
      expect(codeOf(() => t.nearestMany([1, 2], [1, 2], 1, { maxDistance: -1, into }))).toBe('NEGATIVE_RANGE');
      expect(codeOf(() => t.nearestMany([1, 2], [1, 2], 2, { into }))).toBe('INVALID_ARGUMENT'); // 4 ids do not fit in 1
      expect(codeOf(() => t.queryCircleMany([1, 2], [1, 2], -1, into))).toBe('NEGATIVE_RANGE');
      expect(codeOf(() => t.queryCircleMany([1, 2], [1, 2], [1, NaN], into))).toBe('INVALID_NUMBER');
      expect(codeOf(() => t.queryCircleMany([1, 2], [1, 2], [1], into))).toBe('INVALID_ARGUMENT');
      expect(codeOf(() => t.queryCircleMany([0, 9], [0, 9], 100, into))).toBe('INVALID_ARGUMENT'); // 6 ids do not fit in 1
      expect(codeOf(() => t.queryMany([0, 0, 1], into))).toBe('INVALID_ARGUMENT');
      expect(codeOf(() => t.queryMany([0, 0, 1, NaN, 0, 0, 1, 1], into))).toBe('INVALID_NUMBER');
      expect(codeOf(() => t.queryMany([2, 0, 1, 1, 0, 0, 1, 1], into))).toBe('INVALID_RECT');
      expect(codeOf(() => t.queryMany([0, 0, 1, 1], { offsets: new Int32Array(1), ids: new Int32Array(9) }))).toBe('INVALID_ARGUMENT');
      expect(codeOf(() => t.queryMany([0, 0, 1, 1], { offsets: [0, 0], ids: [0] } as unknown as QueryResults))).toBe('INVALID_ARGUMENT');
      untouched();
      // Answers that fit are written into the caller's arrays, which are returned.
      const roomy = { offsets: new Int32Array(3), ids: new Int32Array(2) };
      expect(t.nearestMany([0, 9], [0, 9], 1, { into: roomy })).toBe(roomy);
      expect(answer(roomy, 0)).toEqual([1]);
      expect(answer(roomy, 1)).toEqual([3]);
    }
    expect(codeOf(() => StaticQuadTree.build([1, 1], [0, 0, 1, 1, 0, 0, 1, 1], { backend }))).toBe('DUPLICATE_ID');
    expect(codeOf(() => StaticQuadTree.build([1, -2], [0, 0, 1, 1, 0, 0, 1, 1], { backend }))).toBe('INVALID_ID');
    expect(codeOf(() => StaticQuadTree.build([1], [0, 0, 1], { backend }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => StaticQuadTree.build([1], [0, 0, -1, 1], { backend }))).toBe('INVALID_RECT');
    tree.dispose();
    expect(codeOf(() => tree.nearest(0, 0, 1))).toBe('DISPOSED');
    dynamic.dispose();
  });

  it.each(backends)('fromBuffer rejects damaged bytes (%s backend)', (backend) => {
    const ids = Int32Array.from({ length: 300 }, (_, i) => i * 3);
    const rects = Float64Array.from({ length: 1200 }, (_, i) => (i >> 2) % 97 + (i % 4 < 2 ? 0 : 2));
    const bytes = StaticQuadTree.build(ids, rects, { backend }).toBuffer();
    expect(codeOf(() => StaticQuadTree.fromBuffer(bytes.subarray(0, bytes.length - 8), { backend }))).toBe('INVALID_SNAPSHOT');
    for (const at of [0, 4, 8, 16, 20, 40, bytes.length - 9000, bytes.length - 5]) {
      const damaged = bytes.slice();
      damaged[at] ^= 1;
      expect(codeOf(() => StaticQuadTree.fromBuffer(damaged, { backend }))).toBe('INVALID_SNAPSHOT');
    }
    expect(codeOf(() => StaticQuadTree.fromBuffer([1, 2] as unknown as Uint8Array, { backend }))).toBe('INVALID_ARGUMENT');
    // Bytes at an odd offset of a larger buffer restore too.
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    expect(StaticQuadTree.fromBuffer(shifted.subarray(3), { backend }).query(0, 0, 200, 200)).toEqual(Array.from(ids));
    expect(bytes.length).toBe(StaticQuadTree.fromBuffer(bytes, { backend }).byteSize);
  });

  it.each(backends)('fromBuffer rejects damaged bytes of points (%s backend)', (backend) => {
    const ids = Int32Array.from({ length: 300 }, (_, i) => i * 3);
    const rects = Float64Array.from({ length: 1200 }, (_, i) => ((i >> 2) * 31) % 97 + (i % 2) * 5);
    const bytes = StaticQuadTree.build(ids, rects, { backend }).toBuffer();
    for (const at of [0, 4, 6, 8, 16, 20, 24, 28, 40, bytes.length - 1000, bytes.length - 5]) {
      const damaged = bytes.slice();
      damaged[at] ^= 1;
      expect(codeOf(() => StaticQuadTree.fromBuffer(damaged, { backend }))).toBe('INVALID_SNAPSHOT');
    }
    expect(codeOf(() => StaticQuadTree.fromBuffer(bytes.subarray(0, bytes.length - 8), { backend }))).toBe('INVALID_SNAPSHOT');
    const restored = StaticQuadTree.fromBuffer(bytes, { backend });
    expect(restored.nearest(40, 40, 7)).toEqual(StaticQuadTree.build(ids, rects, { backend }).nearest(40, 40, 7));
  });

  it.each(backends)('fromBuffer reads a snapshot of format version 1 (%s backend)', (backend) => {
    const restored = StaticQuadTree.fromBuffer(V1_BYTES, { backend });
    const built = StaticQuadTree.build(V1_IDS, V1_RECTS, { backend });
    expect(restored.size).toBe(V1_IDS.length);
    for (const [x, y] of [[0, 0], [50, 50], [101, 20], [33, 77]]) {
      expect(restored.nearest(x, y, 6)).toEqual(built.nearest(x, y, 6));
      expect(restored.queryCircle(x, y, 20)).toEqual(built.queryCircle(x, y, 20));
      expect(restored.query(x - 15, y - 15, x + 15, y + 15)).toEqual(built.query(x - 15, y - 15, x + 15, y + 15));
    }
    const damaged = V1_BYTES.slice();
    damaged[damaged.length - 12] ^= 4;
    expect(codeOf(() => StaticQuadTree.fromBuffer(damaged, { backend }))).toBe('INVALID_SNAPSHOT');
  });
});
