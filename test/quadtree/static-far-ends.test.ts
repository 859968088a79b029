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
import { blockChecksum, CHECKSUM_AT } from '../../src/quadtree/static-format.js';
import { codeOf } from '../support/codes.js';
import { inChild } from '../support/child.js';
import { runs } from '../support/sweep.js';
import { RectOracle, type Rect } from './rect-oracle.js';

beforeAll(() => init());

const MAX = Number.MAX_VALUE;
/** The double just below x (x > 0, normal). */
const below = (x: number): number => {
  const bits = new BigInt64Array(Float64Array.of(x).buffer);
  bits[0] -= 1n;
  return new Float64Array(bits.buffer)[0];
};

/** Coordinates where arithmetic on doubles stops being ordinary, and a few plain ones to mix them with. */
const FAR = [MAX, -MAX, below(MAX), -below(MAX), 1e300, -1e300, 1.34e154, -1.34e154, 1e154, 5e-324, -5e-324, 2.2250738585072014e-308, -0, 0, 1, -1, 7, 1e6];
const coordinate = fc.oneof(fc.constantFrom(...FAR), fc.integer({ min: -20, max: 20 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
/** A rect from two coordinates per axis, or a point (every item a point gives the k-d layout). */
const rectArb = (points: boolean) =>
  fc.tuple(coordinate, coordinate, coordinate, coordinate).map(([a, b, c, d]): Rect => (points ? [a, b, a, b] : [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)]));
const radius = fc.oneof(fc.constantFrom(0, 1, 1e154, 1e200, MAX, 5e-324), fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }));
const queryArb = fc.record({ x: coordinate, y: coordinate, k: fc.integer({ min: 0, max: 25 }), maxDistance: fc.oneof(fc.constant(Infinity), radius), r: radius, box: rectArb(false) });
const caseArb = (points: boolean) =>
  fc.record({
    items: fc.uniqueArray(fc.tuple(fc.nat(300), rectArb(points)), { selector: ([id]) => id, maxLength: 60, size: "medium" }),
    queries: fc.array(queryArb, { minLength: 1, maxLength: 6 }),
  });
type Case = fc.Infer<ReturnType<typeof caseArb>>;

/** Numbers through JSON: -0 and non-finite numbers as tagged strings. */
const encode = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v)) ? `#${Object.is(v, -0) ? '-0' : v}` : v));

/** What one case gives on one backend. */
interface Answers {
  nearest: number[][];
  nearestMany: number[][];
  circle: number[][];
  circleMany: number[][];
  box: number[][];
  boxMany: number[][];
  bytes: string;
  /** The same answers from the other backend's restore of this backend's bytes, and whether it writes the same bytes. */
  restored: { nearest: number[][]; box: number[][]; sameBytes: boolean };
}

/**
 * Runs in the child, given the package and the encoded cases: every search of
 * every case on both backends. Self-contained: it is sent as source text.
 */
function searchAll(sk: typeof import('../../src/index.js'), text: string): Array<Record<'wasm' | 'js', Answers>> {
  const cases = JSON.parse(text, (_, v: unknown) => (typeof v === 'string' && v.startsWith('#') ? (v === '#-0' ? -0 : Number(v.slice(1))) : v)) as Case[];
  const sorted = (ids: ArrayLike<number>): number[] => Array.from(ids).sort((a, b) => a - b);
  const each = (r: { offsets: Int32Array; ids: Int32Array }, sort: boolean): number[][] =>
    Array.from({ length: r.offsets.length - 1 }, (_, q) => {
      const ids = Array.from(r.ids.subarray(r.offsets[q], r.offsets[q + 1]));
      return sort ? sorted(ids) : ids;
    });
  return cases.map(({ items, queries }) => {
    const ids = items.map(([id]) => id), rects = items.flatMap(([, rect]) => rect);
    const xs = queries.map((q) => q.x), ys = queries.map((q) => q.y);
    const out = {} as Record<'wasm' | 'js', Answers>;
    for (const backend of ['wasm', 'js'] as const) {
      const tree = sk.StaticQuadTree.build(ids, rects, { backend });
      const { k, maxDistance } = queries[0];
      const bytes = tree.toBuffer();
      const restored = sk.StaticQuadTree.fromBuffer(bytes, { backend: backend === 'wasm' ? 'js' : 'wasm' });
      out[backend] = {
        nearest: queries.map((q) => tree.nearest(q.x, q.y, q.k, q.maxDistance)),
        nearestMany: each(tree.nearestMany(xs, ys, k, { maxDistance }), false),
        circle: queries.map((q) => tree.queryCircle(q.x, q.y, q.r)),
        circleMany: each(tree.queryCircleMany(xs, ys, queries.map((q) => q.r)), true),
        box: queries.map((q) => tree.query(q.box[0], q.box[1], q.box[2], q.box[3])),
        boxMany: each(tree.queryMany(queries.flatMap((q) => q.box)), true),
        bytes: Buffer.from(bytes).toString('base64'),
        restored: {
          nearest: queries.map((q) => restored.nearest(q.x, q.y, q.k, q.maxDistance)),
          box: queries.map((q) => restored.query(q.box[0], q.box[1], q.box[2], q.box[3])),
          sameBytes: Buffer.from(restored.toBuffer()).equals(Buffer.from(bytes)),
        },
      };
      tree.dispose();
      restored.dispose();
    }
    return out;
  });
}

/** The oracle's answers to a case, in the layout of Answers. */
function expected({ items, queries }: Case) {
  const oracle = new RectOracle();
  for (const [id, rect] of items) oracle.insert(id, rect);
  const { k, maxDistance } = queries[0];
  return {
    nearest: queries.map((q) => oracle.nearest(q.x, q.y, q.k, q.maxDistance)),
    nearestMany: queries.map((q) => oracle.nearest(q.x, q.y, k, maxDistance)),
    circle: queries.map((q) => oracle.circle(q.x, q.y, q.r)),
    circleMany: queries.map((q) => oracle.circle(q.x, q.y, q.r)),
    box: queries.map((q) => oracle.query(q.box)),
    boxMany: queries.map((q) => oracle.query(q.box)),
  };
}

describe('StaticQuadTree at the far ends of the number line', () => {
  it.each([
    ['rects', false],
    ['points (the k-d layout)', true],
  ] as const)('answers every search among %s as brute force does, on both backends, restored or built, and never hangs', (_, points) => {
    const cases = fc.sample(caseArb(points), runs(400));
    const answers = inChild(`return (${searchAll.toString()})(sk, input);`, 10_000, encode(cases)) as Array<Record<'wasm' | 'js', Answers>>;
    cases.forEach((c, i) => {
      const want = expected(c);
      for (const backend of ['wasm', 'js'] as const) {
        const got = answers[i][backend];
        expect({ case: c, backend, ...got, bytes: undefined, restored: undefined }).toEqual({ case: c, backend, ...want, bytes: undefined, restored: undefined });
        expect({ case: c, backend, restored: got.restored }).toEqual({ case: c, backend, restored: { nearest: want.nearest, box: want.box, sameBytes: true } });
      }
      expect({ case: c, bytes: answers[i].js.bytes }).toEqual({ case: c, bytes: answers[i].wasm.bytes });
    });
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

/** bytes with their checksum made to match again, so fromBuffer has to judge the values inside. */
function sealed(bytes: Uint8Array): Uint8Array {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  words[CHECKSUM_AT / 4] = blockChecksum(words);
  return bytes;
}

/** The items a block holds, read by its layout (drawn in assembly/quadtree/static.ts and static-points.ts). */
function itemsOf(bytes: Uint8Array): Array<[number, Rect]> {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  const n = words[4], m = words[5], points = words[1] >>> 16 === 1;
  const values = new Float64Array(bytes.buffer, bytes.byteOffset + 32, points ? 2 * n : 4 * (n + m));
  const ids = new Int32Array(bytes.buffer, bytes.byteOffset + 32 + values.byteLength, n);
  return Array.from(ids, (id, i): [number, Rect] => [id, points ? [values[2 * i], values[2 * i + 1], values[2 * i], values[2 * i + 1]] : [values[4 * i], values[4 * i + 1], values[4 * i + 2], values[4 * i + 3]]]);
}

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

  it.each(['wasm', 'js'] as const)('refuse a coordinate that is not finite, a box with min > max, a loosened node box or points out of order (%s backend)', (backend) => {
    const rects = StaticQuadTree.build(ids, diagonal, { backend }).toBuffer();
    const points = StaticQuadTree.build(Array.from({ length: 30 }, (_, i) => i), scattered, { backend }).toBuffer();
    const edited = (bytes: Uint8Array, edit: (values: Float64Array) => void): Uint8Array => {
      const copy = bytes.slice();
      edit(new Float64Array(copy.buffer, 32));
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
    ];
    for (const [what, bytes] of refused) expect([what, restore(bytes, backend)]).toEqual([what, 'INVALID_SNAPSHOT']);
    expect(restore(rects, backend)).toEqual(oracleOf(rects));
    expect(restore(points, backend)).toEqual(oracleOf(points));
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
