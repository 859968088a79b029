// The TypeScript backend of the POINTS layout: the same k-d tree build and
// the same searches as assembly/quadtree/static-points.ts (which draws the
// layout), so both backends give identical bytes and identical answers in
// identical order.
import { RankHeap } from './rank-heap.js';
import type { StaticCore } from '../backend.js';
import { Found } from './found.js';
import { blockChecksum, CHECKSUM_AT, KD_LEAF, pointParts, writeHeader, type PointParts } from '../static-format.js';

/** Whether every rect of rects (4 numbers each) is a point. */
export function allPoints(rects: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) {
    if (rects[i * 4] !== rects[i * 4 + 2] || rects[i * 4 + 1] !== rects[i * 4 + 3]) return false;
  }
  return true;
}

/** The POINTS block of the n items ids[i] at the corners of rects[4i..4i+3] (valid, ids unique: the caller checks). */
export function buildPointBlock(ids: Int32Array, rects: Float64Array): Uint8Array {
  const n = ids.length, parts = pointParts(n);
  const block = new Uint8Array(parts.bytes);
  const words = new Uint32Array(block.buffer);
  writeHeader(words, parts);
  const { coords, ids: sorted } = pointViews(block, parts);
  for (let i = 0; i < n; i++) {
    coords[2 * i] = rects[4 * i];
    coords[2 * i + 1] = rects[4 * i + 1];
    sorted[i] = ids[i];
  }
  new KdSorter(coords, sorted).sortRange(0, n - 1, 0);
  words[CHECKSUM_AT / 4] = blockChecksum(words);
  return block;
}

function pointViews(block: Uint8Array, parts: PointParts): { coords: Float64Array; ids: Int32Array } {
  const { buffer, byteOffset } = block;
  return { coords: new Float64Array(buffer, byteOffset + parts.coords, parts.n * 2), ids: new Int32Array(buffer, byteOffset + parts.ids, parts.n) };
}

/** The seed of the pivots' generator (as in assembly/quadtree/static-points.ts). */
const PIVOT_SEED = 0x9e3779b9;

/** Sorts points in place into the k-d tree: each range's median at its middle, each side split on the other axis. */
class KdSorter {
  /** The pivots' generator: xorshift32, the wasm core's very draws. */
  private draws = PIVOT_SEED;

  constructor(
    private readonly coords: Float64Array,
    private readonly ids: Int32Array,
  ) {}

  sortRange(left: number, right: number, axis: number): void {
    if (right - left <= KD_LEAF) return;
    const m = (left + right) >> 1;
    this.select(m, left, right, axis);
    this.sortRange(left, m - 1, 1 - axis);
    this.sortRange(m + 1, right, 1 - axis);
  }

  /** Moves the point of rank k on axis to k (Hoare's selection around a drawn pivot: the wasm core's very swaps). */
  private select(k: number, left: number, right: number, axis: number): void {
    const c = this.coords;
    while (right > left) {
      this.swap(k, this.drawBetween(left, right));
      const t = c[2 * k + axis];
      let i = left, j = right;
      this.swap(left, k);
      if (c[2 * right + axis] > t) this.swap(left, right);
      while (i < j) {
        this.swap(i, j);
        i++;
        j--;
        while (c[2 * i + axis] < t) i++;
        while (c[2 * j + axis] > t) j--;
      }
      if (c[2 * left + axis] === t) this.swap(left, j);
      else {
        j++;
        this.swap(j, right);
      }
      if (j <= k) left = j + 1;
      if (k <= j) right = j - 1;
    }
  }

  /** A position in [left, right] drawn from the generator. */
  private drawBetween(left: number, right: number): number {
    let x = this.draws;
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    this.draws = x;
    return left + (x % (right - left + 1));
  }

  private swap(i: number, j: number): void {
    const c = this.coords, ids = this.ids;
    const x = c[2 * i], y = c[2 * i + 1], id = ids[i];
    c[2 * i] = c[2 * j];
    c[2 * i + 1] = c[2 * j + 1];
    ids[i] = ids[j];
    c[2 * j] = x;
    c[2 * j + 1] = y;
    ids[j] = id;
  }
}

export class ReferencePointTree implements StaticCore {
  readonly size: number;
  readonly byteLength: number;
  private readonly coords: Float64Array;
  private readonly ids: Int32Array;
  private readonly found = new Found();
  /** The k best so far keyed (-distance, -id): the worst on top. */
  private readonly best = new RankHeap();
  private qx = 0;
  private qy = 0;
  private want = 0;
  private bound = 0;

  /** Searches block (owned from now on, its buffer 8-aligned), whose parts are `parts`. */
  constructor(
    private readonly block: Uint8Array,
    parts: PointParts,
  ) {
    this.size = parts.n;
    this.byteLength = parts.bytes;
    ({ coords: this.coords, ids: this.ids } = pointViews(block, parts));
  }

  bytes(): Uint8Array {
    return this.block.slice();
  }

  query(minX: number, minY: number, maxX: number, maxY: number): Int32Array {
    if (this.size > 0) this.boxRange(0, this.size - 1, 0, [minX, minY, maxX, maxY], -Infinity, -Infinity, Infinity, Infinity);
    return this.found.take();
  }

  within(x: number, y: number, r2: number): Int32Array {
    this.qx = x;
    this.qy = y;
    if (this.size > 0) this.discRange(0, this.size - 1, 0, r2, -Infinity, -Infinity, Infinity, Infinity);
    return this.found.take();
  }

  nearest(x: number, y: number, k: number, maxSquared: number): Int32Array {
    const best = this.best;
    if (this.size === 0 || k <= 0) return new Int32Array(0);
    this.qx = x;
    this.qy = y;
    this.want = k;
    this.bound = maxSquared;
    best.clear();
    this.nearestRange(0, this.size - 1, 0, 0, 0);
    return best.drainNearestFirst();
  }

  dispose(): void {
    // Nothing to free: the block is garbage collected.
  }

  // A range's points lie in its cell (the box its ancestors' splits bound);
  // a cell wholly inside a query is one run of hits, copied out at once.

  private boxRange(left: number, right: number, axis: number, box: number[], cx0: number, cy0: number, cx1: number, cy1: number): void {
    const c = this.coords, [x0, y0, x1, y1] = box;
    while (right - left > KD_LEAF) {
      if (cx0 >= x0 && cx1 <= x1 && cy0 >= y0 && cy1 <= y1) {
        this.found.pushRange(this.ids, left, right + 1);
        return;
      }
      const m = (left + right) >> 1;
      const x = c[2 * m], y = c[2 * m + 1], split = axis === 0 ? x : y;
      if ((axis === 0 ? x0 : y0) <= split) this.boxRange(left, m - 1, 1 - axis, box, cx0, cy0, axis === 0 ? split : cx1, axis === 0 ? cy1 : split);
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1) this.found.push(this.ids[m]);
      if ((axis === 0 ? x1 : y1) < split) return;
      left = m + 1;
      if (axis === 0) cx0 = split;
      else cy0 = split;
      axis = 1 - axis;
    }
    for (let i = left; i <= right; i++) {
      const x = c[2 * i], y = c[2 * i + 1];
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1) this.found.push(this.ids[i]);
    }
  }

  private discRange(left: number, right: number, axis: number, r2: number, cx0: number, cy0: number, cx1: number, cy1: number): void {
    const qx = this.qx, qy = this.qy;
    while (right - left > KD_LEAF) {
      // The squared distance to the cell's farthest corner.
      const fx = Math.max(qx - cx0, cx1 - qx), fy = Math.max(qy - cy0, cy1 - qy);
      if (fx * fx + fy * fy <= r2) {
        this.found.pushRange(this.ids, left, right + 1);
        return;
      }
      const m = (left + right) >> 1;
      const split = this.coords[2 * m + axis], d = (axis === 0 ? qx : qy) - split;
      // The points before m lie on its low side, those after on its high side: a side is searched only if the disc reaches it.
      if (d <= 0 || d * d <= r2) this.discRange(left, m - 1, 1 - axis, r2, cx0, cy0, axis === 0 ? split : cx1, axis === 0 ? cy1 : split);
      if (this.distanceTo(m) <= r2) this.found.push(this.ids[m]);
      if (d < 0 && d * d > r2) return;
      left = m + 1;
      if (axis === 0) cx0 = split;
      else cy0 = split;
      axis = 1 - axis;
    }
    for (let i = left; i <= right; i++) if (this.distanceTo(i) <= r2) this.found.push(this.ids[i]);
  }

  /**
   * Depth first, the side holding the point first; the median and the far
   * side only while they may hold a point within the bound. gx and gy are
   * the squared gaps from the point to the range's cell on each axis.
   */
  private nearestRange(left: number, right: number, axis: number, gx: number, gy: number): void {
    if (right - left <= KD_LEAF) {
      for (let i = left; i <= right; i++) this.consider(i);
      return;
    }
    const m = (left + right) >> 1;
    const d = (axis === 0 ? this.qx : this.qy) - this.coords[2 * m + axis];
    if (d <= 0) this.nearestRange(left, m - 1, 1 - axis, gx, gy);
    else this.nearestRange(m + 1, right, 1 - axis, gx, gy);
    const fx = axis === 0 ? d * d : gx, fy = axis === 0 ? gy : d * d;
    if (fx + fy > this.bound) return;
    this.consider(m);
    if (d <= 0) this.nearestRange(m + 1, right, 1 - axis, fx, fy);
    else this.nearestRange(left, m - 1, 1 - axis, fx, fy);
  }

  /** Offers point i to the k best. */
  private consider(i: number): void {
    const d = this.distanceTo(i);
    if (d <= this.bound) this.bound = this.best.offer(d, this.ids[i], this.want, this.bound);
  }

  private distanceTo(i: number): number {
    const dx = this.coords[2 * i] - this.qx, dy = this.coords[2 * i + 1] - this.qy;
    return dx * dx + dy * dy;
  }
}
