// QuadTree without the right bounds: 100,000 rects of 5 x 5 spread over
// 10,000 x 10,000, indexed by a tree whose bounds fit the data, by one whose
// bounds are ten times smaller (most items beyond them) and by one given no
// bounds at all. One-by-one builds, all pairs, range queries, a bulk build
// and churn (fill one by one, remove every item, refill), each timed as a
// ratio to the tree with the right bounds. Every tree's pairs and query hits
// are checked equal before timing.
import { init, QuadTree, type QuadTreeBounds } from '../src/index.js';
import type { Contender, Suite, SuiteContext } from './harness.js';
import { mulberry32 } from './random.js';

const WORLD = 10_000;
const SIDE = 5;
const QUERY_SIDE = 1_000;

interface Layout {
  name: string;
  bounds?: QuadTreeBounds;
}

const LAYOUTS: Layout[] = [
  { name: 'bounds 0..10,000 (the data)', bounds: { minX: 0, minY: 0, maxX: WORLD, maxY: WORLD } },
  { name: 'bounds 0..1,000 (most items beyond)', bounds: { minX: 0, minY: 0, maxX: WORLD / 10, maxY: WORLD / 10 } },
  { name: 'no bounds' },
];

/** count squares of the given side placed uniformly in the world, flat [minX, minY, maxX, maxY, ...]. */
function squares(count: number, side: number, seed: number): Float64Array {
  const random = mulberry32(seed);
  const out = new Float64Array(count * 4);
  for (let i = 0; i < count; i++) {
    const x = random() * (WORLD - side), y = random() * (WORLD - side);
    out.set([x, y, x + side, y + side], i * 4);
  }
  return out;
}

const make = (layout: Layout, backend: 'wasm' | 'js'): QuadTree => new QuadTree({ bounds: layout.bounds, backend });

function insertOneByOne(tree: QuadTree, rects: Float64Array): void {
  for (let i = 0; i < rects.length / 4; i++) tree.insert(i, rects[i * 4], rects[i * 4 + 1], rects[i * 4 + 2], rects[i * 4 + 3]);
}

function removeAll(tree: QuadTree, n: number): void {
  for (let i = 0; i < n; i++) tree.remove(i);
}

/** Sorted pair keys a * 2^17 + b: a canonical form to compare pair sets. */
function pairKeys(flat: Int32Array): Float64Array {
  const keys = new Float64Array(flat.length >> 1);
  for (let k = 0; k < keys.length; k++) keys[k] = flat[2 * k] * 131072 + flat[2 * k + 1];
  return keys.sort();
}

/** Builds every layout's tree one by one and checks that all find the same pairs and query hits; notes their shapes. */
function check(context: SuiteContext, backend: 'wasm' | 'js', rects: Float64Array, queries: Float64Array): void {
  const n = rects.length / 4;
  let pairs: Float64Array | null = null;
  let hits: string | null = null;
  for (const layout of LAYOUTS) {
    const tree = make(layout, backend);
    insertOneByOne(tree, rects);
    const keys = pairKeys(tree.pairIds());
    const found = Array.from({ length: queries.length / 4 }, (_, k) => tree.queryIds(queries[k * 4], queries[k * 4 + 1], queries[k * 4 + 2], queries[k * 4 + 3]).sort().join()).join(';');
    if (pairs === null) [pairs, hits] = [keys, found];
    else if (keys.length !== pairs.length || keys.some((v, i) => v !== pairs![i]) || found !== hits) throw new Error(`${layout.name}: pairs or query hits differ`);
    const built = `${backend}, ${layout.name}: built one by one, depth ${tree.depth}, ${(tree.cells().length / 4).toLocaleString('en-US')} cells, ${(tree.byteSize / n).toFixed(1)} bytes/item`;
    removeAll(tree, n);
    const fresh = make(layout, backend);
    context.note(`${built}; every item removed: ${tree.cells().length / 4} cell, ${tree.byteSize} bytes (a fresh tree: ${fresh.byteSize})`);
    fresh.dispose();
    tree.dispose();
  }
  context.note(`${backend}: every layout finds the same ${pairs!.length.toLocaleString('en-US')} pairs and the same hits for ${queries.length / 4} queries`);
}

function cases(context: SuiteContext, backend: 'wasm' | 'js', rects: Float64Array, queries: Float64Array): void {
  const n = rects.length / 4;
  const ids = Int32Array.from({ length: n }, (_, i) => i);
  const queryCount = queries.length / 4;
  const label = `${n.toLocaleString('en-US')} rects, ${backend}`;
  const each = (contender: (layout: Layout) => Contender): Contender[] => LAYOUTS.map(contender);
  /** A tree per layout built one by one before timing, for the cases that only read it. */
  const built = (layout: Layout, run: (tree: QuadTree) => void): Contender => {
    let tree: QuadTree | null = null;
    return {
      name: layout.name,
      setup: () => {
        tree = make(layout, backend);
        insertOneByOne(tree, rects);
      },
      run: () => run(tree!),
      teardown: () => tree?.dispose(),
    };
  };
  context.bench(`${label}: one-by-one build`, each((layout) => ({
    name: layout.name,
    run: () => {
      const tree = make(layout, backend);
      insertOneByOne(tree, rects);
      tree.dispose();
    },
  })), { opsPerRun: n, opName: 'item', minSamples: 3 });
  context.bench(`${label}: all pairs (pairIds)`, each((layout) => built(layout, (tree) => tree.pairIds())), { opsPerRun: 1, opName: 'pass', minSamples: 3 });
  context.bench(`${label}: ${queryCount} range queries (1% of the world)`, each((layout) => built(layout, (tree) => {
    for (let k = 0; k < queryCount; k++) tree.queryIds(queries[k * 4], queries[k * 4 + 1], queries[k * 4 + 2], queries[k * 4 + 3]);
  })), { opsPerRun: queryCount, opName: 'query', minSamples: 3 });
  context.bench(`${label}: bulk build (insertMany)`, each((layout) => ({
    name: layout.name,
    run: () => {
      const tree = make(layout, backend);
      tree.insertMany(ids, rects);
      tree.dispose();
    },
  })), { opsPerRun: n, opName: 'item', minSamples: 3 });
  context.bench(`${label}: churn (fill one by one, remove every item, refill)`, each((layout) => {
    let tree: QuadTree | null = null;
    return {
      name: layout.name,
      setup: () => {
        tree = make(layout, backend);
      },
      run: () => {
        insertOneByOne(tree!, rects);
        removeAll(tree!, n);
        insertOneByOne(tree!, rects);
        removeAll(tree!, n);
      },
      teardown: () => tree?.dispose(),
    };
  }), { opsPerRun: 2, opName: 'cycle', minSamples: 3 });
}

export const quadtreeUnboundedSuite: Suite = {
  name: 'quadtree-unbounded',
  title: 'QuadTree with bounds ten times smaller than its data, and with none, against the right bounds',
  async run(context) {
    await init();
    const n = context.pick({ smoke: 20_000, default: 100_000, full: 100_000 });
    const rects = squares(n, SIDE, 5);
    const queries = squares(context.quick ? 100 : 1_000, QUERY_SIDE, 6);
    check(context, 'wasm', rects, queries);
    cases(context, 'wasm', rects, queries);
    if (context.full) {
      check(context, 'js', rects, queries);
      cases(context, 'js', rects, queries);
    }
  },
};
