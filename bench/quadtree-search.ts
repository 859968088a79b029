// QuadTree searches against the libraries users would otherwise pick:
// k nearest rects (flatbush `neighbors`) on 100,000 uniform rects for k = 1
// and k = 16; on 100,000 points, the nearest point (also d3-quadtree `find`)
// and every point within a radius (kdbush `within`, flatbush `neighbors`
// with a maximum distance). Every contender's answers are checked against
// brute force (as distance lists: ties may pick other ids) before its time
// counts. QT_N=<items> sets the size while tuning.
import Flatbush from 'flatbush';
import KDBush from 'kdbush';
import { quadtree as d3Quadtree } from 'd3-quadtree';
import { init, QuadTree } from '../src/index.js';
import type { Contender, ContenderKind, SuiteContext, Suite } from './harness.js';
import { mulberry32 } from './random.js';
import { SIZE, uniform } from './quadtree.js';
import { nearestSquaredDistances, squaredDistance, type Rects } from './peers/quadtree-types.js';

const RADIUS = 50;

/** One contender: answers a search for query point q (ids, any order for a radius search). */
interface Searcher {
  name: string;
  kind?: ContenderKind;
  search(x: number, y: number): ArrayLike<number>;
  dispose?(): void;
}

/** The distances of the hits, sorted: equal for any two right answers, whatever ids they pick among ties. */
function distances(r: Rects, ids: ArrayLike<number>, x: number, y: number): number[] {
  return Array.from(ids, (i) => squaredDistance(r, i, x, y)).sort((a, b) => a - b);
}

function bruteWithin(r: Rects, x: number, y: number, radius: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < r.n; i++) if (squaredDistance(r, i, x, y) <= radius * radius) out.push(squaredDistance(r, i, x, y));
  return out.sort((a, b) => a - b);
}

function points(n: number): Rects {
  const random = mulberry32(5);
  const x = Float64Array.from({ length: n }, () => random() * SIZE);
  const y = Float64Array.from({ length: n }, () => random() * SIZE);
  return { n, x0: x, y0: y, x1: x, y1: y };
}

function queryPoints(count: number): Float64Array {
  const random = mulberry32(9);
  return Float64Array.from({ length: count * 2 }, () => random() * SIZE);
}

/** A spatialkit tree (default options) over the rects, ids 0..n-1, filled in one batch. */
export function spatialkitTree(r: Rects, backend: 'wasm' | 'js'): QuadTree {
  const tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: SIZE, maxY: SIZE }, backend });
  const rects = new Float64Array(r.n * 4);
  for (let i = 0; i < r.n; i++) rects.set([r.x0[i], r.y0[i], r.x1[i], r.y1[i]], i * 4);
  tree.insertMany(Int32Array.from({ length: r.n }, (_, i) => i), rects);
  return tree;
}

/** A flatbush index over the rects, ids 0..n-1. */
export function flatbushOf(r: Rects): Flatbush {
  const index = new Flatbush(r.n);
  for (let i = 0; i < r.n; i++) index.add(r.x0[i], r.y0[i], r.x1[i], r.y1[i]);
  index.finish();
  return index;
}

function nearestSearchers(r: Rects, k: number, withD3: boolean): Searcher[] {
  const searchers: Searcher[] = (['wasm', 'js'] as const).map((backend) => {
    const tree = spatialkitTree(r, backend);
    return { name: `spatialkit ${backend} nearest`, kind: backend === 'js' ? 'js' : undefined, search: (x, y) => tree.nearest(x, y, k), dispose: () => tree.dispose() };
  });
  const flatbush = flatbushOf(r);
  searchers.push({ name: 'flatbush neighbors', kind: 'library', search: (x, y) => flatbush.neighbors(x, y, k) });
  if (withD3) {
    const tree = d3Quadtree<number>()
      .x((i) => r.x0[i])
      .y((i) => r.y0[i])
      .addAll(Array.from({ length: r.n }, (_, i) => i));
    searchers.push({ name: 'd3-quadtree find', kind: 'library', search: (x, y) => [tree.find(x, y)!] });
  }
  return searchers;
}

function withinSearchers(r: Rects, radius: number): Searcher[] {
  const searchers: Searcher[] = (['wasm', 'js'] as const).map((backend) => {
    const tree = spatialkitTree(r, backend);
    return { name: `spatialkit ${backend} queryCircleIds`, kind: backend === 'js' ? 'js' : undefined, search: (x, y) => tree.queryCircleIds(x, y, radius), dispose: () => tree.dispose() };
  });
  const kdbush = new KDBush(r.n);
  for (let i = 0; i < r.n; i++) kdbush.add(r.x0[i], r.y0[i]);
  kdbush.finish();
  searchers.push({ name: 'kdbush within', kind: 'library', search: (x, y) => kdbush.within(x, y, radius) });
  const flatbush = flatbushOf(r);
  searchers.push({ name: 'flatbush neighbors (max distance)', kind: 'library', search: (x, y) => flatbush.neighbors(x, y, Infinity, radius) });
  return searchers;
}

/** Checks every searcher on the first queries, then times them all on every query. */
function runCase(context: SuiteContext, name: string, r: Rects, searchers: Searcher[], queries: Float64Array, expected: (x: number, y: number) => number[], headline?: string): void {
  const checked = Math.min(queries.length / 2, 50);
  for (let q = 0; q < checked; q++) {
    const x = queries[q * 2], y = queries[q * 2 + 1];
    const want = expected(x, y);
    for (const s of searchers) {
      const got = distances(r, s.search(x, y), x, y);
      if (got.length !== want.length || got.some((d, i) => d !== want[i])) throw new Error(`${s.name}: ${name} query ${q} differs from brute force`);
    }
  }
  const count = queries.length / 2;
  context.bench(
    name,
    searchers.map((s): Contender => ({
      name: s.name,
      kind: s.kind,
      run: () => {
        for (let q = 0; q < count; q++) s.search(queries[q * 2], queries[q * 2 + 1]);
      },
    })),
    { opsPerRun: count, opName: 'query', minSamples: 5, headline },
  );
  for (const s of searchers) s.dispose?.();
}

export const quadtreeSearchSuite: Suite = {
  name: 'quadtree-search',
  title: 'QuadTree searches: k nearest, nearest point, points within a radius',
  async run(context) {
    await init();
    const n = Number(process.env.QT_N ?? (context.quick ? 20_000 : 100_000));
    const queries = queryPoints(context.quick ? 200 : 2_000);
    const rects = uniform(n);
    const pts = points(n);
    context.note(`${n.toLocaleString('en-US')} uniform rects (1 to 50 a side) and ${n.toLocaleString('en-US')} uniform points in a ${SIZE} square; spatialkit 'split' mode with default options; answers checked against brute force on 50 queries per case`);
    for (const k of [1, 16]) {
      runCase(context, `nearest k = ${k}, rects`, rects, nearestSearchers(rects, k, false), queries, (x, y) => nearestSquaredDistances(rects, x, y, k),
        `QuadTree: ${k} nearest of ${n.toLocaleString('en-US')} rects, ${queries.length / 2} queries`);
    }
    runCase(context, 'nearest k = 1, points', pts, nearestSearchers(pts, 1, true), queries, (x, y) => nearestSquaredDistances(pts, x, y, 1));
    runCase(context, `points within r = ${RADIUS}`, pts, withinSearchers(pts, RADIUS), queries, (x, y) => bruteWithin(pts, x, y, RADIUS));
  },
};
