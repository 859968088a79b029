// QuadTree segment casts and snapshots against what users of rbush and
// flatbush write: a line-of-sight cast is a bounding-box search, an exact
// segment test on each hit and a sort by entry point; a snapshot is rbush's
// toJSON through JSON, or flatbush's own ArrayBuffer. Every contender's
// answers are checked equal before its time counts.
import Flatbush from 'flatbush';
import RBush from 'rbush';
import { init, QuadTree } from '../src/index.js';
import type { Contender, ContenderKind, Suite } from './harness.js';
import { mulberry32 } from './random.js';
import { SIZE, uniform } from './quadtree.js';
import { flatbushOf, spatialkitTree } from './quadtree-search.js';
import type { Rects } from './peers/quadtree-types.js';

const REACH = 1_000;

interface Item {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  i: number;
}

/** Segments from random points, up to REACH long, in random directions: [x0, y0, x1, y1] each. */
function segments(count: number): Float64Array {
  const random = mulberry32(13);
  const out = new Float64Array(count * 4);
  for (let k = 0; k < count; k++) {
    const x = random() * SIZE, y = random() * SIZE, a = random() * 2 * Math.PI, l = random() * REACH;
    out.set([x, y, x + Math.cos(a) * l, y + Math.sin(a) * l], k * 4);
  }
  return out;
}

/** Where the segment first touches rect i, as t in [0, 1] (slab test on the closed rect), or -1. */
function entry(r: Rects, i: number, x0: number, y0: number, x1: number, y1: number): number {
  let lo = 0, hi = 1;
  const axes: Array<[number, number, number, number]> = [[x0, x1 - x0, r.x0[i], r.x1[i]], [y0, y1 - y0, r.y0[i], r.y1[i]]];
  for (const [p, d, min, max] of axes) {
    if (d === 0) {
      if (p < min || p > max) return -1;
      continue;
    }
    const a = (min - p) / d, b = (max - p) / d;
    lo = Math.max(lo, Math.min(a, b));
    hi = Math.min(hi, Math.max(a, b));
  }
  return lo <= hi ? lo : -1;
}

/** A user's cast over any box search: exact test on each hit, then by entry point and id. */
function castBy(r: Rects, search: (x0: number, y0: number, x1: number, y1: number) => ArrayLike<number>) {
  return (x0: number, y0: number, x1: number, y1: number): number[] => {
    const hits: Array<[number, number]> = [];
    const found = search(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1));
    for (let k = 0; k < found.length; k++) {
      const t = entry(r, found[k], x0, y0, x1, y1);
      if (t >= 0) hits.push([t, found[k]]);
    }
    return hits.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, i]) => i);
  };
}

function items(r: Rects): Item[] {
  return Array.from({ length: r.n }, (_, i) => ({ minX: r.x0[i], minY: r.y0[i], maxX: r.x1[i], maxY: r.y1[i], i }));
}

export const quadtreeCastsSuite: Suite = {
  name: 'quadtree-casts',
  title: 'QuadTree segment casts and snapshots against rbush and flatbush',
  async run(context) {
    await init();
    const n = context.quick ? 20_000 : 100_000;
    const r = uniform(n);
    const segs = segments(context.quick ? 100 : 1_000);
    const count = segs.length / 4;
    const wasm = spatialkitTree(r, 'wasm');
    const js = spatialkitTree(r, 'js');
    const flatbush = flatbushOf(r);
    const rbush = new RBush<Item>().load(items(r));
    const casts: Array<[string, (x0: number, y0: number, x1: number, y1: number) => ArrayLike<number>, ContenderKind?]> = [
      ['spatialkit wasm querySegment', (a, b, c, d) => wasm.querySegment(a, b, c, d)],
      ['spatialkit js querySegment', (a, b, c, d) => js.querySegment(a, b, c, d), 'js'],
      ['flatbush search + segment test + sort', castBy(r, (a, b, c, d) => flatbush.search(a, b, c, d)), 'library'],
      ['rbush search + segment test + sort', castBy(r, (a, b, c, d) => rbush.search({ minX: a, minY: b, maxX: c, maxY: d }).map((item) => item.i)), 'library'],
    ];
    let hits = 0;
    for (let k = 0; k < count; k++) {
      const [a, b, c, d] = segs.subarray(k * 4, k * 4 + 4);
      const want = Array.from(casts[0][1](a, b, c, d));
      hits += want.length;
      for (const [name, cast] of casts) {
        const got = Array.from(cast(a, b, c, d));
        if (got.join() !== want.join()) throw new Error(`${name}: segment ${k} hits ${got.length} rects in another order or set than ${want.length}`);
      }
    }
    context.note(`${n.toLocaleString('en-US')} uniform rects; ${count} segments up to ${REACH} long: every contender's hits equal, in order along the segment (${(hits / count).toFixed(1)} a segment)`);
    context.bench(
      `segment casts: ${count} segments up to ${REACH} long, hits in order`,
      casts.map(([name, cast, kind]): Contender => ({ name, kind, run: () => { for (let k = 0; k < count; k++) cast(segs[k * 4], segs[k * 4 + 1], segs[k * 4 + 2], segs[k * 4 + 3]); } })),
      { opsPerRun: count, opName: 'segment', minSamples: 5, headline: `QuadTree: ${count} segment casts over ${n.toLocaleString('en-US')} rects` },
    );

    // Snapshots: out to bytes (or JSON text) and back to an index that answers as the original.
    const probe = (tree: { query: (x0: number, y0: number, x1: number, y1: number) => ArrayLike<number> }): string =>
      Array.from(tree.query(4000, 4000, 5000, 5000)).sort((a, b) => a - b).join();
    const expected = probe({ query: (a, b, c, d) => wasm.query(a, b, c, d) });
    const restored = {
      wasm: () => QuadTree.fromBuffer(wasm.toBuffer()),
      js: () => QuadTree.fromBuffer(js.toBuffer(), { backend: 'js' }),
      rbush: () => new RBush<Item>().fromJSON(JSON.parse(JSON.stringify(rbush.toJSON()))),
      flatbush: () => Flatbush.from(flatbush.data.slice(0)),
    };
    const checks: Record<keyof typeof restored, string> = {
      wasm: probe(restored.wasm()),
      js: probe(restored.js()),
      rbush: probe({ query: (a, b, c, d) => restored.rbush().search({ minX: a, minY: b, maxX: c, maxY: d }).map((item) => item.i) }),
      flatbush: probe({ query: (a, b, c, d) => restored.flatbush().search(a, b, c, d) }),
    };
    for (const [name, answer] of Object.entries(checks)) if (answer !== expected) throw new Error(`${name}: the restored index answers differently`);
    context.note(`snapshot: ${wasm.toBuffer().length.toLocaleString('en-US')} bytes for ${n.toLocaleString('en-US')} rects; every restored index answers a query as the original`);
    context.bench(`snapshot round trip: ${n.toLocaleString('en-US')} rects`, [
      { name: 'spatialkit wasm toBuffer + fromBuffer', run: () => QuadTree.fromBuffer(wasm.toBuffer()).dispose() },
      { name: 'spatialkit js toBuffer + fromBuffer', kind: 'js', run: () => QuadTree.fromBuffer(js.toBuffer(), { backend: 'js' }).dispose() },
      { name: 'rbush toJSON + JSON + fromJSON', kind: 'library', run: () => restored.rbush() },
      { name: 'flatbush data copy + Flatbush.from (a static index)', kind: 'library', run: () => restored.flatbush() },
    ], { opName: 'round trip', minSamples: 3, headline: `QuadTree: snapshot round trip (toBuffer + fromBuffer), ${n.toLocaleString('en-US')} rects` });
    wasm.dispose();
    js.dispose();
  },
};
