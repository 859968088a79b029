// The far ends of QuadTree and StaticQuadTree input on both backends: option
// values past their documented maxima, detached and shifting arrays given to
// batches, snapshots altered with a repaired checksum, and searches from
// points so far away that squared distances overflow. Calls that once never
// returned run in a child process (test/support/child.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { Graph, init, QuadTree, Scene, StaticQuadTree, type QueryResults } from '../../src/index.js';
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

/**
 * values behind a Proxy that counts the reads of each entry and of the
 * length; from the second read of an entry on it answers `later` (NaN, an
 * id out of range), as an array that changes while a call reads it would.
 */
function shifting(values: number[], later: number): { array: ArrayLike<number>; reads: number[] } {
  const reads = values.map(() => 0);
  const array = new Proxy(values, {
    get(target, key, receiver) {
      if (typeof key !== 'string' || !/^\d+$/.test(key)) return Reflect.get(target, key, receiver);
      const i = Number(key);
      reads[i]++;
      return reads[i] === 1 ? target[i] : later;
    },
  });
  return { array, reads };
}

describe.each(backends)('arrays read once (%s backend)', (backend) => {
  const rects = [0, 0, 1, 1, 5, 5, 6, 6, 2, 2, 3, 3];

  it('every batch reads each entry of its arrays once, and acts on what it read', () => {
    const tree = new QuadTree({ bounds, backend });
    const frozenIds = shifting([1, 2, 3], -5), frozenRects = shifting(rects, NaN);
    const frozen = StaticQuadTree.build(frozenIds.array, frozenRects.array, { backend });
    const scene = new Scene({ backend });
    const calls: Array<[string, () => unknown, number[][]]> = [];
    const call = (what: string, run: (...arrays: ArrayLike<number>[]) => unknown, ...arrays: Array<[number[], number]>) => {
      const wrapped = arrays.map(([values, later]) => shifting(values, later));
      calls.push([what, () => run(...wrapped.map((w) => w.array)), wrapped.map((w) => w.reads)]);
    };
    call('QuadTree.insertMany', (ids, r) => tree.insertMany(ids, r), [[1, 2, 3], 2 ** 31], [rects, NaN]);
    call('QuadTree.updateMany', (ids, r) => tree.updateMany(ids, r), [[3], 7], [[2, 2, 4, 4], -Infinity]);
    call('QuadTree.queryMany', (b) => tree.queryMany(b), [[0, 0, 2, 2], NaN]);
    call('QuadTree.queryCircleMany', (xs, ys, r) => tree.queryCircleMany(xs, ys, r), [[0], NaN], [[0], NaN], [[1], -1]);
    call('QuadTree.nearestMany', (xs, ys) => tree.nearestMany(xs, ys, 2), [[6], NaN], [[6], NaN]);
    call('StaticQuadTree#queryMany', (b) => frozen.queryMany(b), [[0, 0, 2, 2], NaN]);
    call('StaticQuadTree#queryCircleMany', (xs, ys, r) => frozen.queryCircleMany(xs, ys, r), [[0], NaN], [[0], NaN], [[1], -1]);
    call('StaticQuadTree#nearestMany', (xs, ys) => frozen.nearestMany(xs, ys, 2), [[6], NaN], [[6], NaN]);
    call('Scene.addMany', (ids, xs, ys, r) => scene.addMany(ids, xs, ys, undefined, r), [[1, 2], -1], [[0, 3], NaN], [[0, 0], NaN], [[5, 1], -1]);
    call('Scene.moveMany', (ids, xs, ys) => scene.moveMany(ids, xs, ys), [[2], 99], [[4], NaN], [[0], Infinity]);
    call('Scene.queryBoxMany', (b) => scene.queryBoxMany(b), [[-1, -1, 1, 1], NaN]);
    call('Scene.nearestMany', (xs, ys) => scene.nearestMany(xs, ys, 1), [[4], NaN], [[0], NaN]);
    call('Graph.fromEdges', (from, to, w) => Graph.fromEdges(from, to, w, { backend }), [[0, 1], -1], [[1, 2], 2 ** 40], [[1, 2], NaN]);
    const answers = calls.map(([what, run, reads]) => {
      const answer = run();
      expect([what, reads.map((r) => r.every((count) => count === 1))]).toEqual([what, reads.map(() => true)]);
      return answer;
    });
    expect([frozenIds.reads, frozenRects.reads].flat().every((count) => count === 1)).toBe(true);
    // What each call did is what its arrays held at their one read.
    expect(tree.ids()).toEqual([1, 2, 3]);
    expect(tree.rect(3)).toEqual({ minX: 2, minY: 2, maxX: 4, maxY: 4 });
    const [queried, discs, near, frozenQueried, frozenDiscs, frozenNear] = answers.slice(2, 8) as QueryResults[];
    expect(Array.from(queried.ids).sort()).toEqual([1, 3]);
    expect(Array.from(discs.ids)).toEqual([1]);
    expect(Array.from(near.ids)).toEqual([2, 3]);
    expect(Array.from(frozenQueried.ids).sort()).toEqual([1, 3]);
    expect(Array.from(frozenDiscs.ids)).toEqual([1]);
    expect(Array.from(frozenNear.ids)).toEqual([2, 3]);
    expect(frozen.size).toBe(3);
    expect(scene.position(2)).toEqual({ x: 4, y: 0, z: 0 });
    expect(scene.query(1)).toEqual([2]); // range 5 at the origin: 2 is at (4, 0)
    expect(Array.from((answers[10] as QueryResults).ids)).toEqual([1]);
    expect(Array.from((answers[11] as QueryResults).ids)).toEqual([2]);
    const graph = answers[12] as Graph<number>;
    expect(graph.vertexCount).toBe(3);
    expect(graph.path(0, 2)).toEqual({ path: [0, 1, 2], cost: 3 });
    for (const disposable of [tree, frozen, scene, graph]) disposable.dispose();
  });

  it('a length that changes between reads is read once: the batch is as long as it said first', () => {
    let lengthReads = 0;
    const ids = new Proxy([1, 2], { get: (target, key, receiver) => (key === 'length' ? (++lengthReads === 1 ? 2 : 1e6) : Reflect.get(target, key, receiver)) });
    const tree = new QuadTree({ bounds, backend });
    tree.insertMany(ids, [0, 0, 1, 1, 2, 2, 3, 3]);
    expect(lengthReads).toBe(1);
    expect(tree.ids()).toEqual([1, 2]);
    expect(tree.size).toBe(2);
    tree.dispose();
  });

  it('a Proxy around a typed array is read through the Proxy, once per entry', () => {
    const reads: number[] = [];
    const xs = new Proxy(Float64Array.of(0, 10), {
      get: (target, key) => {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads.push(Number(key));
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const scene = new Scene({ backend });
    scene.addMany([1, 2], xs, [0, 0]);
    expect(reads.sort()).toEqual([0, 1]);
    expect(scene.position(2)).toEqual({ x: 10, y: 0, z: 0 });
    scene.dispose();
  });
});

describe.each(backends)('a batch started while another reads its arrays (%s backend)', (backend) => {
  it('leaves the outer batch its own entries', () => {
    const scene = new Scene({ backend });
    // Reading the outer batch's xs runs a getter that adds entity 9 with a batch of its own.
    const xs = Object.defineProperty([0, 3], 0, { get: () => (scene.addMany(Int32Array.of(9), Float64Array.of(50), Float64Array.of(50)), 0) });
    scene.addMany(Int32Array.of(1, 2), xs, Float64Array.of(0, 0));
    expect(scene.ids()).toEqual([1, 2, 9]);
    expect([1, 2, 9].map((id) => scene.position(id).x)).toEqual([0, 3, 50]);
    const tree = new QuadTree({ bounds, backend });
    const rects = Object.defineProperty([0, 0, 1, 1], 0, { get: () => (tree.insertMany(Int32Array.of(7), Float64Array.of(5, 5, 6, 6)), 0) });
    tree.insertMany(Int32Array.of(3), rects);
    expect(tree.ids()).toEqual([3, 7]);
    expect(tree.rect(3)).toEqual({ minX: 0, minY: 0, maxX: 1, maxY: 1 });
    scene.dispose();
    tree.dispose();
  });
});

describe('items reaching the largest finite double', () => {
  const M = Number.MAX_VALUE;
  type Case = { bounds: { minX: number; minY: number; maxX: number; maxY: number }; capacity: number; items: Rect[] };
  type Rect = [number, number, number, number];
  // Ends of the number line, a few ulps in, and ordinary values: rects made of them, as a sweep would.
  const ends = [-M, -M * (1 - 2 ** -52), -1e300, -86, -1, -1e-300, 0, 1e-300, 1, 43, 1e300, M * (1 - 2 ** -52), M];
  const random = (seed: number, count: number): Rect[] => {
    let s = seed;
    const next = (): number => ends[(s = (s * 1103515245 + 12345) % 2 ** 31) % ends.length];
    return Array.from({ length: count }, () => {
      const [x0, x1, y0, y1] = [next(), next(), next(), next()];
      return [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
    });
  };
  const cases: Case[] = [
    { bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 }, capacity: 4, items: [[-1, 0, M, 0]] },
    { bounds: { minX: -62, minY: -5, maxX: -1e-300, maxY: 925.19 }, capacity: 18, items: [[-86, 43, 82, M], [-25, 1e-300, M, 991.1], [-60, 0, -10, 900]] },
    ...[1, 2, 3, 4, 5, 6].map((seed) => ({ bounds: { minX: -62, minY: -5, maxX: 10, maxY: 925.19 }, capacity: 1 + seed, items: random(seed, 40) })),
  ];
  const boxes: Rect[] = [[-M, -M, M, M], [0, 0, 1, 1], [-100, -100, 100, 1000], [1e300, 1e300, M, M], [-M, -M, -1e300, 0]];
  const meets = (a: Rect, b: Rect): boolean => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

  it.each(backends)('%s: insert, fromBuffer and setBounds return, and answer every query as brute force does', (backend) => {
    const out = inChild(
      `
      const { cases, boxes } = JSON.parse(input, (_, v) => (v === 'M' ? Number.MAX_VALUE : v === '-M' ? -Number.MAX_VALUE : v));
      return cases.map(({ bounds, capacity, items }) => {
        const tree = new sk.QuadTree({ bounds, capacity, backend: '${backend}' });
        items.forEach((r, id) => tree.insert(id, r[0], r[1], r[2], r[3]));
        const copy = sk.QuadTree.fromBuffer(tree.toBuffer(), { backend: '${backend}' });
        tree.setBounds({ minX: 0, minY: 0, maxX: 1, maxY: 1 });
        const answers = [tree, copy].map((t) => ({ size: t.size, hits: boxes.map((b) => t.query(b[0], b[1], b[2], b[3])), pairs: t.pairs() }));
        return answers;
      });
      `,
      20_000,
      JSON.stringify({ cases, boxes }, (_, v) => (v === M ? 'M' : v === -M ? '-M' : v)),
    ) as Array<Array<{ size: number; hits: number[][]; pairs: Array<[number, number]> }>>;
    cases.forEach(({ items }, c) => {
      const pairs: Array<[number, number]> = [];
      items.forEach((a, i) => items.forEach((b, j) => i < j && meets(a, b) && pairs.push([i, j])));
      const expected = { size: items.length, hits: boxes.map((box) => items.flatMap((r, id) => (meets(r, box) ? [id] : []))), pairs };
      for (const [t, got] of out[c].entries()) {
        expect({ ...got, hits: got.hits.map((h) => [...h].sort((a, b) => a - b)), pairs: [...got.pairs].sort((a, b) => a[0] - b[0] || a[1] - b[1]) }, `case ${c}, ${t === 0 ? 'after setBounds' : 'restored'}`).toEqual(expected);
      }
    });
  });
});
