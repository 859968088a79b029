// A region's operations of one tick as typed columns: a row per operation,
// in the order submitted. A move is its row alone (id, x, y in typed
// arrays); any other operation, rare beside moves, keeps its object in a
// side list. The phases of a tick read the rows entity by entity in
// ascending id, each entity's in the order submitted, through one stable
// sort of the rows that every phase shares and that is redone only after
// rows come or go.
import type { EntityOp } from './messages.js';

/** A row's ref when the row is a move; any other operation's ref is its index in `others`. */
export const MOVE_REF = -1;
/** A row's ref once its entity's operations have left the region (handed off). */
const DROPPED_REF = -2;
/** Bits of an id sorted per pass of the radix sort: three passes cover ids below 2^31. */
const DIGIT_BITS = 11;
const DIGIT_MASK = (1 << DIGIT_BITS) - 1;

/** One tick's operations of a region, as rows grouped by entity. */
export class OpColumns {
  /** The entity of each row. */
  ids = new Int32Array(256);
  /** A move's x (other rows: unused). */
  xs = new Float64Array(256);
  /** A move's y (other rows: unused). */
  ys = new Float64Array(256);
  /** {@link MOVE_REF} for a move, else the operation's index in {@link others}. */
  refs = new Int32Array(256);
  /** The operations other than moves, by ref. */
  readonly others: EntityOp[] = [];
  /** Rows submitted. */
  length = 0;

  /** After {@link group}: the rows by ascending id, each entity's in the order submitted. */
  order = new Int32Array(256);
  /** After {@link group}: each entity's id, ascending. */
  groupIds = new Int32Array(256);
  /** After {@link group}: entity g's rows are order[starts[g]] to order[starts[g + 1] - 1]. */
  starts = new Int32Array(257);
  /** After {@link group}: the number of entities. */
  groups = 0;

  private scratch = new Int32Array(256);
  private readonly counts = new Int32Array(1 << DIGIT_BITS);
  /** True when rows came since the last {@link group}: order, groupIds and starts miss them. */
  private pushed = false;
  /** True when rows were dropped since the last {@link group}: order, groupIds and starts still list them. */
  private dropped = false;

  /** Appends a move of id to (x, y). */
  pushMove(id: number, x: number, y: number): void {
    const row = this.room();
    this.ids[row] = id;
    this.xs[row] = x;
    this.ys[row] = y;
    this.refs[row] = MOVE_REF;
  }

  /** Appends any operation on id. */
  push(id: number, op: EntityOp): void {
    if (op.kind === 'move') return this.pushMove(id, op.x, op.y);
    const row = this.room();
    this.ids[row] = id;
    this.refs[row] = this.others.length;
    this.others.push(op);
  }

  /** Groups the rows by entity (see {@link order}, {@link groupIds}, {@link starts}) unless they are grouped already. */
  group(): void {
    if (!this.pushed && !this.dropped) return;
    if (this.dropped) this.compact();
    this.pushed = false;
    const n = this.length;
    this.fit(n);
    const { ids } = this;
    // A tick fed in id order (a server's moveMany over its entities, as a rule) needs no sort, and
    // one with a few rows after such a run (the entities handed in) sorts those alone and merges.
    let sorted = 1;
    while (sorted < n && ids[sorted] >= ids[sorted - 1]) sorted++;
    for (let row = 0; row < n; row++) this.order[row] = row;
    if (sorted < n) {
      this.sortRows(this.order.subarray(sorted < n / 2 ? 0 : sorted, n), this.scratch);
      if (sorted >= n / 2) this.mergeSortedTail(sorted, n);
    }
    const order = this.order;
    let groups = 0;
    for (let k = 0; k < n; k++) {
      const id = ids[order[k]];
      if (k === 0 || id !== this.groupIds[groups - 1]) {
        this.groupIds[groups] = id;
        this.starts[groups++] = k;
      }
    }
    this.starts[groups] = n;
    this.groups = groups;
  }

  /** Entity g's operations in the order submitted (objects made for moves: for the rare paths). */
  opsOf(g: number): EntityOp[] {
    const ops: EntityOp[] = [];
    for (let k = this.starts[g]; k < this.starts[g + 1]; k++) ops.push(this.op(this.order[k]));
    return ops;
  }

  /** The operation of a row, as an object. */
  op(row: number): EntityOp {
    const ref = this.refs[row];
    return ref === MOVE_REF ? { kind: 'move', x: this.xs[row], y: this.ys[row] } : this.others[ref];
  }

  /** Every entity's operations, ascending id, each entity's in the order submitted. */
  entities(): Array<[number, EntityOp[]]> {
    this.group();
    const out: Array<[number, EntityOp[]]> = [];
    for (let g = 0; g < this.groups; g++) out.push([this.groupIds[g], this.opsOf(g)]);
    return out;
  }

  /** Removes entity g's rows; the groups stay readable until the next {@link group}. */
  dropGroup(g: number): void {
    for (let k = this.starts[g]; k < this.starts[g + 1]; k++) this.refs[this.order[k]] = DROPPED_REF;
    this.dropped = true;
  }

  /** Removes entity id's rows, if it has any. */
  dropEntity(id: number): void {
    if (this.pushed) this.group();
    const g = this.find(id);
    if (g >= 0) this.dropGroup(g);
  }

  /** After {@link group}: entity id's group, or -1 when it has no rows. */
  find(id: number): number {
    let low = 0;
    let high = this.groups;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.groupIds[mid] < id) low = mid + 1;
      else high = mid;
    }
    return low < this.groups && this.groupIds[low] === id ? low : -1;
  }

  /** After {@link group}: the row of entity g's one operation when that is a move (the common case), else -1. */
  singleMove(g: number): number {
    const k = this.starts[g];
    if (this.starts[g + 1] - k !== 1) return -1;
    const row = this.order[k];
    return this.refs[row] === MOVE_REF ? row : -1;
  }

  /** Forgets every row. */
  clear(): void {
    this.length = 0;
    this.others.length = 0;
    this.groups = 0;
    this.pushed = this.dropped = false;
  }

  /** The index of a new row, the columns grown when full. */
  private room(): number {
    if (this.length === this.ids.length) this.grow();
    this.pushed = true;
    return this.length++;
  }

  private grow(): void {
    const size = this.ids.length * 2;
    this.ids = grown(new Int32Array(size), this.ids);
    this.xs = grown(new Float64Array(size), this.xs);
    this.ys = grown(new Float64Array(size), this.ys);
    this.refs = grown(new Int32Array(size), this.refs);
  }

  /** Makes the grouping arrays hold n rows. */
  private fit(n: number): void {
    if (this.order.length >= n) return;
    const size = Math.max(n, this.order.length * 2);
    this.order = new Int32Array(size);
    this.scratch = new Int32Array(size);
    this.groupIds = new Int32Array(size);
    this.starts = new Int32Array(size + 1);
  }

  /** Moves the rows left down over the dropped ones, keeping their order. */
  private compact(): void {
    const { ids, xs, ys, refs } = this;
    let kept = 0;
    for (let row = 0; row < this.length; row++) {
      if (refs[row] === DROPPED_REF) continue;
      ids[kept] = ids[row];
      xs[kept] = xs[row];
      ys[kept] = ys[row];
      refs[kept++] = refs[row];
    }
    this.length = kept;
    this.dropped = false;
  }

  /** Sorts rows by id, stably (rows of one id keep their order), with spare room of at least as many entries: a least-significant-digit radix sort. */
  private sortRows(rows: Int32Array, spare: Int32Array): void {
    const { ids, counts } = this;
    const n = rows.length;
    let from = rows;
    let to = spare;
    for (let shift = 0; shift < 31; shift += DIGIT_BITS) {
      counts.fill(0);
      for (let k = 0; k < n; k++) counts[(ids[from[k]] >>> shift) & DIGIT_MASK]++;
      // Every row with the same digit here: this pass would move nothing.
      if (counts[(ids[from[0]] >>> shift) & DIGIT_MASK] === n) continue;
      let sum = 0;
      for (let d = 0; d <= DIGIT_MASK; d++) {
        const c = counts[d];
        counts[d] = sum;
        sum += c;
      }
      for (let k = 0; k < n; k++) to[counts[(ids[from[k]] >>> shift) & DIGIT_MASK]++] = from[k];
      [from, to] = [to, from];
    }
    if (from !== rows) rows.set(from.subarray(0, n));
  }

  /** Merges order[0, sorted), rows in id order, with order[sorted, n), sorted by id: the earlier rows first among equal ids. */
  private mergeSortedTail(sorted: number, n: number): void {
    const { ids, order, scratch } = this;
    let a = 0;
    let b = sorted;
    for (let k = 0; k < n; k++) {
      scratch[k] = b >= n || (a < sorted && ids[order[a]] <= ids[order[b]]) ? order[a++] : order[b++];
    }
    [this.order, this.scratch] = [scratch, order];
  }
}

/** into, with from's entries at its start. */
function grown<T extends Int32Array | Float64Array>(into: T, from: T): T {
  into.set(from);
  return into;
}
