// Adapters that drive each peer library through the same four jobs as the
// QuadTree: build, range query, all pairs, and a frame of moves. Ids are the
// item indices of a Rects set. Where a library stores points, the centres are
// indexed and queries are widened by the largest half-extent, then the exact
// rects are tested (the usual way to use a point index for boxes).
import Flatbush from 'flatbush';
import KDBush from 'kdbush';
import RBush from 'rbush';
import boxIntersect from 'box-intersect';
import { quadtree as d3Quadtree, type Quadtree as D3Quadtree, type QuadtreeNode } from 'd3-quadtree';
import { Quadtree as TimoQuadtree, Rectangle } from '@timohausmann/quadtree-ts';
import type { ContenderKind } from '../harness.js';
import { UniformGrid } from './quadtree-grid.js';
import { PairSink, type Rects } from './quadtree-types.js';

/** One contender of the quadtree suite. */
export interface RectIndex {
  name: string;
  /** Its headline column (harness.ts). */
  kind?: ContenderKind;
  /** Builds from scratch. */
  build(r: Rects): void;
  /** Brings the index up to date after the rects at moved[0..count) changed. */
  moved(r: Rects, moved: Int32Array, count: number): void;
  /** The ids meeting the closed box, each once, in any order. */
  query?(r: Rects, x0: number, y0: number, x1: number, y1: number): ArrayLike<number>;
  /** Every intersecting pair once, flat [a, b, ...], in any order. */
  pairs?(r: Rects): ArrayLike<number>;
  dispose?(): void;
}

const meets = (r: Rects, i: number, x0: number, y0: number, x1: number, y1: number): boolean =>
  r.x0[i] <= x1 && r.x1[i] >= x0 && r.y0[i] <= y1 && r.y1[i] >= y0;

function maxHalfExtent(r: Rects): number {
  let h = 0;
  for (let i = 0; i < r.n; i++) h = Math.max(h, (r.x1[i] - r.x0[i]) / 2, (r.y1[i] - r.y0[i]) / 2);
  return h;
}

const sink = new PairSink();

/** Pairs by one search per item, keeping j > i: how box indexes without a pairs method are used. */
function pairsBySearch(r: Rects, search: (i: number) => ArrayLike<number>): Int32Array {
  const out = sink;
  out.clear();
  for (let i = 0; i < r.n; i++) {
    const hits = search(i);
    for (let k = 0; k < hits.length; k++) {
      const j = hits[k];
      if (j > i && meets(r, j, r.x0[i], r.y0[i], r.x1[i], r.y1[i])) out.push(i, j);
    }
  }
  return out.view();
}

interface RBushItem {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  i: number;
}

export function rbushIndex(): RectIndex {
  let tree = new RBush<RBushItem>();
  let items: RBushItem[] = [];
  return {
    name: 'rbush',
    kind: 'library',
    build(r) {
      items = Array.from({ length: r.n }, (_, i) => ({ minX: r.x0[i], minY: r.y0[i], maxX: r.x1[i], maxY: r.y1[i], i }));
      tree = new RBush<RBushItem>().load(items);
    },
    moved(r, moved, count) {
      for (let k = 0; k < count; k++) {
        const item = items[moved[k]];
        tree.remove(item);
        item.minX = r.x0[item.i];
        item.minY = r.y0[item.i];
        item.maxX = r.x1[item.i];
        item.maxY = r.y1[item.i];
        tree.insert(item);
      }
    },
    query: (_r, x0, y0, x1, y1) => tree.search({ minX: x0, minY: y0, maxX: x1, maxY: y1 }).map((item) => item.i),
    pairs: (r) => pairsBySearch(r, (i) => tree.search(items[i]).map((item) => item.i)),
  };
}

export function flatbushIndex(): RectIndex {
  let index: Flatbush | null = null;
  const build = (r: Rects): void => {
    index = new Flatbush(r.n);
    for (let i = 0; i < r.n; i++) index.add(r.x0[i], r.y0[i], r.x1[i], r.y1[i]);
    index.finish();
  };
  return {
    name: 'flatbush (rebuilt per frame)',
    kind: 'library',
    build,
    moved: build,
    query: (_r, x0, y0, x1, y1) => index!.search(x0, y0, x1, y1),
    pairs: (r) => pairsBySearch(r, (i) => index!.search(r.x0[i], r.y0[i], r.x1[i], r.y1[i])),
  };
}

export function kdbushIndex(): RectIndex {
  let index: KDBush | null = null;
  let pad = 0;
  const build = (r: Rects): void => {
    pad = maxHalfExtent(r);
    index = new KDBush(r.n);
    for (let i = 0; i < r.n; i++) index.add((r.x0[i] + r.x1[i]) / 2, (r.y0[i] + r.y1[i]) / 2);
    index.finish();
  };
  return {
    name: 'kdbush (centres, rebuilt per frame)',
    kind: 'library',
    build,
    moved: build,
    query: (r, x0, y0, x1, y1) => index!.range(x0 - pad, y0 - pad, x1 + pad, y1 + pad).filter((i) => meets(r, i, x0, y0, x1, y1)),
    pairs: (r) => pairsBySearch(r, (i) => index!.range(r.x0[i] - pad, r.y0[i] - pad, r.x1[i] + pad, r.y1[i] + pad)),
  };
}

export function boxIntersectIndex(): RectIndex {
  let boxes: Array<[number, number, number, number]> = [];
  return {
    name: 'box-intersect',
    kind: 'library',
    build(r) {
      boxes = Array.from({ length: r.n }, (_, i): [number, number, number, number] => [r.x0[i], r.y0[i], r.x1[i], r.y1[i]]);
    },
    moved(r, moved, count) {
      for (let k = 0; k < count; k++) {
        const i = moved[k];
        boxes[i] = [r.x0[i], r.y0[i], r.x1[i], r.y1[i]];
      }
    },
    pairs() {
      sink.clear();
      boxIntersect(boxes, (i, j) => {
        if (i < j) sink.push(i, j);
        else sink.push(j, i);
      });
      return sink.view();
    },
  };
}

export function timoQuadtreeIndex(size: number): RectIndex {
  let tree: TimoQuadtree<Rectangle<number>> | null = null;
  let shapes: Array<Rectangle<number>> = [];
  const build = (r: Rects): void => {
    tree = new TimoQuadtree<Rectangle<number>>({ width: size, height: size, maxObjects: 10, maxLevels: 8 });
    shapes = Array.from(
      { length: r.n },
      (_, i) => new Rectangle({ x: r.x0[i], y: r.y0[i], width: r.x1[i] - r.x0[i], height: r.y1[i] - r.y0[i], data: i }),
    );
    for (const shape of shapes) tree.insert(shape);
  };
  const candidates = (x0: number, y0: number, x1: number, y1: number): number[] =>
    tree!.retrieve(new Rectangle({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 })).map((s) => s.data!);
  return {
    name: '@timohausmann/quadtree-ts (rebuilt per frame)',
    kind: 'library',
    build,
    moved: build,
    query: (r, x0, y0, x1, y1) => candidates(x0, y0, x1, y1).filter((i) => meets(r, i, x0, y0, x1, y1)),
    pairs: (r) => pairsBySearch(r, (i) => candidates(r.x0[i], r.y0[i], r.x1[i], r.y1[i])),
  };
}

export function d3QuadtreeIndex(): RectIndex {
  let tree: D3Quadtree<number> | null = null;
  let pad = 0;
  const build = (r: Rects): void => {
    pad = maxHalfExtent(r);
    tree = d3Quadtree<number>()
      .x((i) => (r.x0[i] + r.x1[i]) / 2)
      .y((i) => (r.y0[i] + r.y1[i]) / 2)
      .addAll(Array.from({ length: r.n }, (_, i) => i));
  };
  // Visits centres inside the widened box and tests the exact rects.
  const search = (r: Rects, x0: number, y0: number, x1: number, y1: number, each: (i: number) => void): void => {
    const [wx0, wy0, wx1, wy1] = [x0 - pad, y0 - pad, x1 + pad, y1 + pad];
    tree!.visit((node: QuadtreeNode<number>, nx0, ny0, nx1, ny1) => {
      if (!Array.isArray(node)) {
        for (let leaf: typeof node | undefined = node; leaf; leaf = leaf.next) {
          if (meets(r, leaf.data, x0, y0, x1, y1)) each(leaf.data);
        }
      }
      return nx0 > wx1 || ny0 > wy1 || nx1 < wx0 || ny1 < wy0;
    });
  };
  return {
    name: 'd3-quadtree (centres, rebuilt per frame)',
    kind: 'library',
    build,
    moved: build,
    query(r, x0, y0, x1, y1) {
      const hits: number[] = [];
      search(r, x0, y0, x1, y1, (i) => hits.push(i));
      return hits;
    },
    pairs(r) {
      sink.clear();
      for (let i = 0; i < r.n; i++) search(r, r.x0[i], r.y0[i], r.x1[i], r.y1[i], (j) => j > i && sink.push(i, j));
      return sink.view();
    },
  };
}

export function gridIndex(size: number, cell: number): RectIndex {
  const grid = new UniformGrid(0, 0, size, cell);
  return {
    name: `typed-array uniform grid (cell ${cell}, rebuilt per frame)`,
    kind: 'hand-written',
    build: (r) => grid.build(r),
    moved: (r) => grid.build(r),
    query(r, x0, y0, x1, y1) {
      const hits: number[] = [];
      grid.query(r, x0, y0, x1, y1, hits);
      return hits;
    },
    pairs(r) {
      sink.clear();
      grid.pairs(r, sink);
      return sink.view();
    },
  };
}
