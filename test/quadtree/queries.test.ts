// QuadTree nearest, disc and segment searches, rect / ids and snapshots on
// both backends and modes: worked examples, ties and closed boundaries, bad
// input leaving the tree untouched, and snapshots that reject damaged bytes.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, QuadTree, type QuadTreeMode } from '../../src/index.js';
import { sealSnapshot } from '../../src/core/snapshot-bytes.js';
import { codeOf } from '../support/codes.js';

beforeAll(() => init());

const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
const configs = (['wasm', 'js'] as const).flatMap((backend) => (['split', 'fixed'] as const).map((mode) => ({ backend, mode })));

/** A tree with small capacity, so a few dozen items split it several times. */
function makeTree(backend: 'wasm' | 'js', mode: QuadTreeMode): QuadTree {
  return new QuadTree({ bounds, capacity: 2, depth: 5, mode, backend });
}

describe.each(configs)('QuadTree searches ($backend backend, $mode mode)', ({ backend, mode }) => {
  it('nearest: by distance to the rect (0 inside), ties by id, closed maxDistance', () => {
    const tree = makeTree(backend, mode);
    tree.insert(9, 10, 10, 30, 30); // holds (20, 20)
    tree.insert(4, 15, 15, 25, 25); // holds (20, 20) too: ties with 9 at distance 0
    tree.insert(7, 23, 24, 23, 24); // a point at distance 5 (3-4-5) from (20, 20)
    tree.insert(2, 50, 20, 60, 22); // 30 to the right
    tree.insert(3, 80, 80, 90, 90);
    for (let id = 20; id < 40; id++) tree.insert(id, id * 2, 95, id * 2 + 1, 96); // far away, splits the tree
    expect(tree.nearest(20, 20, 2)).toEqual([4, 9]);
    expect(tree.nearest(20, 20, 3)).toEqual([4, 9, 7]);
    expect(tree.nearest(20, 20, 4)).toEqual([4, 9, 7, 2]);
    expect(tree.nearest(20, 20, 10, 5)).toEqual([4, 9, 7]);
    expect(tree.nearest(20, 20, 10, 30)).toEqual([4, 9, 7, 2]); // 2 is at exactly 30: the limit is closed
    expect(tree.nearest(20, 20, 10, 29.999)).toEqual([4, 9, 7]);
    expect(tree.nearest(20, 20, 0)).toEqual([]);
    expect(tree.nearest(20, 20, 1000)).toHaveLength(tree.size);
    // Equal distances the other way round: a point between two equal gaps.
    tree.insert(100, 0, 50, 0, 50);
    tree.insert(101, 10, 50, 10, 50);
    expect(tree.nearest(5, 50, 2)).toEqual([100, 101]);
    tree.remove(100);
    expect(tree.nearest(5, 50, 1)).toEqual([101]);
    tree.dispose();
  });

  it('nearest: equally distant items come by id whatever the insertion order, also outside the bounds', () => {
    const tree = makeTree(backend, mode);
    const ids = [50, 7, 31, 2, 44, 19, 3];
    // Corners of a box around (200, 200), all at distance 5 from it.
    ids.forEach((id, i) => tree.insert(id, 200 + (i % 2 ? 3 : -3), 200 + (i % 3 ? 4 : -4), 200 + (i % 2 ? 3 : -3), 200 + (i % 3 ? 4 : -4)));
    expect(tree.nearest(200, 200, 4)).toEqual([2, 3, 7, 19]);
    expect(tree.nearest(200, 200, 10, 5)).toEqual([...ids].sort((a, b) => a - b));
    expect(tree.nearest(200, 200, 10, 4.99)).toEqual([]);
    tree.dispose();
  });

  it('queryCircle: rects meeting the closed disc, ascending', () => {
    const tree = makeTree(backend, mode);
    tree.insert(1, 53, 54, 60, 60); // corner at distance 5 from (50, 50)
    tree.insert(2, 40, 40, 60, 60); // holds the centre
    tree.insert(3, 54, 50, 70, 51); // 4 to the right
    tree.insert(4, 0, 0, 1, 1);
    tree.insert(5, 50, 56, 50, 56); // a point at distance 6
    expect(tree.queryCircle(50, 50, 5)).toEqual([1, 2, 3]);
    expect(tree.queryCircle(50, 50, 4.999)).toEqual([2, 3]);
    expect(tree.queryCircle(50, 50, 0)).toEqual([2]);
    expect(tree.queryCircle(50, 50, 6)).toEqual([1, 2, 3, 5]);
    expect(Array.from(tree.queryCircleIds(50, 50, 5)).sort()).toEqual([1, 2, 3]);
    tree.dispose();
  });

  it('querySegment: rects in the order the segment enters them, ties by id; first stops at the first', () => {
    const tree = makeTree(backend, mode);
    tree.insert(5, 10, 45, 20, 55);
    tree.insert(1, 30, 45, 40, 55);
    tree.insert(8, 50, 40, 60, 60);
    tree.insert(2, 50, 49, 55, 51); // entered at the same x as 8: tie by id
    tree.insert(6, 70, 0, 80, 10); // off the line
    tree.insert(4, 90, 50, 95, 50); // touched along its zero-height edge
    expect(tree.querySegment(0, 50, 100, 50)).toEqual([5, 1, 2, 8, 4]);
    expect(tree.querySegment(100, 50, 0, 50)).toEqual([4, 8, 2, 1, 5]);
    expect(tree.querySegment(0, 50, 100, 50, { first: true })).toEqual([5]);
    expect(tree.querySegment(45, 50, 100, 50, { first: true })).toEqual([2]);
    expect(tree.querySegment(0, 50, 9.99, 50)).toEqual([]);
    expect(tree.querySegment(0, 50, 10, 50)).toEqual([5]); // the end point touches 5: closed
    expect(tree.querySegment(15, 50, 15, 50)).toEqual([5]); // zero length: a point
    expect(tree.querySegment(35, 50, 100, 50)).toEqual([1, 2, 8, 4]); // starts inside 1: entered at t = 0
    // A diagonal through the corner (70, 10) of 6.
    expect(tree.querySegment(60, 20, 80, 0)).toEqual([6]);
    expect(tree.querySegment(60, 19.999, 69.999, 10, { first: true })).toEqual([]);
    tree.dispose();
  });

  it('rect and ids', () => {
    const tree = makeTree(backend, mode);
    tree.insert(30, 1, 2, 3, 4);
    tree.insert(10, 5, 5, 5, 5);
    tree.insertMany([20, 5], [200, 200, 300, 300, -10, -10, -5, -4]);
    tree.update(10, 6, 7, 8, 9);
    expect(tree.rect(10)).toEqual({ minX: 6, minY: 7, maxX: 8, maxY: 9 });
    expect(tree.rect(20)).toEqual({ minX: 200, minY: 200, maxX: 300, maxY: 300 });
    expect(tree.ids()).toEqual([5, 10, 20, 30]);
    tree.remove(20);
    expect(tree.ids()).toEqual([5, 10, 30]);
    expect(codeOf(() => tree.rect(20))).toBe('UNKNOWN_ID');
    expect(codeOf(() => tree.rect(-1))).toBe('INVALID_ID');
    tree.dispose();
    expect(codeOf(() => tree.ids())).toBe('DISPOSED');
  });

  it('rejects bad input with a code and leaves the tree as it was', () => {
    const tree = makeTree(backend, mode);
    for (let id = 0; id < 20; id++) tree.insert(id, id * 4, id * 3, id * 4 + 6, id * 3 + 6);
    const before = tree.toBuffer();
    const cases: Array<[() => unknown, string]> = [
      [() => tree.nearest(NaN, 0, 1), 'INVALID_NUMBER'],
      [() => tree.nearest(0, Infinity, 1), 'INVALID_NUMBER'],
      [() => tree.nearest(0, 0, -1), 'INVALID_ARGUMENT'],
      [() => tree.nearest(0, 0, 1.5), 'INVALID_ARGUMENT'],
      [() => tree.nearest(0, 0, NaN), 'INVALID_ARGUMENT'],
      [() => tree.nearest(0, 0, '3' as unknown as number), 'INVALID_ARGUMENT'],
      [() => tree.nearest(0, 0, 1, -1), 'NEGATIVE_RANGE'],
      [() => tree.nearest(0, 0, 1, NaN), 'INVALID_NUMBER'],
      [() => tree.queryCircle(0, 0, -0.5), 'NEGATIVE_RANGE'],
      [() => tree.queryCircle(0, NaN, 1), 'INVALID_NUMBER'],
      [() => tree.queryCircleIds(0, 0, Infinity), 'INVALID_NUMBER'],
      [() => tree.querySegment(0, 0, NaN, 1), 'INVALID_NUMBER'],
      [() => tree.querySegment(0, 0, 1, 1, { first: 'yes' as unknown as boolean }), 'INVALID_ARGUMENT'],
      [() => tree.querySegment(0, 0, 1, 1, 5 as unknown as { first: boolean }), 'INVALID_ARGUMENT'],
      [() => tree.rect(1.5), 'INVALID_ID'],
      [() => QuadTree.fromBuffer(before, { backend: 'gpu' as 'js' }), 'INVALID_ARGUMENT'],
    ];
    for (const [fn, code] of cases) expect(codeOf(fn)).toBe(code);
    expect(tree.toBuffer()).toEqual(before);
    expect(tree.nearest(0, 0, 3)).toEqual([0, 1, 2]);
    tree.dispose();
    expect(codeOf(() => tree.nearest(0, 0, 1))).toBe('DISPOSED');
    expect(codeOf(() => tree.queryCircle(0, 0, 1))).toBe('DISPOSED');
    expect(codeOf(() => tree.querySegment(0, 0, 1, 1))).toBe('DISPOSED');
    expect(codeOf(() => tree.toBuffer())).toBe('DISPOSED');
  });

  it('snapshots restore an equal tree on either backend', () => {
    const tree = new QuadTree({ bounds, capacity: 3, maxDepth: 6, depth: 4, mode, backend });
    for (let id = 0; id < 200; id++) {
      const x = (id * 37) % 97, y = (id * 61) % 89;
      tree.insert(id * 3, x, y, x + (id % 7), y + (id % 5));
    }
    tree.remove(30);
    tree.update(33, -20, -20, -10, 150); // partly outside the bounds
    tree.setCapacity(4);
    const bytes = tree.toBuffer();
    for (const other of ['wasm', 'js'] as const) {
      const copy = QuadTree.fromBuffer(bytes, { backend: other });
      expect(copy.backend).toBe(other);
      expect(copy.mode).toBe(mode);
      expect(copy.capacity).toBe(4);
      expect(copy.size).toBe(tree.size);
      expect(copy.ids()).toEqual(tree.ids());
      expect(copy.pairs()).toEqual(tree.pairs());
      expect(copy.rect(33)).toEqual(tree.rect(33));
      expect(copy.query(20, 20, 50, 40)).toEqual(tree.query(20, 20, 50, 40));
      expect(copy.nearest(50, 50, 16)).toEqual(tree.nearest(50, 50, 16));
      expect(copy.toBuffer()).toEqual(bytes);
      if (mode === 'fixed') expect(copy.depth).toBe(4);
      copy.dispose();
    }
    const empty = QuadTree.fromBuffer(new QuadTree({ bounds, mode, backend }).toBuffer());
    expect(empty.size).toBe(0);
    expect(empty.mode).toBe(mode);
    tree.dispose();
  });
});

describe('QuadTree snapshots reject damaged input', () => {
  const tree = (): QuadTree => {
    const t = new QuadTree({ bounds, capacity: 2, backend: 'js' });
    t.insertMany([3, 1, 2], [0, 0, 1, 1, 5, 5, 6, 6, 2, 2, 9, 9]);
    return t;
  };

  it('rejects every truncation, every single flipped byte, a changed version and other input with INVALID_SNAPSHOT', () => {
    const bytes = tree().toBuffer();
    for (let length = 0; length < bytes.length; length++) {
      expect(codeOf(() => QuadTree.fromBuffer(bytes.slice(0, length), { backend: 'js' }))).toBe('INVALID_SNAPSHOT');
    }
    for (let i = 0; i < bytes.length; i++) {
      const damaged = bytes.slice();
      damaged[i] ^= 0x10;
      expect(codeOf(() => QuadTree.fromBuffer(damaged))).toBe('INVALID_SNAPSHOT');
    }
    const longer = new Uint8Array(bytes.length + 8);
    longer.set(bytes);
    expect(codeOf(() => QuadTree.fromBuffer(longer))).toBe('INVALID_SNAPSHOT');
    const newer = bytes.slice();
    newer[4] = 2;
    expect(() => QuadTree.fromBuffer(newer)).toThrow(/version 2/);
    expect(codeOf(() => QuadTree.fromBuffer([1, 2, 3] as unknown as Uint8Array))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => QuadTree.fromBuffer(new Uint8Array(bytes.buffer.slice(0))))).toBeNull();
  });

  it('rejects a well-formed snapshot holding values no tree accepts', () => {
    const bytes = tree().toBuffer();
    const view = new DataView(bytes.buffer);
    const reseal = (edit: (copy: DataView) => void): Uint8Array => {
      const copy = bytes.slice();
      edit(new DataView(copy.buffer));
      return sealSnapshot(copy);
    };
    expect(view.getUint32(24, true)).toBe(3);
    expect(codeOf(() => QuadTree.fromBuffer(reseal((v) => v.setUint32(16, 0, true))))).toBe('INVALID_SNAPSHOT'); // capacity 0
    expect(codeOf(() => QuadTree.fromBuffer(reseal((v) => v.setUint16(6, 7, true))))).toBe('INVALID_SNAPSHOT'); // mode
    expect(codeOf(() => QuadTree.fromBuffer(reseal((v) => v.setFloat64(28, 1000, true))))).toBe('INVALID_SNAPSHOT'); // minX > maxX
    expect(codeOf(() => QuadTree.fromBuffer(reseal((v) => v.setFloat64(60 + 4 * 3, NaN, true))))).toBe('INVALID_SNAPSHOT'); // a rect
    expect(codeOf(() => QuadTree.fromBuffer(reseal((v) => v.setInt32(60, 2, true))))).toBe('INVALID_SNAPSHOT'); // ids 2, 2, 3
    expect(codeOf(() => QuadTree.fromBuffer(reseal((v) => v.setInt32(60, -5, true))))).toBe('INVALID_SNAPSHOT'); // id -5
    expect(codeOf(() => QuadTree.fromBuffer(reseal(() => undefined)))).toBeNull();
  });
});

describe('docs/quadtree-queries.md examples', () => {
  it.each(['wasm', 'js'] as const)('give the answers the page states (%s backend)', (backend) => {
    const tree = new QuadTree({ bounds, backend });
    tree.insert(1, 10, 10, 20, 20);
    tree.insert(2, 30, 10, 40, 20);
    tree.insert(3, 50, 10, 60, 20);
    tree.insert(4, 13, 24, 13, 24);
    expect(tree.nearest(15, 15, 1)).toEqual([1]);
    expect(tree.nearest(25, 15, 2)).toEqual([1, 2]);
    expect(tree.nearest(13, 30, 2)).toEqual([4, 1]);
    expect(tree.nearest(45, 15, 10, 5)).toEqual([2, 3]);
    expect(tree.queryCircle(25, 15, 5)).toEqual([1, 2]);
    expect(tree.queryCircle(25, 15, 4.9)).toEqual([]);
    expect(Array.from(tree.queryCircleIds(13, 22, 2)).sort()).toEqual([1, 4]);
    expect(tree.querySegment(0, 15, 100, 15)).toEqual([1, 2, 3]);
    expect(tree.querySegment(100, 15, 0, 15)).toEqual([3, 2, 1]);
    expect(tree.querySegment(100, 15, 0, 15, { first: true })).toEqual([3]);
    expect(tree.querySegment(0, 25, 100, 25)).toEqual([]);
    expect(tree.rect(2)).toEqual({ minX: 30, minY: 10, maxX: 40, maxY: 20 });
    expect(tree.ids()).toEqual([1, 2, 3, 4]);
    expect(codeOf(() => tree.rect(9))).toBe('UNKNOWN_ID');
    const bytes = tree.toBuffer();
    expect(bytes.length).toBe(204);
    expect(QuadTree.fromBuffer(bytes, { backend: 'js' }).nearest(25, 15, 2)).toEqual([1, 2]);
  });
});
