// A plain typed-array A* in JavaScript, the way one would write it by hand
// for a game: walkability in a Uint8Array, g / parent / closed arrays cleared
// before each search, a binary heap on typed arrays keyed by f alone, the
// octile heuristic, 8 neighbours with no corner cutting, bounds checks.
export class PlainAStar {
  private readonly g: Float64Array;
  private readonly parent: Int32Array;
  private readonly closed: Uint8Array;
  private heapKeys = new Float64Array(1024);
  private heapCells = new Int32Array(1024);
  private heapSize = 0;

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
    this.heapSize = 0;
    const start = sy * width + sx;
    const target = ty * width + tx;
    g[start] = 0;
    parent[start] = -1;
    this.push(this.octile(sx, sy, tx, ty), start);
    while (this.heapSize > 0) {
      const cell = this.pop();
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
          this.push(tentative + this.octile(nx, ny, tx, ty), next);
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

  private push(key: number, cell: number): void {
    if (this.heapSize === this.heapKeys.length) {
      const keys = new Float64Array(this.heapKeys.length * 2);
      const cells = new Int32Array(this.heapCells.length * 2);
      keys.set(this.heapKeys);
      cells.set(this.heapCells);
      this.heapKeys = keys;
      this.heapCells = cells;
    }
    const keys = this.heapKeys;
    const cells = this.heapCells;
    let i = this.heapSize++;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (keys[up] <= key) break;
      keys[i] = keys[up];
      cells[i] = cells[up];
      i = up;
    }
    keys[i] = key;
    cells[i] = cell;
  }

  private pop(): number {
    const keys = this.heapKeys;
    const cells = this.heapCells;
    const top = cells[0];
    const n = --this.heapSize;
    const key = keys[n];
    const cell = cells[n];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && keys[child + 1] < keys[child]) child++;
      if (key <= keys[child]) break;
      keys[i] = keys[child];
      cells[i] = cells[child];
      i = child;
    }
    keys[i] = key;
    cells[i] = cell;
    return top;
  }
}
