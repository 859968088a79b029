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
// A cell keeps its entities' records together in its block: slot, position
// and half-extents. A step of its subject W, at each level that holds
// entities, reads the cells that can hold a change: W's old and new boxes,
// and the cells within that level's largest half-extent of W's old and new
// places (whoever there may see W). Every record read is judged on W's old
// and new place against both boxes, so enter, leave and move events come
// straight from the scan: no watcher sets are kept.
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
/**
 * A bucket: one cell in a level's table, its ints at these offsets (as
 * BUCKET_CX... in assembly/scene/grid-records.ts): the cell's coordinates,
 * its records' count (0: the bucket is empty) and its block. A const enum,
 * so the offsets are inlined where they are read.
 */
const enum BucketField {
  CX = 0,
  CY = 1,
  CZ = 2,
  COUNT = 3,
  BLOCK = 4,
  INTS = 5,
}
/**
 * A record: one entity in its cell's block, its doubles at these offsets
 * (as RECORD_X... in grid-records.ts): its position and grown half-extents
 * (NaN: a marker); its slot stands beside it, in the block's slots.
 */
const enum RecordField {
  X = 0,
  Y = 1,
  Z = 2,
  RX = 3,
  RY = 4,
  RZ = 5,
  DOUBLES = 6,
}
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
  table = new Int32Array(8 * BucketField.INTS);
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
    this.table = new Int32Array(8 * BucketField.INTS);
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
      const e = b * BucketField.INTS;
      if (t[e + BucketField.COUNT] === 0) return -1;
      if (t[e + BucketField.CX] === cx && t[e + BucketField.CY] === cy && t[e + BucketField.CZ] === cz) return b;
    }
  }

  /** Claims an empty bucket for a new cell (count still 0: the caller appends at once). */
  create(cx: number, cy: number, cz: number, block: number): number {
    if ((this.cells + 1) * 2 > this.mask + 1) this.grow();
    const t = this.table;
    let b = cellHash(cx, cy, cz, this.mask);
    while (t[b * BucketField.INTS + BucketField.COUNT] !== 0) b = (b + 1) & this.mask;
    const e = b * BucketField.INTS;
    t[e + BucketField.CX] = cx;
    t[e + BucketField.CY] = cy;
    t[e + BucketField.CZ] = cz;
    t[e + BucketField.BLOCK] = block;
    this.cells++;
    return b;
  }

  private grow(): void {
    const old = this.table;
    this.mask = this.mask * 2 + 1;
    this.table = new Int32Array((this.mask + 1) * BucketField.INTS);
    for (let e = 0; e < old.length; e += BucketField.INTS) {
      if (old[e + BucketField.COUNT] === 0) continue;
      let b = cellHash(old[e + BucketField.CX], old[e + BucketField.CY], old[e + BucketField.CZ], this.mask);
      while (this.table[b * BucketField.INTS + BucketField.COUNT] !== 0) b = (b + 1) & this.mask;
      this.table.set(old.subarray(e, e + BucketField.INTS), b * BucketField.INTS);
    }
  }

  /** Empties bucket b, shifting later entries of its probe run back so every lookup still finds them. */
  delete(b: number): void {
    const t = this.table;
    const mask = this.mask;
    let hole = b;
    for (let j = (b + 1) & mask; t[j * BucketField.INTS + BucketField.COUNT] !== 0; j = (j + 1) & mask) {
      const home = cellHash(t[j * BucketField.INTS + BucketField.CX], t[j * BucketField.INTS + BucketField.CY], t[j * BucketField.INTS + BucketField.CZ], mask);
      // The entry at j may fill the hole unless its home lies cyclically in (hole, j].
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      t.copyWithin(hole * BucketField.INTS, j * BucketField.INTS, j * BucketField.INTS + BucketField.INTS);
      hole = j;
    }
    t[hole * BucketField.INTS + BucketField.COUNT] = 0;
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

/** What a visit of a region's cells does with the records it reads (as in assembly/scene/grid.ts). */
const enum Visit {
  /** Judges each record against the step's subject before and after: events. */
  Step,
  /** Collects the ids inside the subject's range. */
  Query,
  /** Collects the ids whose range holds the subject. */
  Watchers,
  /** Collects the ids inside a query box. */
  Box,
}

/** The grid core of one scene. Slots are chosen by the caller; ids are only carried into events. */
export class GridIndexCore extends CallLog implements SceneBackend {
  private readonly levels: Level[] = [];
  /** Levels holding entities, ascending. */
  private readonly active: number[] = [];
  private capacity = 0;
  /** The k best of a nearest search. */
  private readonly picker = new KNearest();
  /**
   * The slot table, a column per field of grid-records.ts's slot: the
   * user's id, the level holding the slot's record (-1: the slot is free),
   * its cell (3 per slot) and its record's index in the cell's block.
   */
  private slotId = new Int32Array(0);
  private slotLevel = new Int32Array(0);
  private slotCell = new Int32Array(0);
  private slotIndex = new Int32Array(0);
  /** Shape bits of each slot (SHAPE_CIRCLE, SHAPE_MARGIN). */
  private slotShape = new Uint8Array(0);
  /** Watchers with a circle: while there are none, no judgement looks at shapes. */
  private circles = 0;
  /** Watchers with a margin: while there are none, no judgement looks at margins or the held set. */
  private margins = 0;
  /** Plain half-extents (3 per slot) of the slots with a margin; allocated with the first margin. */
  private plain: Float64Array | null = null;
  /** The held pairs (visible only thanks to a margin), every watcher's held targets in one set. */
  protected readonly held = new HeldPairs();
  /** Layer masks: W sees T only when seesMask[W] & layer[T] is not 0. */
  private layer = new Int32Array(0);
  private seesMask = new Int32Array(0);
  /** Entities with masks other than the defaults: while there are none, no judgement looks at masks. */
  private layered = 0;
  /** Record blocks of cells: blockData[k] holds a record (RecordField.DOUBLES doubles) per entity, blockSlots[k] their slots. */
  private readonly blockData: Float64Array[] = [];
  private readonly blockSlots: Int32Array[] = [];
  private readonly freeBlocks: number[] = [];
  private results: number[] = [];
  // The step being judged, as the Step record of assembly/scene/grid-step.ts
  // holds it: the subject (the slot that arrives, moves, changes or leaves,
  // or whose query runs), its before and after sides, and the regions of
  // one level read around them.
  private visit = Visit.Step;
  private subject = 0;
  /** Pairs that see each other before and after get a move event. */
  private moved = false;
  /** False when the scene reports no move events: a move's step then judges as if nothing moved. */
  moveEvents = true;
  /** Each side's place (x, y, z; NaN where the subject is not in the scene) and grown half-extents (range + margin; NaN: a marker). */
  private readonly beforePlace = [0, 0, 0];
  private readonly afterPlace = [0, 0, 0];
  private readonly beforeGrown = [0, 0, 0];
  private readonly afterGrown = [0, 0, 0];
  /** The subject's range is a circle (sphere) of radius its first half-extent, before and after the step. */
  private beforeRound = false;
  private afterRound = false;
  /** The subject is a watcher with a margin before and after the step, and then these plain half-extents (the range without its margin). */
  private beforeMargin = false;
  private afterMargin = false;
  private readonly beforePlain = [0, 0, 0];
  private readonly afterPlain = [0, 0, 0];
  /** The subject's masks before and after the step. */
  private beforeLayer = DEFAULT_LAYER;
  private beforeSees = DEFAULT_SEES;
  private afterLayer = DEFAULT_LAYER;
  private afterSees = DEFAULT_SEES;
  /** The cells of one level around the subject's place before and after the step: x0, y0, z0, x1, y1, z1, inclusive (as grid-step.ts's Region). */
  private readonly regionBefore = new Int32Array(6);
  private readonly regionAfter = new Int32Array(6);

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
    this.slotId = grown(this.slotId, 1, 0);
    this.slotLevel = grown(this.slotLevel, 1, -1);
    this.slotCell = grown(this.slotCell, 3, 0);
    this.slotIndex = grown(this.slotIndex, 1, 0);
    const shape = new Uint8Array(capacity);
    shape.set(this.slotShape);
    this.slotShape = shape;
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
    this.blockData.push(new Float64Array(2 * RecordField.DOUBLES));
    this.blockSlots.push(new Int32Array(2));
    return this.blockData.length - 1;
  }

  /** The block holding slot s's record. */
  private blockOf(s: number): number {
    const lv = this.levels[this.slotLevel[s]];
    const c = s * 3;
    const b = lv.find(this.slotCell[c], this.slotCell[c + 1], this.slotCell[c + 2]);
    return lv.table[b * BucketField.INTS + BucketField.BLOCK];
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
    const e = b * BucketField.INTS;
    const block = lv.table[e + BucketField.BLOCK];
    const k = lv.table[e + BucketField.COUNT];
    if (k === this.blockSlots[block].length) {
      const data = new Float64Array(2 * k * RecordField.DOUBLES);
      data.set(this.blockData[block]);
      const slots = new Int32Array(2 * k);
      slots.set(this.blockSlots[block]);
      this.blockData[block] = data;
      this.blockSlots[block] = slots;
    }
    const data = this.blockData[block];
    for (let a = 0; a < 3; a++) {
      data[k * RecordField.DOUBLES + RecordField.X + a] = p[a];
      data[k * RecordField.DOUBLES + RecordField.RX + a] = r[a];
    }
    this.blockSlots[block][k] = s;
    lv.table[e + BucketField.COUNT] = k + 1;
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
    for (let e = BucketField.COUNT; e < lv.table.length; e += BucketField.INTS) squares += lv.table[e] * lv.table[e];
    const perCell = squares / lv.entities;
    const coarse = lv.size !== lv.base;
    if (!coarse && perCell < SPARSE_CELL) this.regrid(lv, lv.base * 2);
    else if (coarse && perCell > DENSE_CELL) this.regrid(lv, lv.base);
  }

  /** Re-cuts level lv into cells `size` wide: every record, in table order, goes to its new cell. */
  private regrid(lv: Level, size: number): void {
    const slots: number[] = [];
    const records: number[] = [];
    for (let e = 0; e < lv.table.length; e += BucketField.INTS) {
      const count = lv.table[e + BucketField.COUNT];
      if (count === 0) continue;
      const block = lv.table[e + BucketField.BLOCK];
      for (let k = 0; k < count; k++) slots.push(this.blockSlots[block][k]);
      records.push(...this.blockData[block].subarray(0, count * RecordField.DOUBLES));
      this.freeBlocks.push(block);
    }
    lv.clearTable();
    lv.resize(size);
    const p = [0, 0, 0];
    const r = [0, 0, 0];
    slots.forEach((s, k) => {
      for (let a = 0; a < 3; a++) {
        p[a] = records[k * RecordField.DOUBLES + RecordField.X + a];
        r[a] = records[k * RecordField.DOUBLES + RecordField.RX + a];
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
    const e = b * BucketField.INTS;
    const block = lv.table[e + BucketField.BLOCK];
    const last = lv.table[e + BucketField.COUNT] - 1;
    const k = this.slotIndex[s];
    if (k !== last) {
      const data = this.blockData[block];
      data.copyWithin(k * RecordField.DOUBLES, last * RecordField.DOUBLES, last * RecordField.DOUBLES + RecordField.DOUBLES);
      const moved = this.blockSlots[block][last];
      this.blockSlots[block][k] = moved;
      this.slotIndex[moved] = k;
    }
    lv.table[e + BucketField.COUNT] = last;
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
   * Sets slot s's shape and masks to the after side's (afterRound,
   * afterMargin with afterPlain, afterLayer, afterSees), counting them into
   * circles, margins and layered; the before side's stay counted until
   * uncount, after the step, whose judgement needs them.
   */
  private setShape(s: number): void {
    this.circles += Number(this.afterRound);
    this.margins += Number(this.afterMargin);
    this.slotShape[s] = (this.afterRound ? SHAPE_CIRCLE : 0) | (this.afterMargin ? SHAPE_MARGIN : 0);
    if (this.afterMargin) {
      this.plain ??= new Float64Array(3 * this.capacity);
      this.plain.set(this.afterPlain, 3 * s);
    }
    this.layered += Number(this.afterLayer !== DEFAULT_LAYER || this.afterSees !== DEFAULT_SEES);
    this.layer[s] = this.afterLayer;
    this.seesMask[s] = this.afterSees;
  }

  /**
   * Which of a record's four answers (bits 0-3: it saw, sees the subject;
   * the subject saw, sees it) survive the exact test of circles, the layer
   * masks and the margin rule; a box keeps its answer. Called only while the
   * scene has circles, margins or masks other than the defaults. The record
   * (t at x, y, z) holds grown half-extents rx, ry, rz.
   */
  private refine(t: number, x: number, y: number, z: number, rx: number, ry: number, rz: number): number {
    const [ox, oy, oz] = this.beforePlace;
    const [nx, ny, nz] = this.afterPlace;
    let mask = 15;
    if ((this.seesMask[t] & this.beforeLayer) === 0) mask &= ~1;
    if ((this.seesMask[t] & this.afterLayer) === 0) mask &= ~2;
    if ((this.beforeSees & this.layer[t]) === 0) mask &= ~4;
    if ((this.afterSees & this.layer[t]) === 0) mask &= ~8;
    if ((this.slotShape[t] & SHAPE_CIRCLE) !== 0) {
      if (!inCircle(x, y, z, rx, ox, oy, oz)) mask &= ~1;
      if (!inCircle(x, y, z, rx, nx, ny, nz)) mask &= ~2;
    }
    if (this.beforeRound && !inCircle(ox, oy, oz, this.beforeGrown[0], x, y, z)) mask &= ~4;
    if (this.afterRound && !inCircle(nx, ny, nz, this.afterGrown[0], x, y, z)) mask &= ~8;
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
    const [ox, oy, oz] = this.beforePlace;
    const [nx, ny, nz] = this.afterPlace;
    if ((this.slotShape[t] & SHAPE_MARGIN) !== 0 && (mask & 3) !== 0) {
      const plain = this.plain!;
      const round = (this.slotShape[t] & SHAPE_CIRCLE) !== 0;
      const i = 3 * t;
      const grownBefore = (mask & 1) !== 0 && inBox(x, y, z, rx, ry, rz, ox, oy, oz);
      const grownAfter = (mask & 2) !== 0 && inBox(x, y, z, rx, ry, rz, nx, ny, nz);
      const plainBefore = grownBefore && inRange(x, y, z, plain[i], plain[i + 1], plain[i + 2], round, ox, oy, oz);
      const plainAfter = grownAfter && inRange(x, y, z, plain[i], plain[i + 1], plain[i + 2], round, nx, ny, nz);
      const saw = plainBefore || (grownBefore && this.held.has(t, w));
      const sees = plainAfter || (saw && grownAfter);
      this.keepHeld(t, w, saw && !plainBefore, sees && !plainAfter);
      mask = (mask & ~3) | (saw ? 1 : 0) | (sees ? 2 : 0);
    }
    if ((this.beforeMargin || this.afterMargin) && (mask & 12) !== 0) {
      const [orx, ory, orz] = this.beforeGrown;
      const [nrx, nry, nrz] = this.afterGrown;
      const op = this.beforePlain;
      const np = this.afterPlain;
      const grownBefore = (mask & 4) !== 0 && inBox(ox, oy, oz, orx, ory, orz, x, y, z);
      const grownAfter = (mask & 8) !== 0 && inBox(nx, ny, nz, nrx, nry, nrz, x, y, z);
      const plainBefore = grownBefore && (!this.beforeMargin || inRange(ox, oy, oz, op[0], op[1], op[2], this.beforeRound, x, y, z));
      const plainAfter = grownAfter && (!this.afterMargin || inRange(nx, ny, nz, np[0], np[1], np[2], this.afterRound, x, y, z));
      const was = plainBefore || (grownBefore && this.beforeMargin && this.held.has(w, t));
      const is = plainAfter || (was && grownAfter);
      this.keepHeld(w, t, was && !plainBefore, is && !plainAfter);
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

  /** Reads slot s into the step's before side: place, grown (and, with a margin, plain) half-extents, shape, masks. */
  private readOld(s: number): void {
    this.read(s, this.beforePlace, this.beforeGrown);
    this.beforeRound = (this.slotShape[s] & SHAPE_CIRCLE) !== 0;
    this.beforeMargin = (this.slotShape[s] & SHAPE_MARGIN) !== 0;
    if (this.beforeMargin) for (let a = 0; a < 3; a++) this.beforePlain[a] = this.plain![3 * s + a];
    this.beforeLayer = this.layer[s];
    this.beforeSees = this.seesMask[s];
  }

  /** Counts the before side's shape and masks out of circles, margins and layered. */
  private uncount(): void {
    this.circles -= Number(this.beforeRound);
    this.margins -= Number(this.beforeMargin);
    this.layered -= Number(this.beforeLayer !== DEFAULT_LAYER || this.beforeSees !== DEFAULT_SEES);
  }

  /** The subject keeps its shape and masks through the step. */
  private keepShape(): void {
    this.afterRound = this.beforeRound;
    this.afterMargin = this.beforeMargin;
    if (this.beforeMargin) for (let a = 0; a < 3; a++) this.afterPlain[a] = this.beforePlain[a];
    this.afterLayer = this.beforeLayer;
    this.afterSees = this.beforeSees;
  }

  /** Slot s's position and half-extents (NaN half-extents for a marker). */
  private read(s: number, p: number[], r: number[]): void {
    const data = this.blockData[this.blockOf(s)];
    const i = this.slotIndex[s] * RecordField.DOUBLES;
    for (let a = 0; a < 3; a++) {
      p[a] = data[i + RecordField.X + a];
      r[a] = data[i + RecordField.RX + a];
    }
  }

  // ---- regions ----------------------------------------------------------

  /**
   * Writes into `into` the cells of level lv that may matter around place c:
   * the box of half-extents r (when it has one) and, with `reach`, the cells
   * within the level's largest half-extents (others who may see it, with
   * rounding slack). False when there is nothing to read.
   */
  private region(lv: Level, c: number[], r: number[], reach: boolean, into: Int32Array): boolean {
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
      into[a] = lv.cell(lo);
      into[a + 3] = lv.cell(hi);
    }
    return true;
  }

  /** Visits every occupied cell of `area` in level lv: by coordinates, or from the table when the area has more cells than the level. */
  private visitRect(lv: Level, area: Int32Array): void {
    const t = lv.table;
    const cells = (area[3] - area[0] + 1) * (area[4] - area[1] + 1) * (area[5] - area[2] + 1);
    if (cells > SCAN_ALL_RATIO * lv.cells) {
      for (let b = 0; b <= lv.mask; b++) {
        const e = b * BucketField.INTS;
        if (t[e + BucketField.COUNT] === 0) continue;
        if (t[e + BucketField.CX] < area[0] || t[e + BucketField.CX] > area[3] || t[e + BucketField.CY] < area[1] || t[e + BucketField.CY] > area[4] || t[e + BucketField.CZ] < area[2] || t[e + BucketField.CZ] > area[5]) continue;
        this.visitCell(t[e + BucketField.BLOCK], t[e + BucketField.COUNT]);
      }
      return;
    }
    for (let cz = area[2]; cz <= area[5]; cz++) {
      for (let cy = area[1]; cy <= area[4]; cy++) {
        for (let cx = area[0]; cx <= area[3]; cx++) {
          const b = lv.find(cx, cy, cz);
          if (b >= 0) this.visitCell(t[b * BucketField.INTS + BucketField.BLOCK], t[b * BucketField.INTS + BucketField.COUNT]);
        }
      }
    }
  }

  /** Visits the regions before and after the step: as one block of cells covering both when they meet, else one after the other. */
  private visitRegions(lv: Level, hasBefore: boolean, hasAfter: boolean): void {
    const before = this.regionBefore;
    const after = this.regionAfter;
    if (hasBefore && hasAfter) {
      const meets = before[0] <= after[3] && after[0] <= before[3] && before[1] <= after[4] && after[1] <= before[4] && before[2] <= after[5] && after[2] <= before[5];
      if (meets) {
        for (let k = 0; k < 3; k++) {
          before[k] = Math.min(before[k], after[k]);
          before[k + 3] = Math.max(before[k + 3], after[k + 3]);
        }
        this.visitRect(lv, before);
        return;
      }
    }
    if (hasBefore) this.visitRect(lv, before);
    if (hasAfter) this.visitRect(lv, after);
  }

  /**
   * Judges the step set in the before and after sides at every level that
   * holds entities: the cells around the subject's old place and around its
   * new one, as one block when they meet.
   */
  private judgeStep(): void {
    for (const l of this.active) {
      const lv = this.levels[l];
      this.visitRegions(lv, this.region(lv, this.beforePlace, this.beforeGrown, true, this.regionBefore), this.region(lv, this.afterPlace, this.afterGrown, true, this.regionAfter));
    }
  }

  private visitCell(block: number, count: number): void {
    const data = this.blockData[block];
    const slots = this.blockSlots[block];
    const w = this.subject;
    const [ox, oy, oz] = this.beforePlace;
    const [nx, ny, nz] = this.afterPlace;
    for (let k = 0; k < count; k++) {
      const t = slots[k];
      if (t === w) continue;
      const i = k * RecordField.DOUBLES;
      const x = data[i + RecordField.X];
      const y = data[i + RecordField.Y];
      const z = data[i + RecordField.Z];
      const rx = data[i + RecordField.RX];
      const ry = data[i + RecordField.RY];
      const rz = data[i + RecordField.RZ];
      switch (this.visit) {
        case Visit.Step: {
          const r0 = this.beforeGrown;
          const r1 = this.afterGrown;
          let saw = inBox(x, y, z, rx, ry, rz, ox, oy, oz);
          let sees = inBox(x, y, z, rx, ry, rz, nx, ny, nz);
          let was = inBox(ox, oy, oz, r0[0], r0[1], r0[2], x, y, z);
          let is = inBox(nx, ny, nz, r1[0], r1[1], r1[2], x, y, z);
          if ((this.circles | this.layered | this.margins) !== 0 && (saw || sees || was || is)) {
            const mask = this.refine(t, x, y, z, rx, ry, rz);
            saw &&= (mask & 1) !== 0;
            sees &&= (mask & 2) !== 0;
            was &&= (mask & 4) !== 0;
            is &&= (mask & 8) !== 0;
          }
          if (saw) {
            if (!sees) this.emit(LEAVE, t, w);
            else if (this.moved) this.emit(MOVE, t, w);
          } else if (sees) {
            this.emit(ENTER, t, w);
          }
          if (was !== is) this.emit(is ? ENTER : LEAVE, w, t);
          break;
        }
        case Visit.Query: {
          const r = this.afterGrown;
          if (inRange(nx, ny, nz, r[0], r[1], r[2], this.afterRound, x, y, z) && (this.afterSees & this.layer[t]) !== 0 && (!this.afterMargin || this.visibleInside(w, t, nx, ny, nz, this.afterPlain, this.afterRound, x, y, z))) this.results.push(this.slotId[t]);
          break;
        }
        case Visit.Watchers: {
          const shape = this.slotShape[t];
          if (
            inRange(x, y, z, rx, ry, rz, (shape & SHAPE_CIRCLE) !== 0, nx, ny, nz) &&
            (this.seesMask[t] & this.afterLayer) !== 0 &&
            ((shape & SHAPE_MARGIN) === 0 || this.visibleInside(t, w, x, y, z, this.plain!.subarray(3 * t, 3 * t + 3), (shape & SHAPE_CIRCLE) !== 0, nx, ny, nz))
          )
            this.results.push(this.slotId[t]);
          break;
        }
        case Visit.Box:
          if (ox <= x && x <= nx && oy <= y && y <= ny && oz <= z && z <= nz) this.results.push(this.slotId[t]);
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
    this.events.push(type, this.slotId[watcher], this.slotId[target]);
  }

  /** Starts a step (or a query) of slot s: what the visit does, and whether pairs seen before and after get a move event. */
  private begin(visit: Visit, s: number, moved: boolean): void {
    this.visit = visit;
    this.subject = s;
    this.moved = moved;
  }

  // ---- the operations -----------------------------------------------------

  /**
   * The subject's range after the step: plain half-extents afterPlain,
   * grown ones afterGrown (plain + margin, computed by addition so every
   * core holds the same bits; z stays 0 in 2-D) and afterMargin. A marker
   * has neither, and no
   * margin.
   */
  private setNewRange(watcher: boolean, rx: number, ry: number, rz: number, margin: number): void {
    const flatZ = this.dimensions === 3 ? rz : 0;
    this.afterMargin = watcher && margin > 0;
    setRange3(this.afterPlain, watcher, rx, ry, flatZ);
    if (this.afterMargin) setRange3(this.afterGrown, true, rx + margin, ry + margin, this.dimensions === 3 ? rz + margin : 0);
    else setRange3(this.afterGrown, watcher, rx, ry, flatZ);
  }

  /** The level of the subject's grown range after the step: the lowest whose cells are at least its largest half-extent (a marker's: see markerLevel). */
  private rangeLevel(): number {
    const r = this.afterGrown;
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
    this.slotId[slot] = id;
    this.beforeRound = false;
    this.beforeMargin = false;
    this.beforeLayer = DEFAULT_LAYER;
    this.beforeSees = DEFAULT_SEES;
    this.afterRound = watcher && round;
    this.afterLayer = layer;
    this.afterSees = sees;
    this.setNewRange(watcher, rx, ry, rz, margin);
    this.setShape(slot);
    const n = this.afterPlace;
    n[0] = x;
    n[1] = y;
    n[2] = this.dimensions === 3 ? z : 0;
    this.place(slot, this.rangeLevel(), n, this.afterGrown);
    this.beforePlace.fill(NaN);
    this.beforeGrown.fill(NaN);
    this.begin(Visit.Step, slot, false);
    this.judgeStep();
    this.uncount();
    this.chooseCellSize(this.slotLevel[slot]);
  }

  /** Moves entity `slot` to (x, y, z); a move to where it stands changes nothing. */
  move(slot: number, x: number, y: number, z: number): void {
    const o = this.beforePlace;
    this.readOld(slot);
    if (this.dimensions === 2) z = 0;
    if (o[0] === x && o[1] === y && o[2] === z) return;
    const n = this.afterPlace;
    n[0] = x;
    n[1] = y;
    n[2] = z;
    for (let a = 0; a < 3; a++) this.afterGrown[a] = this.beforeGrown[a];
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
      const i = this.slotIndex[s] * RecordField.DOUBLES;
      data[i + RecordField.X] = p[0];
      data[i + RecordField.Y] = p[1];
      data[i + RecordField.Z] = p[2];
      return;
    }
    const l = this.slotLevel[s];
    this.unplace(s);
    this.place(s, this.afterGrown[0] >= 0 ? l : this.markerLevel(), p, this.afterGrown);
  }

  /** Removes entity `slot`: everyone who saw it, and everyone it saw, gets a leave. */
  remove(slot: number): void {
    this.readOld(slot);
    this.afterRound = false;
    this.afterMargin = false;
    this.afterLayer = DEFAULT_LAYER;
    this.afterSees = DEFAULT_SEES;
    this.setShape(slot);
    this.unplace(slot);
    this.afterPlace.fill(NaN);
    this.afterGrown.fill(NaN);
    this.begin(Visit.Step, slot, false);
    this.judgeStep();
    this.uncount();
  }

  /**
   * Changes what `slot` sees (its level follows its new largest grown
   * half-extent); `round`: a circle of radius rx; `margin`: as in add. Held
   * pairs stay visible while inside the new grown range.
   */
  setRange(slot: number, rx: number, ry: number, rz: number, watcher: boolean, round = false, margin = 0): void {
    this.readOld(slot);
    this.keepShape();
    this.afterRound = watcher && round;
    this.setNewRange(watcher, rx, ry, rz, margin);
    this.setShape(slot);
    this.afterPlace.splice(0, 3, ...this.beforePlace);
    this.unplace(slot);
    this.place(slot, this.rangeLevel(), this.afterPlace, this.afterGrown);
    this.begin(Visit.Step, slot, false);
    this.judgeStep();
    this.uncount();
    this.chooseCellSize(this.slotLevel[slot]);
  }

  /** Changes `slot`'s masks: enter / leave for every pair, with slot as watcher or as target, whose visibility changes. */
  setLayers(slot: number, layer: number, sees: number): void {
    this.readOld(slot);
    this.afterPlace.splice(0, 3, ...this.beforePlace);
    for (let a = 0; a < 3; a++) this.afterGrown[a] = this.beforeGrown[a];
    this.keepShape();
    this.afterLayer = layer;
    this.afterSees = sees;
    this.setShape(slot);
    this.begin(Visit.Step, slot, false);
    this.judgeStep();
    this.uncount();
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
    this.read(slot, this.afterPlace, this.afterGrown);
    return { x: this.afterPlace[0], y: this.afterPlace[1], z: this.afterPlace[2] };
  }

  /** x, y, z of each slot, in order. */
  positions(slots: Int32Array): Float64Array {
    const out = new Float64Array(3 * slots.length);
    for (let k = 0; k < slots.length; k++) {
      this.read(slots[k], this.afterPlace, this.afterGrown);
      out[3 * k] = this.afterPlace[0];
      out[3 * k + 1] = this.afterPlace[1];
      out[3 * k + 2] = this.afterPlace[2];
    }
    return out;
  }

  /** Ids that `slot` sees, unordered. */
  query(slot: number): number[] {
    this.readOld(slot);
    this.read(slot, this.afterPlace, this.afterGrown);
    this.keepShape();
    return this.collect(Visit.Query, slot, false);
  }

  /** Ids that see `slot`, unordered. */
  watchers(slot: number): number[] {
    this.readOld(slot);
    this.keepShape();
    this.read(slot, this.afterPlace, this.afterGrown);
    this.afterGrown.fill(NaN);
    return this.collect(Visit.Watchers, slot, true);
  }

  /** Ids positioned in the closed box, unordered. */
  queryBox(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number[] {
    if (this.dimensions === 2) {
      minZ = 0;
      maxZ = 0;
    }
    const lo = this.beforePlace;
    const hi = this.afterPlace;
    lo.splice(0, 3, minX, minY, minZ);
    hi.splice(0, 3, maxX, maxY, maxZ);
    this.begin(Visit.Box, 0, false);
    this.results = [];
    for (const l of this.active) {
      const lv = this.levels[l];
      const box = this.regionAfter;
      for (let a = 0; a < 3; a++) {
        box[a] = lv.cell(lo[a]);
        box[a + 3] = lv.cell(hi[a]);
      }
      this.visitRect(lv, box);
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
        for (let e = 0; e < t.length; e += BucketField.INTS) {
          if (t[e + BucketField.COUNT] === 0) continue;
          const ring = Math.max(Math.abs(t[e + BucketField.CX] - cx), Math.abs(t[e + BucketField.CY] - cy), Math.abs(t[e + BucketField.CZ] - cz));
          if (ring < r || beyondBound(ringGap(lv.size, ring), scale, picker.bound())) continue;
          this.nearestInCell(t[e + BucketField.BLOCK], t[e + BucketField.COUNT], x, y, z, picker);
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
            if (b >= 0) this.nearestInCell(t[b * BucketField.INTS + BucketField.BLOCK], t[b * BucketField.INTS + BucketField.COUNT], x, y, z, picker);
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
      const i = k * RecordField.DOUBLES;
      picker.offer(this.slotId[s], this.layerOf(s), data[i + RecordField.X], data[i + RecordField.Y], data[i + RecordField.Z], x, y, z);
    }
  }

  /** Visits, at every level, the region around the after side (its box, with others' reach when asked): results. */
  private collect(visit: Visit, slot: number, reach: boolean): number[] {
    this.begin(visit, slot, false);
    this.results = [];
    for (const l of this.active) {
      const lv = this.levels[l];
      if (this.region(lv, this.afterPlace, this.afterGrown, reach, this.regionAfter)) this.visitRect(lv, this.regionAfter);
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
    const [cx, cy, cz] = this.beforePlace;
    const r = this.beforeGrown;
    if (!(r[0] >= 0) || (this.beforeSees & this.layer[t]) === 0) return;
    this.read(t, this.afterPlace, this.afterGrown);
    const [x, y, z] = this.afterPlace;
    if (!inRange(cx, cy, cz, r[0], r[1], r[2], this.beforeRound, x, y, z)) return;
    if (!this.beforeMargin || this.visibleInside(w, t, cx, cy, cz, this.beforePlain, this.beforeRound, x, y, z)) return;
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
