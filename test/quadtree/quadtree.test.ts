// QuadTree facts on both backends: the seed example, edge cases the peers get
// wrong, bad input leaving the tree untouched, and use after dispose.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, QuadTree, SpatialError, type QuadTreeOptions } from '../../src/index.js';
import { CORE } from '../../src/core/internals.js';
import { ARRAY_KINDS } from '../support/array-kinds.js';

beforeAll(() => init());

const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
const backends = ['wasm', 'js'] as const;
const modes = ['split', 'fixed'] as const;

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof SpatialError) return error.code;
    throw error;
  }
  return undefined;
}

/** Everything a user can observe about a tree. */
function snapshot(tree: QuadTree): unknown {
  return {
    size: tree.size,
    depth: tree.depth,
    capacity: tree.capacity,
    ids: [...tree].sort((a, b) => a - b),
    pairs: tree.pairs(),
    all: tree.query(-1e9, -1e9, 1e9, 1e9),
    near: tree.query(10, 10, 60, 60),
    cells: Array.from(tree.cells()),
  };
}

describe.each(backends)('QuadTree (%s backend)', (backend) => {
  it('README example', () => {
    const tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 }, backend });
    tree.insert(1, 10, 10, 20, 20);
    tree.insert(2, 20, 15, 30, 25);
    tree.insert(3, 500, 500, 500, 500);
    expect(tree.query(0, 0, 100, 100)).toEqual([1, 2]);
    expect(tree.pairs()).toEqual([[1, 2]]);
    tree.update(3, 25, 20, 26, 21);
    expect(tree.pairs()).toEqual([[1, 2], [2, 3]]);
    expect(Array.from(tree.pairIds()).length).toBe(4);
  });

  it('seed example: the sixth insert splits the root; a straddling item lives in both quadrants, its pair is reported once', () => {
    const tree = new QuadTree({ bounds, capacity: 5, backend });
    tree.insert(1, 10, 10, 20, 20);
    tree.insert(2, 70, 10, 80, 20);
    tree.insert(3, 10, 70, 20, 80);
    tree.insert(4, 70, 70, 80, 80);
    tree.insert(5, 40, 10, 60, 20); // spans the vertical split line x = 50
    expect(tree.depth).toBe(1);
    tree.insert(6, 45, 15, 55, 25); // also spans it, and overlaps 5
    expect(tree.depth).toBe(2);
    // Item 5 is found from either bottom quadrant's interior.
    expect(tree.query(0, 0, 49, 49)).toEqual([1, 5, 6]);
    expect(tree.query(51, 0, 100, 49)).toEqual([2, 5, 6]);
    // 5 and 6 share both bottom leaves, yet the pair comes once.
    expect(tree.pairs()).toEqual([[5, 6]]);
    expect(Array.from(tree.pairIds())).toEqual([5, 6]);
    tree.dispose();
  });

  describe.each(modes)('%s mode', (mode) => {
    const make = (extra: Partial<QuadTreeOptions> = {}): QuadTree =>
      new QuadTree({ bounds, capacity: 2, maxDepth: 6, depth: 4, mode, backend, ...extra });

    it('keeps and finds items outside the bounds', () => {
      const tree = make();
      tree.insert(1, -50, -50, -40, -40);
      tree.insert(2, 150, 20, 160, 30);
      tree.insert(3, -1000, -1000, 1000, 1000);
      tree.insert(4, 40, 40, 45, 45);
      tree.insert(5, 99, 99, 101, 101);
      expect(tree.query(-60, -60, -45, -45)).toEqual([1, 3]);
      expect(tree.query(155, 25, 155, 25)).toEqual([2, 3]);
      expect(tree.query(100.5, 100.5, 200, 200)).toEqual([3, 5]);
      expect(tree.pairs()).toEqual([[1, 3], [2, 3], [3, 4], [3, 5]]);
    });

    it('treats points and zero-size rects as rects, and shared edges and corners as intersecting', () => {
      const tree = make();
      tree.insert(1, 50, 50, 50, 50); // a point on both split lines
      tree.insert(2, 25, 25, 50, 50); // corner touches the point
      tree.insert(3, 50, 0, 75, 50); // shares an edge with 2 at x = 50
      tree.insert(4, 50, 10, 50, 90); // a vertical segment on the split line
      tree.insert(5, 0, 0, 10, 10);
      tree.insert(6, 10, 10, 20, 20); // corner to corner with 5
      expect(tree.query(50, 50, 50, 50)).toEqual([1, 2, 3, 4]);
      expect(tree.query(10, 10, 10, 10)).toEqual([5, 6]);
      expect(tree.pairs()).toEqual([[1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4], [5, 6]]);
    });

    it('holds many identical points without splitting forever', () => {
      const tree = make({ capacity: 4, maxDepth: 30 });
      for (let i = 0; i < 500; i++) tree.insert(i, 12.5, 12.5, 12.5, 12.5);
      tree.insert(1000, 80, 80, 81, 81);
      expect(tree.size).toBe(501);
      expect(tree.depth).toBeLessThanOrEqual(mode === 'split' ? 2 : 4); // far below maxDepth 30
      expect(tree.query(12.5, 12.5, 12.5, 12.5).length).toBe(500);
      expect(tree.pairIds().length / 2).toBe((500 * 499) / 2);
      for (let i = 0; i < 500; i += 2) expect(tree.remove(i)).toBe(true);
      expect(tree.query(0, 0, 50, 50)).toEqual(Array.from({ length: 250 }, (_, k) => 2 * k + 1));
    });

    it('moves items across leaves and back, within their leaf, and out of the bounds', () => {
      const tree = make();
      for (let i = 0; i < 20; i++) tree.insert(i, i * 5, i * 5, i * 5 + 2, i * 5 + 2);
      tree.update(3, 15.5, 15.5, 16, 16); // stays put
      tree.update(4, 90, 5, 92, 7); // another quadrant
      tree.update(5, 200, 200, 201, 201); // outside
      tree.update(6, 49, 49, 51, 51); // across the centre
      expect(tree.query(15.5, 15.5, 15.5, 15.5)).toEqual([3]);
      expect(tree.query(91, 6, 91, 6)).toEqual([4]);
      expect(tree.query(200, 200, 300, 300)).toEqual([5]);
      expect(tree.query(50, 50, 50, 50)).toEqual([6, 10]);
      expect(tree.has(5)).toBe(true);
      expect(tree.size).toBe(20);
    });

    it('visit stops when the callback returns false, and sees each hit once', () => {
      const tree = make();
      for (let i = 0; i < 30; i++) tree.insert(i, (i % 6) * 15, Math.floor(i / 6) * 15, (i % 6) * 15 + 20, Math.floor(i / 6) * 15 + 20);
      const all: number[] = [];
      tree.visit(0, 0, 100, 100, (id) => {
        all.push(id);
      });
      expect(all.sort((a, b) => a - b)).toEqual(tree.query(0, 0, 100, 100));
      const firstThree: number[] = [];
      tree.visit(0, 0, 100, 100, (id) => firstThree.push(id) < 3);
      expect(firstThree.length).toBe(3);
      expect(new Set(firstThree).size).toBe(3);
    });

    /** 900 small squares on a 30 x 30 lattice: more hits than a visit's first chunks. */
    const lattice = (extra: Partial<QuadTreeOptions> = {}): QuadTree => {
      const tree = make({ capacity: 4, ...extra });
      for (let i = 0; i < 900; i++) tree.insert(i, (i % 30) * 3, Math.floor(i / 30) * 3, (i % 30) * 3 + 2, Math.floor(i / 30) * 3 + 2);
      return tree;
    };

    it('visit goes through every hit in query order, across its chunks', () => {
      const tree = lattice();
      const order = Array.from(tree.queryIds(0, 0, 100, 100));
      expect(order.length).toBe(900);
      const seen: number[] = [];
      tree.visit(0, 0, 100, 100, (id) => void seen.push(id));
      expect(seen).toEqual(order);
    });

    it('an early stop among the first 64 hits ends the search: the core is asked once, for a prefix of the hits', () => {
      const tree = lattice();
      const core = tree[CORE];
      const query = core.query.bind(core);
      const asked: number[] = [];
      core.query = (a, b, c, d, limit) => {
        asked.push(limit ?? Infinity);
        return query(a, b, c, d, limit);
      };
      let calls = 0;
      tree.visit(0, 0, 100, 100, () => ++calls < 10);
      expect(calls).toBe(10);
      expect(asked).toEqual([64]);
      const prefix = query(0, 0, 100, 100, 64);
      expect(prefix.length).toBeGreaterThanOrEqual(64);
      expect(prefix.length).toBeLessThan(900);
      expect(Array.from(prefix)).toEqual(Array.from(query(0, 0, 100, 100)).slice(0, prefix.length));
    });

    it('changing the tree inside visit leaves the ids it visits as they were, at and across chunk borders', () => {
      for (const at of [0, 63, 64, 200, 511, 512, 898]) {
        const tree = lattice();
        const expected = Array.from(tree.queryIds(0, 0, 100, 100));
        const seen: number[] = [];
        tree.visit(0, 0, 100, 100, (id) => {
          seen.push(id);
          if (seen.length === at + 1) {
            // Remove one not yet visited, move another out of the box, add one inside it.
            if (at + 1 < 900) tree.remove(expected[at + 1]);
            if (at + 2 < 900) tree.update(expected[at + 2], 500, 500, 501, 501);
            tree.insert(5000, 1, 1, 2, 2);
          }
          if (seen.length === at + 2) tree.clear();
        });
        expect(seen).toEqual(expected);
        expect(tree.size).toBe(at + 1 < 900 ? 0 : 900);
      }
    });

    it('a visit inside a visit, and dispose inside a visit, leave the outer ids as they were', () => {
      const tree = lattice();
      const expected = Array.from(tree.queryIds(0, 0, 100, 100));
      const inner = Array.from(tree.queryIds(0, 0, 10, 10));
      const seen: number[] = [];
      tree.visit(0, 0, 100, 100, (id) => {
        seen.push(id);
        if (seen.length === 100) {
          const innerSeen: number[] = [];
          tree.visit(0, 0, 10, 10, (j) => {
            innerSeen.push(j);
            tree.remove(j);
          });
          expect(innerSeen).toEqual(inner);
        }
        if (seen.length === 700) tree.dispose();
      });
      expect(seen).toEqual(expected);
      expect(codeOf(() => tree.size)).toBe('DISPOSED');
    });

    it('keeps its contents across setCapacity, setBounds and clear', () => {
      const tree = make({ capacity: 8 });
      for (let i = 0; i < 60; i++) tree.insert(i * 3, (i * 37) % 97, (i * 53) % 89, ((i * 37) % 97) + 4, ((i * 53) % 89) + 4);
      const before = snapshot(tree) as { pairs: unknown; all: unknown; ids: unknown };
      tree.setCapacity(1);
      expect(tree.capacity).toBe(1);
      tree.setBounds({ minX: -500, minY: 20, maxX: 30, maxY: 40 });
      tree.setCapacity(50);
      const after = snapshot(tree) as typeof before;
      expect([after.ids, after.pairs, after.all]).toEqual([before.ids, before.pairs, before.all]);
      tree.clear();
      expect(tree.size).toBe(0);
      expect(tree.query(-1e9, -1e9, 1e9, 1e9)).toEqual([]);
      tree.insert(3, 1, 1, 2, 2);
      expect([...tree]).toEqual([3]);
    });

    it('rejects bad input with a code and leaves the tree exactly as it was', () => {
      const tree = make();
      for (let i = 0; i < 12; i++) tree.insert(i, i * 7, i * 3, i * 7 + 10, i * 3 + 10);
      const before = snapshot(tree);
      const rejected: Array<[string, () => unknown]> = [
        ['INVALID_NUMBER', () => tree.insert(50, NaN, 0, 1, 1)],
        ['INVALID_NUMBER', () => tree.insert(50, 0, 0, Infinity, 1)],
        ['INVALID_NUMBER', () => tree.update(1, 0, -Infinity, 1, 1)],
        ['INVALID_NUMBER', () => tree.query(0, 0, NaN, 1)],
        ['INVALID_RECT', () => tree.insert(50, 5, 0, 4, 1)],
        ['INVALID_RECT', () => tree.update(1, 0, 5, 1, 4)],
        ['INVALID_RECT', () => tree.query(0, 2, 1, 1)],
        ['INVALID_ID', () => tree.insert(-1, 0, 0, 1, 1)],
        ['INVALID_ID', () => tree.insert(1.5, 0, 0, 1, 1)],
        ['INVALID_ID', () => tree.insert(2 ** 31, 0, 0, 1, 1)],
        ['INVALID_ID', () => tree.remove(-3)],
        ['DUPLICATE_ID', () => tree.insert(4, 0, 0, 1, 1)],
        ['UNKNOWN_ID', () => tree.update(99, 0, 0, 1, 1)],
        ['INVALID_ARGUMENT', () => tree.setCapacity(0)],
        ['INVALID_ARGUMENT', () => tree.setCapacity(2.5)],
        ['INVALID_RECT', () => tree.setBounds({ minX: 10, minY: 0, maxX: 0, maxY: 10 })],
        ['INVALID_NUMBER', () => tree.setBounds({ minX: 0, minY: 0, maxX: NaN, maxY: 10 })],
        ['INVALID_ARGUMENT', () => tree.visit(0, 0, 1, 1, 'nope' as never)],
        // Batches are rejected whole, even when only the last entry is bad.
        ['INVALID_NUMBER', () => tree.insertMany([60, 61], [0, 0, 1, 1, 0, 0, NaN, 1])],
        ['DUPLICATE_ID', () => tree.insertMany([60, 61, 60], new Float64Array(12))],
        ['DUPLICATE_ID', () => tree.insertMany([60, 3], new Float64Array(8))],
        ['INVALID_ARGUMENT', () => tree.insertMany([60, 61], new Float64Array(4))],
        ['UNKNOWN_ID', () => tree.updateMany([1, 2, 77], new Float64Array(12))],
        ['INVALID_RECT', () => tree.updateMany([1, 2], [0, 0, 1, 1, 3, 3, 2, 2])],
        // What is not an array of numbers is rejected whole, never half applied.
        ['INVALID_ARGUMENT', () => tree.insertMany(60 as unknown as number[], [0, 0, 1, 1])],
        ['INVALID_ARGUMENT', () => tree.insertMany('6' as unknown as number[], [0, 0, 1, 1])],
        ['INVALID_ARGUMENT', () => tree.insertMany([60], null as unknown as number[])],
        ['INVALID_ARGUMENT', () => tree.insertMany([60], { 0: 0, 1: 0, 2: 1, 3: 1 } as unknown as number[])],
        ['INVALID_ARGUMENT', () => tree.updateMany([1], [0, 0, 1, 1, 2])],
        ['INVALID_NUMBER', () => tree.insertMany([60, 61], [0, 0, 1, 1, 0, 0, , 1] as number[])],
        ['INVALID_NUMBER', () => tree.insertMany([60], new BigInt64Array(4) as unknown as number[])],
        ['INVALID_NUMBER', () => tree.updateMany([1], [0, 0, Symbol('x') as unknown as number, 1])],
        ['INVALID_ID', () => tree.insertMany([60, , 62] as number[], new Float64Array(12))],
        ['INVALID_ID', () => tree.insertMany(Float64Array.of(60, 60.5), new Float64Array(8))],
        ['INVALID_ID', () => tree.insertMany(new BigInt64Array(1) as unknown as number[], [0, 0, 1, 1])],
        ['INVALID_ID', () => tree.updateMany([Symbol('x') as unknown as number], [0, 0, 1, 1])],
      ];
      for (const [code, call] of rejected) {
        expect(codeOf(call)).toBe(code);
        expect(snapshot(tree)).toEqual(before);
      }
      expect(tree.remove(99)).toBe(false);
      expect(snapshot(tree)).toEqual(before);
    });

    it('rejects each bad batch entry with the code its single insert gets, wherever it stands', () => {
      const tree = make();
      for (let i = 0; i < 12; i++) tree.insert(i, i * 7, i * 3, i * 7 + 10, i * 3 + 10);
      const before = snapshot(tree);
      const bad: Array<[number, number[]]> = [
        [1.5, [0, 0, 1, 1]],
        [2 ** 31, [0, 0, 1, 1]],
        [-1, [0, 0, 1, 1]],
        [50, [0, -Infinity, 1, 1]],
        [50, [0, 0, 1, Infinity]],
        [50, [NaN, 0, 1, 1]],
        [50, [0, 0, '1' as unknown as number, 1]],
        [50, [2, 0, 1, 1]],
        [3, [0, 0, 1, 1]],
      ];
      for (const [id, rect] of bad) {
        const single = codeOf(() => tree.insert(id, rect[0], rect[1], rect[2], rect[3]));
        expect(single).toBeDefined();
        for (const at of [0, 2]) {
          const ids = [40, 41, 42];
          const rects = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5];
          ids[at] = id;
          rects.splice(at * 4, 4, ...rect);
          expect(codeOf(() => tree.insertMany(ids, rects))).toBe(single);
          expect(snapshot(tree)).toEqual(before);
        }
      }
    });

    it('gives a batch of large and small ids their slots and finds them all', () => {
      const tree = make();
      tree.insert(7, 1, 1, 2, 2);
      const ids = new Int32Array([2 ** 31 - 1, 0, 5_000_000, 3, 2 ** 20]);
      const rects = new Float64Array(ids.length * 4);
      ids.forEach((_, i) => rects.set([i * 10, i * 10, i * 10 + 5, i * 10 + 5], i * 4));
      tree.insertMany(ids, rects);
      expect(tree.size).toBe(6);
      for (const id of [...ids, 7]) expect(tree.has(id)).toBe(true);
      expect([...tree].sort((a, b) => a - b)).toEqual([0, 3, 7, 2 ** 20, 5_000_000, 2 ** 31 - 1]);
      expect(tree.query(0, 0, 100, 100)).toEqual([0, 3, 7, 2 ** 20, 5_000_000, 2 ** 31 - 1]);
      expect(tree.remove(5_000_000)).toBe(true);
      tree.insertMany([5_000_001], [20, 20, 21, 21]);
      expect(tree.query(20, 20, 20, 20)).toEqual([5_000_001]);
    });

    it('applies batches in order, as single calls would', () => {
      const batch = make();
      const single = make();
      batch.insertMany([5, 6, 7], [0, 0, 10, 10, 5, 5, 15, 15, 90, 90, 95, 95]);
      single.insert(5, 0, 0, 10, 10);
      single.insert(6, 5, 5, 15, 15);
      single.insert(7, 90, 90, 95, 95);
      batch.updateMany(new Int32Array([7, 7, 5]), new Float64Array([50, 50, 60, 60, 14, 14, 20, 20, 70, 70, 80, 80]));
      single.update(7, 50, 50, 60, 60);
      single.update(7, 14, 14, 20, 20);
      single.update(5, 70, 70, 80, 80);
      expect(snapshot(batch)).toEqual(snapshot(single));
      expect(batch.pairs()).toEqual([[6, 7]]);
    });

    it('takes plain arrays, typed arrays of any kind and array-likes as the same batch', () => {
      const ids = [5, 6, 7, 8];
      const rects = [0, 0, 10, 10, 5, 5, 15, 15, 90, 90, 95, 95, 9, 9, 30, 30];
      const moveIds = [7, 5];
      const moves = [14, 14, 20, 20, 70, 70, 80, 80];
      const typed = make();
      typed.insertMany(Int32Array.from(ids), Float64Array.from(rects));
      typed.updateMany(Int32Array.from(moveIds), Float64Array.from(moves));
      const expected = snapshot(typed);
      expect(typed.pairs().length).toBeGreaterThan(0);
      for (const [kind, idsOf, numbersOf] of ARRAY_KINDS) {
        const tree = make();
        tree.insertMany(idsOf(ids), numbersOf(rects));
        tree.updateMany(idsOf(moveIds), numbersOf(moves));
        expect(snapshot(tree), kind).toEqual(expected);
      }
    });

    it('throws DISPOSED after dispose, which may be called twice', () => {
      const tree = make();
      tree.insert(1, 0, 0, 1, 1);
      tree.dispose();
      tree.dispose();
      const calls: Array<() => unknown> = [
        () => tree.insert(2, 0, 0, 1, 1),
        () => tree.update(1, 0, 0, 1, 1),
        () => tree.remove(1),
        () => tree.has(1),
        () => tree.size,
        () => tree.depth,
        () => tree.capacity,
        () => tree.query(0, 0, 1, 1),
        () => tree.queryIds(0, 0, 1, 1),
        () => tree.visit(0, 0, 1, 1, () => {}),
        () => tree.pairs(),
        () => tree.pairIds(),
        () => tree.forEachPair(() => {}),
        () => tree.cells(),
        () => tree.setBounds(bounds),
        () => tree.setCapacity(3),
        () => tree.clear(),
        () => [...tree],
        () => tree.insertMany([3], [0, 0, 1, 1]),
        () => tree.updateMany([1], [0, 0, 1, 1]),
      ];
      for (const call of calls) expect(codeOf(call)).toBe('DISPOSED');
    });
  });

  it('maps small, large and growing ids alike', () => {
    const tree = new QuadTree({ bounds, backend });
    const big = [10_000, 5_000_000, 2 ** 31 - 1];
    big.forEach((id, k) => tree.insert(id, k, k, k + 0.5, k + 0.5));
    for (let id = 0; id < 2000; id++) tree.insert(id, 50, 50, 51, 51);
    tree.insert(12_000, 0, 0, 0.25, 0.25); // the id table grows past 10,000
    for (const id of [...big, 12_000, 0, 1999]) expect(tree.has(id)).toBe(true);
    expect(tree.has(1.5)).toBe(false);
    expect(tree.has(-1)).toBe(false);
    expect(tree.query(0, 0, 2.5, 2.5)).toEqual([10_000, 12_000, 5_000_000, 2 ** 31 - 1]);
    expect(tree.remove(10_000)).toBe(true);
    expect(tree.remove(10_000)).toBe(false);
    expect(tree.has(10_000)).toBe(false);
    expect(tree.size).toBe(2003);
    expect(new Set(tree).size).toBe(2003);
    tree.dispose();
  });

  it('rejects bad options', () => {
    const bad: Array<[string, unknown]> = [
      ['INVALID_ARGUMENT', { bounds: null }],
      ['INVALID_ARGUMENT', { bounds: 'everywhere' }],
      ['INVALID_NUMBER', { bounds: { minX: 0, minY: NaN, maxX: 1, maxY: 1 } }],
      ['INVALID_RECT', { bounds: { minX: 1, minY: 0, maxX: 0, maxY: 1 } }],
      ['INVALID_NUMBER', { bounds: { minX: 0, minY: 0, maxX: Infinity, maxY: 1 } }],
      ['INVALID_ARGUMENT', { bounds, capacity: 0 }],
      ['INVALID_ARGUMENT', { bounds, maxDepth: 0 }],
      ['INVALID_ARGUMENT', { bounds, maxDepth: 33 }],
      ['INVALID_ARGUMENT', { bounds, mode: 'fixed', depth: 11 }],
      ['INVALID_ARGUMENT', { bounds, mode: 'loose' }],
      ['INVALID_ARGUMENT', { bounds, backend: 'gpu' }],
      ['INVALID_ARGUMENT', { bounds, maxObjects: 4 }],
      ['INVALID_ARGUMENT', { bounds, Capacity: 4 }],
    ];
    for (const [code, options] of bad) expect(codeOf(() => new QuadTree({ ...(options as QuadTreeOptions), backend: (options as QuadTreeOptions | undefined)?.backend ?? backend }))).toBe(code);
    expect(codeOf(() => new QuadTree(null as unknown as QuadTreeOptions))).toBe('INVALID_ARGUMENT');
  });
});
