// Scene.nearest on an open world (W1's layout: 100,000 entities uniform over
// 10,000², range 50) from random points, on both indexes and backends,
// against the two things a server would write without it: a brute-force
// scan of typed arrays that keeps the k best, and kdbush (a static k-d tree,
// rebuilt after each tick of moves in practice; its build is not timed
// here) with `within` at a radius doubled until k points are found, then
// sorted. kdbush has no k-nearest search of its own. The wasm scenes are
// also asked every query in one nearestMany call. Every contender's
// answers are checked equal (as ids: ties by id everywhere) before timing.
import KDBush from 'kdbush';
import { init, Scene, type NearestOptions, type SceneIndex } from '../src/index.js';
import type { Contender, ContenderKind, Suite, SuiteContext } from './harness.js';
import { mulberry32 } from './random.js';

const WORLD = 10_000;
const RANGE = 50;

interface Points {
  n: number;
  xs: Float64Array;
  ys: Float64Array;
}

function uniformPoints(n: number, seed: number): Points {
  const random = mulberry32(seed);
  return { n, xs: Float64Array.from({ length: n }, () => random() * WORLD), ys: Float64Array.from({ length: n }, () => random() * WORLD) };
}

/** The k nearest by brute force over the arrays: squared distance then id, kept in a sorted buffer of k. */
function scanNearest(p: Points, x: number, y: number, k: number, maxDistance: number): Int32Array {
  const best = new Float64Array(k);
  const ids = new Int32Array(k);
  let count = 0;
  const limit = maxDistance * maxDistance;
  for (let i = 0; i < p.n; i++) {
    const dx = p.xs[i] - x;
    const dy = p.ys[i] - y;
    const d = dx * dx + dy * dy;
    if (d > limit || (count === k && d >= best[k - 1])) continue;
    let j = count < k ? count++ : k - 1;
    while (j > 0 && best[j - 1] > d) {
      best[j] = best[j - 1];
      ids[j] = ids[j - 1];
      j--;
    }
    best[j] = d;
    ids[j] = i;
  }
  return ids.slice(0, count);
}

/** The k nearest from kdbush: `within` at a radius doubled until it holds k points (or reaches maxDistance), then sorted. */
function kdbushNearest(index: KDBush, p: Points, x: number, y: number, k: number, maxDistance: number): Int32Array {
  let radius = Math.min(RANGE, maxDistance);
  for (;;) {
    const hits = index.within(x, y, radius);
    if (hits.length >= k || radius >= maxDistance || radius > 2 * WORLD) {
      const d = (i: number): number => (p.xs[i] - x) ** 2 + (p.ys[i] - y) ** 2;
      hits.sort((a, b) => d(a) - d(b) || a - b);
      return Int32Array.from(hits.slice(0, k));
    }
    radius = Math.min(radius * 2, maxDistance);
  }
}

function sceneOf(p: Points, backend: 'wasm' | 'js', index: SceneIndex): Scene {
  const scene = new Scene({ backend, index, defaultRange: RANGE });
  scene.addMany(Int32Array.from({ length: p.n }, (_, i) => i), p.xs, p.ys);
  scene.drainArray();
  return scene;
}

function nearestCase(context: SuiteContext, p: Points, k: number, options: NearestOptions, queries: Float64Array): void {
  const count = queries.length / 2;
  const maxDistance = options.maxDistance ?? Infinity;
  const answers: Array<{ name: string; kind?: ContenderKind; nearest: (x: number, y: number) => Int32Array; dispose?: () => void }> = [];
  const xs = queries.filter((_, i) => i % 2 === 0);
  const ys = queries.filter((_, i) => i % 2 === 1);
  const batches: Array<{ name: string; scene: Scene }> = [];
  for (const index of ['lists', 'grid'] as const) {
    for (const backend of ['wasm', 'js'] as const) {
      // The js backend's lists, the slowest scene to build here, in full runs only.
      if (backend === 'js' && index === 'lists' && !context.full) continue;
      const scene = sceneOf(p, backend, index);
      answers.push({ name: `spatialkit ${backend} ${index}`, kind: backend === 'js' ? 'js' : undefined, nearest: (x, y) => scene.nearest(x, y, k, options), dispose: () => scene.dispose() });
      if (backend === 'wasm') batches.push({ name: `spatialkit ${backend} ${index} nearestMany`, scene });
    }
  }
  const tree = new KDBush(p.n);
  for (let i = 0; i < p.n; i++) tree.add(p.xs[i], p.ys[i]);
  tree.finish();
  answers.push({ name: 'kdbush within, doubling', kind: 'library', nearest: (x, y) => kdbushNearest(tree, p, x, y, k, maxDistance) });
  answers.push({ name: 'typed-array scan', kind: 'hand-written', nearest: (x, y) => scanNearest(p, x, y, k, maxDistance) });
  for (let q = 0; q < Math.min(count, 20); q++) {
    const expected = Array.from(scanNearest(p, queries[2 * q], queries[2 * q + 1], k, maxDistance));
    for (const a of answers) {
      const got = Array.from(a.nearest(queries[2 * q], queries[2 * q + 1]));
      if (got.join() !== expected.join()) throw new Error(`${a.name} answers ${got} at query ${q}, expected ${expected}`);
    }
  }
  for (const b of batches) {
    const { offsets, ids } = b.scene.nearestMany(xs, ys, k, options);
    for (let q = 0; q < Math.min(count, 20); q++) {
      const expected = Array.from(scanNearest(p, xs[q], ys[q], k, maxDistance));
      const got = Array.from(ids.subarray(offsets[q], offsets[q + 1]));
      if (got.join() !== expected.join()) throw new Error(`${b.name} answers ${got} at query ${q}, expected ${expected}`);
    }
  }
  let sink = 0;
  // The batch form first: one call for every query, one crossing into wasm.
  const contenders: Contender[] = [
    ...batches.map((b): Contender => ({ name: b.name, run: () => { sink += b.scene.nearestMany(xs, ys, k, options).ids.length; } })),
    ...answers.map((a): Contender => ({
      name: a.name,
      kind: a.kind,
      run: () => {
        for (let q = 0; q < count; q++) sink += a.nearest(queries[2 * q], queries[2 * q + 1]).length;
      },
      teardown: a.dispose,
    })),
  ];
  const limit = maxDistance === Infinity ? '' : `, maxDistance ${maxDistance}`;
  context.bench(`nearest: k = ${k}${limit}, ${p.n.toLocaleString('en-US')} entities in ${WORLD.toLocaleString('en-US')}², range ${RANGE}`, contenders, {
    opsPerRun: count,
    opName: 'query',
    baseline: 'spatialkit wasm grid',
    headline: k === 16 && limit === '' ? `Scene: ${count} nearest queries, k = 16, ${p.n.toLocaleString('en-US')} entities (grid index)` : undefined,
  });
  if (sink < 0) context.note('unreachable');
}

export const sceneNearestSuite: Suite = {
  name: 'scene-nearest',
  title: 'Scene: k nearest entities to a point',
  async run(context) {
    await init();
    const n = context.pick({ smoke: 2_000, default: 100_000, full: 100_000 });
    const p = uniformPoints(n, 21);
    const random = mulberry32(22);
    const queries = Float64Array.from({ length: 2 * context.pick({ smoke: 20, default: 200, full: 200 }) }, () => random() * WORLD);
    nearestCase(context, p, 16, {}, queries);
    if (!context.full) return;
    nearestCase(context, p, 1, {}, queries);
    nearestCase(context, p, 100, { maxDistance: 200 }, queries);
  },
};
