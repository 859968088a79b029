// The TypeScript backend of StaticQuadTree: the same build and the same
// searches as assembly/quadtree/static.ts, over the same block of bytes
// (layout drawn there, named in ../static-format.ts), so both backends give
// identical bytes and identical answers in identical order.
import { RankHeap } from './rank-heap.js';
import type { StaticCore } from '../backend.js';
import { Found } from './found.js';
import { allPoints, buildPointBlock } from './static-points.js';
import { blockChecksum, blockParts, CHECKSUM_AT, childrenUnion, forEachNode, nodeCount, writeHeader, type BlockParts } from '../static-format.js';

/** Hilbert cells per axis: 2^16, so a key fits 32 bits. */
const HILBERT_SIDE = 1 << 16;

/** The Hilbert curve index of cell (x, y) on a HILBERT_SIDE grid. */
function hilbert(x: number, y: number): number {
  let d = 0;
  for (let s = HILBERT_SIDE >> 1; s > 0; s >>= 1) {
    const rx = (x & s) !== 0 ? 1 : 0;
    const ry = (y & s) !== 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    // Turn the quadrant so the curve inside it runs the same way as the whole.
    if (ry === 0) {
      if (rx === 1) {
        x = HILBERT_SIDE - 1 - x;
        y = HILBERT_SIDE - 1 - y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

/**
 * The cell of coordinate c on [lo, hi]. Differences are taken of halves,
 * which cannot overflow (the full difference of two centres near ±MAX_VALUE
 * would be Infinity, and the ratio NaN), and equal the halved difference for
 * every ordinary coordinate, so the order is that of (c - lo) / (hi - lo).
 */
function cell(c: number, lo: number, hi: number): number {
  const span = hi * 0.5 - lo * 0.5;
  return span > 0 ? Math.floor(((c * 0.5 - lo * 0.5) / span) * (HILBERT_SIDE - 1)) : 0;
}

/** The centre of [a, b], from halves so that it cannot overflow. */
const centre = (a: number, b: number): number => a * 0.5 + b * 0.5;

/** The order of the n items along the Hilbert curve of their centres, ties in input order (four stable byte passes). */
function hilbertOrder(rects: Float64Array, n: number): Int32Array {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const cx = centre(rects[i * 4], rects[i * 4 + 2]), cy = centre(rects[i * 4 + 1], rects[i * 4 + 3]);
    minX = Math.min(minX, cx);
    minY = Math.min(minY, cy);
    maxX = Math.max(maxX, cx);
    maxY = Math.max(maxY, cy);
  }
  let keys = new Uint32Array(n), order = new Int32Array(n);
  let keysTo = new Uint32Array(n), orderTo = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const cx = centre(rects[i * 4], rects[i * 4 + 2]), cy = centre(rects[i * 4 + 1], rects[i * 4 + 3]);
    keys[i] = hilbert(cell(cx, minX, maxX), cell(cy, minY, maxY));
    order[i] = i;
  }
  const counts = new Int32Array(256);
  for (let shift = 0; shift < 32; shift += 8) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(keys[i] >>> shift) & 255]++;
    for (let b = 0, sum = 0; b < 256; b++) {
      const c = counts[b];
      counts[b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const to = counts[(keys[i] >>> shift) & 255]++;
      keysTo[to] = keys[i];
      orderTo[to] = order[i];
    }
    [keys, keysTo] = [keysTo, keys];
    [order, orderTo] = [orderTo, order];
  }
  return order;
}

/** The block of the n items ids[i] with rect rects[4i..4i+3] (valid, ids unique: the caller checks): POINTS when every rect is a point, else RECTS. */
export function buildBlock(ids: Int32Array, rects: Float64Array): Uint8Array {
  const n = ids.length;
  if (n > 0 && allPoints(rects, n)) return buildPointBlock(ids, rects);
  const parts = blockParts(n, nodeCount(n));
  const block = new Uint8Array(parts.bytes);
  const words = new Uint32Array(block.buffer);
  writeHeader(words, parts);
  const view = new BlockView(block, parts);
  const order = hilbertOrder(rects, n);
  for (let i = 0; i < n; i++) {
    view.boxes.set(rects.subarray(order[i] * 4, order[i] * 4 + 4), i * 4);
    view.ids[i] = ids[order[i]];
  }
  const boxes = view.boxes;
  let node = n;
  forEachNode(n, (first, end) => {
    boxes.set(childrenUnion(boxes, first, end), node * 4);
    view.firsts[node - n] = first;
    view.ends[node - n] = end;
    node++;
  });
  words[CHECKSUM_AT / 4] = blockChecksum(words);
  return block;
}

/** Typed views over the parts of a block (whose buffer starts 8-aligned). */
class BlockView {
  readonly boxes: Float64Array;
  readonly ids: Int32Array;
  readonly firsts: Int32Array;
  readonly ends: Int32Array;

  constructor(block: Uint8Array, parts: BlockParts) {
    const { buffer, byteOffset } = block;
    this.boxes = new Float64Array(buffer, byteOffset + parts.boxes, (parts.n + parts.m) * 4);
    this.ids = new Int32Array(buffer, byteOffset + parts.ids, parts.n);
    this.firsts = new Int32Array(buffer, byteOffset + parts.firsts, parts.m);
    this.ends = new Int32Array(buffer, byteOffset + parts.ends, parts.m);
  }
}

/** Squared distance from (x, y) to the closed box b of boxes (0 inside or on it). */
function boxDistance(boxes: Float64Array, b: number, x: number, y: number): number {
  const dx = Math.max(boxes[b * 4] - x, x - boxes[b * 4 + 2], 0);
  const dy = Math.max(boxes[b * 4 + 1] - y, y - boxes[b * 4 + 3], 0);
  return dx * dx + dy * dy;
}

/** Squared distance from (x, y) to the farthest point of box b of boxes. */
function boxReach(boxes: Float64Array, b: number, x: number, y: number): number {
  const dx = Math.max(x - boxes[b * 4], boxes[b * 4 + 2] - x);
  const dy = Math.max(y - boxes[b * 4 + 1], boxes[b * 4 + 3] - y);
  return dx * dx + dy * dy;
}

export class ReferenceStaticTree implements StaticCore {
  readonly size: number;
  readonly byteLength: number;
  private readonly view: BlockView;
  private readonly root: number;
  private readonly stack = new Int32Array(16 * 32);
  /** The nearest search's queue of nodes by squared distance, and its k best items keyed (-distance, -id): the worst on top. */
  private readonly queue = new RankHeap();
  private readonly best = new RankHeap();
  /** The siblings met on the way down to the nearest leaf, and their squared distances. */
  private asideNodes = new Int32Array(64);
  private asideKeys = new Float64Array(64);
  private readonly found = new Found();

  /** Searches block (owned from now on, its buffer 8-aligned), whose parts are `parts`. */
  constructor(
    private readonly block: Uint8Array,
    parts: BlockParts,
  ) {
    this.size = parts.n;
    this.byteLength = parts.bytes;
    this.root = parts.n + parts.m - 1;
    this.view = new BlockView(block, parts);
  }

  bytes(): Uint8Array {
    return this.block.slice();
  }

  query(minX: number, minY: number, maxX: number, maxY: number): Int32Array {
    const { boxes, ids, firsts, ends } = this.view, n = this.size, stack = this.stack, found = this.found;
    if (n === 0) return found.take();
    stack[0] = this.root;
    let size = 1;
    while (size > 0) {
      const node = stack[--size] - n;
      for (let c = firsts[node], end = ends[node]; c < end; c++) {
        const x0 = boxes[c * 4], y0 = boxes[c * 4 + 1], x1 = boxes[c * 4 + 2], y1 = boxes[c * 4 + 3];
        if (x0 > maxX || x1 < minX || y0 > maxY || y1 < minY) continue;
        if (c < n) found.push(ids[c]);
        else if (x0 >= minX && x1 <= maxX && y0 >= minY && y1 <= maxY) this.pushSubtree(c);
        else stack[size++] = c;
      }
    }
    return found.take();
  }

  within(x: number, y: number, r2: number): Int32Array {
    const { boxes, ids, firsts, ends } = this.view, n = this.size, stack = this.stack, found = this.found;
    if (n === 0) return found.take();
    stack[0] = this.root;
    let size = 1;
    while (size > 0) {
      const node = stack[--size] - n;
      for (let c = firsts[node], end = ends[node]; c < end; c++) {
        if (boxDistance(boxes, c, x, y) > r2) continue;
        if (c < n) found.push(ids[c]);
        else if (boxReach(boxes, c, x, y) <= r2) this.pushSubtree(c);
        else stack[size++] = c;
      }
    }
    return found.take();
  }

  nearest(x: number, y: number, k: number, maxSquared: number): Int32Array {
    const { boxes, firsts, ends } = this.view, n = this.size, queue = this.queue, best = this.best;
    if (n === 0 || k <= 0) return this.found.take();
    queue.clear();
    best.clear();
    let aside = 0;
    // Straight down to the leaf nearest the point, its siblings set aside: its items give the k best a bound.
    let node = this.root;
    while (firsts[node - n] >= n) {
      let nearest = -1, least = Infinity, at = 0;
      for (let c = firsts[node - n], end = ends[node - n]; c < end; c++) {
        const d = boxDistance(boxes, c, x, y);
        // The first child is taken when none is nearer: squared distances that overflow are all Infinity.
        if (d < least || nearest < 0) {
          least = d;
          nearest = c;
          at = aside;
        }
        this.setAside(aside++, d, c);
      }
      this.asideNodes[at] = -1; // the nearest is followed, not set aside
      node = nearest;
    }
    let bound = this.takeItems(node, x, y, k, maxSquared);
    for (let i = 0; i < aside; i++) if (this.asideNodes[i] >= 0 && this.asideKeys[i] <= bound) queue.push(this.asideKeys[i], this.asideNodes[i]);
    while (queue.size > 0 && queue.topKey <= bound) {
      node = queue.topTag;
      queue.pop();
      const first = firsts[node - n], end = ends[node - n];
      if (first < n) {
        bound = this.takeItems(node, x, y, k, bound);
        continue;
      }
      for (let c = first; c < end; c++) {
        const d = boxDistance(boxes, c, x, y);
        if (d <= bound) queue.push(d, c);
      }
    }
    return best.drainNearestFirst();
  }

  dispose(): void {
    // Nothing to free: the block is garbage collected.
  }

  /** Records sibling node at d as the i-th set aside. */
  private setAside(i: number, d: number, node: number): void {
    if (i === this.asideNodes.length) {
      const nodes = new Int32Array(i * 2), keys = new Float64Array(i * 2);
      nodes.set(this.asideNodes);
      keys.set(this.asideKeys);
      this.asideNodes = nodes;
      this.asideKeys = keys;
    }
    this.asideNodes[i] = node;
    this.asideKeys[i] = d;
  }

  /** Offers the items of leaf to the k best; returns the new bound: the worst one's distance once k are held, else `bound`. */
  private takeItems(leaf: number, x: number, y: number, k: number, bound: number): number {
    const { boxes, ids, firsts, ends } = this.view, n = this.size, best = this.best;
    for (let c = firsts[leaf - n], end = ends[leaf - n]; c < end; c++) {
      const d = boxDistance(boxes, c, x, y);
      if (d > bound) continue;
      bound = best.offer(d, ids[c], k, bound);
    }
    return bound;
  }

  /** Appends the ids of every item below node: a run of the item array, since each node covers consecutive boxes of the level below. */
  private pushSubtree(node: number): void {
    const { firsts, ends, ids } = this.view, n = this.size;
    let lo = node, hi = node;
    while (lo >= n) lo = firsts[lo - n];
    while (hi >= n) hi = ends[hi - n] - 1;
    this.found.pushRange(ids, lo, hi + 1);
  }
}
