// Shared shapes of the quadtree benchmark: a rect set as four coordinate
// arrays (index = id) and a growable flat pair buffer.

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
