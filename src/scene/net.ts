// The net view of a Scene's events: one fold over the ordered event log that
// keeps, per (watcher, target) pair, only the change since the last drain.
// The log is grouped by watcher first, so each pair is found among its
// watcher's events. A pair's events read front to back, so its first event
// says whether it was visible at the last drain (enter: no; leave or move:
// yes) and its last whether it is visible now (leave: no; enter or move:
// yes). A pair visible at both reports a move when its target stands
// elsewhere than at the last drain: this view saves an entity's position the
// first time it moves after a drain, reads where it stands now from the
// Scene's shapes, and before a fold marks the ids that ended elsewhere, so
// pairs need no id lookup. Logs whose ids can index
// arrays (the common case) group by a counting sort and find pairs and marks
// through per-id arrays kept between folds; the wasm cores run this fold over
// their own log (assembly/scene/net-fold.ts), with no copy out first. Other
// logs go through grouped.ts and hash tables.
import { ENTER, LEAVE, MOVE } from './event-codes.js';
import { PairTable } from './pair-table.js';
import { groupByWatcher, indexableIds } from './grouped.js';
import type { SceneBackend } from './backend.js';
import type { SceneShapes } from './shapes.js';

/** A watcher's events beyond this many find their pair through a Map rather than a scan of the pairs so far. */
const LONG_RUN = 24;
/** Ids below this fit a pair word (target << 4 | first type << 2 | last type). */
const DENSE_LIMIT = 1 << 27;
/** Stamps and pair positions restart from zero (arrays cleared) before they could overflow. */
const STAMP_LIMIT = 1 << 30;
/** netType as a table: NET_TYPE[elsewhere << 4 | first << 2 | last], -1 for none (and for types that do not occur). */
const NET_TYPE = Int32Array.from({ length: 32 }, (_, k) => (k & 3) < 3 && ((k >> 2) & 3) < 3 ? netType((k >> 2) & 3, k & 3, k >= 16) : -1);

/** A Scene's net view: the positions it needs and the fold; see the file comment. */
export class NetView {
  /** Drains so far; a slot's saved position is the last drain's when savedAt[slot] equals it. */
  private epoch = 1;
  /**
   * Where each slot that moved since the last drain stood at that drain
   * (x, y, z by slot): the shapes hold where it stands now, and the
   * comparison of the two is what makes a move event, so this is the one
   * position kept beside them.
   */
  private saved = new Float64Array(0);
  private savedAt = new Int32Array(0);
  private idOfSlot = new Int32Array(0);
  /** Slots that moved since the last drain (each once per time savedAt was set). */
  private movedSlots = new Int32Array(64);
  private movedCount = 0;
  /** Ids removed since the last drain: their position at the last drain (first removal wins). */
  private readonly removed = new Map<number, [number, number, number]>();
  /** Ids that stand elsewhere than at the last drain, as a fold starts: in a hash table for the sparse fold, listed for a core's. */
  private readonly elsewhere = new PairTable();
  private elsewhereIds = new Int32Array(0);
  /** Dense fold scratch: per watcher id its counting-sort cursor; per target id where its last pair word stood (plus pairBase); per id the fold that found it elsewhere. */
  private cursor = new Int32Array(0);
  /** Dense fold scratch: a bit per watcher id with events in the fold, then those watchers ascending. */
  private watching = new Int32Array(0);
  private watchers = new Int32Array(0);
  private pairAt = new Int32Array(0);
  private elsewhereAt = new Int32Array(0);
  /** Grows by each fold's event count, so positions left in pairAt fall below every run of later folds. */
  private pairBase = 0;
  /** Dense folds so far: the stamp of elsewhereAt. */
  private foldsSoFar = 0;
  /** Dense fold scratch: the log as (target << 2 | type) words grouped by watcher, folded in place into pair words; the result before it is copied out. */
  private packed = new Int32Array(0);
  private out = new Int32Array(0);
  /** Sparse fold scratch, per pair of the watcher being folded: its target and its first and last event types. */
  private first = new Int32Array(0);
  private last = new Int32Array(0);
  private target = new Int32Array(0);

  /**
   * `moveEvents` false: no move is ever reported, so no position is
   * tracked. `shapes`: the Scene's, where each slot's position is read.
   */
  constructor(
    readonly moveEvents: boolean,
    private readonly shapes: SceneShapes,
  ) {}

  /** Records that id is placed in slot by an add. */
  added(slot: number, id: number): void {
    if (!this.moveEvents) return;
    this.grow(slot);
    this.savedAt[slot] = 0;
    this.idOfSlot[slot] = id;
  }

  /**
   * Records that slot is about to move, saving where it stands if this is
   * its first move since the last drain: call it before the shapes take the
   * new position.
   */
  moving(slot: number): void {
    if (this.moveEvents) this.saveOnce(slot);
  }

  /** Records that the slots of a batch are about to move (before the shapes take the new positions). */
  movingMany(slots: Int32Array): void {
    if (!this.moveEvents) return;
    for (let k = 0; k < slots.length; k++) this.saveOnce(slots[k]);
  }

  /** Saves slot's position (the shapes') as the last drain's, unless done since the last drain. */
  private saveOnce(slot: number): void {
    if (this.savedAt[slot] === this.epoch) return;
    const at = slot * 3;
    const shapes = this.shapes;
    this.savedAt[slot] = this.epoch;
    this.saved[at] = shapes.coordinate(slot, 0);
    this.saved[at + 1] = shapes.coordinate(slot, 1);
    this.saved[at + 2] = shapes.coordinate(slot, 2);
    if (this.movedCount === this.movedSlots.length) {
      const bigger = new Int32Array(this.movedCount * 2);
      bigger.set(this.movedSlots);
      this.movedSlots = bigger;
    }
    this.movedSlots[this.movedCount++] = slot;
  }

  /** Records that id leaves slot: if it is re-added before the next drain, its pairs compare against this position. */
  removing(id: number, slot: number): void {
    if (!this.moveEvents || this.removed.has(id)) return;
    const at = slot * 3;
    const { saved, shapes } = this;
    if (this.savedAt[slot] === this.epoch) this.removed.set(id, [saved[at], saved[at + 1], saved[at + 2]]);
    else this.removed.set(id, [shapes.coordinate(slot, 0), shapes.coordinate(slot, 1), shapes.coordinate(slot, 2)]);
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
    // The OR of the ids bounds them (below twice the largest) for less work than their maximum.
    let bound = 0;
    for (let i = 1; i < log.length; i += 3) bound |= log[i] | log[i + 1];
    if (foldsDense(bound, log.length / 3)) return this.foldDense(log, bound + 1, slotOf);
    return this.foldSparse(log, slotOf);
  }

  /**
   * The fold of a core's whole log, left in the core, when the core folds
   * where the log lies (the wasm cores, assembly/scene/net-fold.ts) and the
   * ids take the dense fold; null otherwise.
   */
  foldInCore(core: SceneBackend, slotOf: (id: number) => number | undefined): Int32Array | null {
    if (core.loggedIds === undefined || core.foldLog === undefined) return null;
    const { bound, events } = core.loggedIds();
    if (!foldsDense(bound, events)) return null;
    let marked = 0;
    if (this.moveEvents) {
      const most = this.movedCount + this.removed.size;
      if (this.elsewhereIds.length < most) this.elsewhereIds = new Int32Array(Math.max(most, this.elsewhereIds.length * 2));
      this.markElsewhere(slotOf, (id) => {
        this.elsewhereIds[marked++] = id;
      });
    }
    return core.foldLog(bound + 1, this.elsewhereIds.subarray(0, marked), this.moveEvents);
  }

  /**
   * The fold for ids small enough to index arrays: a counting sort by watcher
   * into packed (target, type) words; then per watcher, its events fold in
   * place into one word per pair (target, first and last type), each found
   * through the position pairAt holds for its target, and each pair's net
   * type is read from a table. No hashing, no allocation but the result.
   */
  private foldDense(log: Int32Array, ids: number, slotOf: (id: number) => number | undefined): Int32Array {
    const count = log.length / 3;
    this.reserveDense(ids, count);
    const elsewhereStamp = ++this.foldsSoFar;
    if (this.moveEvents) this.markElsewhere(slotOf, (id) => {
      if (id < ids) this.elsewhereAt[id] = elsewhereStamp;
    });
    const elsewhereBit = this.moveEvents ? 16 : 0;
    // pairAt[t] - base is where target t's pair word stands; any older value falls below every run of this fold.
    const base = this.pairBase + 1;
    this.pairBase = base + count;
    const { cursor, watching, watchers, packed, pairAt, elsewhereAt, out } = this;
    // Counts per watcher, a bit set for each watcher with events, so the passes over watchers cost ids / 32, not ids.
    const bitWords = (ids + 31) >>> 5;
    watching.fill(0, 0, bitWords);
    for (let i = 1; i < log.length; i += 3) {
      const w = log[i];
      const bit = 1 << (w & 31);
      const word = watching[w >>> 5];
      if ((word & bit) !== 0) cursor[w]++;
      else {
        watching[w >>> 5] = word | bit;
        cursor[w] = 1;
      }
    }
    // The watchers in ascending id; cursor[w] becomes where watcher w's next packed event goes, its run ending at the next watcher's start.
    let watcherCount = 0;
    let at = 0;
    for (let j = 0; j < bitWords; j++) {
      for (let set = watching[j]; set !== 0; set &= set - 1) {
        const w = (j << 5) | (31 - Math.clz32(set & -set));
        watchers[watcherCount++] = w;
        const size = cursor[w];
        cursor[w] = at;
        at += size;
      }
    }
    for (let i = 0; i < log.length; i += 3) packed[cursor[log[i + 1]]++] = (log[i + 2] << 2) | log[i];
    // Each cursor now stands at its watcher's end. A watcher's events fold
    // in place into pair words (t << 4 | first << 2 | last) from the start
    // of its run, so any position pairAt holds from an earlier watcher falls
    // below that start.
    let start = 0;
    let n = 0;
    for (let g = 0; g < watcherCount; g++) {
      const w = watchers[g];
      const end = cursor[w];
      let pairs = start;
      for (let k = start; k < end; k++) {
        const word = packed[k];
        const p = pairAt[word >>> 2] - base;
        if (p < start) {
          pairAt[word >>> 2] = base + pairs;
          packed[pairs++] = (word << 2) | (word & 3);
        } else {
          packed[p] = (packed[p] & ~3) | (word & 3);
        }
      }
      for (let p = start; p < pairs; p++) {
        const pair = packed[p];
        const t = pair >>> 4;
        const type = NET_TYPE[(elsewhereAt[t] === elsewhereStamp ? elsewhereBit : 0) | (pair & 15)];
        if (type < 0) continue;
        out[n] = type;
        out[n + 1] = w;
        out[n + 2] = t;
        n += 3;
      }
      start = end;
    }
    return out.slice(0, n);
  }

  /** Sizes the dense fold's arrays for ids below `ids` and `count` events; restarts the stamps before they could overflow. */
  private reserveDense(ids: number, count: number): void {
    if (this.cursor.length < ids) {
      const capacity = Math.max(ids, this.cursor.length * 2);
      this.cursor = new Int32Array(capacity);
      this.watching = new Int32Array((capacity + 31) >>> 5);
      this.watchers = new Int32Array(capacity);
      this.pairAt = new Int32Array(capacity);
      this.elsewhereAt = new Int32Array(capacity);
      this.pairBase = 0;
      this.foldsSoFar = 0;
    }
    if (this.packed.length < count) {
      this.packed = new Int32Array(Math.max(count, this.packed.length * 2));
      this.out = new Int32Array(this.packed.length * 3);
    }
    if (this.pairBase > STAMP_LIMIT - count || this.foldsSoFar > STAMP_LIMIT) {
      this.pairAt.fill(0);
      this.elsewhereAt.fill(0);
      this.pairBase = 0;
      this.foldsSoFar = 0;
    }
  }

  /** The fold for any ids: grouped through scene-grouped.ts, pairs found by a scan or a Map, marks in a hash table. */
  private foldSparse(log: Int32Array, slotOf: (id: number) => number | undefined): Int32Array {
    const elsewhere = this.elsewhere;
    elsewhere.reset();
    if (this.moveEvents) this.markElsewhere(slotOf, (id) => elsewhere.indexOf(id, 0));
    const { watchers, offsets, events } = groupByWatcher(log);
    const count = events.length / 3;
    if (this.first.length < count) this.growPairs(count);
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
        const type = netType(first[p], last[p], this.moveEvents && elsewhere.find(target[p], 0) >= 0);
        if (type < 0) continue;
        out[n] = type;
        out[n + 1] = watchers[g];
        out[n + 2] = target[p];
        n += 3;
      }
    }
    return n === out.length ? out : out.slice(0, n);
  }

  private growPairs(count: number): void {
    this.first = new Int32Array(count);
    this.last = new Int32Array(count);
    this.target = new Int32Array(count);
  }

  /** Calls mark with each present id that stands elsewhere than at the last drain. */
  private markElsewhere(slotOf: (id: number) => number | undefined, mark: (id: number) => void): void {
    const { shapes, saved, savedAt, idOfSlot, epoch, movedSlots, removed } = this;
    const differs = (slot: number, x: number, y: number, z: number): boolean =>
      x !== shapes.coordinate(slot, 0) || y !== shapes.coordinate(slot, 1) || z !== shapes.coordinate(slot, 2);
    const checkRemoved = removed.size > 0;
    for (let k = 0; k < this.movedCount; k++) {
      const slot = movedSlots[k];
      const at = slot * 3;
      // A slot re-added since its move (savedAt reset) or holding a re-added id is judged below.
      if (savedAt[slot] !== epoch || (checkRemoved && removed.has(idOfSlot[slot]))) continue;
      if (differs(slot, saved[at], saved[at + 1], saved[at + 2])) mark(idOfSlot[slot]);
    }
    for (const [id, [x, y, z]] of removed) {
      const slot = slotOf(id);
      if (slot !== undefined && differs(slot, x, y, z)) mark(id);
    }
  }

  private grow(slot: number): void {
    if (slot < this.savedAt.length) return;
    const capacity = Math.max(16, slot + 1, this.savedAt.length * 2);
    const saved = new Float64Array(capacity * 3);
    saved.set(this.saved);
    const savedAt = new Int32Array(capacity);
    savedAt.set(this.savedAt);
    const idOfSlot = new Int32Array(capacity);
    idOfSlot.set(this.idOfSlot);
    this.saved = saved;
    this.savedAt = savedAt;
    this.idOfSlot = idOfSlot;
  }
}

/** Whether a log of `events` whose ids' OR is `bound` takes the dense fold: ids may index arrays (memory proportional to the log) and fit a pair word. */
function foldsDense(bound: number, events: number): boolean {
  return indexableIds(bound, events) && bound < DENSE_LIMIT;
}

/** The net event of a pair from its first and last event types since the last drain, or -1 for none; elsewhere: its target stands elsewhere than then. */
function netType(first: number, last: number, elsewhere: boolean): number {
  const before = first !== ENTER;
  const now = last !== LEAVE;
  if (now && !before) return ENTER;
  if (before && !now) return LEAVE;
  if (before && now && elsewhere) return MOVE;
  return -1;
}

/**
 * A log that folds exactly as `log` does (see NetView.fold), with at most two
 * events per (watcher, target) pair: its first and, when it has more, its
 * last, in the order of the pairs' first events. A fold reads nothing else
 * of a pair, and groups pairs by watcher in that order. A 'net' scene
 * compacts what it holds this way when it reaches its event limit.
 */
export function compactLog(log: Int32Array): Int32Array {
  const pairs = new PairTable();
  const count = log.length / 3;
  const first = new Int32Array(count);
  const last = new Int32Array(count);
  for (let i = 0; i < log.length; i += 3) {
    const known = pairs.size;
    const p = pairs.indexOf(log[i + 1], log[i + 2]);
    if (pairs.size > known) first[p] = i;
    last[p] = i;
  }
  let length = 0;
  for (let p = 0; p < pairs.size; p++) length += last[p] === first[p] ? 3 : 6;
  const out = new Int32Array(length);
  let at = 0;
  for (let p = 0; p < pairs.size; p++) {
    out.set(log.subarray(first[p], first[p] + 3), at);
    at += 3;
    if (last[p] === first[p]) continue;
    out.set(log.subarray(last[p], last[p] + 3), at);
    at += 3;
  }
  return out;
}
