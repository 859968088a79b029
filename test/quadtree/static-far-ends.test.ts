// StaticQuadTree at the far ends of the number line, both layouts, both
// backends: items and query points at ±MAX_VALUE and its neighbours, ±1e300,
// subnormals and -0, where squared distances overflow to Infinity (ties by
// id) or underflow to 0, against the brute-force oracle. The searches run in
// a child process (test/support/child.ts), so a search that never returns
// fails the test instead of stalling the run; snapshots round-trip between
// the backends there too.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, QuadTree, StaticQuadTree } from '../../src/index.js';
import { codeOf } from '../support/codes.js';
import { inChild } from '../support/child.js';
import { runs } from '../support/sweep.js';
import { caseArb, expectOracleAnswers, itemsOf, MAX, sealed, searchInChild } from './far-static.js';
import { RectOracle } from './rect-oracle.js';

beforeAll(() => init());

describe('StaticQuadTree at the far ends of the number line', () => {
  it.each([
    ['rects', false],
    ['points (the k-d layout)', true],
  ] as const)('answers every search among %s as brute force does, on both backends, restored or built, and never hangs', (_, points) => {
    const cases = fc.sample(caseArb(points), runs(400));
    expectOracleAnswers(cases, searchInChild(cases));
  });

  it('a point past 1.34e154 gets the k items by id, since every squared distance is Infinity, on both backends and every way in', () => {
    const out = inChild(`
      const ids = [], rects = [];
      for (let i = 0; i < 20; i++) { ids.push(i); rects.push(i, i, i + 1, i + 1); }
      const answers = {};
      for (const backend of ['wasm', 'js']) {
        const tree = sk.StaticQuadTree.build(ids, rects, { backend });
        const dynamic = new sk.QuadTree({ backend });
        dynamic.insertMany(ids, rects);
        const many = tree.nearestMany([0, 0, 1e300], [1e300, -1e300, 0], 5);
        answers[backend] = {
          nearest: tree.nearest(0, 1e300, 5),
          frozen: dynamic.freeze().nearest(0, 1e300, 5),
          many: Array.from(many.ids),
          within: tree.nearest(0, 1e300, 5, 1e200),
          tooFar: tree.nearest(0, 1e300, 5, 1e150),
        };
      }
      return answers;
    `);
    const five = [0, 1, 2, 3, 4];
    const answers = { nearest: five, frozen: five, many: [...five, ...five, ...five], within: five, tooFar: [] };
    expect(out).toEqual({ wasm: answers, js: answers });
  });

  it('items a distance apart that overflows are found in order by id, and only those within a finite maxDistance', () => {
    for (const backend of ['wasm', 'js'] as const) {
      const tree = StaticQuadTree.build([4, 3, 2, 1], [MAX, MAX, MAX, MAX, -MAX, -MAX, -MAX, -MAX, 1e300, -1e300, 1e300, -1e300, 0, 0, 1, 1], { backend });
      expect(tree.nearest(-MAX, MAX, 4)).toEqual([1, 2, 3, 4]); // every item is past 1.34e154 away
      expect(tree.nearest(0, 0, 4)).toEqual([1, 2, 3, 4]);
      expect(tree.nearest(0, 0, 4, 10)).toEqual([1]);
      expect(tree.queryCircle(0, 0, MAX)).toEqual([1, 2, 3, 4]);
      expect(tree.query(-MAX, -MAX, MAX, MAX)).toEqual([1, 2, 3, 4]);
      const dynamic = new QuadTree({ backend, bounds: { minX: 0, minY: 0, maxX: 10, maxY: 10 } });
      dynamic.insertMany([1, 2], [0, 0, 1, 1, 1e300, -1e300, 1e300, -1e300]);
      expect(dynamic.freeze({ backend }).nearest(-1e300, 1e300, 2)).toEqual([1, 2]);
    }
  });
});

/** What fromBuffer makes of bytes: the error code, or the tree's answers to a few searches and whether it writes the bytes back. */
function restore(bytes: Uint8Array, backend: 'wasm' | 'js') {
  try {
    const tree = StaticQuadTree.fromBuffer(bytes, { backend });
    const points: Array<[number, number]> = [[0, 0], [25, 5], [-3, 40], [60, 60], [1e300, 0]];
    const answers = {
      nearest: points.map(([x, y]) => tree.nearest(x, y, 5)),
      circle: points.map(([x, y]) => tree.queryCircle(x, y, 12)),
      box: points.map(([x, y]) => tree.query(x - 10, y - 10, x + 10, y + 10)),
      same: Buffer.from(tree.toBuffer()).equals(Buffer.from(bytes)),
    };
    tree.dispose();
    return answers;
  } catch (error) {
    return codeOf(() => {
      throw error;
    });
  }
}

/** The oracle's answers to restore's searches over the items of bytes. */
function oracleOf(bytes: Uint8Array) {
  const oracle = new RectOracle();
  for (const [id, rect] of itemsOf(bytes)) oracle.insert(id, rect);
  const points: Array<[number, number]> = [[0, 0], [25, 5], [-3, 40], [60, 60], [1e300, 0]];
  return {
    nearest: points.map(([x, y]) => oracle.nearest(x, y, 5)),
    circle: points.map(([x, y]) => oracle.circle(x, y, 12)),
    box: points.map(([x, y]) => oracle.query([x - 10, y - 10, x + 10, y + 10])),
    same: true,
  };
}

describe('StaticQuadTree snapshots whose checksum was repaired', () => {
  const ids = Array.from({ length: 20 }, (_, i) => i);
  const diagonal = ids.flatMap((i) => [i, i, i + 1, i + 1]);
  const scattered = Array.from({ length: 30 }, (_, i) => [(i * 37) % 50, (i * 11) % 45]).flatMap(([x, y]) => [x, y, x, y]);

  it.each(['wasm', 'js'] as const)('refuse a coordinate that is not finite, a box with min > max, a loosened node box, points out of order or an id twice (%s backend)', (backend) => {
    const rects = StaticQuadTree.build(ids, diagonal, { backend }).toBuffer();
    const points = StaticQuadTree.build(Array.from({ length: 30 }, (_, i) => i), scattered, { backend }).toBuffer();
    const sparse = StaticQuadTree.build(ids.map((i) => i * 99_991 + 2 ** 30), diagonal, { backend }).toBuffer(); // ids far apart: checked by a hash set, not a bitmap
    const edited = (bytes: Uint8Array, edit: (values: Float64Array) => void): Uint8Array => {
      const copy = bytes.slice();
      edit(new Float64Array(copy.buffer, 32));
      return sealed(copy);
    };
    /** The block with its second id set to its first (the ids start at byte `ids`). */
    const twice = (bytes: Uint8Array, ids: number): Uint8Array => {
      const copy = bytes.slice();
      const view = new Int32Array(copy.buffer, ids, 2);
      view[1] = view[0];
      return sealed(copy);
    };
    const refused: Array<[string, Uint8Array]> = [
      ['an item minX NaN', edited(rects, (v) => (v[0] = NaN))],
      ['an item maxY Infinity', edited(rects, (v) => (v[3] = Infinity))],
      ['an item with minX > maxX', edited(rects, (v) => (v[0] = v[2] + 0.5))],
      ['a node box loosened', edited(rects, (v) => (v[20 * 4] -= 1))],
      ['the root box NaN', edited(rects, (v) => (v[22 * 4 + 2] = NaN))],
      ['a point x NaN', edited(points, (v) => (v[0] = NaN))],
      ['a point y -Infinity', edited(points, (v) => (v[7] = -Infinity))],
      ['the first median past its right side', edited(points, (v) => (v[2 * 14] = 1e6))],
      ['an id given twice', twice(rects, 32 + 23 * 32)],
      ['a sparse id given twice', twice(sparse, 32 + 23 * 32)],
      ["a point's id given twice", twice(points, 32 + 30 * 16)],
    ];
    for (const [what, bytes] of refused) expect([what, restore(bytes, backend)]).toEqual([what, 'INVALID_SNAPSHOT']);
    expect(restore(rects, backend)).toEqual(oracleOf(rects));
    expect(restore(points, backend)).toEqual(oracleOf(points));
    expect(restore(sparse, backend)).toEqual(oracleOf(sparse));
  });

  it('every value of a block set to a far or nearby value: both backends refuse it alike or answer as brute force over what they hold', () => {
    const blocks = [StaticQuadTree.build(ids, diagonal, { backend: 'js' }).toBuffer(), StaticQuadTree.build(Array.from({ length: 30 }, (_, i) => i), scattered, { backend: 'js' }).toBuffer()];
    let accepted = 0, refused = 0;
    for (const block of blocks) {
      const [, header, , , n, m] = new Uint32Array(block.buffer);
      const count = header >>> 16 === 1 ? 2 * n : 4 * (n + m); // the coordinates: of points, or of item and node boxes
      for (let at = 0; at < count; at++) {
        const was = new Float64Array(block.buffer, 32)[at];
        for (const value of [NaN, Infinity, -Infinity, MAX, -MAX, -0, was + 1, was - 1, was + 0.25, was - 0.25]) {
          const bytes = block.slice();
          new Float64Array(bytes.buffer, 32)[at] = value;
          sealed(bytes);
          const [wasm, js] = [restore(bytes, 'wasm'), restore(bytes, 'js')];
          expect({ at, value, js }).toEqual({ at, value, js: wasm });
          if (typeof wasm === 'string') {
            expect(wasm).toBe('INVALID_SNAPSHOT');
            refused++;
          } else {
            expect({ at, value, wasm }).toEqual({ at, value, wasm: oracleOf(bytes) });
            accepted++;
          }
        }
      }
    }
    // Both outcomes occur: edits a build could have made are restored, the rest refused.
    expect(accepted).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(500);
  });
});
