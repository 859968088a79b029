// The random QuadTree workloads of the parity tests (and of npm run fuzz):
// tree settings, operation sequences and a runner that drives the wasm
// backend, the js backend and the brute-force oracle with them, comparing
// every answer id for id.
import fc from 'fast-check';
import { expect } from 'vitest';
import { QuadTree, SpatialError, type QuadTreeBounds } from '../../src/index.js';
import { RectOracle, type Rect } from './rect-oracle.js';

// Coordinates on a coarse lattice so shared edges, zero sizes and split lines are common.
export const coord = fc.oneof(
  fc.integer({ min: -20, max: 120 }),
  fc.integer({ min: -80, max: 480 }).map((v) => v / 4),
  fc.integer({ min: -2, max: 10 }).map((v) => v * 12.5), // split lines of the usual bounds
);
export const extent = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 8 }).map((v) => v / 4));
export const rect = fc.tuple(coord, coord, extent, extent).map(([x, y, w, h]): Rect => [x, y, x + w, y + h]);
export const id = fc.oneof(
  { weight: 9, arbitrary: fc.integer({ min: 0, max: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(5000, 70_000, 2 ** 31 - 1) }, // ids the dense id table does not cover at first
);
export const box = fc.tuple(coord, coord, fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 })).map(([x, y, w, h]): Rect => [x, y, x + w, y + h]);

export type Op =
  | { kind: 'insert'; id: number; rect: Rect }
  | { kind: 'insertMany'; items: Array<{ id: number; rect: Rect }> }
  | { kind: 'update'; id: number; rect: Rect }
  | { kind: 'remove'; id: number }
  | { kind: 'capacity'; capacity: number }
  | { kind: 'bounds'; rect: Rect | null }
  | { kind: 'removeAll' }
  | { kind: 'query'; rect: Rect; stopAfter: number }
  | { kind: 'clear' }
  | { kind: 'nearest'; x: number; y: number; k: number; maxDistance: number | undefined }
  | { kind: 'circle'; x: number; y: number; r: number }
  | { kind: 'segment'; x0: number; y0: number; x1: number; y1: number; first: boolean }
  | { kind: 'snapshot' };

// Search radii on the lattice too, so rects at exactly the radius are common.
const radius = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 80 }).map((v) => v / 4));
export const searchOps = [
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('nearest' as const),
      x: coord,
      y: coord,
      k: fc.integer({ min: 0, max: 12 }),
      maxDistance: fc.option(radius, { nil: undefined }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('circle' as const), x: coord, y: coord, r: radius }) },
  {
    weight: 4,
    arbitrary: fc.oneof(
      fc.record({ kind: fc.constant('segment' as const), x0: coord, y0: coord, x1: coord, y1: coord, first: fc.boolean() }),
      // Axis-parallel and zero-length segments: along shared edges and split lines.
      fc.tuple(coord, coord, coord, fc.boolean(), fc.boolean()).map(([a, b, c, vertical, first]) =>
        vertical ? { kind: 'segment' as const, x0: a, y0: b, x1: a, y1: c, first } : { kind: 'segment' as const, x0: b, y0: a, x1: c, y1: a, first },
      ),
    ),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('snapshot' as const) }) },
];

export const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 40, arbitrary: fc.record({ kind: fc.constant('insert' as const), id, rect }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('insertMany' as const), items: fc.array(fc.record({ id, rect }), { maxLength: 30 }) }) },
  { weight: 20, arbitrary: fc.record({ kind: fc.constant('update' as const), id, rect }) },
  { weight: 10, arbitrary: fc.record({ kind: fc.constant('remove' as const), id }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('capacity' as const), capacity: fc.integer({ min: 1, max: 9 }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('bounds' as const), rect: fc.option(rect, { nil: null, freq: 4 }) }) },
  { weight: 15, arbitrary: fc.record({ kind: fc.constant('query' as const), rect: box, stopAfter: fc.integer({ min: 0, max: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeAll' as const) }) },
  ...searchOps,
);

export const config = fc.record({
  mode: fc.constantFrom('split' as const, 'fixed' as const),
  capacity: fc.integer({ min: 1, max: 6 }),
  maxDepth: fc.integer({ min: 1, max: 8 }),
  depth: fc.integer({ min: 1, max: 5 }),
  bounds: fc.constantFrom<Rect | null>([0, 0, 100, 100], [0, 0, 64, 32], [10, 10, 10, 10], [-50, 0, 50, 100], null),
});

const boundsOf = (r: Rect | null): QuadTreeBounds | undefined => (r === null ? undefined : { minX: r[0], minY: r[1], maxX: r[2], maxY: r[3] });

/** Runs fn on both trees; both must throw the same code or both return equal values. */
function both<T>(trees: QuadTree[], fn: (tree: QuadTree) => T): { value?: T; code?: string } {
  const outcomes = trees.map((tree) => {
    try {
      return { value: fn(tree) };
    } catch (error) {
      if (!(error instanceof SpatialError)) throw error;
      return { code: error.code };
    }
  });
  expect(outcomes[1]).toEqual(outcomes[0]);
  return outcomes[0];
}

const sortedPairs = (flat: Int32Array): Array<[number, number]> => {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
};

function checkAll(trees: QuadTree[], oracle: RectOracle): void {
  const ids = [...oracle.rects.keys()].sort((a, b) => a - b);
  const pairs = oracle.pairs();
  for (const tree of trees) {
    expect(tree.size).toBe(oracle.rects.size);
    expect([...tree].sort((a, b) => a - b)).toEqual(ids);
    for (const i of ids) expect(tree.has(i)).toBe(true);
    expect(tree.ids()).toEqual(ids);
    for (const [i, [minX, minY, maxX, maxY]] of oracle.rects) expect(tree.rect(i)).toEqual({ minX, minY, maxX, maxY });
    expect(tree.pairs()).toEqual(pairs);
    expect(sortedPairs(tree.pairIds())).toEqual(pairs);
    const seen: Array<[number, number]> = [];
    tree.forEachPair((a, b) => seen.push([a, b]));
    expect(seen.sort((p, q) => p[0] - q[0] || p[1] - q[1])).toEqual(pairs);
  }
  // Every item's own rect, as a query box, must find at least that item.
  for (const rect of oracle.rects.values()) {
    const expected = oracle.query(rect);
    for (const tree of trees) expect(tree.query(...rect)).toEqual(expected);
  }
  // Same algorithm, same traversal: the raw orders agree too.
  expect(Array.from(trees[0].pairIds())).toEqual(Array.from(trees[1].pairIds()));
  expect(trees[0].depth).toBe(trees[1].depth);
}

export type Config = typeof config extends fc.Arbitrary<infer C> ? C : never;

/** Trees whose last item was just removed hold what fresh ones with their bounds do: one cell and the same bytes. */
function expectAsNew(trees: QuadTree[], cfg: Config, bounds: Rect | null): void {
  for (const tree of trees) {
    const fresh = new QuadTree({ bounds: boundsOf(bounds), mode: cfg.mode, maxDepth: cfg.maxDepth, depth: cfg.depth, backend: tree.backend });
    expect(Array.from(tree.cells())).toEqual(Array.from(fresh.cells()));
    expect(tree.depth).toBe(fresh.depth);
    expect(tree.byteSize).toBe(fresh.byteSize);
    fresh.dispose();
  }
}

export function run(cfg: Config, ops: Op[]): void {
  const options = { bounds: boundsOf(cfg.bounds), mode: cfg.mode, capacity: cfg.capacity, maxDepth: cfg.maxDepth, depth: cfg.depth };
  let bounds = cfg.bounds;
  let trees = [new QuadTree({ ...options, backend: 'wasm' }), new QuadTree({ ...options, backend: 'js' })];
  const oracle = new RectOracle();
  try {
    for (const o of ops) {
      switch (o.kind) {
        case 'insert': {
          const r = both(trees, (t) => t.insert(o.id, ...o.rect));
          expect(r.code).toBe(oracle.rects.has(o.id) ? 'DUPLICATE_ID' : undefined);
          if (r.code === undefined) oracle.insert(o.id, o.rect);
          break;
        }
        case 'insertMany': {
          // A batch at least as large as the tree rebuilds it in bulk; a smaller one inserts item by item.
          const ids = o.items.map((item) => item.id);
          const rects = o.items.flatMap((item) => item.rect);
          const r = both(trees, (t) => t.insertMany(ids, rects));
          const duplicate = ids.some((v, i) => oracle.rects.has(v) || ids.indexOf(v) !== i);
          expect(r.code).toBe(duplicate ? 'DUPLICATE_ID' : undefined);
          if (r.code === undefined) for (const item of o.items) oracle.insert(item.id, item.rect);
          break;
        }
        case 'update': {
          const r = both(trees, (t) => t.update(o.id, ...o.rect));
          expect(r.code).toBe(oracle.rects.has(o.id) ? undefined : 'UNKNOWN_ID');
          if (r.code === undefined) oracle.insert(o.id, o.rect);
          break;
        }
        case 'remove':
          expect(both(trees, (t) => t.remove(o.id)).value).toBe(oracle.remove(o.id));
          break;
        case 'capacity':
          both(trees, (t) => t.setCapacity(o.capacity));
          break;
        case 'bounds':
          both(trees, (t) => t.setBounds(boundsOf(o.rect)));
          bounds = o.rect;
          break;
        case 'removeAll': {
          const held = [...oracle.rects.keys()];
          for (const i of held) expect(both(trees, (t) => t.remove(i)).value).toBe(oracle.remove(i));
          if (held.length > 0) expectAsNew(trees, cfg, bounds);
          break;
        }
        case 'clear':
          both(trees, (t) => t.clear());
          oracle.rects.clear();
          break;
        case 'nearest': {
          const expected = oracle.nearest(o.x, o.y, o.k, o.maxDistance);
          for (const t of trees) expect(t.nearest(o.x, o.y, o.k, o.maxDistance)).toEqual(expected);
          break;
        }
        case 'circle': {
          const expected = oracle.circle(o.x, o.y, o.r);
          for (const t of trees) {
            expect(t.queryCircle(o.x, o.y, o.r)).toEqual(expected);
            expect(Array.from(t.queryCircleIds(o.x, o.y, o.r)).sort((a, b) => a - b)).toEqual(expected);
          }
          break;
        }
        case 'segment': {
          const all = oracle.segment(o.x0, o.y0, o.x1, o.y1);
          const expected = o.first ? all.slice(0, 1) : all;
          for (const t of trees) expect(t.querySegment(o.x0, o.y0, o.x1, o.y1, { first: o.first })).toEqual(expected);
          break;
        }
        case 'snapshot': {
          // Both backends write the same bytes; each tree is replaced by one restored from the other backend's bytes.
          const [fromWasm, fromJs] = trees.map((t) => t.toBuffer());
          expect(fromJs).toEqual(fromWasm);
          const restored = [QuadTree.fromBuffer(fromJs, { backend: 'wasm' }), QuadTree.fromBuffer(fromWasm, { backend: 'js' })];
          for (const t of trees) t.dispose();
          trees = restored;
          for (const t of trees) {
            expect(t.mode).toBe(cfg.mode);
            expect(t.capacity).toBe(trees[0].capacity);
            expect(t.toBuffer()).toEqual(fromWasm);
          }
          break;
        }
        case 'query': {
          const expected = oracle.query(o.rect);
          for (const t of trees) {
            expect(t.query(...o.rect)).toEqual(expected);
            expect(Array.from(t.queryIds(...o.rect)).sort((a, b) => a - b)).toEqual(expected);
          }
          // visit: stops after stopAfter calls; both backends visit the same ids in the same order.
          const visited = trees.map((t) => {
            const seen: number[] = [];
            t.visit(...o.rect, (v) => {
              seen.push(v);
              return seen.length < o.stopAfter ? undefined : false;
            });
            return seen;
          });
          expect(visited[1]).toEqual(visited[0]);
          expect(visited[0].length).toBe(Math.min(Math.max(o.stopAfter, 1), expected.length));
          expect(new Set(visited[0]).size).toBe(visited[0].length);
          for (const v of visited[0]) expect(expected).toContain(v);
          break;
        }
      }
    }
    checkAll(trees, oracle);
  } finally {
    for (const t of trees) t.dispose();
  }
}
