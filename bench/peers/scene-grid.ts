// The strongest simple AOI: a uniform grid over typed arrays with cells as
// wide as the (equal) view range, so a move only looks at the 3 x 3 cells
// around its old and new place. Entities live on per-cell doubly linked lists.
import { EventBuffer, type ScenePeer } from './scene-events.js';

export class GridScenePeer implements ScenePeer {
  private readonly cell: number;
  private readonly columns: number;
  private readonly rows: number;
  private readonly heads: Int32Array;
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  private readonly cellOf: Int32Array;
  private readonly xs: Float64Array;
  private readonly ys: Float64Array;
  private readonly events = new EventBuffer();

  /**
   * Ids are 0..capacity-1; positions stay inside [0, world]. With `ranges`
   * (one per id), each entity sees by its own range and `range` is the
   * largest of them: the cell size.
   */
  constructor(private readonly range: number, world: number, capacity: number, private readonly ranges?: Float64Array) {
    this.cell = range * 1.0001; // a hair wider: rounding never splits a pair by two cells
    this.columns = Math.floor(world / this.cell) + 1;
    this.rows = this.columns;
    this.heads = new Int32Array(this.columns * this.rows).fill(-1);
    this.next = new Int32Array(capacity);
    this.prev = new Int32Array(capacity);
    this.cellOf = new Int32Array(capacity);
    this.xs = new Float64Array(capacity);
    this.ys = new Float64Array(capacity);
  }

  private link(id: number, c: number): void {
    const head = this.heads[c];
    this.next[id] = head;
    this.prev[id] = -1;
    if (head >= 0) this.prev[head] = id;
    this.heads[c] = id;
    this.cellOf[id] = c;
  }

  private unlink(id: number): void {
    const c = this.cellOf[id];
    const p = this.prev[id];
    const q = this.next[id];
    if (p >= 0) this.next[p] = q;
    else this.heads[c] = q;
    if (q >= 0) this.prev[q] = p;
  }

  addAll(ids: Int32Array, xs: Float64Array, ys: Float64Array): void {
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      this.xs[id] = xs[k];
      this.ys[id] = ys[k];
      this.link(id, Math.floor(xs[k] / this.cell) + Math.floor(ys[k] / this.cell) * this.columns);
    }
    const r = this.range;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      const x = this.xs[id];
      const y = this.ys[id];
      const cx = Math.floor(x / this.cell);
      const cy = Math.floor(y / this.cell);
      for (let gy = Math.max(cy - 1, 0); gy <= Math.min(cy + 1, this.rows - 1); gy++) {
        for (let gx = Math.max(cx - 1, 0); gx <= Math.min(cx + 1, this.columns - 1); gx++) {
          for (let j = this.heads[gx + gy * this.columns]; j >= 0; j = this.next[j]) {
            const rj = this.ranges === undefined ? r : this.ranges[id];
            if (j !== id && x - rj <= this.xs[j] && this.xs[j] <= x + rj && y - rj <= this.ys[j] && this.ys[j] <= y + rj) {
              this.events.push(0, id, j);
            }
          }
        }
      }
    }
  }

  move(id: number, x: number, y: number): void {
    const ox = this.xs[id];
    const oy = this.ys[id];
    if (ox === x && oy === y) return;
    const ocx = Math.floor(ox / this.cell);
    const ocy = Math.floor(oy / this.cell);
    const ncx = Math.floor(x / this.cell);
    const ncy = Math.floor(y / this.cell);
    this.xs[id] = x;
    this.ys[id] = y;
    if (this.ranges !== undefined) {
      this.visitBlockRanges(id, ox, oy, x, y, ocx, ocy, -10, -10);
      this.visitBlockRanges(id, ox, oy, x, y, ncx, ncy, ocx, ocy);
    } else {
      this.visitBlock(id, ox, oy, x, y, ocx, ocy, -10, -10);
      this.visitBlock(id, ox, oy, x, y, ncx, ncy, ocx, ocy);
    }
    const c = ncx + ncy * this.columns;
    if (c !== this.cellOf[id]) {
      this.unlink(id);
      this.link(id, c);
    }
  }

  /** The 3 x 3 cells around (cx, cy), skipping those around (skipX, skipY), already visited. */
  private visitBlock(id: number, ox: number, oy: number, x: number, y: number, cx: number, cy: number, skipX: number, skipY: number): void {
    const r = this.range;
    for (let gy = Math.max(cy - 1, 0); gy <= Math.min(cy + 1, this.rows - 1); gy++) {
      for (let gx = Math.max(cx - 1, 0); gx <= Math.min(cx + 1, this.columns - 1); gx++) {
        if (Math.abs(gx - skipX) <= 1 && Math.abs(gy - skipY) <= 1) continue;
        for (let j = this.heads[gx + gy * this.columns]; j >= 0; j = this.next[j]) {
          if (j === id) continue;
          const jx = this.xs[j];
          const jy = this.ys[j];
          const was = ox - r <= jx && jx <= ox + r && oy - r <= jy && jy <= oy + r;
          const is = x - r <= jx && jx <= x + r && y - r <= jy && jy <= y + r;
          if (was && is) {
            this.events.push(2, j, id);
          } else if (is) {
            this.events.push(0, j, id);
            this.events.push(0, id, j);
          } else if (was) {
            this.events.push(1, j, id);
            this.events.push(1, id, j);
          }
        }
      }
    }
  }

  /** visitBlock with a range per entity: who sees whom is judged each way by the watcher's own range. */
  private visitBlockRanges(id: number, ox: number, oy: number, x: number, y: number, cx: number, cy: number, skipX: number, skipY: number): void {
    const ranges = this.ranges!;
    const r = ranges[id];
    for (let gy = Math.max(cy - 1, 0); gy <= Math.min(cy + 1, this.rows - 1); gy++) {
      for (let gx = Math.max(cx - 1, 0); gx <= Math.min(cx + 1, this.columns - 1); gx++) {
        if (Math.abs(gx - skipX) <= 1 && Math.abs(gy - skipY) <= 1) continue;
        for (let j = this.heads[gx + gy * this.columns]; j >= 0; j = this.next[j]) {
          if (j === id) continue;
          const jx = this.xs[j];
          const jy = this.ys[j];
          const rj = ranges[j];
          const jSaw = jx - rj <= ox && ox <= jx + rj && jy - rj <= oy && oy <= jy + rj;
          const jSees = jx - rj <= x && x <= jx + rj && jy - rj <= y && y <= jy + rj;
          if (jSaw && jSees) this.events.push(2, j, id);
          else if (jSees) this.events.push(0, j, id);
          else if (jSaw) this.events.push(1, j, id);
          const saw = ox - r <= jx && jx <= ox + r && oy - r <= jy && jy <= oy + r;
          const sees = x - r <= jx && jx <= x + r && y - r <= jy && jy <= y + r;
          if (sees && !saw) this.events.push(0, id, j);
          else if (saw && !sees) this.events.push(1, id, j);
        }
      }
    }
  }

  drainArray(): Int32Array {
    return this.events.drain();
  }
}
