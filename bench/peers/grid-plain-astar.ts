// A plain typed-array A* in JavaScript, the way one would write it by hand
// for a game: walkability in a Uint8Array, g / parent / closed arrays cleared
// before each search, a binary heap on typed arrays (the reference backend's,
// the usual design) keyed by f alone, the octile heuristic, 8 neighbours with
// no corner cutting, bounds checks.
import { MinHeap } from '../../src/graph/js/minheap.js';

export class PlainAStar {
  private readonly g: Float64Array;
  private readonly parent: Int32Array;
  private readonly closed: Uint8Array;
  private readonly heap = new MinHeap(1024);

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly walkable: Uint8Array,
  ) {
    const n = width * height;
    this.g = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.closed = new Uint8Array(n);
  }

  /** Cost of the shortest path, or -1 when there is none; the cells are left in `parent`. */
  search(sx: number, sy: number, tx: number, ty: number): number {
    const { width, height, walkable, g, parent, closed } = this;
    g.fill(Infinity);
    closed.fill(0);
    const heap = this.heap;
    heap.clear();
    const start = sy * width + sx;
    const target = ty * width + tx;
    g[start] = 0;
    parent[start] = -1;
    heap.push(this.octile(sx, sy, tx, ty), start);
    while (!heap.empty) {
      const cell = heap.pop();
      if (closed[cell] === 1) continue;
      closed[cell] = 1;
      if (cell === target) return g[cell];
      const x = cell % width;
      const y = (cell - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if (dx === 0 && dy === 0) continue;
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const next = ny * width + nx;
          if (walkable[next] === 0 || closed[next] === 1) continue;
          if (dx !== 0 && dy !== 0 && (walkable[y * width + nx] === 0 || walkable[ny * width + x] === 0)) continue;
          const tentative = g[cell] + (dx !== 0 && dy !== 0 ? Math.SQRT2 : 1);
          if (tentative >= g[next]) continue;
          g[next] = tentative;
          parent[next] = cell;
          heap.push(tentative + this.octile(nx, ny, tx, ty), next);
        }
      }
    }
    return -1;
  }

  private octile(x: number, y: number, tx: number, ty: number): number {
    const dx = Math.abs(x - tx);
    const dy = Math.abs(y - ty);
    return dx < dy ? dy + (Math.SQRT2 - 1) * dx : dx + (Math.SQRT2 - 1) * dy;
  }
}
