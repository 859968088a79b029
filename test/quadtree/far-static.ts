// StaticQuadTree cases at the far ends of the number line, shared by
// static-far-ends.test.ts and npm run fuzz: items and query points at
// ±MAX_VALUE and its neighbours, ±1e300, subnormals and -0; every search of
// a case run on both backends in a child process (where a search that never
// returns is cut off), and the brute-force oracle's answers to compare.
import fc from 'fast-check';
import { expect } from 'vitest';
import { blockChecksum, CHECKSUM_AT } from '../../src/quadtree/static-format.js';
import { inChild } from '../support/child.js';
import { RectOracle, type Rect } from './rect-oracle.js';

export const MAX = Number.MAX_VALUE;
/** The double just below x (x > 0, normal). */
const below = (x: number): number => {
  const bits = new BigInt64Array(Float64Array.of(x).buffer);
  bits[0] -= 1n;
  return new Float64Array(bits.buffer)[0];
};

/** Coordinates where arithmetic on doubles stops being ordinary, and a few plain ones to mix them with. */
export const FAR = [MAX, -MAX, below(MAX), -below(MAX), 1e300, -1e300, 1.34e154, -1.34e154, 1e154, 5e-324, -5e-324, 2.2250738585072014e-308, -0, 0, 1, -1, 7, 1e6];
export const coordinate = fc.oneof(fc.constantFrom(...FAR), fc.integer({ min: -20, max: 20 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
/** A rect from two coordinates per axis, or a point (every item a point gives the k-d layout). */
export const rectArb = (points: boolean) =>
  fc.tuple(coordinate, coordinate, coordinate, coordinate).map(([a, b, c, d]): Rect => (points ? [a, b, a, b] : [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)]));
const radius = fc.oneof(fc.constantFrom(0, 1, 1e154, 1e200, MAX, 5e-324), fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }));
export const queryArb = fc.record({ x: coordinate, y: coordinate, k: fc.integer({ min: 0, max: 25 }), maxDistance: fc.oneof(fc.constant(Infinity), radius), r: radius, box: rectArb(false) });
export const caseArb = (points: boolean): fc.Arbitrary<Case> =>
  fc.record({
    items: fc.uniqueArray(fc.tuple(fc.nat(300), rectArb(points)), { selector: ([id]) => id, maxLength: 60, size: 'medium' }),
    queries: fc.array(queryArb, { minLength: 1, maxLength: 6 }),
  });
/** One case: items (id, rect), and queries (a point with k, maxDistance and a disc radius, a box). */
export interface Case {
  items: Array<[number, Rect]>;
  queries: Array<{ x: number; y: number; k: number; maxDistance: number; r: number; box: Rect }>;
}

/** Numbers through JSON: -0 and non-finite numbers as tagged strings. */
export const encode = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v)) ? `#${Object.is(v, -0) ? '-0' : v}` : v));

/** What one case gives on one backend. */
export interface Answers {
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
export function expected({ items, queries }: Case) {
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

/**
 * Every search of every case on both backends, in a child process: a search
 * that never returns makes this throw after timeoutMs.
 */
export function searchInChild(cases: Case[], timeoutMs = 10_000): Array<Record<'wasm' | 'js', Answers>> {
  return inChild(`return (${searchAll.toString()})(sk, input);`, timeoutMs, encode(cases)) as Array<Record<'wasm' | 'js', Answers>>;
}

/** Expects every answer of searchInChild to be the oracle's, and both backends to build the same bytes. */
export function expectOracleAnswers(cases: Case[], answers: Array<Record<'wasm' | 'js', Answers>>): void {
  cases.forEach((c, i) => {
    const want = expected(c);
    for (const backend of ['wasm', 'js'] as const) {
      const got = answers[i][backend];
      expect({ case: c, backend, ...got, bytes: undefined, restored: undefined }).toEqual({ case: c, backend, ...want, bytes: undefined, restored: undefined });
      expect({ case: c, backend, restored: got.restored }).toEqual({ case: c, backend, restored: { nearest: want.nearest, box: want.box, sameBytes: true } });
    }
    expect({ case: c, bytes: answers[i].js.bytes }).toEqual({ case: c, bytes: answers[i].wasm.bytes });
  });
}

/** bytes with their checksum made to match again, so fromBuffer has to judge the values inside. */
export function sealed(bytes: Uint8Array): Uint8Array {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  words[CHECKSUM_AT / 4] = blockChecksum(words);
  return bytes;
}

/** The items a block holds, read by its layout (drawn in assembly/quadtree/static.ts and static-points.ts). */
export function itemsOf(bytes: Uint8Array): Array<[number, Rect]> {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  const n = words[4], m = words[5], points = words[1] >>> 16 === 1;
  const values = new Float64Array(bytes.buffer, bytes.byteOffset + 32, points ? 2 * n : 4 * (n + m));
  const ids = new Int32Array(bytes.buffer, bytes.byteOffset + 32 + values.byteLength, n);
  return Array.from(ids, (id, i): [number, Rect] => [id, points ? [values[2 * i], values[2 * i + 1], values[2 * i], values[2 * i + 1]] : [values[4 * i], values[4 * i + 1], values[4 * i + 2], values[4 * i + 3]]]);
}

