// The net view of a Scene's events: one fold over the ordered event log that
// keeps, per (watcher, target) pair, only the change since the last drain.
// A pair's log reads front to back, so its first event says whether it was
// visible at the last drain (enter: no; leave or move: yes) and its last
// event whether it is visible now (leave: no; enter or move: yes). Whether a
// pair visible at both reports a move depends on the target's position then
// and now, which this view tracks per slot: the position at the last drain is
// saved the first time an entity moves after it.
import { ENTER, LEAVE, MOVE } from './event-codes.js';
import { PairTable } from './pair-table.js';

export class NetView {
  /** Drains so far; a slot's saved position is the last drain's when savedAt[slot] equals it. */
  private epoch = 1;
  private current = new Float64Array(0);
  private saved = new Float64Array(0);
  private savedAt = new Int32Array(0);
  /** Ids removed since the last drain: their position at the last drain (first removal wins). */
  private readonly removed = new Map<number, [number, number, number]>();
  private readonly pairs = new PairTable();
  private first = new Int32Array(0);
  private last = new Int32Array(0);
  private pairAt = new Int32Array(0);

  /** `moveEvents` false: no move is ever reported, so no position is tracked. */
  constructor(readonly moveEvents: boolean) {}

  /** Records where slot is placed by an add. */
  added(slot: number, x: number, y: number, z: number): void {
    if (!this.moveEvents) return;
    this.grow(slot);
    const at = slot * 3;
    this.current[at] = x;
    this.current[at + 1] = y;
    this.current[at + 2] = z;
    this.savedAt[slot] = 0;
  }

  /** Records a move of slot to (x, y, z), saving where it was at the last drain if this is its first move since. */
  moved(slot: number, x: number, y: number, z: number): void {
    if (!this.moveEvents) return;
    const at = slot * 3;
    const current = this.current;
    if (this.savedAt[slot] !== this.epoch) {
      this.savedAt[slot] = this.epoch;
      this.saved[at] = current[at];
      this.saved[at + 1] = current[at + 1];
      this.saved[at + 2] = current[at + 2];
    }
    current[at] = x;
    current[at + 1] = y;
    current[at + 2] = z;
  }

  /** Records the moves of a batch, in order. */
  movedMany(slots: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null): void {
    if (!this.moveEvents) return;
    for (let k = 0; k < slots.length; k++) this.moved(slots[k], xs[k], ys[k], zs === null ? 0 : zs[k]);
  }

  /** Records that id leaves slot: if it is re-added before the next drain, its pairs compare against this position. */
  removing(id: number, slot: number): void {
    if (!this.moveEvents || this.removed.has(id)) return;
    const at = slot * 3;
    const from = this.savedAt[slot] === this.epoch ? this.saved : this.current;
    this.removed.set(id, [from[at], from[at + 1], from[at + 2]]);
  }

  /** Marks a drain (or a clear): what is visible now is what the next drain compares against. */
  drained(): void {
    this.epoch++;
    this.removed.clear();
  }

  /**
   * The net events of an ordered log: per pair, enter, leave, move or
   * nothing, listed in the order of each pair's first event in the log.
   * slotOf gives the current slot of a present id.
   */
  fold(log: Int32Array, slotOf: (id: number) => number): Int32Array {
    const count = log.length / 3;
    const pairs = this.pairs;
    pairs.reset(count);
    if (this.first.length < count) {
      this.first = new Int32Array(count);
      this.last = new Int32Array(count);
      this.pairAt = new Int32Array(count);
    }
    const first = this.first, last = this.last, pairAt = this.pairAt;
    for (let k = 0, i = 0; k < count; k++, i += 3) {
      const seen = pairs.size;
      const index = pairs.indexOf(log[i + 1], log[i + 2]);
      if (index === seen) {
        first[index] = log[i];
        pairAt[index] = i;
      }
      last[index] = log[i];
    }
    const out = new Int32Array(pairs.size * 3);
    let n = 0;
    for (let p = 0; p < pairs.size; p++) {
      const before = first[p] !== ENTER;
      const now = last[p] !== LEAVE;
      const i = pairAt[p];
      let type = -1;
      if (now && !before) type = ENTER;
      else if (before && !now) type = LEAVE;
      else if (before && now && this.targetMoved(log[i + 2], slotOf)) type = MOVE;
      if (type < 0) continue;
      out[n] = type;
      out[n + 1] = log[i + 1];
      out[n + 2] = log[i + 2];
      n += 3;
    }
    return n === out.length ? out : out.slice(0, n);
  }

  /** Whether target (present now, present at the last drain) stands elsewhere than it did at the last drain. */
  private targetMoved(target: number, slotOf: (id: number) => number): boolean {
    if (!this.moveEvents) return false;
    const slot = slotOf(target);
    const at = slot * 3;
    const removed = this.removed.get(target);
    let x: number, y: number, z: number;
    if (removed !== undefined) [x, y, z] = removed;
    else if (this.savedAt[slot] === this.epoch) [x, y, z] = [this.saved[at], this.saved[at + 1], this.saved[at + 2]];
    else return false;
    const current = this.current;
    return x !== current[at] || y !== current[at + 1] || z !== current[at + 2];
  }

  private grow(slot: number): void {
    if (slot < this.savedAt.length) return;
    const capacity = Math.max(16, slot + 1, this.savedAt.length * 2);
    const current = new Float64Array(capacity * 3);
    current.set(this.current);
    const saved = new Float64Array(capacity * 3);
    saved.set(this.saved);
    const savedAt = new Int32Array(capacity);
    savedAt.set(this.savedAt);
    this.current = current;
    this.saved = saved;
    this.savedAt = savedAt;
  }
}
