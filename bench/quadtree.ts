// QuadTree suite: build, range queries, all pairs and a dynamic frame on
// 100,000 rects, uniform (Q1-Q4) and clustered (Q5), against the peer
// libraries and a hand-written typed-array grid. Every contender's query hits
// and pair sets are checked in its first run (the warm-up), before its time
// counts. While tuning,
// QT_N=<items> sets the size and QT_ONLY=<name,name> keeps the contenders
// whose names contain one of the given parts.
import { init, QuadTree } from '../src/index.js';
import type { Contender, Suite, SuiteContext } from './harness.js';
import { mulberry32 } from './random.js';
import {
  boxIntersectIndex,
  d3QuadtreeIndex,
  flatbushIndex,
  gridIndex,
  kdbushIndex,
  rbushIndex,
  timoQuadtreeIndex,
  type RectIndex,
} from './peers/quadtree-libraries.js';
import { copyRects, type Rects } from './peers/quadtree-types.js';

export const SIZE = 10_000;
const QUERY_SIDE = 1_000; // 1% of the area
const MOVE_FRACTION = 0.1;
const MOVE_STEP = 5;
const GRID_CELL = 64;

function makeRects(n: number, seed: number, centre: (random: () => number) => [number, number]): Rects {
  const random = mulberry32(seed);
  const r: Rects = { n, x0: new Float64Array(n), y0: new Float64Array(n), x1: new Float64Array(n), y1: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const w = 1 + random() * 49, h = 1 + random() * 49;
    const [cx, cy] = centre(random);
    r.x0[i] = Math.min(SIZE - w, Math.max(0, cx - w / 2));
    r.y0[i] = Math.min(SIZE - h, Math.max(0, cy - h / 2));
    r.x1[i] = r.x0[i] + w;
    r.y1[i] = r.y0[i] + h;
  }
  return r;
}

export const uniform = (n: number): Rects => makeRects(n, 1, (random) => [random() * SIZE, random() * SIZE]);

/** A few dense Gaussian clusters: where a grid sized for the average density degrades. */
export function clustered(n: number): Rects {
  const pick = mulberry32(7);
  const centres = Array.from({ length: 6 }, () => [1000 + pick() * 8000, 1000 + pick() * 8000]);
  return makeRects(n, 2, (random) => {
    const [cx, cy] = centres[Math.floor(random() * centres.length)];
    const radius = 350 * Math.sqrt(-2 * Math.log(1 - random()));
    const angle = 2 * Math.PI * random();
    return [cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)];
  });
}

export function makeQueries(count: number): Float64Array {
  const random = mulberry32(3);
  const q = new Float64Array(count * 4);
  for (let k = 0; k < count; k++) {
    q[k * 4] = random() * (SIZE - QUERY_SIDE);
    q[k * 4 + 1] = random() * (SIZE - QUERY_SIDE);
    q[k * 4 + 2] = q[k * 4] + QUERY_SIDE;
    q[k * 4 + 3] = q[k * 4 + 1] + QUERY_SIDE;
  }
  return q;
}

/** A spatialkit QuadTree as a contender: default options, or the capacity given. */
export function spatialkitIndex(backend: 'wasm' | 'js', capacity?: number): RectIndex & { tree(): QuadTree } {
  let tree: QuadTree | null = null;
  // The batch arrays are kept between builds, as a game keeps its entity arrays (the grid keeps its own too).
  let ids = new Int32Array(0);
  let rects = new Float64Array(0);
  return {
    name: capacity === undefined ? `spatialkit ${backend}` : `spatialkit ${backend} capacity ${capacity}`,
    kind: backend === 'js' ? 'js' : undefined,
    tree: () => tree!,
    build(r) {
      // A game rebuilding its index keeps the tree and refills it, as the grid keeps and refills its arrays.
      if (tree) tree.clear();
      else tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: SIZE, maxY: SIZE }, capacity, backend });
      if (ids.length !== r.n) {
        ids = Int32Array.from({ length: r.n }, (_, i) => i);
        rects = new Float64Array(r.n * 4);
      }
      for (let i = 0; i < r.n; i++) {
        rects[i * 4] = r.x0[i];
        rects[i * 4 + 1] = r.y0[i];
        rects[i * 4 + 2] = r.x1[i];
        rects[i * 4 + 3] = r.y1[i];
      }
      tree.insertMany(ids, rects);
    },
    moved(r, moved, count) {
      const rects = new Float64Array(count * 4);
      for (let k = 0; k < count; k++) {
        const i = moved[k];
        rects[k * 4] = r.x0[i];
        rects[k * 4 + 1] = r.y0[i];
        rects[k * 4 + 2] = r.x1[i];
        rects[k * 4 + 3] = r.y1[i];
      }
      tree!.updateMany(moved.subarray(0, count), rects);
    },
    query: (_r, x0, y0, x1, y1) => tree!.queryIds(x0, y0, x1, y1),
    pairs: () => tree!.pairIds(),
    dispose() {
      tree?.dispose();
      tree = null;
    },
  };
}

// The core's layout (assembly/quadtree/quadtree.ts): 40 bytes per item slot, 96 per node, 4 per leaf entry.
const ITEM_BYTES = 40;
const NODE_BYTES = 96;

/** Where a freshly built 'split' tree's bytes go: the item table (one slot per item), node records and leaf slot lists. */
function memoryNote(tree: QuadTree, n: number): string {
  const leaves = tree.cells().length / 4;
  const nodes = (4 * leaves - 1) / 3; // a split turns one leaf into four
  const entryBytes = tree.byteSize - ITEM_BYTES * n - NODE_BYTES * nodes;
  const perItem = (bytes: number): string => (bytes / n).toFixed(1);
  return (
    `wasm tree depth ${tree.depth}, ${perItem(tree.byteSize)} bytes/item of linear memory at reserved size (result and scratch buffers excluded): ` +
    `item table ${perItem(ITEM_BYTES * n)}, leaf slot lists ${perItem(entryBytes)} (${(entryBytes / 4 / n).toFixed(2)} entries per item), ` +
    `node records ${perItem(NODE_BYTES * nodes)} (${nodes.toLocaleString('en-US')} nodes)`
  );
}

/** Moves a tenth of the items by up to MOVE_STEP per axis; the same sequence for every contender. */
export class Mover {
  private readonly random = mulberry32(11);
  readonly moved: Int32Array;

  constructor(private readonly r: Rects) {
    this.moved = new Int32Array(Math.floor(r.n * MOVE_FRACTION));
  }

  frame(): void {
    const { r, moved, random } = this;
    for (let k = 0; k < moved.length; k++) {
      const i = Math.floor(random() * r.n);
      moved[k] = i;
      const w = r.x1[i] - r.x0[i], h = r.y1[i] - r.y0[i];
      const x = Math.min(SIZE - w, Math.max(0, r.x0[i] + (random() * 2 - 1) * MOVE_STEP));
      const y = Math.min(SIZE - h, Math.max(0, r.y0[i] + (random() * 2 - 1) * MOVE_STEP));
      r.x0[i] = x;
      r.y0[i] = y;
      r.x1[i] = x + w;
      r.y1[i] = y + h;
    }
  }
}

/**
 * A frame on a fresh copy of the data: move a tenth of the rects, update the
 * index, find all pairs. `check`, if given, sees the pairs of the first frame
 * (the warm-up run).
 */
export function frameContender(index: RectIndex, name: string, data: Rects, check?: (pairs: ArrayLike<number>) => void): Contender {
  let r = data;
  let mover: Mover | null = null;
  let first = true;
  return {
    name,
    kind: index.kind,
    setup: () => {
      r = copyRects(data);
      mover = new Mover(r);
      index.build(r);
      first = true;
    },
    run: () => {
      mover!.frame();
      index.moved(r, mover!.moved, mover!.moved.length);
      const pairs = index.pairs!(r);
      if (first) check?.(pairs);
      first = false;
    },
    teardown: () => index.dispose?.(),
  };
}

/**
 * The contender with its first run replaced by `checked` (the same work, and
 * checks of its answers that throw): the warm-up run, which nothing times
 * (in smoke runs, which have none, the one sample).
 */
function checkedFirst(contender: Contender, checked: () => void): Contender {
  let first = true;
  return {
    ...contender,
    setup: () => {
      first = true;
      contender.setup?.();
    },
    run: () => {
      if (first) checked();
      else contender.run();
      first = false;
    },
  };
}

/** Pair keys a * 2^17 + b with a < b, sorted: a canonical form to compare pair sets. */
function pairKeys(flat: ArrayLike<number>): Float64Array {
  const keys = new Float64Array(flat.length >> 1);
  for (let k = 0; k < keys.length; k++) {
    const a = flat[2 * k], b = flat[2 * k + 1];
    keys[k] = Math.min(a, b) * 131072 + Math.max(a, b);
  }
  return keys.sort();
}

function sameKeys(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function bruteQuery(r: Rects, x0: number, y0: number, x1: number, y1: number): number[] {
  const hits: number[] = [];
  for (let i = 0; i < r.n; i++) if (r.x0[i] <= x1 && r.x1[i] >= x0 && r.y0[i] <= y1 && r.y1[i] >= y0) hits.push(i);
  return hits;
}

/** Checks the first queries' hits (`query(k)`) against brute force's. */
function checkQueries(index: RectIndex, query: (k: number) => ArrayLike<number>, expected: number[][]): void {
  for (let k = 0; k < expected.length; k++) {
    const hits = Float64Array.from(query(k)).sort();
    if (hits.length !== expected[k].length || hits.some((v, i) => v !== expected[k][i])) {
      throw new Error(`${index.name}: query ${k} found ${hits.length} ids, brute force ${expected[k].length}`);
    }
  }
}

function checkPairs(name: string, pairs: ArrayLike<number>, expected: Float64Array): void {
  const keys = pairKeys(pairs);
  if (!sameKeys(keys, expected)) throw new Error(`${name}: ${keys.length} pairs, expected ${expected.length}`);
}

/**
 * The contenders; runs other than full ones leave out the slower tree
 * libraries, rbush among them (it finds all pairs by one search per item,
 * several times slower than any other contender, and trails flatbush and
 * kdbush on builds and queries).
 */
function contenders(full: boolean): RectIndex[] {
  const only = process.env.QT_ONLY?.split(',');
  return (only ? (all: RectIndex[]) => all.filter((c) => only.some((o) => c.name.includes(o))) : (all: RectIndex[]) => all)([
    spatialkitIndex('wasm'),
    spatialkitIndex('js'),
    ...(full ? [rbushIndex()] : []),
    flatbushIndex(),
    kdbushIndex(),
    ...(full ? [boxIntersectIndex(), timoQuadtreeIndex(SIZE), d3QuadtreeIndex()] : []),
    gridIndex(SIZE, GRID_CELL),
  ]);
}

/** Q1-Q4 on one data set; `label` prefixes the case names. */
function runScenario(context: SuiteContext, label: string, data: Rects, queryCount: number, headline: string): void {
  const indexes = contenders(context.full);
  const queries = makeQueries(queryCount);
  const query = (index: RectIndex, k: number): ArrayLike<number> => index.query!(data, queries[k * 4], queries[k * 4 + 1], queries[k * 4 + 2], queries[k * 4 + 3]);
  // Brute force answers the first fifth of the queries in default runs, all of them in full runs.
  const checked = context.full ? queryCount : Math.ceil(queryCount / 5);
  const expectedHits = Array.from({ length: checked }, (_, k) =>
    bruteQuery(data, queries[k * 4], queries[k * 4 + 1], queries[k * 4 + 2], queries[k * 4 + 3]),
  );
  // The wasm tree's pair sets, on the build and after one frame from the same start: every contender's must equal them.
  const wasm = indexes[0] as ReturnType<typeof spatialkitIndex>;
  wasm.build(data);
  const expectedPairs = pairKeys(wasm.pairs!(data));
  context.note(`${label}: ${data.n.toLocaleString('en-US')} rects, ${expectedPairs.length.toLocaleString('en-US')} intersecting pairs, ${memoryNote(wasm.tree(), data.n)}`);
  const moved = copyRects(data);
  wasm.build(moved);
  const mover = new Mover(moved);
  mover.frame();
  wasm.moved(moved, mover.moved, mover.moved.length);
  const expectedFrame = pairKeys(wasm.pairs!(moved));
  wasm.dispose!();
  context.note(
    `${label}: every contender's first run (its warm-up) is checked before anything is timed: query hits (${checked} queries) against brute force, ` +
      `pair sets (on the build and after one frame) against the wasm tree's`,
  );

  const withQuery = indexes.filter((i) => i.query !== undefined);
  context.bench(
    `${label} build`,
    indexes.filter((i) => i.name !== 'box-intersect').map((index): Contender => ({ name: index.name, kind: index.kind, run: () => index.build(data), teardown: () => index.dispose?.() })),
    { opsPerRun: data.n, opName: 'item', minSamples: 5, headline: `${headline}: refill (clear + insertMany)` },
  );
  context.bench(
    `${label} queries (${QUERY_SIDE} x ${QUERY_SIDE})`,
    withQuery.map((index) =>
      checkedFirst(
        {
          name: index.name,
          kind: index.kind,
          setup: () => index.build(data),
          run: () => {
            for (let k = 0; k < queryCount; k++) query(index, k);
          },
          teardown: () => index.dispose?.(),
        },
        () => {
          checkQueries(index, (k) => query(index, k), expectedHits);
          for (let k = checked; k < queryCount; k++) query(index, k);
        },
      ),
    ),
    { opsPerRun: queryCount, opName: 'query', minSamples: 5, headline: `${headline}: ${queryCount} range queries (1% of the area)` },
  );
  context.bench(
    `${label} all pairs`,
    indexes.map((index) =>
      checkedFirst(
        {
          name: index.name,
          kind: index.kind,
          setup: () => index.build(data),
          run: () => index.pairs!(data),
          teardown: () => index.dispose?.(),
        },
        () => checkPairs(index.name, index.pairs!(data), expectedPairs),
      ),
    ),
    { opsPerRun: 1, opName: 'pass', minSamples: 3, warmup: 1, headline: `${headline}: all intersecting pairs` },
  );
  context.bench(
    `${label} frame: move 10% by up to ${MOVE_STEP}, then all pairs`,
    indexes.map((index) => frameContender(index, index.name, data, (pairs) => checkPairs(`${index.name} after one frame`, pairs, expectedFrame))),
    { opsPerRun: 1, opName: 'frame', minSamples: 3, warmup: 1, headline: `${headline}: frame (10% move, then all pairs)` },
  );
}

export const quadtreeSuite: Suite = {
  name: 'quadtree',
  title: 'QuadTree: build, range queries, all pairs, dynamic frames (uniform and clustered rects)',
  async run(context) {
    await init();
    const n = Number(process.env.QT_N ?? (context.quick ? 20_000 : 100_000));
    const queryCount = context.quick ? 200 : 1_000;
    context.note(
      `spatialkit with default options (capacity ${new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 }, backend: 'js' }).capacity}, 'split' mode); grid cell ${GRID_CELL}; quadtree-ts maxObjects 10, maxLevels 8; ` +
        'flatbush, kdbush, quadtree-ts and d3-quadtree are rebuilt each frame, rbush does remove + insert per moved item; ' +
        'box-intersect has no range query (skipped in queries) and no incremental index (build skipped)' +
        (context.full ? '' : '; rbush, box-intersect, quadtree-ts and d3-quadtree run in full runs only'),
    );
    const rects = `${n.toLocaleString('en-US')} rects`;
    runScenario(context, 'Q1-Q4 uniform', uniform(n), queryCount, `QuadTree, ${rects} uniform`);
    runScenario(context, 'Q5 clustered', clustered(n), queryCount, `QuadTree, ${rects} in six clusters`);
  },
};
