// QuadTree cases at the far ends of the number line, shared by
// far-values.test.ts and npm run fuzz: items, bounds and query points at
// ±MAX_VALUE and its neighbours, ±1e300, subnormals and -0, with the largest
// capacity and maxDepth; every call of a case run on both backends in a
// child process (where a call that never returns is cut off), each tree
// round-tripped through its snapshot to the other backend, and the
// brute-force oracle's answers to compare.
import fc from 'fast-check';
import { expect } from 'vitest';
import { inChild } from '../support/child.js';
import { encode, queryArb, rectArb } from './far-static.js';
import { RectOracle, type Rect } from './rect-oracle.js';

const id = fc.nat(40);
const rect = rectArb(false);
const opArb = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('insert' as const), id, rect }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('insertMany' as const), items: fc.array(fc.tuple(id, rect), { maxLength: 20 }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('update' as const), id, rect }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('remove' as const), id }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('capacity' as const), capacity: fc.constantFrom(1, 2, 3, 2 ** 23 - 1, 2 ** 23) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bounds' as const), rect: fc.option(rect, { nil: null }) }) },
);
/** A tree's options at their ends: the least and largest capacity and levels, bounds anywhere a double reaches, or none. */
const optionsArb = fc.record({
  mode: fc.constantFrom('split' as const, 'fixed' as const),
  capacity: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constantFrom(2 ** 23 - 1, 2 ** 23)),
  maxDepth: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.constantFrom(16, 31, 32)),
  depth: fc.integer({ min: 1, max: 10 }),
  bounds: fc.option(rect, { nil: null }),
});
export const dynamicCaseArb: fc.Arbitrary<DynamicCase> = fc.record({
  options: optionsArb,
  ops: fc.array(opArb, { maxLength: 40 }),
  queries: fc.array(queryArb, { minLength: 1, maxLength: 4 }),
});

type Op = typeof opArb extends fc.Arbitrary<infer O> ? O : never;
/** One case: a tree's options, the calls that fill it, then searches (a point with k, maxDistance and a disc radius, a box). */
export interface DynamicCase {
  options: { mode: 'split' | 'fixed'; capacity: number; maxDepth: number; depth: number; bounds: Rect | null };
  ops: Op[];
  queries: Array<{ x: number; y: number; k: number; maxDistance: number; r: number; box: Rect }>;
}

/** The searches of a case, as the tree or the oracle answers them. */
interface Searches {
  ids: number[];
  pairs: Array<[number, number]>;
  box: number[][];
  nearest: number[][];
  circle: number[][];
}

/** What one case gives on one backend: each call's outcome (its value, or the code it was refused with), the searches, and the same searches from the other backend's restore of its snapshot. */
export interface DynamicAnswers extends Searches {
  outcomes: unknown[];
  depth: number;
  bytes: string;
  restored: Searches & { depth: number; sameBytes: boolean };
}

/**
 * Runs in the child, given the package and the encoded cases: every call of
 * every case on both backends. Self-contained: it is sent as source text.
 */
function runAll(sk: typeof import('../../src/index.js'), text: string): Array<Record<'wasm' | 'js', DynamicAnswers>> {
  const cases = JSON.parse(text, (_, v: unknown) => (typeof v === 'string' && v.startsWith('#') ? (v === '#-0' ? -0 : Number(v.slice(1))) : v)) as DynamicCase[];
  const boundsOf = (r: Rect | null) => (r === null ? undefined : { minX: r[0], minY: r[1], maxX: r[2], maxY: r[3] });
  const outcome = (call: () => unknown): unknown => {
    try {
      return { value: call() ?? null };
    } catch (error) {
      if (!(error instanceof sk.SpatialError)) throw error;
      return { code: error.code };
    }
  };
  const searches = (tree: InstanceType<typeof sk.QuadTree>, queries: DynamicCase['queries']) => ({
    ids: tree.ids(),
    pairs: tree.pairs(),
    box: queries.map((q) => tree.query(q.box[0], q.box[1], q.box[2], q.box[3])),
    nearest: queries.map((q) => tree.nearest(q.x, q.y, q.k, q.maxDistance)),
    circle: queries.map((q) => tree.queryCircle(q.x, q.y, q.r)),
  });
  return cases.map(({ options, ops, queries }) => {
    const out = {} as Record<'wasm' | 'js', DynamicAnswers>;
    for (const backend of ['wasm', 'js'] as const) {
      const { mode, capacity, maxDepth, depth, bounds } = options;
      const tree = new sk.QuadTree({ mode, capacity, maxDepth, depth, bounds: boundsOf(bounds), backend });
      const outcomes = ops.map((o) =>
        outcome(() => {
          if (o.kind === 'insert') return tree.insert(o.id, ...o.rect);
          if (o.kind === 'insertMany') return tree.insertMany(o.items.map(([i]) => i), o.items.flatMap(([, r]) => r));
          if (o.kind === 'update') return tree.update(o.id, ...o.rect);
          if (o.kind === 'remove') return tree.remove(o.id);
          if (o.kind === 'capacity') return tree.setCapacity(o.capacity);
          return tree.setBounds(boundsOf(o.rect));
        }),
      );
      const bytes = tree.toBuffer();
      const restored = sk.QuadTree.fromBuffer(bytes, { backend: backend === 'wasm' ? 'js' : 'wasm' });
      out[backend] = {
        outcomes,
        depth: tree.depth,
        ...searches(tree, queries),
        bytes: Buffer.from(bytes).toString('base64'),
        restored: { depth: restored.depth, ...searches(restored, queries), sameBytes: Buffer.from(restored.toBuffer()).equals(Buffer.from(bytes)) },
      };
      tree.dispose();
      restored.dispose();
    }
    return out;
  });
}

/** The oracle's outcomes and searches for a case. */
export function expectedDynamic({ ops, queries }: DynamicCase): Searches & { outcomes: unknown[] } {
  const oracle = new RectOracle();
  const outcomes = ops.map((o): unknown => {
    switch (o.kind) {
      case 'insert':
        if (oracle.rects.has(o.id)) return { code: 'DUPLICATE_ID' };
        oracle.insert(o.id, o.rect);
        return { value: null };
      case 'insertMany': {
        const ids = o.items.map(([i]) => i);
        if (ids.some((v, i) => oracle.rects.has(v) || ids.indexOf(v) !== i)) return { code: 'DUPLICATE_ID' };
        for (const [i, r] of o.items) oracle.insert(i, r);
        return { value: null };
      }
      case 'update':
        if (!oracle.rects.has(o.id)) return { code: 'UNKNOWN_ID' };
        oracle.insert(o.id, o.rect);
        return { value: null };
      case 'remove':
        return { value: oracle.remove(o.id) };
      default:
        return { value: null };
    }
  });
  return {
    outcomes,
    ids: [...oracle.rects.keys()].sort((a, b) => a - b),
    pairs: oracle.pairs(),
    box: queries.map((q) => oracle.query(q.box)),
    nearest: queries.map((q) => oracle.nearest(q.x, q.y, q.k, q.maxDistance)),
    circle: queries.map((q) => oracle.circle(q.x, q.y, q.r)),
  };
}

/**
 * Every call of every case on both backends, in a child process: a call
 * that never returns makes this throw after timeoutMs.
 */
export function runDynamicInChild(cases: DynamicCase[], timeoutMs = 10_000): Array<Record<'wasm' | 'js', DynamicAnswers>> {
  return inChild(`return (${runAll.toString()})(sk, input);`, timeoutMs, encode(cases)) as Array<Record<'wasm' | 'js', DynamicAnswers>>;
}

/** Expects every outcome and search of runDynamicInChild to be the oracle's, restored trees to answer and write the same, and both backends to agree on depth and bytes. */
export function expectDynamicAnswers(cases: DynamicCase[], answers: Array<Record<'wasm' | 'js', DynamicAnswers>>): void {
  cases.forEach((c, i) => {
    const { outcomes, ...want } = expectedDynamic(c);
    for (const backend of ['wasm', 'js'] as const) {
      const { outcomes: got, depth, bytes, restored, ...found } = answers[i][backend];
      expect({ case: c, backend, outcomes: got, ...found }).toEqual({ case: c, backend, outcomes, ...want });
      const { depth: restoredDepth, sameBytes, ...restoredFound } = restored;
      expect({ case: c, backend, restored: restoredFound, sameBytes }).toEqual({ case: c, backend, restored: want, sameBytes: true });
      expect(restoredDepth).toBeGreaterThanOrEqual(1);
    }
    expect({ case: c, depth: answers[i].js.depth, bytes: answers[i].js.bytes }).toEqual({ case: c, depth: answers[i].wasm.depth, bytes: answers[i].wasm.bytes });
  });
}
