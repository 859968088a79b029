// Many queries of a world that holds still, against the static indexes users
// pick for it: k nearest (flatbush `neighbors`, a plain k-d tree search over
// kdbush's arrays, rbush-knn), discs (kdbush `within`, flatbush search then
// a distance filter), 1% boxes (flatbush, rbush, kdbush over centres) and a
// snapshot restore (flatbush from its own buffer, and rebuilt from the
// rects). spatialkit runs as StaticQuadTree (which keeps the point sets in
// its k-d layout and the rects in Hilbert-packed boxes) and as the dynamic
// QuadTree, each with single calls and with the batch form. Every contender's answers
// on the first 50 queries are checked against brute force before timing:
// nearest as distance lists (ties may pick other ids), discs and boxes as
// id sets.
import Flatbush from 'flatbush';
import KDBush from 'kdbush';
import RBush from 'rbush';
import knn from 'rbush-knn';
import { init, QuadTree, StaticQuadTree, type QueryResults } from '../src/index.js';
import type { Contender, ContenderKind, Suite, SuiteContext } from './harness.js';
import { kdbushNearest } from './peers/kdbush-knn.js';
import { nearestSquaredDistances, squaredDistance, type Rects } from './peers/quadtree-types.js';
import { SIZE, uniform } from './quadtree.js';
import { mulberry32 } from './random.js';

const CHECKED = 50;
/** A disc covering 0.5% of the area. */
const DISC_RADIUS = SIZE * Math.sqrt(0.005 / Math.PI);
/** A box covering 1% of the area. */
const BOX_SIDE = SIZE / 10;

/** One contender: answers queries [0, count) (ids per query, any order) and runs all of them untimed-free. */
interface Answerer {
  name: string;
  kind?: ContenderKind;
  answers(count: number): Array<ArrayLike<number>>;
  run(): void;
  dispose?(): void;
}

interface RBushItem {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  i: number;
}

function points(n: number): Rects {
  const random = mulberry32(5);
  const x = Float64Array.from({ length: n }, () => random() * SIZE);
  const y = Float64Array.from({ length: n }, () => random() * SIZE);
  return { n, x0: x, y0: y, x1: x, y1: y };
}

function flatRects(r: Rects): Float64Array {
  const out = new Float64Array(r.n * 4);
  for (let i = 0; i < r.n; i++) out.set([r.x0[i], r.y0[i], r.x1[i], r.y1[i]], i * 4);
  return out;
}

const idsOf = (n: number): Int32Array => Int32Array.from({ length: n }, (_, i) => i);

/** Query q's ids from batch results. */
const split = (r: QueryResults, count: number): Int32Array[] => Array.from({ length: count }, (_, q) => r.ids.subarray(r.offsets[q], r.offsets[q + 1]));

/** A contender asking one query per call. */
function single(name: string, ask: (q: number) => ArrayLike<number>, total: number, dispose?: () => void): Answerer {
  return {
    name,
    answers: (count) => Array.from({ length: count }, (_, q) => ask(q)),
    run: () => {
      for (let q = 0; q < total; q++) ask(q);
    },
    dispose,
  };
}

/** A peer library asking one query per call. */
const peer = (name: string, ask: (q: number) => ArrayLike<number>, total: number): Answerer => ({ ...single(name, ask, total), kind: 'library' });

/** A contender asking the first `count` queries in one batch call. */
function batch(name: string, ask: (count: number) => QueryResults, total: number, dispose?: () => void): Answerer {
  return { name, answers: (count) => split(ask(count), count), run: () => ask(total), dispose };
}

/** The spatialkit contenders over rects r: StaticQuadTree and QuadTree, batch form first, on the backends asked. */
function spatialkit(
  r: Rects,
  backends: Array<'wasm' | 'js'>,
  total: number,
  forms: { one: (t: QuadTree | StaticQuadTree, q: number) => ArrayLike<number>; many: (t: QuadTree | StaticQuadTree, count: number) => QueryResults },
  manyName: string,
  oneName: string,
): Answerer[] {
  const out: Answerer[] = [];
  const rects = flatRects(r), ids = idsOf(r.n);
  for (const backend of backends) {
    const frozen = StaticQuadTree.build(ids, rects, { backend });
    const tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: SIZE, maxY: SIZE }, backend });
    tree.insertMany(ids, rects);
    const suffix = backend === 'wasm' ? '' : ' (js)';
    const kind: ContenderKind | undefined = backend === 'js' ? 'js' : undefined;
    out.push(
      { ...batch(`StaticQuadTree ${manyName}${suffix}`, (count) => forms.many(frozen, count), total, () => frozen.dispose()), kind },
      { ...single(`StaticQuadTree ${oneName}${suffix}`, (q) => forms.one(frozen, q), total), kind },
      { ...batch(`QuadTree ${manyName}${suffix}`, (count) => forms.many(tree, count), total, () => tree.dispose()), kind },
      { ...single(`QuadTree ${oneName}${suffix}`, (q) => forms.one(tree, q), total), kind },
    );
  }
  return out;
}

function flatbushOf(r: Rects): Flatbush {
  const index = new Flatbush(r.n);
  for (let i = 0; i < r.n; i++) index.add(r.x0[i], r.y0[i], r.x1[i], r.y1[i]);
  index.finish();
  return index;
}

function rbushOf(r: Rects): RBush<RBushItem> {
  return new RBush<RBushItem>().load(Array.from({ length: r.n }, (_, i) => ({ minX: r.x0[i], minY: r.y0[i], maxX: r.x1[i], maxY: r.y1[i], i })));
}

function kdbushOf(r: Rects): KDBush {
  const index = new KDBush(r.n);
  for (let i = 0; i < r.n; i++) index.add((r.x0[i] + r.x1[i]) / 2, (r.y0[i] + r.y1[i]) / 2);
  index.finish();
  return index;
}

/** Checks every contender on the first queries against brute force (`expected`, compared by `same`), then times them all. */
function runCase<T>(
  context: SuiteContext,
  name: string,
  contenders: Answerer[],
  count: number,
  expected: (q: number) => T,
  same: (q: number, want: T, got: ArrayLike<number>) => boolean,
  headline?: string,
): void {
  const checked = Math.min(count, CHECKED);
  const wants = Array.from({ length: checked }, (_, q) => expected(q));
  for (const c of contenders) {
    const got = c.answers(checked);
    for (let q = 0; q < checked; q++) if (!same(q, wants[q], got[q])) throw new Error(`${c.name}: ${name} query ${q} differs from brute force`);
  }
  context.bench(
    name,
    contenders.map((c): Contender => ({ name: c.name, kind: c.kind, run: () => c.run() })),
    { opsPerRun: count, opName: 'query', minSamples: 5, headline },
  );
  for (const c of contenders) c.dispose?.();
}

/** The k smallest squared distances from query q: equal for any two right answers, whatever ids they pick among ties. */
function nearestDistances(r: Rects, xs: Float64Array, ys: Float64Array, k: number): [(q: number) => number[], (q: number, want: number[], got: ArrayLike<number>) => boolean] {
  const distances = (q: number, ids: ArrayLike<number>): number[] => Array.from(ids, (i) => squaredDistance(r, i, xs[q], ys[q])).sort((a, b) => a - b);
  return [
    (q) => nearestSquaredDistances(r, xs[q], ys[q], k),
    (q, want, got) => {
      const have = distances(q, got);
      return have.length === want.length && have.every((d, i) => d === want[i]);
    },
  ];
}

/** The ids hit by query q, ascending, compared as sets. */
function hitIds(r: Rects, hit: (i: number, q: number) => boolean): [(q: number) => number[], (q: number, want: number[], got: ArrayLike<number>) => boolean] {
  return [
    (q) => {
      const ids: number[] = [];
      for (let i = 0; i < r.n; i++) if (hit(i, q)) ids.push(i);
      return ids;
    },
    (_q, want, got) => {
      const have = Array.from(got).sort((a, b) => a - b);
      return have.length === want.length && have.every((id, i) => id === want[i]);
    },
  ];
}

function nearestCase(context: SuiteContext, r: Rects, what: string, k: number, count: number, withKdbush: boolean, backends: Array<'wasm' | 'js'>): void {
  const random = mulberry32(9 + k);
  const xs = Float64Array.from({ length: count }, () => random() * SIZE);
  const ys = Float64Array.from({ length: count }, () => random() * SIZE);
  const contenders = spatialkit(r, backends, count, {
    one: (t, q) => t.nearest(xs[q], ys[q], k),
    many: (t, n) => t.nearestMany(xs.subarray(0, n), ys.subarray(0, n), k),
  }, 'nearestMany', 'nearest');
  const flatbush = flatbushOf(r);
  contenders.push(peer('flatbush neighbors', (q) => flatbush.neighbors(xs[q], ys[q], k), count));
  if (withKdbush) {
    const kdbush = kdbushOf(r);
    contenders.push(peer('kdbush + k-d tree kNN', (q) => kdbushNearest(kdbush, xs[q], ys[q], k), count));
  }
  const rbush = rbushOf(r);
  contenders.push(peer('rbush-knn', (q) => knn(rbush, xs[q], ys[q], k).map((item) => item.i), count));
  const n = r.n.toLocaleString('en-US');
  runCase(context, `nearest k = ${k}, ${n} ${what}, ${count.toLocaleString('en-US')} queries`, contenders, count, ...nearestDistances(r, xs, ys, k),
    `${k} nearest of ${n} ${what}, ${count.toLocaleString('en-US')} queries`);
}

function discCase(context: SuiteContext, r: Rects, count: number, backends: Array<'wasm' | 'js'>): void {
  const random = mulberry32(11);
  const xs = Float64Array.from({ length: count }, () => random() * SIZE);
  const ys = Float64Array.from({ length: count }, () => random() * SIZE);
  const radius = DISC_RADIUS, r2 = radius * radius;
  const contenders = spatialkit(r, backends, count, {
    one: (t, q) => t.queryCircleIds(xs[q], ys[q], radius),
    many: (t, n) => t.queryCircleMany(xs.subarray(0, n), ys.subarray(0, n), radius),
  }, 'queryCircleMany', 'queryCircleIds');
  const kdbush = kdbushOf(r);
  contenders.push(peer('kdbush within', (q) => kdbush.within(xs[q], ys[q], radius), count));
  const flatbush = flatbushOf(r);
  contenders.push(peer('flatbush search + filter', (q) => {
    const x = xs[q], y = ys[q];
    return flatbush.search(x - radius, y - radius, x + radius, y + radius, (i) => squaredDistance(r, i, x, y) <= r2);
  }, count));
  runCase(context, `disc of 0.5% of the area, ${r.n.toLocaleString('en-US')} points, ${count.toLocaleString('en-US')} queries`, contenders, count,
    ...hitIds(r, (i, q) => squaredDistance(r, i, xs[q], ys[q]) <= r2), `disc (0.5% of the area) among ${r.n.toLocaleString('en-US')} points, ${count.toLocaleString('en-US')} queries`);
}

function boxCase(context: SuiteContext, r: Rects, count: number, backends: Array<'wasm' | 'js'>): void {
  const random = mulberry32(13);
  const boxes = new Float64Array(count * 4);
  for (let q = 0; q < count; q++) {
    const x = random() * (SIZE - BOX_SIDE), y = random() * (SIZE - BOX_SIDE);
    boxes.set([x, y, x + BOX_SIDE, y + BOX_SIDE], q * 4);
  }
  const box = (q: number): [number, number, number, number] => [boxes[q * 4], boxes[q * 4 + 1], boxes[q * 4 + 2], boxes[q * 4 + 3]];
  const contenders = spatialkit(r, backends, count, {
    one: (t, q) => t.queryIds(...box(q)),
    many: (t, n) => t.queryMany(boxes.subarray(0, n * 4)),
  }, 'queryMany', 'queryIds');
  const flatbush = flatbushOf(r);
  contenders.push(peer('flatbush search', (q) => flatbush.search(...box(q)), count));
  const rbush = rbushOf(r);
  contenders.push(peer('rbush search', (q) => {
    const [minX, minY, maxX, maxY] = box(q);
    return rbush.search({ minX, minY, maxX, maxY }).map((item) => item.i);
  }, count));
  const kdbush = kdbushOf(r);
  let pad = 0;
  for (let i = 0; i < r.n; i++) pad = Math.max(pad, (r.x1[i] - r.x0[i]) / 2, (r.y1[i] - r.y0[i]) / 2);
  const meets = (i: number, q: number): boolean => r.x0[i] <= boxes[q * 4 + 2] && r.x1[i] >= boxes[q * 4] && r.y0[i] <= boxes[q * 4 + 3] && r.y1[i] >= boxes[q * 4 + 1];
  contenders.push(peer('kdbush range (centres) + filter', (q) => {
    const [minX, minY, maxX, maxY] = box(q);
    return kdbush.range(minX - pad, minY - pad, maxX + pad, maxY + pad).filter((i) => meets(i, q));
  }, count));
  runCase(context, `box of 1% of the area, ${r.n.toLocaleString('en-US')} rects, ${count.toLocaleString('en-US')} queries`, contenders, count, ...hitIds(r, meets),
    `box (1% of the area) among ${r.n.toLocaleString('en-US')} rects, ${count.toLocaleString('en-US')} queries`);
}

function snapshotCase(context: SuiteContext, r: Rects): void {
  const rects = flatRects(r), ids = idsOf(r.n);
  const frozen = StaticQuadTree.build(ids, rects);
  const tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: SIZE, maxY: SIZE } });
  tree.insertMany(ids, rects);
  const frozenBytes = frozen.toBuffer(), treeBytes = tree.toBuffer();
  const flatbushBytes = flatbushOf(r).data;
  const probe = (t: { queryIds(a: number, b: number, c: number, d: number): ArrayLike<number> }): number[] => Array.from(t.queryIds(100, 100, 1100, 1100)).sort((a, b) => a - b);
  const want = probe(tree);
  for (const restored of [StaticQuadTree.fromBuffer(frozenBytes), QuadTree.fromBuffer(treeBytes)]) {
    if (probe(restored).join() !== want.join()) throw new Error('a restored tree answers otherwise than the original');
    restored.dispose();
  }
  if (Flatbush.from(flatbushBytes).search(100, 100, 1100, 1100).sort((a, b) => a - b).join() !== want.join()) throw new Error('flatbush restored answers otherwise');
  const keep = (t: { dispose(): void }): void => t.dispose();
  context.note(`snapshot sizes: StaticQuadTree ${frozenBytes.length.toLocaleString('en-US')} bytes, QuadTree ${treeBytes.length.toLocaleString('en-US')}, flatbush ${flatbushBytes.byteLength.toLocaleString('en-US')}`);
  context.bench(
    `restore ${r.n.toLocaleString('en-US')} rects from bytes`,
    [
      { name: 'StaticQuadTree.fromBuffer', run: () => keep(StaticQuadTree.fromBuffer(frozenBytes)) },
      { name: 'QuadTree.fromBuffer', run: () => keep(QuadTree.fromBuffer(treeBytes)) },
      { name: 'Flatbush.from (its buffer)', kind: 'library', run: () => Flatbush.from(flatbushBytes) },
      { name: 'flatbush rebuilt from the rects', kind: 'library', run: () => flatbushOf(r) },
    ],
    { minSamples: 5, headline: `restore ${r.n.toLocaleString('en-US')} rects from bytes` },
  );
  frozen.dispose();
  tree.dispose();
}

export const queriesSuite: Suite = {
  name: 'queries',
  title: 'Many queries of a world that holds still: StaticQuadTree and QuadTree against the static indexes',
  async run(context) {
    await init();
    const n = context.pick({ smoke: 10_000, default: 100_000, full: 100_000 });
    const many = context.pick({ smoke: 500, default: 10_000, full: 10_000 });
    const some = context.pick({ smoke: 200, default: 2_000, full: 2_000 });
    const backends: Array<'wasm' | 'js'> = context.full ? ['wasm', 'js'] : ['wasm'];
    const pts = points(n);
    const rects = uniform(n);
    const pointTree = StaticQuadTree.build(idsOf(n), flatRects(pts));
    const pointBytes = pointTree.byteSize.toLocaleString('en-US');
    pointTree.dispose();
    context.note(`${n.toLocaleString('en-US')} uniform points and ${n.toLocaleString('en-US')} uniform rects (1 to 50 a side) in a ${SIZE} square; spatialkit with default options (StaticQuadTree holds the points in a k-d tree of ${pointBytes} bytes); the first contender (StaticQuadTree, batch form) is the ratios' reference: above 1x, it is faster`);
    nearestCase(context, pts, 'points', 1, many, true, backends);
    nearestCase(context, pts, 'points', 16, some, true, backends);
    nearestCase(context, rects, 'rects', 16, some, false, backends);
    discCase(context, pts, some, backends);
    boxCase(context, rects, some / 2, backends);
    snapshotCase(context, rects);
  },
};
