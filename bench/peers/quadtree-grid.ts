// The hand-written baseline: a uniform grid over typed arrays, rebuilt from
// scratch by a counting sort (what a strong game programmer writes in an
// afternoon). An item goes into every cell it touches; a pair or a query hit
// is reported only by the cell holding the min corner of the overlap.
import type { PairSink, Rects } from './quadtree-types.js';

export class UniformGrid {
  private readonly cols: number;
  private readonly rows: number;
  private readonly inv: number;
  private readonly cellStart: Int32Array;
  private cellItems = new Int32Array(0);

  constructor(private readonly minX: number, private readonly minY: number, size: number, private readonly cell: number) {
    this.cols = this.rows = Math.ceil(size / cell);
    this.inv = 1 / cell;
    this.cellStart = new Int32Array(this.cols * this.rows + 1);
  }

  private col(x: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.minX) * this.inv)));
  }

  private row(y: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.minY) * this.inv)));
  }

  build(r: Rects): void {
    const start = this.cellStart;
    start.fill(0);
    let total = 0;
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < r.n; i++) {
        const c0 = this.col(r.x0[i]), c1 = this.col(r.x1[i]), r0 = this.row(r.y0[i]), r1 = this.row(r.y1[i]);
        for (let y = r0; y <= r1; y++) {
          for (let x = c0; x <= c1; x++) {
            if (pass === 0) start[y * this.cols + x + 1]++;
            else this.cellItems[start[y * this.cols + x]++] = i;
          }
        }
      }
      if (pass === 0) {
        for (let c = 1; c < start.length; c++) start[c] += start[c - 1];
        total = start[start.length - 1];
        if (this.cellItems.length < total) this.cellItems = new Int32Array(total * 1.25);
      } else {
        for (let c = start.length - 1; c > 0; c--) start[c] = start[c - 1];
        start[0] = 0;
      }
    }
  }

  pairs(r: Rects, out: PairSink): void {
    const { x0, y0, x1, y1 } = r;
    const items = this.cellItems;
    for (let cy = 0; cy < this.rows; cy++) {
      for (let cx = 0; cx < this.cols; cx++) {
        const c = cy * this.cols + cx;
        const end = this.cellStart[c + 1];
        for (let p = this.cellStart[c]; p < end; p++) {
          const a = items[p];
          const ax0 = x0[a], ay0 = y0[a], ax1 = x1[a], ay1 = y1[a];
          for (let q = p + 1; q < end; q++) {
            const b = items[q];
            if (x0[b] > ax1 || x1[b] < ax0 || y0[b] > ay1 || y1[b] < ay0) continue;
            if (this.col(Math.max(ax0, x0[b])) !== cx || this.row(Math.max(ay0, y0[b])) !== cy) continue;
            out.push(a, b);
          }
        }
      }
    }
  }

  query(r: Rects, qx0: number, qy0: number, qx1: number, qy1: number, hits: number[]): void {
    const c0 = this.col(qx0), c1 = this.col(qx1), r0 = this.row(qy0), r1 = this.row(qy1);
    for (let cy = r0; cy <= r1; cy++) {
      for (let cx = c0; cx <= c1; cx++) {
        const c = cy * this.cols + cx;
        for (let p = this.cellStart[c]; p < this.cellStart[c + 1]; p++) {
          const a = this.cellItems[p];
          if (r.x0[a] > qx1 || r.x1[a] < qx0 || r.y0[a] > qy1 || r.y1[a] < qy0) continue;
          if (this.col(Math.max(r.x0[a], qx0)) !== cx || this.row(Math.max(r.y0[a], qy0)) !== cy) continue;
          hits.push(a);
        }
      }
    }
  }
}
