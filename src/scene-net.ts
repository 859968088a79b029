// The net view of a Scene's events: one fold over the ordered event log that
// keeps, per (watcher, target) pair, only the change since the last drain.
// The log is grouped by watcher first (scene-grouped.ts), so each pair is
// found among its watcher's few events. A pair's events read front to back,
// so its first event says whether it was visible at the last drain (enter:
// no; leave or move: yes) and its last whether it is visible now (leave: no;
// enter or move: yes). A pair visible at both reports a move when its target
// stands elsewhere than at the last drain: this view saves an entity's
// position the first time it moves after a drain, and before a fold marks
// the ids that ended elsewhere in a hash table, so pairs need no id lookup.
import { ENTER, LEAVE, MOVE } from './event-codes.js';
import { PairTable } from './pair-table.js';
import { groupByWatcher } from './scene-grouped.js';

/** A watcher's events beyond this many find their pair through a Map rather than a scan of the pairs so far. */
const LONG_RUN = 24;

/** A Scene's net view: the positions it needs and the fold; see the file comment. */
export class NetView {
  /** Drains so far; a slot's saved position is the last drain's when savedAt[slot] equals it. */
  private epoch = 1;
  private current = new Float64Array(0);
  private saved = new Float64Array(0);
  private savedAt = new Int32Array(0);
  private idOfSlot = new Int32Array(0);
  /** Slots that moved since the last drain (each once per time savedAt was set). */
  private movedSlots = new Int32Array(64);
  private movedCount = 0;
  /** Ids removed since the last drain: their position at the last drain (first removal wins). */
  private readonly removed = new Map<number, [number, number, number]>();
  /** Ids that stand elsewhere than at the last drain, as a fold starts. */
  private readonly elsewhere = new PairTable();
  /** Per pair of the watcher being folded: its target and its first and last event types. */
  private first = new Int32Array(0);
  private last = new Int32Array(0);
  private target = new Int32Array(0);

  /** `moveEvents` false: no move is ever reported, so no position is tracked. */
  constructor(readonly moveEvents: boolean) {}

  /** Records that id is placed in slot by an add. */
  added(slot: number, id: number, x: number, y: number, z: number): void {
    if (!this.moveEvents) return;
    this.grow(slot);
    const at = slot * 3;
    this.current[at] = x;
    this.current[at + 1] = y;
    this.current[at + 2] = z;
    this.savedAt[slot] = 0;
    this.idOfSlot[slot] = id;
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
      if (this.movedCount === this.movedSlots.length) {
        const bigger = new Int32Array(this.movedCount * 2);
        bigger.set(this.movedSlots);
        this.movedSlots = bigger;
      }
      this.movedSlots[this.movedCount++] = slot;
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
    this.movedCount = 0;
  }

  /**
   * The net events of an ordered log: per pair, enter, leave, move or
   * nothing; sorted by watcher, ascending, and within a watcher in the order
   * of each pair's first event in the log. slotOf gives the current slot of a
   * present id.
   */
  fold(log: Int32Array, slotOf: (id: number) => number | undefined): Int32Array {
    if (this.moveEvents) this.markElsewhere(slotOf);
    const { watchers, offsets, events } = groupByWatcher(log);
    const count = events.length / 3;
    if (this.first.length < count) {
      this.first = new Int32Array(count);
      this.last = new Int32Array(count);
      this.target = new Int32Array(count);
    }
    const first = this.first, last = this.last, target = this.target;
    const out = new Int32Array(events.length);
    let n = 0;
    for (let g = 0; g < watchers.length; g++) {
      // The watcher's distinct targets, numbered from 0 in the order first seen.
      let pairs = 0;
      const long = offsets[g + 1] - offsets[g] > LONG_RUN * 3 ? new Map<number, number>() : null;
      for (let i = offsets[g]; i < offsets[g + 1]; i += 3) {
        const t = events[i + 2];
        let p = 0;
        if (long === null) while (p < pairs && target[p] !== t) p++;
        else p = long.get(t) ?? pairs;
        if (p === pairs) {
          target[p] = t;
          first[p] = events[i];
          long?.set(t, p);
          pairs++;
        }
        last[p] = events[i];
      }
      for (let p = 0; p < pairs; p++) {
        const type = this.verdict(first[p], last[p], target[p]);
        if (type < 0) continue;
        out[n] = type;
        out[n + 1] = watchers[g];
        out[n + 2] = target[p];
        n += 3;
      }
    }
    return n === out.length ? out : out.slice(0, n);
  }

  /** The net event of a pair from its first and last event types since the last drain, or -1 for none. */
  private verdict(first: number, last: number, target: number): number {
    const before = first !== ENTER;
    const now = last !== LEAVE;
    if (now && !before) return ENTER;
    if (before && !now) return LEAVE;
    if (before && now && this.moveEvents && this.elsewhere.find(target, 0) >= 0) return MOVE;
    return -1;
  }

  /** Fills `elsewhere` with the present ids that stand elsewhere than at the last drain. */
  private markElsewhere(slotOf: (id: number) => number | undefined): void {
    const elsewhere = this.elsewhere;
    elsewhere.reset();
    const { current, saved, savedAt, idOfSlot, epoch } = this;
    const differs = (at: number, x: number, y: number, z: number): boolean => x !== current[at] || y !== current[at + 1] || z !== current[at + 2];
    for (let k = 0; k < this.movedCount; k++) {
      const slot = this.movedSlots[k];
      const at = slot * 3;
      // A slot re-added since its move (savedAt reset) or holding a re-added id is judged below.
      if (savedAt[slot] !== epoch || this.removed.has(idOfSlot[slot])) continue;
      if (differs(at, saved[at], saved[at + 1], saved[at + 2])) elsewhere.indexOf(idOfSlot[slot], 0);
    }
    for (const [id, [x, y, z]] of this.removed) {
      const slot = slotOf(id);
      if (slot !== undefined && differs(slot * 3, x, y, z)) elsewhere.indexOf(id, 0);
    }
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
    const idOfSlot = new Int32Array(capacity);
    idOfSlot.set(this.idOfSlot);
    this.current = current;
    this.saved = saved;
    this.savedAt = savedAt;
    this.idOfSlot = idOfSlot;
  }
}
