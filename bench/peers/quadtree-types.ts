// Shared shapes of the quadtree benchmark: a rect set as four coordinate
// arrays (index = id), a growable flat pair buffer, and the brute-force
// distances the search suites check answers against.

export interface Rects {
  n: number;
  x0: Float64Array;
  y0: Float64Array;
  x1: Float64Array;
  y1: Float64Array;
}

export function copyRects(r: Rects): Rects {
  return { n: r.n, x0: r.x0.slice(), y0: r.y0.slice(), x1: r.x1.slice(), y1: r.y1.slice() };
}

/** The squared distance from (x, y) to rect i: 0 inside it. */
export function squaredDistance(r: Rects, i: number, x: number, y: number): number {
  const dx = Math.max(r.x0[i] - x, 0, x - r.x1[i]), dy = Math.max(r.y0[i] - y, 0, y - r.y1[i]);
  return dx * dx + dy * dy;
}

/** The k smallest squared distances from (x, y) to the rects, ascending, by one pass over all of them: what every right k-nearest answer's distances are. */
export function nearestSquaredDistances(r: Rects, x: number, y: number, k: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < r.n; i++) {
    const d = squaredDistance(r, i, x, y);
    if (best.length === k && d >= best[k - 1]) continue;
    let at = best.length === k ? k - 1 : best.length;
    for (; at > 0 && best[at - 1] > d; at--) best[at] = best[at - 1];
    best[at] = d;
  }
  return best;
}

/** Flat [a, b, ...] pairs in a growable Int32Array: no allocation per pair. */
export class PairSink {
  data = new Int32Array(1 << 16);
  length = 0;

  clear(): void {
    this.length = 0;
  }

  push(a: number, b: number): void {
    if (this.length + 2 > this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = a;
    this.data[this.length++] = b;
  }

  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}
