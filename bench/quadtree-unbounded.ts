// QuadTree without the right bounds: 100,000 rects of 5 x 5 spread over
// 10,000 x 10,000, indexed by a tree whose bounds fit the data, by one whose
// bounds are ten times smaller (most items beyond them) and by one given no
// bounds at all. One-by-one builds, all pairs, range queries, a bulk build
// and churn (fill one by one, remove every item, refill), each timed as a
// ratio to the tree with the right bounds. Every tree's pairs and query hits
// are checked equal before timing.
//
// Then one far item: 10,000 and 100,000 rects in 1,000 x 1,000, with and
// without one more item at (1e300, 1e300), whose area doubles about a
// thousand times to hold it: inserted first (every later insert meets the
// grown area) or last (the tree is rebuilt over it). One-by-one builds and
// range queries timed as a ratio to the tree without it; depth, structure
// bytes and the wasm module's linear memory noted, and again once the far
// item is removed.
import { init, QuadTree, type QuadTreeBounds } from '../src/index.js';
import { quadtreeModule } from '../src/quadtree/module.js';
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

const NEAR_WORLD = 1_000;
const FAR = 1e300;
const NEAR_BOUNDS: QuadTreeBounds = { minX: 0, minY: 0, maxX: NEAR_WORLD, maxY: NEAR_WORLD };

/** count rects of side 1 to 10 placed uniformly in the 1,000 x 1,000 world, flat. */
function nearRects(count: number, seed: number): Float64Array {
  const random = mulberry32(seed);
  const out = new Float64Array(count * 4);
  for (let i = 0; i < count; i++) {
    const side = 1 + random() * 9;
    const x = random() * (NEAR_WORLD - side), y = random() * (NEAR_WORLD - side);
    out.set([x, y, x + side, y + side], i * 4);
  }
  return out;
}

/** Where the far item goes in a build: nowhere, before the rects or after them. */
type FarItem = 'none' | 'first' | 'last';
const FAR_ITEMS: Array<{ name: string; far: FarItem }> = [
  { name: 'without a far item', far: 'none' },
  { name: 'one item at 1e300, inserted first', far: 'first' },
  { name: 'one item at 1e300, inserted last', far: 'last' },
];

/** A tree over the 1,000 x 1,000 bounds built one by one, with the item at 1e300 (id n) where `far` says. */
function nearTree(backend: 'wasm' | 'js', rects: Float64Array, far: FarItem): QuadTree {
  const tree = new QuadTree({ bounds: NEAR_BOUNDS, backend });
  const n = rects.length / 4;
  if (far === 'first') tree.insert(n, FAR, FAR, FAR, FAR);
  insertOneByOne(tree, rects);
  if (far === 'last') tree.insert(n, FAR, FAR, FAR, FAR);
  return tree;
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/**
 * Builds each tree once, checks their query hits agree, and notes their
 * shapes and the wasm module's linear memory after each build (it never
 * shrinks, so each figure is the most any build so far needed); the trees
 * with the far item again once it is removed.
 */
function checkFar(context: SuiteContext, backend: 'wasm' | 'js', rects: Float64Array, queries: Float64Array): void {
  const n = rects.length / 4;
  const shape = (tree: QuadTree): string => `depth ${tree.depth}, ${mib(tree.byteSize)} of structure`;
  const hitsOf = (tree: QuadTree): string => Array.from({ length: queries.length / 4 }, (_, k) => tree.queryIds(queries[k * 4], queries[k * 4 + 1], queries[k * 4 + 2], queries[k * 4 + 3]).sort().join()).join(';');
  const label = `${n.toLocaleString('en-US')} rects in 1,000², ${backend}`;
  const memory = (): string => (backend === 'wasm' ? `; linear memory ${mib(quadtreeModule.core().memory.byteLength)}` : '');
  let hits: string | null = null;
  for (const { name, far } of FAR_ITEMS) {
    const tree = nearTree(backend, rects, far);
    const found = hitsOf(tree);
    if (hits !== null && found !== hits) throw new Error(`${label}, ${name}: other query hits than without it`);
    hits = found;
    const built = `${label}, ${name}: ${shape(tree)}${memory()}`;
    if (far !== 'none') tree.remove(n);
    context.note(far === 'none' ? built : `${built}; once it is removed: ${shape(tree)}`);
    tree.dispose();
  }
}

function farCases(context: SuiteContext, backend: 'wasm' | 'js', rects: Float64Array, queries: Float64Array): void {
  const n = rects.length / 4;
  const queryCount = queries.length / 4;
  const label = `${n.toLocaleString('en-US')} rects in 1,000², ${backend}`;
  const layouts = FAR_ITEMS;
  context.bench(`${label}: one-by-one build, with and without one item at 1e300`, layouts.map((layout) => ({
    name: layout.name,
    run: () => nearTree(backend, rects, layout.far).dispose(),
  })), { opsPerRun: n, opName: 'item', minSamples: 3 });
  context.bench(`${label}: ${queryCount} range queries (1% of the world), with and without one item at 1e300`, layouts.map((layout): Contender => {
    let tree: QuadTree | null = null;
    return {
      name: layout.name,
      setup: () => {
        tree = nearTree(backend, rects, layout.far);
      },
      run: () => {
        for (let k = 0; k < queryCount; k++) tree!.queryIds(queries[k * 4], queries[k * 4 + 1], queries[k * 4 + 2], queries[k * 4 + 3]);
      },
      teardown: () => tree?.dispose(),
    };
  }), { opsPerRun: queryCount, opName: 'query', minSamples: 3 });
}

/** The far item's cases, first in the suite so that the linear memory noted is what they took. */
function farItem(context: SuiteContext): void {
  const sizes = context.pick({ smoke: [2_000], default: [10_000, 100_000], full: [10_000, 100_000] });
  const queries = (() => {
    const random = mulberry32(8);
    const out = new Float64Array((context.quick ? 100 : 1_000) * 4);
    for (let k = 0; k < out.length; k += 4) {
      const x = random() * 900, y = random() * 900;
      out.set([x, y, x + 100, y + 100], k);
    }
    return out;
  })();
  for (const n of sizes) {
    const rects = nearRects(n, 9);
    for (const backend of ['wasm', 'js'] as const) {
      checkFar(context, backend, rects, queries);
      farCases(context, backend, rects, queries);
    }
  }
}

export const quadtreeUnboundedSuite: Suite = {
  name: 'quadtree-unbounded',
  title: 'QuadTree with one item at 1e300 against none, and with bounds ten times smaller than its data, and with none, against the right bounds',
  async run(context) {
    await init();
    farItem(context);
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
