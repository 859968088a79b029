// The far ends of QuadTree and StaticQuadTree input on both backends: option
// values past their documented maxima, detached and shifting arrays given to
// batches, snapshots altered with a repaired checksum, and searches from
// points so far away that squared distances overflow. Calls that once never
// returned run in a child process (test/support/child.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { Graph, init, QuadTree, Scene, StaticQuadTree } from '../../src/index.js';
import { codeOf } from '../support/codes.js';
import { inChild } from '../support/child.js';

beforeAll(() => init());

const backends = ['wasm', 'js'] as const;
const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

/** A typed array of `length` entries whose buffer was transferred away. */
function detached<T extends Float64Array | Int32Array>(make: (length: number) => T, length = 8): T {
  const array = make(length);
  structuredClone(array.buffer, { transfer: [array.buffer] });
  return array;
}
const f64 = (n: number) => new Float64Array(n);
const i32 = (n: number) => new Int32Array(n);

describe.each(backends)('%s backend', (backend) => {
  describe('integer options', () => {
    it('refuses a capacity above 2^23 with INVALID_ARGUMENT, in the constructor and setCapacity, changing nothing', () => {
      for (const capacity of [2 ** 23 + 1, 2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 53, 1e300]) {
        expect(codeOf(() => new QuadTree({ bounds, capacity, backend }))).toBe('INVALID_ARGUMENT');
        const tree = new QuadTree({ bounds, capacity: 4, backend });
        tree.insert(1, 0, 0, 1, 1);
        expect(codeOf(() => tree.setCapacity(capacity))).toBe('INVALID_ARGUMENT');
        expect(tree.capacity).toBe(4);
        expect(tree.query(0, 0, 1, 1)).toEqual([1]);
        tree.dispose();
      }
    });

    it('a tree at the most capacity, maxDepth and depth takes items and restores from its own snapshot', () => {
      for (const options of [{ capacity: 2 ** 23, maxDepth: 32 }, { mode: 'fixed' as const, capacity: 2 ** 23, depth: 10 }]) {
        const tree = new QuadTree({ bounds, backend, ...options });
        tree.insertMany([1, 2, 3], [0, 0, 1, 1, 5, 5, 6, 6, 0.5, 0.5, 5.5, 5.5]);
        const copy = QuadTree.fromBuffer(tree.toBuffer(), { backend });
        expect(copy.capacity).toBe(2 ** 23);
        expect(copy.depth).toBe(tree.depth);
        expect(copy.pairs()).toEqual([[1, 3], [2, 3]]);
        expect(copy.toBuffer()).toEqual(tree.toBuffer());
        tree.dispose();
        copy.dispose();
      }
    });

    it('setCapacity(2^31) on a tree without bounds, then insert, returns (refused, the tree unchanged)', () => {
      const out = inChild(`
        const tree = new sk.QuadTree({ backend: '${backend}' });
        let code = null;
        try { tree.setCapacity(2 ** 31); } catch (error) { code = error.code; }
        for (let i = 0; i < 40; i++) tree.insert(i, i, i, i + 1, i + 1);
        return { code, capacity: tree.capacity, size: tree.size };
      `);
      expect(out).toEqual({ code: 'INVALID_ARGUMENT', capacity: 32, size: 40 });
    });
  });
});

describe.each(backends)('detached typed arrays (%s backend)', (backend) => {
  it('every batch refuses one with INVALID_ARGUMENT, changing nothing', () => {
    const tree = new QuadTree({ bounds, backend });
    tree.insertMany([1, 2], [0, 0, 1, 1, 5, 5, 6, 6]);
    const frozen = tree.freeze();
    const scene = new Scene({ backend });
    scene.addMany([1, 2], [0, 1], [0, 0]);
    const calls: Array<[string, () => unknown]> = [
      ['QuadTree.insertMany ids', () => tree.insertMany(detached(i32, 2), [0, 0, 1, 1, 0, 0, 1, 1])],
      ['QuadTree.insertMany rects', () => tree.insertMany([3, 4], detached(f64))],
      ['QuadTree.updateMany ids', () => tree.updateMany(detached(i32, 2), [9, 9, 9, 9, 9, 9, 9, 9])],
      ['QuadTree.updateMany rects', () => tree.updateMany([1, 2], detached(f64))],
      ['QuadTree.queryMany', () => tree.queryMany(detached(f64))],
      ['QuadTree.queryCircleMany xs', () => tree.queryCircleMany(detached(f64), f64(8), 1)],
      ['QuadTree.queryCircleMany radii', () => tree.queryCircleMany(f64(8), f64(8), detached(f64))],
      ['QuadTree.nearestMany', () => tree.nearestMany(f64(8), detached(f64), 1)],
      ['StaticQuadTree.build', () => StaticQuadTree.build(detached(i32, 2), [0, 0, 1, 1, 0, 0, 1, 1], { backend })],
      ['StaticQuadTree#queryMany', () => frozen.queryMany(detached(f64))],
      ['StaticQuadTree#queryCircleMany', () => frozen.queryCircleMany(detached(f64), f64(8), 1)],
      ['StaticQuadTree#nearestMany', () => frozen.nearestMany(detached(f64), f64(8), 1)],
      ['Scene.addMany', () => scene.addMany([5, 6, 7, 8, 9, 10, 11, 12], detached(f64), f64(8))],
      ['Scene.moveMany', () => scene.moveMany([1, 2], f64(2), detached(f64, 2))],
      ['Scene.queryBoxMany', () => scene.queryBoxMany(detached(f64))],
      ['Scene.nearestMany', () => scene.nearestMany(detached(f64), f64(8), 1)],
      ['Graph.fromEdges', () => Graph.fromEdges(detached(i32, 2), [0, 1], [1, 1], { backend })],
    ];
    for (const [what, call] of calls) expect([what, codeOf(call)]).toEqual([what, 'INVALID_ARGUMENT']);
    expect(tree.ids()).toEqual([1, 2]);
    expect(tree.query(0, 0, 1, 1)).toEqual([1]);
    expect(scene.position(2)).toEqual({ x: 1, y: 0, z: 0 });
    expect(scene.size).toBe(2);
    expect(scene.drain()).toHaveLength(2);
    for (const disposable of [tree, frozen, scene]) disposable.dispose();
  });
});
