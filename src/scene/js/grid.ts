// The reference grid core of Scene (index 'grid', backend 'js'): the same
// algorithm as assembly/scene/grid.ts, written as plain TypeScript.
//
// Entities live in uniform cells, hashed by integer cell coordinates, so the
// world has no bounds. Levels: level L has cells of cellSize * 2^L (its
// base), and an entity lives at the lowest level whose base is at least its
// largest half-extent (markers at level 0). So every watcher's box spans at
// most three cells per axis of its own level, and a wide watcher costs other
// movers only a few cells of a coarse level, not a scan of its box. A level
// whose cells hold few entities takes cells twice its base (chooseCellSize):
// a step then reads fewer, fuller cells.
//
// A cell keeps its entities' records together: slot, position and
// half-extents. A step of entity W, at each level that holds entities, reads
// the cells that can hold a change: W's old and new boxes, and the cells
// within that level's largest half-extent of W's old and new places (whoever
// there may see W). Every record read is judged on W's old and new place
// against both boxes, so enter, leave and move events come straight from the
// scan: no watcher sets are kept.
//
// Cell coordinates are floor(v / size) clamped to +-2^30: a monotonic map, so
// w - r <= t <= w + r puts t's cell between those of w - r and w + r, however
// far out the coordinates are (far ones share the clamped edge cells). A
// region with more cells than the level holds is read by walking the level's
// table instead.
//
// A hysteresis margin: a watcher with margin m keeps seeing a target until it
// leaves the grown range (half-extents r + m, or radius r + m). The record
// holds the grown half-extents, so levels, regions and reach cover every pair
// whose visibility can change; the plain ones live in a table read only for
// slots flagged as having a margin. The pairs visible only thanks to a margin
// (inside the grown range, outside the plain one) form the held set, the only
// history the core keeps: a pair is visible when the target is inside the
// plain range, or when it is held.
import { CallLog } from './call-log.js';
import type { SceneBackend } from '../backend.js';
import { HeldPairs } from './held-pairs.js';
import { beyondBound, KNearest } from './k-nearest.js';
import { DEFAULT_LAYER, DEFAULT_SEES } from '../backend.js';
import { ENTER, LEAVE, MOVE } from '../event-codes.js';
import { inCircle } from './circle.js';

/** Cell coordinates stay within +-2^30, so neighbours and spans never overflow an i32. */
const CELL_LIMIT = 1 << 30;
/** Ints per table bucket: cx, cy, cz, count (0: empty bucket), block. */
const BUCKET = 5;
/** Doubles per record: x, y, z, rx, ry, rz (NaN half-extents: a marker). */
const RECORD = 6;
/** Slack on the reach of others' boxes, for rounding in w - r and w + r (relative to the magnitudes). */
const REACH_SLACK = 1e-15;
/** A region of more cells than this many times the level's occupied cells is read from the level's table. */
const SCAN_ALL_RATIO = 2;
/** A level's cell side is chosen again whenever its entities double, from this many on. */
const CHOOSE_MIN = 32;
/** Below this many entities in an entity's cell, on average, a level takes cells twice its base side; above DENSE_CELL (at that side) it goes back. */
const SPARSE_CELL = 4;
const DENSE_CELL = 32;
/** Bits of a slot's shape: its range is a circle (sphere) of radius its first half-extent; it has a margin. */
const SHAPE_CIRCLE = 1;
const SHAPE_MARGIN = 2;

/** Cell side of level L: cellSize * 2^L, exact (Infinity once beyond the doubles). */
function levelSize(cellSize: number, level: number): number {
  let size = cellSize;
  while (level > 1000) {
    size *= 2 ** 1000;
    level -= 1000;
  }
  return size * 2 ** level;
}

/** The lowest level whose cells are at least `extent` wide (0 for markers). */
function levelFor(cellSize: number, extent: number): number {
  if (!(extent > cellSize)) return 0;
  // The estimate only shortens the search (clamped: the ratio may overflow); the loops make it exact.
  let level = Math.min(2200, Math.max(0, Math.floor(Math.log2(extent / cellSize)) - 1));
  while (level > 0 && levelSize(cellSize, level - 1) >= extent) level--;
  while (levelSize(cellSize, level) < extent) level++;
  return level;
}

/**
 * Home bucket of cell (cx, cy, cz) in a table of mask + 1 buckets: four
 * neighbours along x share a hashed group of four buckets, so a row of a
 * region reads one or two cache lines.
 */
function cellHash(cx: number, cy: number, cz: number, mask: number): number {
  let h = Math.imul(cx >> 2, 0x9e3779b1) ^ Math.imul(cy, 0x85ebca77) ^ Math.imul(cz, 0xc2b2ae3d);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return ((h << 2) | (cx & 3)) & mask;
}

/** One level: its cell side and an open-addressing table (linear probing) of its occupied cells. */
class Level {
  /** The cell side now: `base`, or twice that while the level is sparse. */
  size: number;
  inv: number;
  /** Entities when the cell side was last chosen. */
  chosenAt = 0;
  /** Largest half-extent per axis of a watcher placed here since the level was last empty; -1: none. */
  readonly reach = [-1, -1, -1];
  entities = 0;
  cells = 0;
  table = new Int32Array(8 * BUCKET);
  mask = 7;

  constructor(readonly base: number) {
    this.size = base;
    this.inv = base === Infinity ? 0 : 1 / base;
  }

  resize(size: number): void {
    this.size = size;
    this.inv = size === Infinity ? 0 : 1 / size;
  }

  /** Empties the table (the caller keeps the records). */
  clearTable(): void {
    this.cells = 0;
    this.table = new Int32Array(8 * BUCKET);
    this.mask = 7;
  }

  /** The cell coordinate of v: floor(v / size), clamped; every v shares cell 0 once the size is beyond the doubles. */
  cell(v: number): number {
    if (this.inv === 0) return 0;
    const c = Math.floor(v * this.inv);
    return c < -CELL_LIMIT ? -CELL_LIMIT : c > CELL_LIMIT ? CELL_LIMIT : c;
  }

  find(cx: number, cy: number, cz: number): number {
    const t = this.table;
    for (let b = cellHash(cx, cy, cz, this.mask); ; b = (b + 1) & this.mask) {
      const e = b * BUCKET;
      if (t[e + 3] === 0) return -1;
      if (t[e] === cx && t[e + 1] === cy && t[e + 2] === cz) return b;
    }
  }

  /** Claims an empty bucket for a new cell (count still 0: the caller appends at once). */
  create(cx: number, cy: number, cz: number, block: number): number {
    if ((this.cells + 1) * 2 > this.mask + 1) this.grow();
    const t = this.table;
    let b = cellHash(cx, cy, cz, this.mask);
    while (t[b * BUCKET + 3] !== 0) b = (b + 1) & this.mask;
    const e = b * BUCKET;
    t[e] = cx;
    t[e + 1] = cy;
    t[e + 2] = cz;
    t[e + 4] = block;
    this.cells++;
    return b;
  }

  private grow(): void {
    const old = this.table;
    this.mask = this.mask * 2 + 1;
    this.table = new Int32Array((this.mask + 1) * BUCKET);
    for (let e = 0; e < old.length; e += BUCKET) {
      if (old[e + 3] === 0) continue;
      let b = cellHash(old[e], old[e + 1], old[e + 2], this.mask);
      while (this.table[b * BUCKET + 3] !== 0) b = (b + 1) & this.mask;
      this.table.set(old.subarray(e, e + BUCKET), b * BUCKET);
    }
  }

  /** Empties bucket b, shifting later entries of its probe run back so every lookup still finds them. */
  delete(b: number): void {
    const t = this.table;
    const mask = this.mask;
    let hole = b;
    for (let j = (b + 1) & mask; t[j * BUCKET + 3] !== 0; j = (j + 1) & mask) {
      const home = cellHash(t[j * BUCKET], t[j * BUCKET + 1], t[j * BUCKET + 2], mask);
      // The entry at j may fill the hole unless its home lies cyclically in (hole, j].
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      t.copyWithin(hole * BUCKET, j * BUCKET, j * BUCKET + BUCKET);
      hole = j;
    }
    t[hole * BUCKET + 3] = 0;
    this.cells--;
  }

  reset(): void {
    this.reach.fill(-1);
    this.entities = 0;
    this.chosenAt = 0;
    this.resize(this.base);
    this.clearTable();
  }
}

/** What a cell visit does with the records it reads. */
const enum Visit {
  /** Judge every record against the mover's old and new place: events. */
  Step,
  /** Collect the ids inside the subject's box. */
  Query,
  /** Collect the ids whose box holds the subject. */
  Watchers,
  /** Collect the ids inside the query box. */
  Box,
}

/** The grid core of one scene. Slots are chosen by the caller; ids are only carried into events. */
export class GridIndexCore extends CallLog implements SceneBackend {
  private readonly levels: Level[] = [];
  /** Levels holding entities, ascending. */
  private readonly active: number[] = [];
  private capacity = 0;
  private ids = new Int32Array(0);
  /** The k best of a nearest search. */
  private readonly picker = new KNearest();
  /** Level of each slot, -1 when free; its cell's coordinates and its index in the cell. */
  private slotLevel = new Int32Array(0);
  private slotCell = new Int32Array(0);
  private slotIndex = new Int32Array(0);
  /** Shape bits of each slot (SHAPE_CIRCLE, SHAPE_MARGIN). */
  private shape = new Uint8Array(0);
  /** Watchers with a circle: while there are none, no judgement looks at shapes. */
  private circles = 0;
  /** Watchers with a margin: while there are none, no judgement looks at margins or the held set. */
  private margins = 0;
  /** Plain half-extents (3 per slot) of the slots with a margin; allocated with the first margin. */
  private plain: Float64Array | null = null;
  /** The pairs visible only thanks to a margin. */
  protected readonly held = new HeldPairs();
  /** Layer masks: W sees T only when seesMask[W] & layer[T] is not 0. */
  private layer = new Int32Array(0);
  private seesMask = new Int32Array(0);
  /** Entities with masks other than the defaults: while there are none, no judgement looks at masks. */
  private layered = 0;
  /** Record blocks of cells: blockData[k] holds RECORD doubles per entity, blockSlots[k] their slots. */
  private readonly blockData: Float64Array[] = [];
  private readonly blockSlots: Int32Array[] = [];
  private readonly freeBlocks: number[] = [];
  private results: number[] = [];
  // The step being judged: the subject, its place and half-extents before and after.
  private visit = Visit.Step;
  private subject = 0;
  private moved = false;
  /** False when the scene reports no move events: a move's step then judges as if nothing moved. */
  moveEvents = true;
  private readonly o = [0, 0, 0];
  private readonly n = [0, 0, 0];
  private readonly oldR = [0, 0, 0];
  private readonly newR = [0, 0, 0];
  /** The subject's range is a circle before (oRound) and after (nRound) the step. */
  private oRound = false;
  private nRound = false;
  /** The subject has a margin before (oMargin) and after (nMargin) the step, and then these plain half-extents (oldR, newR are the grown ones). */
  private oMargin = false;
  private nMargin = false;
  private readonly oPlain = [0, 0, 0];
  private readonly nPlain = [0, 0, 0];
  /** The subject's masks before (o) and after (n) the step. */
  private oLayer = DEFAULT_LAYER;
  private oSees = DEFAULT_SEES;
  private nLayer = DEFAULT_LAYER;
  private nSees = DEFAULT_SEES;
  private readonly rectA = new Int32Array(6);
  private readonly rectB = new Int32Array(6);

  constructor(
    readonly dimensions: number,
    readonly cellSize: number,
  ) {
    super();
    this.ensureSlot(15);
  }

  /** The cell side of the finest level, which follows the density: for tests (not part of the backend contract). */
  baseCellSize(): number {
    return this.levels[0].size;
  }

  private ensureSlot(slot: number): void {
    if (slot < this.capacity) return;
    let capacity = Math.max(this.capacity, 16);
    while (capacity <= slot) capacity *= 2;
    const grown = (from: Int32Array, per: number, fill: number): Int32Array<ArrayBuffer> => {
      const to = new Int32Array(capacity * per).fill(fill);
      to.set(from);
      return to;
    };
    this.ids = grown(this.ids, 1, 0);
    this.slotLevel = grown(this.slotLevel, 1, -1);
    this.slotCell = grown(this.slotCell, 3, 0);
    this.slotIndex = grown(this.slotIndex, 1, 0);
    const shape = new Uint8Array(capacity);
    shape.set(this.shape);
    this.shape = shape;
    if (this.plain !== null) {
      const plain = new Float64Array(3 * capacity);
      plain.set(this.plain);
      this.plain = plain;
    }
    this.layer = grown(this.layer, 1, DEFAULT_LAYER);
    this.seesMask = grown(this.seesMask, 1, DEFAULT_SEES);
    this.capacity = capacity;
  }

  private level(l: number): Level {
    while (this.levels.length <= l) this.levels.push(new Level(levelSize(this.cellSize, this.levels.length)));
    return this.levels[l];
  }

  // ---- records ----------------------------------------------------------

  private takeBlock(): number {
    if (this.freeBlocks.length > 0) return this.freeBlocks.pop()!;
    this.blockData.push(new Float64Array(2 * RECORD));
    this.blockSlots.push(new Int32Array(2));
    return this.blockData.length - 1;
  }

  /** The block holding slot s's record. */
  private blockOf(s: number): number {
    const lv = this.levels[this.slotLevel[s]];
    const c = s * 3;
    const b = lv.find(this.slotCell[c], this.slotCell[c + 1], this.slotCell[c + 2]);
    return lv.table[b * BUCKET + 4];
  }

  /** Appends slot s's record (p, r) to its cell at level l. */
  private place(s: number, l: number, p: number[], r: number[]): void {
    const lv = this.level(l);
    this.append(lv, s, p, r);
    this.slotLevel[s] = l;
    if (lv.entities++ === 0) this.activate(l);
    if (r[0] >= 0) for (let a = 0; a < 3; a++) lv.reach[a] = Math.max(lv.reach[a], r[a]);
  }

  /** Writes slot s's record (p, r) at the end of its cell in level lv, creating the cell if needed. */
  private append(lv: Level, s: number, p: number[], r: number[]): void {
    const cx = lv.cell(p[0]);
    const cy = lv.cell(p[1]);
    const cz = lv.cell(p[2]);
    let b = lv.find(cx, cy, cz);
    if (b < 0) b = lv.create(cx, cy, cz, this.takeBlock());
    const e = b * BUCKET;
    const block = lv.table[e + 4];
    const k = lv.table[e + 3];
    if (k === this.blockSlots[block].length) {
      const data = new Float64Array(2 * k * RECORD);
      data.set(this.blockData[block]);
      const slots = new Int32Array(2 * k);
      slots.set(this.blockSlots[block]);
      this.blockData[block] = data;
      this.blockSlots[block] = slots;
    }
    const data = this.blockData[block];
    for (let a = 0; a < 3; a++) {
      data[k * RECORD + a] = p[a];
      data[k * RECORD + 3 + a] = r[a];
    }
    this.blockSlots[block][k] = s;
    lv.table[e + 3] = k + 1;
    this.slotCell[s * 3] = cx;
    this.slotCell[s * 3 + 1] = cy;
    this.slotCell[s * 3 + 2] = cz;
    this.slotIndex[s] = k;
  }

  /**
   * Each time a level's entities double (from CHOOSE_MIN on), picks its cell
   * side again: twice the base while cells hold few entities (a step then
   * reads fewer, fuller cells), the base once they fill up.
   */
  private chooseCellSize(l: number): void {
    const lv = this.levels[l];
    if (lv.entities < CHOOSE_MIN || lv.entities < 2 * lv.chosenAt) return;
    lv.chosenAt = lv.entities;
    // The population of the cell an entity stands in, on average: what a step reads per cell.
    let squares = 0;
    for (let e = 3; e < lv.table.length; e += BUCKET) squares += lv.table[e] * lv.table[e];
    const perCell = squares / lv.entities;
    const coarse = lv.size !== lv.base;
    if (!coarse && perCell < SPARSE_CELL) this.regrid(lv, lv.base * 2);
    else if (coarse && perCell > DENSE_CELL) this.regrid(lv, lv.base);
  }

  /** Re-cuts level lv into cells `size` wide: every record, in table order, goes to its new cell. */
  private regrid(lv: Level, size: number): void {
    const slots: number[] = [];
    const records: number[] = [];
    for (let e = 0; e < lv.table.length; e += BUCKET) {
      const count = lv.table[e + 3];
      if (count === 0) continue;
      const block = lv.table[e + 4];
      for (let k = 0; k < count; k++) slots.push(this.blockSlots[block][k]);
      records.push(...this.blockData[block].subarray(0, count * RECORD));
      this.freeBlocks.push(block);
    }
    lv.clearTable();
    lv.resize(size);
    const p = [0, 0, 0];
    const r = [0, 0, 0];
    slots.forEach((s, k) => {
      for (let a = 0; a < 3; a++) {
        p[a] = records[k * RECORD + a];
        r[a] = records[k * RECORD + 3 + a];
      }
      this.append(lv, s, p, r);
    });
  }

  /** Takes slot s's record out of its cell (the cell's last record fills the gap). */
  private unplace(s: number): void {
    const l = this.slotLevel[s];
    const lv = this.levels[l];
    const c = s * 3;
    const b = lv.find(this.slotCell[c], this.slotCell[c + 1], this.slotCell[c + 2]);
    const e = b * BUCKET;
    const block = lv.table[e + 4];
    const last = lv.table[e + 3] - 1;
    const k = this.slotIndex[s];
    if (k !== last) {
      const data = this.blockData[block];
      data.copyWithin(k * RECORD, last * RECORD, last * RECORD + RECORD);
      const moved = this.blockSlots[block][last];
      this.blockSlots[block][k] = moved;
      this.slotIndex[moved] = k;
    }
    lv.table[e + 3] = last;
    if (last === 0) {
      lv.delete(b);
      this.freeBlocks.push(block);
    }
    this.slotLevel[s] = -1;
    if (--lv.entities === 0) {
      lv.reset();
      this.active.splice(this.active.indexOf(l), 1);
    }
  }

  private activate(l: number): void {
    let k = this.active.length;
    while (k > 0 && this.active[k - 1] > l) k--;
    this.active.splice(k, 0, l);
  }

  /**
   * Sets slot s's shape to nRound and nMargin (with plain half-extents
   * nPlain) and masks to nLayer, nSees, counting them into circles, margins
   * and layered; the old ones (oRound, oMargin, oLayer, oSees) stay counted
   * until uncountOld, after the step, whose judgement needs them.
   */
  private setShape(s: number): void {
    this.circles += Number(this.nRound);
    this.margins += Number(this.nMargin);
    this.shape[s] = (this.nRound ? SHAPE_CIRCLE : 0) | (this.nMargin ? SHAPE_MARGIN : 0);
    if (this.nMargin) {
      this.plain ??= new Float64Array(3 * this.capacity);
      this.plain.set(this.nPlain, 3 * s);
    }
    this.layered += Number(this.nLayer !== DEFAULT_LAYER || this.nSees !== DEFAULT_SEES);
    this.layer[s] = this.nLayer;
    this.seesMask[s] = this.nSees;
  }

  /**
   * Which of a record's four answers (bits 0-3: it saw, sees the subject;
   * the subject saw, sees it) survive the exact test of circles, the layer
   * masks and the margin rule; a box keeps its answer. Called only while the
   * scene has circles, margins or masks other than the defaults. The record
   * (t at x, y, z) holds grown half-extents rx, ry, rz.
   */
  private refine(t: number, x: number, y: number, z: number, rx: number, ry: number, rz: number): number {
    const [ox, oy, oz] = this.o;
    const [nx, ny, nz] = this.n;
    let mask = 15;
    if ((this.seesMask[t] & this.oLayer) === 0) mask &= ~1;
    if ((this.seesMask[t] & this.nLayer) === 0) mask &= ~2;
    if ((this.oSees & this.layer[t]) === 0) mask &= ~4;
    if ((this.nSees & this.layer[t]) === 0) mask &= ~8;
    if ((this.shape[t] & SHAPE_CIRCLE) !== 0) {
      if (!inCircle(x, y, z, rx, ox, oy, oz)) mask &= ~1;
      if (!inCircle(x, y, z, rx, nx, ny, nz)) mask &= ~2;
    }
    if (this.oRound && !inCircle(ox, oy, oz, this.oldR[0], x, y, z)) mask &= ~4;
    if (this.nRound && !inCircle(nx, ny, nz, this.newR[0], x, y, z)) mask &= ~8;
    if (this.margins !== 0) mask = this.hysteresis(t, x, y, z, rx, ry, rz, mask);
    return mask;
  }

  /**
   * The margin rule on refine's answers, which so far mean "masks meet and
   * inside the grown shape": a pair is visible before the step when the
   * target is inside the plain range or the pair is held, and after it when
   * the target is inside the plain range, or was visible and is inside the
   * grown range. Moves the pair into or out of the held set to match.
   */
  private hysteresis(t: number, x: number, y: number, z: number, rx: number, ry: number, rz: number, mask: number): number {
    const w = this.subject;
    const [ox, oy, oz] = this.o;
    const [nx, ny, nz] = this.n;
    if ((this.shape[t] & SHAPE_MARGIN) !== 0 && (mask & 3) !== 0) {
      const plain = this.plain!;
      const round = (this.shape[t] & SHAPE_CIRCLE) !== 0;
      const i = 3 * t;
      const grownOld = (mask & 1) !== 0 && inBox(x, y, z, rx, ry, rz, ox, oy, oz);
      const grownNew = (mask & 2) !== 0 && inBox(x, y, z, rx, ry, rz, nx, ny, nz);
      const plainOld = grownOld && inRange(x, y, z, plain[i], plain[i + 1], plain[i + 2], round, ox, oy, oz);
      const plainNew = grownNew && inRange(x, y, z, plain[i], plain[i + 1], plain[i + 2], round, nx, ny, nz);
      const saw = plainOld || (grownOld && this.held.has(t, w));
      const sees = plainNew || (saw && grownNew);
      this.keepHeld(t, w, saw && !plainOld, sees && !plainNew);
      mask = (mask & ~3) | (saw ? 1 : 0) | (sees ? 2 : 0);
    }
    if ((this.oMargin || this.nMargin) && (mask & 12) !== 0) {
      const [orx, ory, orz] = this.oldR;
      const [nrx, nry, nrz] = this.newR;
      const op = this.oPlain;
      const np = this.nPlain;
      const grownOld = (mask & 4) !== 0 && inBox(ox, oy, oz, orx, ory, orz, x, y, z);
      const grownNew = (mask & 8) !== 0 && inBox(nx, ny, nz, nrx, nry, nrz, x, y, z);
      const plainOld = grownOld && (!this.oMargin || inRange(ox, oy, oz, op[0], op[1], op[2], this.oRound, x, y, z));
      const plainNew = grownNew && (!this.nMargin || inRange(nx, ny, nz, np[0], np[1], np[2], this.nRound, x, y, z));
      const was = plainOld || (grownOld && this.oMargin && this.held.has(w, t));
      const is = plainNew || (was && grownNew);
      this.keepHeld(w, t, was && !plainOld, is && !plainNew);
      mask = (mask & ~12) | (was ? 4 : 0) | (is ? 8 : 0);
    }
    return mask;
  }

  /** Adds the pair (w, t) to the held set or takes it out, when it was held (before) and is held (after) differ. */
  private keepHeld(w: number, t: number, before: boolean, after: boolean): void {
    if (before === after) return;
    if (after) this.held.add(w, t);
    else this.held.delete(w, t);
  }

  /** Slot s's place, half-extents and shape before a step: o, oldR, oRound, oMargin (and oPlain with a margin). */
  private readOld(s: number): void {
    this.read(s, this.o, this.oldR);
    this.oRound = (this.shape[s] & SHAPE_CIRCLE) !== 0;
    this.oMargin = (this.shape[s] & SHAPE_MARGIN) !== 0;
    if (this.oMargin) for (let a = 0; a < 3; a++) this.oPlain[a] = this.plain![3 * s + a];
    this.oLayer = this.layer[s];
    this.oSees = this.seesMask[s];
  }

  /** Counts the subject's old shape and masks out of circles and layered. */
  private uncountOld(): void {
    this.circles -= Number(this.oRound);
    this.margins -= Number(this.oMargin);
    this.layered -= Number(this.oLayer !== DEFAULT_LAYER || this.oSees !== DEFAULT_SEES);
  }

  /** The subject keeps its shape and masks through the step. */
  private keepShape(): void {
    this.nRound = this.oRound;
    this.nMargin = this.oMargin;
    if (this.oMargin) for (let a = 0; a < 3; a++) this.nPlain[a] = this.oPlain[a];
    this.nLayer = this.oLayer;
    this.nSees = this.oSees;
  }

  /** Slot s's position and half-extents (NaN half-extents for a marker). */
  private read(s: number, p: number[], r: number[]): void {
    const data = this.blockData[this.blockOf(s)];
    const i = this.slotIndex[s] * RECORD;
    for (let a = 0; a < 3; a++) {
      p[a] = data[i + a];
      r[a] = data[i + 3 + a];
    }
  }

  // ---- regions ----------------------------------------------------------

  /**
   * Writes into rect the cells of level lv that may matter around centre c:
   * the box of half-extents r (when r is a box) and, with `reach`, the cells
   * within the level's largest half-extent (with rounding slack). False when
   * there is nothing to read.
   */
  private region(lv: Level, c: number[], r: number[], reach: boolean, rect: Int32Array): boolean {
    for (let a = 0; a < 3; a++) {
      let lo = Infinity;
      let hi = -Infinity;
      if (r[a] >= 0) {
        lo = c[a] - r[a];
        hi = c[a] + r[a];
      }
      const e = lv.reach[a];
      if (reach && e >= 0) {
        const span = e + (Math.abs(c[a]) + e) * REACH_SLACK;
        lo = Math.min(lo, c[a] - span);
        hi = Math.max(hi, c[a] + span);
      }
      if (!(lo <= hi)) return false;
      rect[a] = lv.cell(lo);
      rect[a + 3] = lv.cell(hi);
    }
    return true;
  }

  /** Visits every occupied cell in rect: by coordinates, or from the table when the rect has more cells than the level. */
  private visitRect(lv: Level, rect: Int32Array): void {
    const t = lv.table;
    const cells = (rect[3] - rect[0] + 1) * (rect[4] - rect[1] + 1) * (rect[5] - rect[2] + 1);
    if (cells > SCAN_ALL_RATIO * lv.cells) {
      for (let b = 0; b <= lv.mask; b++) {
        const e = b * BUCKET;
        if (t[e + 3] === 0) continue;
        if (t[e] < rect[0] || t[e] > rect[3] || t[e + 1] < rect[1] || t[e + 1] > rect[4] || t[e + 2] < rect[2] || t[e + 2] > rect[5]) continue;
        this.visitCell(t[e + 4], t[e + 3]);
      }
      return;
    }
    for (let cz = rect[2]; cz <= rect[5]; cz++) {
      for (let cy = rect[1]; cy <= rect[4]; cy++) {
        for (let cx = rect[0]; cx <= rect[3]; cx++) {
          const b = lv.find(cx, cy, cz);
          if (b >= 0) this.visitCell(t[b * BUCKET + 4], t[b * BUCKET + 3]);
        }
      }
    }
  }

  /** Visits the union of two regions: as one bounding rect when they meet, else one after the other. */
  private visitRegions(lv: Level, hasA: boolean, hasB: boolean): void {
    const a = this.rectA;
    const b = this.rectB;
    if (hasA && hasB) {
      const meet = a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] && a[2] <= b[5] && b[2] <= a[5];
      if (meet) {
        for (let k = 0; k < 3; k++) {
          a[k] = Math.min(a[k], b[k]);
          a[k + 3] = Math.max(a[k + 3], b[k + 3]);
        }
        this.visitRect(lv, a);
        return;
      }
    }
    if (hasA) this.visitRect(lv, a);
    if (hasB) this.visitRect(lv, b);
  }

  /** Judges the step set in o, n, oldR, newR at every level that holds entities. */
  private judgeStep(): void {
    for (const l of this.active) {
      const lv = this.levels[l];
      this.visitRegions(lv, this.region(lv, this.o, this.oldR, true, this.rectA), this.region(lv, this.n, this.newR, true, this.rectB));
    }
  }

  private visitCell(block: number, count: number): void {
    const data = this.blockData[block];
    const slots = this.blockSlots[block];
    const w = this.subject;
    const [ox, oy, oz] = this.o;
    const [nx, ny, nz] = this.n;
    for (let k = 0; k < count; k++) {
      const t = slots[k];
      if (t === w) continue;
      const i = k * RECORD;
      const x = data[i];
      const y = data[i + 1];
      const z = data[i + 2];
      const rx = data[i + 3];
      const ry = data[i + 4];
      const rz = data[i + 5];
      switch (this.visit) {
        case Visit.Step: {
          const r0 = this.oldR;
          const r1 = this.newR;
          let saw = inBox(x, y, z, rx, ry, rz, ox, oy, oz);
          let sees = inBox(x, y, z, rx, ry, rz, nx, ny, nz);
          let wasSeen = inBox(ox, oy, oz, r0[0], r0[1], r0[2], x, y, z);
          let isSeen = inBox(nx, ny, nz, r1[0], r1[1], r1[2], x, y, z);
          if ((this.circles | this.layered | this.margins) !== 0 && (saw || sees || wasSeen || isSeen)) {
            const mask = this.refine(t, x, y, z, rx, ry, rz);
            saw &&= (mask & 1) !== 0;
            sees &&= (mask & 2) !== 0;
            wasSeen &&= (mask & 4) !== 0;
            isSeen &&= (mask & 8) !== 0;
          }
          if (saw) {
            if (!sees) this.emit(LEAVE, t, w);
            else if (this.moved) this.emit(MOVE, t, w);
          } else if (sees) {
            this.emit(ENTER, t, w);
          }
          if (wasSeen !== isSeen) this.emit(isSeen ? ENTER : LEAVE, w, t);
          break;
        }
        case Visit.Query: {
          const r = this.newR;
          if (inRange(nx, ny, nz, r[0], r[1], r[2], this.nRound, x, y, z) && (this.nSees & this.layer[t]) !== 0 && (!this.nMargin || this.visibleInside(w, t, nx, ny, nz, this.nPlain, this.nRound, x, y, z))) this.results.push(this.ids[t]);
          break;
        }
        case Visit.Watchers: {
          const shape = this.shape[t];
          if (
            inRange(x, y, z, rx, ry, rz, (shape & SHAPE_CIRCLE) !== 0, nx, ny, nz) &&
            (this.seesMask[t] & this.nLayer) !== 0 &&
            ((shape & SHAPE_MARGIN) === 0 || this.visibleInside(t, w, x, y, z, this.plain!.subarray(3 * t, 3 * t + 3), (shape & SHAPE_CIRCLE) !== 0, nx, ny, nz))
          )
            this.results.push(this.ids[t]);
          break;
        }
        case Visit.Box:
          if (ox <= x && x <= nx && oy <= y && y <= ny && oz <= z && z <= nz) this.results.push(this.ids[t]);
          break;
      }
    }
  }

  /**
   * Whether margin watcher w (at c, plain half-extents plain) sees t (at x,
   * y, z), given that t is inside w's grown range and the masks meet: t is
   * inside the plain range, or the pair is held.
   */
  private visibleInside(w: number, t: number, cx: number, cy: number, cz: number, plain: ArrayLike<number>, round: boolean, x: number, y: number, z: number): boolean {
    return inRange(cx, cy, cz, plain[0], plain[1], plain[2], round, x, y, z) || this.held.has(w, t);
  }

  private emit(type: number, watcher: number, target: number): void {
    this.events.push(type, this.ids[watcher], this.ids[target]);
  }

  /** Sets the step's subject and its place and half-extents before (o, oldR) and after (n, newR). */
  private begin(visit: Visit, s: number, moved: boolean): void {
    this.visit = visit;
    this.subject = s;
    this.moved = moved;
  }

  // ---- the operations -----------------------------------------------------

  /**
   * The subject's range after the step: plain half-extents nPlain, grown
   * ones newR (plain + margin, computed by addition so every core holds the
   * same bits; z stays 0 in 2-D) and nMargin. A marker has neither, and no
   * margin.
   */
  private setNewRange(watcher: boolean, rx: number, ry: number, rz: number, margin: number): void {
    const flatZ = this.dimensions === 3 ? rz : 0;
    this.nMargin = watcher && margin > 0;
    setRange3(this.nPlain, watcher, rx, ry, flatZ);
    if (this.nMargin) setRange3(this.newR, true, rx + margin, ry + margin, this.dimensions === 3 ? rz + margin : 0);
    else setRange3(this.newR, watcher, rx, ry, flatZ);
  }

  /** The level of the subject's new grown range: the lowest whose cells are at least its largest half-extent (a marker's: see markerLevel). */
  private rangeLevel(): number {
    const r = this.newR;
    return r[0] >= 0 ? levelFor(this.cellSize, Math.max(r[0], r[1], r[2])) : this.markerLevel();
  }

  /**
   * The level a marker goes to: the lowest holding a watcher, else the
   * lowest holding anything, else 0. A marker sees nothing, so any level
   * holds it rightly; on a level of its own it would make every step visit
   * one more level's cells.
   */
  private markerLevel(): number {
    for (const l of this.active) if (this.levels[l].reach[0] >= 0) return l;
    return this.active.length > 0 ? this.active[0] : 0;
  }

  /**
   * Adds entity `slot` (free) with user id `id`; a marker (watcher = false)
   * sees nothing. A watcher's `margin` (>= 0) keeps a target seen until it
   * is outside the range grown by the margin.
   */
  add(slot: number, id: number, x: number, y: number, z: number, rx: number, ry: number, rz: number, watcher: boolean, round = false, layer = DEFAULT_LAYER, sees = DEFAULT_SEES, margin = 0): void {
    this.ensureSlot(slot);
    this.ids[slot] = id;
    this.oRound = false;
    this.oMargin = false;
    this.oLayer = DEFAULT_LAYER;
    this.oSees = DEFAULT_SEES;
    this.nRound = watcher && round;
    this.nLayer = layer;
    this.nSees = sees;
    this.setNewRange(watcher, rx, ry, rz, margin);
    this.setShape(slot);
    const n = this.n;
    n[0] = x;
    n[1] = y;
    n[2] = this.dimensions === 3 ? z : 0;
    this.place(slot, this.rangeLevel(), n, this.newR);
    this.o.fill(NaN);
    this.oldR.fill(NaN);
    this.begin(Visit.Step, slot, false);
    this.judgeStep();
    this.uncountOld();
    this.chooseCellSize(this.slotLevel[slot]);
  }

  /** Moves entity `slot` to (x, y, z); a move to where it stands changes nothing. */
  move(slot: number, x: number, y: number, z: number): void {
    const o = this.o;
    this.readOld(slot);
    if (this.dimensions === 2) z = 0;
    if (o[0] === x && o[1] === y && o[2] === z) return;
    const n = this.n;
    n[0] = x;
    n[1] = y;
    n[2] = z;
    for (let a = 0; a < 3; a++) this.newR[a] = this.oldR[a];
    this.keepShape();
    this.relocate(slot, n);
    this.begin(Visit.Step, slot, this.moveEvents);
    this.judgeStep();
  }

  /** Moves slot s's record to position p: in place when the cell stays, else to the new cell. */
  private relocate(s: number, p: number[]): void {
    const lv = this.levels[this.slotLevel[s]];
    const c = s * 3;
    if (lv.cell(p[0]) === this.slotCell[c] && lv.cell(p[1]) === this.slotCell[c + 1] && lv.cell(p[2]) === this.slotCell[c + 2]) {
      const data = this.blockData[this.blockOf(s)];
      const i = this.slotIndex[s] * RECORD;
      data[i] = p[0];
      data[i + 1] = p[1];
      data[i + 2] = p[2];
      return;
    }
    const l = this.slotLevel[s];
    this.unplace(s);
    this.place(s, this.newR[0] >= 0 ? l : this.markerLevel(), p, this.newR);
  }

  /** Removes entity `slot`: everyone who saw it, and everyone it saw, gets a leave. */
  remove(slot: number): void {
    this.readOld(slot);
    this.nRound = false;
    this.nMargin = false;
    this.nLayer = DEFAULT_LAYER;
    this.nSees = DEFAULT_SEES;
    this.setShape(slot);
    this.unplace(slot);
    this.n.fill(NaN);
    this.newR.fill(NaN);
    this.begin(Visit.Step, slot, false);
    this.judgeStep();
    this.uncountOld();
  }

  /**
   * Changes what `slot` sees (its level follows its new largest grown
   * half-extent); `round`: a circle of radius rx; `margin`: as in add. Held
   * pairs stay visible while inside the new grown range.
   */
  setRange(slot: number, rx: number, ry: number, rz: number, watcher: boolean, round = false, margin = 0): void {
    this.readOld(slot);
    this.keepShape();
    this.nRound = watcher && round;
    this.setNewRange(watcher, rx, ry, rz, margin);
    this.setShape(slot);
    this.n.splice(0, 3, ...this.o);
    this.unplace(slot);
    this.place(slot, this.rangeLevel(), this.n, this.newR);
    this.begin(Visit.Step, slot, false);
    this.judgeStep();
    this.uncountOld();
    this.chooseCellSize(this.slotLevel[slot]);
  }

  /** Changes `slot`'s masks: enter / leave for every pair, with slot as watcher or as target, whose visibility changes. */
  setLayers(slot: number, layer: number, sees: number): void {
    this.readOld(slot);
    this.n.splice(0, 3, ...this.o);
    for (let a = 0; a < 3; a++) this.newR[a] = this.oldR[a];
    this.keepShape();
    this.nLayer = layer;
    this.nSees = sees;
    this.setShape(slot);
    this.begin(Visit.Step, slot, false);
    this.judgeStep();
    this.uncountOld();
  }

  /** Applies moves in order: slots[k] to (xs[k], ys[k], zs[k]). */
  moveMany(slots: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null): void {
    for (let k = 0; k < slots.length; k++) this.move(slots[k], xs[k], ys[k], zs === null ? 0 : zs[k]);
  }

  /** Adds in array order, with the events of as many add calls. */
  addMany(slots: Int32Array, ids: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null, ranges: Float64Array): void {
    for (let k = 0; k < slots.length; k++) {
      const r = ranges[k];
      this.add(slots[k], ids[k], xs[k], ys[k], zs === null ? 0 : zs[k], r, r, r, true);
    }
  }

  /** Where `slot` stands (z is 0 in 2-D scenes). */
  position(slot: number): { x: number; y: number; z: number } {
    this.read(slot, this.n, this.newR);
    return { x: this.n[0], y: this.n[1], z: this.n[2] };
  }

  /** x, y, z of each slot, in order. */
  positions(slots: Int32Array): Float64Array {
    const out = new Float64Array(3 * slots.length);
    for (let k = 0; k < slots.length; k++) {
      this.read(slots[k], this.n, this.newR);
      out[3 * k] = this.n[0];
      out[3 * k + 1] = this.n[1];
      out[3 * k + 2] = this.n[2];
    }
    return out;
  }

  /** Ids that `slot` sees, unordered. */
  query(slot: number): number[] {
    this.readOld(slot);
    this.read(slot, this.n, this.newR);
    this.keepShape();
    return this.collect(Visit.Query, slot, false);
  }

  /** Ids that see `slot`, unordered. */
  watchers(slot: number): number[] {
    this.readOld(slot);
    this.keepShape();
    this.read(slot, this.n, this.newR);
    this.newR.fill(NaN);
    return this.collect(Visit.Watchers, slot, true);
  }

  /** Ids positioned in the closed box, unordered. */
  queryBox(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number[] {
    if (this.dimensions === 2) {
      minZ = 0;
      maxZ = 0;
    }
    const lo = this.o;
    const hi = this.n;
    lo.splice(0, 3, minX, minY, minZ);
    hi.splice(0, 3, maxX, maxY, maxZ);
    this.begin(Visit.Box, 0, false);
    this.results = [];
    for (const l of this.active) {
      const lv = this.levels[l];
      const rect = this.rectA;
      for (let a = 0; a < 3; a++) {
        rect[a] = lv.cell(lo[a]);
        rect[a + 3] = lv.cell(hi[a]);
      }
      this.visitRect(lv, rect);
    }
    return this.results;
  }

  /** Layer mask of slot s. */
  private layerOf(s: number): number {
    return this.layer[s];
  }

  /**
   * Ids of the k entities nearest to (x, y, z), nearest first (see KNearest).
   * At each level holding entities, rings of cells outward from the point's
   * cell, until a ring's distance exceeds the k-th best; once the rings
   * would read more cells than the level holds, its table instead.
   */
  nearest(x: number, y: number, z: number, k: number, maxDistance: number, filtered: boolean, mask: number): Int32Array {
    const picker = this.picker;
    picker.reset(k, maxDistance, filtered, mask);
    if (this.dimensions === 2) z = 0;
    for (const l of this.active) this.nearestInLevel(this.levels[l], x, y, z, picker);
    return picker.take();
  }

  private nearestInLevel(lv: Level, x: number, y: number, z: number, picker: KNearest): void {
    const t = lv.table;
    const cx = lv.cell(x);
    const cy = lv.cell(y);
    const cz = lv.cell(z);
    const flat = this.dimensions === 2;
    const scale = Math.abs(x) + Math.abs(y) + Math.abs(z);
    let read = 0;
    for (let r = 0; ; r++) {
      if (beyondBound(ringGap(lv.size, r), scale, picker.bound())) return;
      const ringCells = flat ? (2 * r + 1) ** 2 - Math.max(0, 2 * r - 1) ** 2 : (2 * r + 1) ** 3 - Math.max(0, 2 * r - 1) ** 3;
      if (read + ringCells > SCAN_ALL_RATIO * lv.cells) {
        // The table, for every cell at ring r or beyond that can still hold a winner.
        for (let e = 0; e < t.length; e += BUCKET) {
          if (t[e + 3] === 0) continue;
          const ring = Math.max(Math.abs(t[e] - cx), Math.abs(t[e + 1] - cy), Math.abs(t[e + 2] - cz));
          if (ring < r || beyondBound(ringGap(lv.size, ring), scale, picker.bound())) continue;
          this.nearestInCell(t[e + 4], t[e + 3], x, y, z, picker);
        }
        return;
      }
      read += ringCells;
      const rz = flat ? 0 : r;
      for (let dz = -rz; dz <= rz; dz++) {
        for (let dy = -r; dy <= r; dy++) {
          // Inside the ring's shell only the two ends of a row belong to it.
          const wholeRow = dy === -r || dy === r || (!flat && (dz === -rz || dz === rz));
          for (let dx = -r; dx <= r; dx += wholeRow || r === 0 ? 1 : 2 * r) {
            const b = lv.find(cx + dx, cy + dy, cz + dz);
            if (b >= 0) this.nearestInCell(t[b * BUCKET + 4], t[b * BUCKET + 3], x, y, z, picker);
          }
        }
      }
    }
  }

  private nearestInCell(block: number, count: number, x: number, y: number, z: number, picker: KNearest): void {
    const data = this.blockData[block];
    const slots = this.blockSlots[block];
    for (let k = 0; k < count; k++) {
      const s = slots[k];
      const i = k * RECORD;
      picker.offer(this.ids[s], this.layerOf(s), data[i], data[i + 1], data[i + 2], x, y, z);
    }
  }

  /** Visits, at every level, the region around n (the box newR, with others' reach): results. */
  private collect(visit: Visit, slot: number, reach: boolean): number[] {
    this.begin(visit, slot, false);
    this.results = [];
    for (const l of this.active) {
      const lv = this.levels[l];
      if (this.region(lv, this.n, this.newR, reach, this.rectA)) this.visitRect(lv, this.rectA);
    }
    return this.results;
  }

  /** Every held pair (visible only thanks to the watcher's margin) as slots [w0, t0, w1, t1, ...], in no particular order. */
  heldPairs(): Int32Array {
    return Int32Array.from(this.held.list());
  }

  /**
   * Makes (w, t) visible when w is a watcher, the masks meet, t is inside
   * w's grown range and the pair is not visible (an enter, and the pair
   * joins the held set, t being outside the plain range); otherwise nothing
   * happens. Restores a snapshot's held pairs.
   */
  hold(w: number, t: number): void {
    if (w === t) return;
    this.readOld(w);
    const [cx, cy, cz] = this.o;
    const r = this.oldR;
    if (!(r[0] >= 0) || (this.oSees & this.layer[t]) === 0) return;
    this.read(t, this.n, this.newR);
    const [x, y, z] = this.n;
    if (!inRange(cx, cy, cz, r[0], r[1], r[2], this.oRound, x, y, z)) return;
    if (!this.oMargin || this.visibleInside(w, t, cx, cy, cz, this.oPlain, this.oRound, x, y, z)) return;
    this.held.add(w, t);
    this.emit(ENTER, w, t);
  }

  /** The flat event buffer [type, watcherId, targetId, ...] since the last drain, then forgets it. */
  drain(): Int32Array {
    return this.events.drain();
  }

  /** Forgets every entity and every pending event. */
  clear(): void {
    for (const lv of this.levels) lv.reset();
    this.active.length = 0;
    this.slotLevel.fill(-1);
    this.circles = 0;
    this.margins = 0;
    this.held.clear();
    this.layered = 0;
    this.blockData.length = 0;
    this.blockSlots.length = 0;
    this.freeBlocks.length = 0;
    this.events.clear();
  }
}

/**
 * The least distance on some axis from a point to any entity in a cell r
 * rings out from the point's cell (cells `size` wide): r - 1 whole cells.
 */
function ringGap(size: number, r: number): number {
  return r <= 1 ? 0 : (r - 1) * size;
}

/** True when the box centred on (cx, cy, cz) with half-extents (rx, ry, rz) holds the point (x, y, z); NaN anywhere: false. */
function inBox(cx: number, cy: number, cz: number, rx: number, ry: number, rz: number, x: number, y: number, z: number): boolean {
  return cx - rx <= x && x <= cx + rx && cy - ry <= y && y <= cy + ry && cz - rz <= z && z <= cz + rz;
}

/** True when the range centred on c (half-extents rx, ry, rz; with `round`, the circle of radius rx) holds the point. */
function inRange(cx: number, cy: number, cz: number, rx: number, ry: number, rz: number, round: boolean, x: number, y: number, z: number): boolean {
  return inBox(cx, cy, cz, rx, ry, rz, x, y, z) && (!round || inCircle(cx, cy, cz, rx, x, y, z));
}

/** Half-extents of a watcher, or NaN for a marker (no box holds anything). */
function setRange3(r: number[], watcher: boolean, rx: number, ry: number, rz: number): void {
  r[0] = watcher ? rx : NaN;
  r[1] = watcher ? ry : NaN;
  r[2] = watcher ? rz : NaN;
}
