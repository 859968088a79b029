// Area of interest by a hashed uniform cell grid, over flat linear memory:
// the grid index of Scene. The same algorithm as src/scene/js/grid.ts; how
// it works and why is in docs/design/scene-grid.md.
//
// Levels of cells (Level), each a hash table of the cells that hold
// entities; each cell's records in one block (grid-records.ts draws every
// record); a step judged from the cells around the subject's old and new
// place (judgeStep), its state kept in one Step record (grid-step.ts).
//
// A record's half-extents are its watcher's grown ones (range + margin). Once
// some watcher has a margin, every record also holds its plain ones and the
// targets it keeps seeing only thanks to its margin (the held pairs: a few
// in the record, the rest in a PairSet; held-targets.ts).
import { eventLimitReached } from './imports';
import { inCircle } from './circle';
import { IntList, newIntList, freeIntList } from './int-list';
import { beyondBound, KNearest, newKNearest, freeKNearest } from './k-nearest';
import { PairSet, newPairSet, freePairSet } from './pair-set';
import { addHeldTarget, dropHeldTarget, holdsTarget, listHeldTargets } from './held-targets';
import {
  BUCKET_BLOCK, BUCKET_BYTES, BUCKET_CAPACITY, BUCKET_COUNT, BUCKET_CX, BUCKET_CY, BUCKET_CZ,
  EVENT_BYTES, EVENT_INTS, EVENT_TARGET, EVENT_TYPE, EVENT_WATCHER,
  GATHERED_BLOCK, GATHERED_BYTES, GATHERED_COUNT, MASKS_BYTES, MASKS_LAYER, MASKS_SEES,
  HELD_BYTES, RECORD_ID, RECORD_PX_2D, RECORD_PZ_3D, recordHeld, RECORD_RX_2D, RECORD_RX_3D, RECORD_RY_2D, RECORD_RY_3D, RECORD_RZ_3D,
  RECORD_SLOT, RECORD_X, RECORD_Y, RECORD_Z, recordBytes, recordPx, recordPy, recordRx, recordRy,
  SHAPE_CIRCLE, SHAPE_MARGIN, SLOT_BYTES, SLOT_CX, SLOT_CY, SLOT_CZ, SLOT_ID, SLOT_INDEX, SLOT_LEVEL, SLOT_RECORD, SLOT_SHAPE,
} from './grid-records';
import { Region, Side, step } from './grid-step';
import { DEFAULT_LAYER, DEFAULT_SEES, EVENT_ENTER, EVENT_LEAVE, EVENT_MOVE } from './codes';

/** Cell coordinates stay within +-2^30, so neighbours and spans never overflow an i32. */
const CELL_LIMIT: f64 = <f64>(1 << 30);
/** Slack on the reach of others' boxes, for rounding in w - r and w + r (relative to the magnitudes). */
const REACH_SLACK: f64 = 1e-15;
/** A region of more cells than this many times the level's occupied cells is read from the level's table. */
const SCAN_ALL_RATIO: f64 = 2;
/** A level's cell side is chosen again whenever its entities double, from this many on. */
const CHOOSE_MIN: i32 = 32;
/** Below this many entities in an entity's cell, on average, a level takes cells twice its base side; above DENSE_CELL (at that side) it goes back. */
const SPARSE_CELL: f64 = 4;
const DENSE_CELL: f64 = 32;
/** Movers of a batch whose slots and records are read a group ahead (a power of two). */
const FETCH_AHEAD: i32 = 8;
/** Cells of a region that visitRect finds before it reads them. */
const GATHER_CELLS: i32 = 32;

/** What a visit of a region's cells does with the records it reads: a parameter of visitRect and of what it calls. */
const enum Visit {
  /** Judges each record against the step's subject before and after: events. */
  Step,
  /** Collects the ids inside the subject's range. */
  Query,
  /** Collects the ids whose range holds the subject. */
  Watchers,
  /** Collects the ids inside the region's bounds (a query box). */
  Box,
}

/** 2^k for 0 <= k <= 1000, exactly. */
@inline function pow2(k: i32): f64 {
  return reinterpret<f64>(<u64>(1023 + k) << 52);
}

/** Cell side of level L: cellSize * 2^L, exact (Infinity once beyond the doubles). */
function levelSize(cellSize: f64, level: i32): f64 {
  let size = cellSize;
  while (level > 1000) {
    size *= pow2(1000);
    level -= 1000;
  }
  return size * pow2(level);
}

/** The lowest level whose cells are at least `extent` wide (0 for markers). */
function levelFor(cellSize: f64, extent: f64): i32 {
  if (!(extent > cellSize)) return 0;
  let level = <i32>min<f64>(2200, max<f64>(0, Math.floor(Math.log2(extent / cellSize)) - 1));
  while (level > 0 && levelSize(cellSize, level - 1) >= extent) level--;
  while (levelSize(cellSize, level) < extent) level++;
  return level;
}

/** Home bucket of a cell: four neighbours along x share a hashed group of four buckets, so a row of a region reads one or two cache lines. */
@inline function cellHash(cx: i32, cy: i32, cz: i32, mask: i32): i32 {
  let h = (cx >> 2) * <i32>0x9e3779b1 ^ cy * <i32>0x85ebca77 ^ cz * <i32>0xc2b2ae3d;
  h ^= h >>> 16;
  h *= 0x7feb352d;
  h ^= h >>> 15;
  return ((h << 2) | (cx & 3)) & mask;
}

/** One level: its cell side and an open-addressing table (linear probing) of its occupied cells, mask + 1 buckets. */
@unmanaged
class Level {
  /** cellSize * 2^level; the cell side is this or, while the level is sparse, twice it. */
  base: f64;
  size: f64;
  inv: f64;
  /** Entities when the cell side was last chosen. */
  chosenAt: i32;
  /** Largest half-extent per axis of a watcher placed here since the level was last empty; -1: none. */
  reach0: f64;
  reach1: f64;
  reach2: f64;
  entities: i32;
  cells: i32;
  /** The buckets, BUCKET_BYTES each. */
  table: usize;
  mask: i32;

  @inline reach(a: i32): f64 {
    return a == 0 ? this.reach0 : a == 1 ? this.reach1 : this.reach2;
  }

  /** The cell coordinate of v: floor(v / size), clamped; every v shares cell 0 once the size is beyond the doubles. */
  @inline cell(v: f64): i32 {
    if (this.inv == 0) return 0;
    return <i32>min<f64>(max<f64>(Math.floor(v * this.inv), -CELL_LIMIT), CELL_LIMIT);
  }

  @inline bucket(b: i32): usize {
    return this.table + <usize>b * BUCKET_BYTES;
  }

  /** The bucket of cell (cx, cy, cz), or -1 when the cell holds nothing. */
  find(cx: i32, cy: i32, cz: i32): i32 {
    const mask = this.mask;
    let b = cellHash(cx, cy, cz, mask);
    while (true) {
      const e = this.bucket(b);
      if (load<i32>(e, BUCKET_COUNT) == 0) return -1;
      if (load<i32>(e, BUCKET_CX) == cx && load<i32>(e, BUCKET_CY) == cy && load<i32>(e, BUCKET_CZ) == cz) return b;
      b = (b + 1) & mask;
    }
    return -1;
  }

  /** Claims an empty bucket for a new cell (count still 0: the caller appends at once). */
  create(cx: i32, cy: i32, cz: i32): i32 {
    if ((this.cells + 1) * 2 > this.mask + 1) this.grow();
    let b = cellHash(cx, cy, cz, this.mask);
    while (load<i32>(this.bucket(b), BUCKET_COUNT) != 0) b = (b + 1) & this.mask;
    const e = this.bucket(b);
    store<i32>(e, cx, BUCKET_CX);
    store<i32>(e, cy, BUCKET_CY);
    store<i32>(e, cz, BUCKET_CZ);
    store<i32>(e, 0, BUCKET_CAPACITY);
    store<i32>(e, 0, BUCKET_BLOCK);
    this.cells++;
    return b;
  }

  grow(): void {
    const old = this.table;
    const oldBuckets = this.mask + 1;
    this.mask = this.mask * 2 + 1;
    this.table = zeroed(<usize>(this.mask + 1) * BUCKET_BYTES);
    for (let k = 0; k < oldBuckets; k++) {
      const e = old + <usize>k * BUCKET_BYTES;
      if (load<i32>(e, BUCKET_COUNT) == 0) continue;
      let b = cellHash(load<i32>(e, BUCKET_CX), load<i32>(e, BUCKET_CY), load<i32>(e, BUCKET_CZ), this.mask);
      while (load<i32>(this.bucket(b), BUCKET_COUNT) != 0) b = (b + 1) & this.mask;
      memory.copy(this.bucket(b), e, BUCKET_BYTES);
    }
    heap.free(old);
  }

  /** Empties bucket b, shifting later entries of its probe run back so every lookup still finds them. */
  delete(b: i32): void {
    const mask = this.mask;
    let hole = b;
    for (let j = (b + 1) & mask; load<i32>(this.bucket(j), BUCKET_COUNT) != 0; j = (j + 1) & mask) {
      const e = this.bucket(j);
      const home = cellHash(load<i32>(e, BUCKET_CX), load<i32>(e, BUCKET_CY), load<i32>(e, BUCKET_CZ), mask);
      // The entry at j may fill the hole unless its home lies cyclically in (hole, j].
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      memory.copy(this.bucket(hole), e, BUCKET_BYTES);
      hole = j;
    }
    store<i32>(this.bucket(hole), 0, BUCKET_COUNT);
    this.cells--;
  }

  resize(size: f64): void {
    this.size = size;
    this.inv = size == Infinity ? 0 : 1 / size;
  }

  /** Empties the table (the caller keeps or frees the blocks). */
  clearTable(): void {
    heap.free(this.table);
    this.table = zeroed(8 * BUCKET_BYTES);
    this.mask = 7;
    this.cells = 0;
  }

  /** Frees every cell's block and empties the table. */
  reset(): void {
    for (let b = 0; b <= this.mask; b++) {
      const e = this.bucket(b);
      if (load<i32>(e, BUCKET_COUNT) != 0) heap.free(<usize>load<i32>(e, BUCKET_BLOCK));
    }
    this.clearTable();
    this.resize(this.base);
    this.chosenAt = 0;
    this.entities = 0;
    this.reach0 = -1;
    this.reach1 = -1;
    this.reach2 = -1;
  }
}

function zeroed(bytes: usize): usize {
  const p = heap.alloc(bytes);
  memory.fill(p, 0, bytes);
  return p;
}

function newLevel(size: f64): Level {
  const lv = changetype<Level>(heap.alloc(offsetof<Level>()));
  lv.base = size;
  lv.chosenAt = 0;
  lv.resize(size);
  lv.table = zeroed(8 * BUCKET_BYTES);
  lv.mask = 7;
  lv.cells = 0;
  lv.entities = 0;
  lv.reach0 = -1;
  lv.reach1 = -1;
  lv.reach2 = -1;
  return lv;
}

/**
 * The grid core of one scene: its levels, its slot table and the tables
 * beside it, its event and result buffers, and what it counts so a step
 * looks at circles, margins and masks only while some entity has them.
 * What one step reads and writes on the way is the Step record (`step`).
 */
@unmanaged
export class GridIndex {
  dims: i32;
  cellSize: f64;
  /** Bytes per record (recordBytes): wider once records hold their plain half-extents. */
  record: usize;
  /** Records hold their plain half-extents: from the first margin on (until clear). */
  plainRecords: bool;
  /** The address (u32) of each level's Level, 0 until the level is first used (levelAt). */
  levels: usize;
  levelCount: i32;
  /** Levels holding entities, ascending. */
  active: IntList;
  /** The slot table: SLOT_BYTES per slot. */
  slots: usize;
  capacity: i32;
  /** EVENT_INTS i32 per event. */
  events: IntList;
  results: IntList;
  /** Watchers with a circle: while there are none, no judgement looks at shapes. */
  circles: i32;
  /** Watchers with a margin: while there are none, no judgement looks at margins or the held set. */
  margins: i32;
  /** The held pairs (visible only thanks to a margin) their watchers' records have no room for, and the journal of every held pair's change. */
  held: PairSet;
  /** Layer masks, MASKS_BYTES per slot. */
  masks: usize;
  /** Entities with masks other than the defaults: while there are none, no judgement looks at masks. */
  layered: i32;
  /** The k best of a nearest search. */
  picker: KNearest;
  /** Nonzero when the scene reports no move events: a move's step then judges as if nothing moved. */
  noMoves: i32;
  /** Int32 entries the event buffer may hold: an event past it traps, and the caller rebuilds the scene as it was (see src/scene/recovery.ts). */
  eventLimit: i32;
  /** Nonzero while a snapshot or a recovery loads entities: no event is kept. */
  silent: i32;
  /** The event buffer's length when the current call began. */
  callStart: i32;
  /** What fetchAhead and visitRect read ahead, summed (kept only so the reads stay). */
  fetched: i32;
  /** Addresses of the records inside a step's region, for judgeCells2. */
  listed: IntList;
  /** Room for GATHER_CELLS gathered cells (GATHERED_BYTES each): cells of a region, found before any is read. */
  gathered: usize;

  /** Where readOld found its slot (read by the position exports). */
  @inline get ox(): f64 {
    return step.before.x;
  }
  @inline get oy(): f64 {
    return step.before.y;
  }
  @inline get oz(): f64 {
    return step.before.z;
  }

  @inline slot(s: i32): usize {
    return this.slots + <usize>s * SLOT_BYTES;
  }

  /** Starts a call from outside: what the events and the held pairs were before it stays readable should it fail part way. */
  @inline beginCall(): void {
    this.callStart = this.events.length;
    this.held.journal.length = 0;
  }

  ensureSlot(s: i32): void {
    if (s < this.capacity) return;
    let capacity = max<i32>(this.capacity, 16);
    while (capacity <= s) capacity <<= 1;
    const grown = heap.alloc(<usize>capacity * SLOT_BYTES);
    if (this.slots != 0) {
      memory.copy(grown, this.slots, <usize>this.capacity * SLOT_BYTES);
      heap.free(this.slots);
    }
    for (let k = this.capacity; k < capacity; k++) store<i32>(grown + <usize>k * SLOT_BYTES, -1, SLOT_LEVEL);
    this.slots = grown;
    const masks = heap.alloc(<usize>capacity * MASKS_BYTES);
    if (this.masks != 0) {
      memory.copy(masks, this.masks, <usize>this.capacity * MASKS_BYTES);
      heap.free(this.masks);
    }
    this.masks = masks;
    this.capacity = capacity;
  }

  /** Level l's Level, or 0 when it was never used. */
  @inline levelAt(l: i32): usize {
    return <usize>load<u32>(this.levels + (<usize>l << 2));
  }

  /** The k-th level holding entities, in ascending order. */
  @inline activeLevel(k: i32): Level {
    return changetype<Level>(this.levelAt(this.active.get(k)));
  }

  /** Level l, made (with the levels table grown) when first used. */
  level(l: i32): Level {
    if (l >= this.levelCount) {
      let count = max<i32>(this.levelCount, 8);
      while (count <= l) count <<= 1;
      const grown = zeroed(<usize>count << 2);
      if (this.levels != 0) {
        memory.copy(grown, this.levels, <usize>this.levelCount << 2);
        heap.free(this.levels);
      }
      this.levels = grown;
      this.levelCount = count;
    }
    let lv = this.levelAt(l);
    if (lv == 0) {
      lv = changetype<usize>(newLevel(levelSize(this.cellSize, l)));
      store<u32>(this.levels + (<usize>l << 2), <u32>lv);
    }
    return changetype<Level>(lv);
  }

  @inline levelOf(s: i32): Level {
    return changetype<Level>(this.levelAt(load<i32>(this.slot(s), SLOT_LEVEL)));
  }

  /** Slot s's range is a circle (sphere) of radius its first half-extent. */
  @inline isCircle(s: i32): bool {
    return (load<i32>(this.slot(s), SLOT_SHAPE) & SHAPE_CIRCLE) != 0;
  }

  /** Slot s is a watcher with a margin. */
  @inline hasMargin(s: i32): bool {
    return (load<i32>(this.slot(s), SLOT_SHAPE) & SHAPE_MARGIN) != 0;
  }

  @inline masksOf(s: i32): usize {
    return this.masks + <usize>s * MASKS_BYTES;
  }
  @inline layerOf(s: i32): i32 {
    return load<i32>(this.masksOf(s), MASKS_LAYER);
  }
  @inline seesOf(s: i32): i32 {
    return load<i32>(this.masksOf(s), MASKS_SEES);
  }

  /** Address of slot s's record. */
  @inline recordOf(s: i32): usize {
    return <usize>load<u32>(this.slot(s), SLOT_RECORD);
  }

  /**
   * Sets slot s's shape and masks to those of `to` (the step's after side),
   * counting them into circles, margins and layered; the before side's stay
   * counted until uncount, after the step, whose judgement needs them.
   */
  setShape(s: i32, to: Side): void {
    this.circles += <i32>to.round;
    this.margins += <i32>to.margin;
    store<i32>(this.slot(s), (to.round ? SHAPE_CIRCLE : 0) | (to.margin ? SHAPE_MARGIN : 0), SLOT_SHAPE);
    if (to.margin && !this.plainRecords) this.addPlainToRecords();
    this.layered += <i32>(to.layer != DEFAULT_LAYER || to.sees != DEFAULT_SEES);
    const m = this.masksOf(s);
    store<i32>(m, to.layer, MASKS_LAYER);
    store<i32>(m, to.sees, MASKS_SEES);
  }

  /**
   * At the first margin, widens every record to hold its plain half-extents
   * (no slot has a margin yet: plain = grown), each block copied into one of
   * the wider stride.
   */
  addPlainToRecords(): void {
    const three = this.dims == 3;
    const narrow = this.record;
    const wide = recordBytes(three, true);
    for (let k = 0; k < this.active.length; k++) {
      const lv = this.activeLevel(k);
      for (let b = 0; b <= lv.mask; b++) {
        const e = lv.bucket(b);
        const count = load<i32>(e, BUCKET_COUNT);
        if (count == 0) continue;
        const old = <usize>load<i32>(e, BUCKET_BLOCK);
        const block = heap.alloc(<usize>load<i32>(e, BUCKET_CAPACITY) * wide);
        for (let j = 0; j < count; j++) {
          const from = old + <usize>j * narrow;
          const r = block + <usize>j * wide;
          memory.copy(r, from, narrow);
          store<f64>(r + recordPx(three), load<f64>(from + recordRx(three)));
          store<f64>(r + recordPy(three), load<f64>(from + recordRy(three)));
          if (three) store<f64>(r, load<f64>(from, RECORD_RZ_3D), RECORD_PZ_3D);
          memory.fill(r + recordHeld(three), 0, HELD_BYTES);
          store<u32>(this.slot(load<i32>(r, RECORD_SLOT)), <u32>r, SLOT_RECORD);
        }
        store<i32>(e, <i32>block, BUCKET_BLOCK);
        heap.free(old);
      }
    }
    this.record = wide;
    this.plainRecords = true;
  }

  /** Counts the shape and masks of `from` (the step's before side) out of circles, margins and layered. */
  uncount(from: Side): void {
    this.circles -= <i32>from.round;
    this.margins -= <i32>from.margin;
    this.layered -= <i32>(from.layer != DEFAULT_LAYER || from.sees != DEFAULT_SEES);
  }

  /**
   * The four answers (bits 0-3: it saw, sees the subject; the subject saw,
   * sees it) of the record at address r, from the boxes' answers `box`,
   * after the exact test of circles, the layer masks and the margin rule.
   * Called only while the scene has circles, margins or masks other than the
   * defaults.
   */
  refine(r: usize, box: i32): i32 {
    const before = step.before;
    const after = step.after;
    const t = load<i32>(r, RECORD_SLOT);
    const three = this.dims == 3;
    const x = load<f64>(r, RECORD_X);
    const y = load<f64>(r, RECORD_Y);
    const z = three ? load<f64>(r, RECORD_Z) : 0;
    const rx = load<f64>(r + recordRx(three));
    let mask = box;
    if (this.layered != 0) {
      const tSees = this.seesOf(t), tLayer = this.layerOf(t);
      if ((tSees & before.layer) == 0) mask &= ~1;
      if ((tSees & after.layer) == 0) mask &= ~2;
      if ((before.sees & tLayer) == 0) mask &= ~4;
      if ((after.sees & tLayer) == 0) mask &= ~8;
    }
    if (this.circles != 0) {
      if (this.isCircle(t)) {
        if (!inCircle(x, y, z, rx, before.x, before.y, before.z)) mask &= ~1;
        if (!inCircle(x, y, z, rx, after.x, after.y, after.z)) mask &= ~2;
      }
      if (before.round && !inCircle(before.x, before.y, before.z, before.rx, x, y, z)) mask &= ~4;
      if (after.round && !inCircle(after.x, after.y, after.z, after.rx, x, y, z)) mask &= ~8;
    }
    if (this.margins != 0) mask = this.hysteresis(r, t, mask, this.plainAnswers(r, t, x, y, z, mask));
    return mask;
  }

  /**
   * Of refine's answers `grown` for the record at r (slot t at x, y, z),
   * those the plain ranges give too: the record's own for its view of the
   * subject, the subject's for its view of the record (a side without a
   * margin: its grown range).
   */
  plainAnswers(r: usize, t: i32, x: f64, y: f64, z: f64, grown: i32): i32 {
    const before = step.before;
    const after = step.after;
    let plain = grown;
    if ((grown & 1) != 0 && !this.plainHolds(r, t, x, y, z, before.x, before.y, before.z)) plain &= ~1;
    if ((grown & 2) != 0 && !this.plainHolds(r, t, x, y, z, after.x, after.y, after.z)) plain &= ~2;
    if ((grown & 4) != 0 && before.margin && !inRange(before.x, before.y, before.z, before.px, before.py, before.pz, before.round, x, y, z)) plain &= ~4;
    if ((grown & 8) != 0 && after.margin && !inRange(after.x, after.y, after.z, after.px, after.py, after.pz, after.round, x, y, z)) plain &= ~8;
    return plain;
  }

  /**
   * The margin rule on the answers `grown` for slot t (bits as refine's,
   * meaning so far "masks meet and inside the grown range"), given `plain`,
   * those of them the plain ranges give: a pair is visible before the step
   * when the target is inside the plain range or the pair is held, and
   * after it when the target is inside the plain range, or was visible and
   * is inside the grown range. A pair visible only thanks to the margin is
   * held; where that differs before and after the step, the pair goes into
   * or out of its watcher's held targets: t's in its record at r, the
   * subject's in the step (written back to its record after the step).
   */
  hysteresis(r: usize, t: i32, grown: i32, plain: i32): i32 {
    const w = step.subject;
    const set = this.held;
    const tHeld = r + recordHeld(this.dims == 3);
    const wHeld = step.held;
    // Bits 0 and 2 (before the step), as the answers have them: (t, w) held, (w, t) held.
    const heldBits = <i32>holdsTarget(tHeld, t, w, set) | (<i32>holdsTarget(wHeld, w, t, set) << 2);
    const visibleBefore = (plain | (grown & heldBits)) & 5;
    const visibleAfter = (plain | ((visibleBefore << 1) & grown)) & 10;
    const onlyByMarginBefore = visibleBefore & ~plain;
    const onlyByMarginAfter = (visibleAfter & ~plain) >> 1;
    const changed = onlyByMarginBefore ^ onlyByMarginAfter;
    if (changed & 1) {
      if (onlyByMarginAfter & 1) addHeldTarget(tHeld, t, w, set);
      else dropHeldTarget(tHeld, t, w, set);
    }
    if (changed & 4) {
      if (onlyByMarginAfter & 4) addHeldTarget(wHeld, w, t, set);
      else dropHeldTarget(wHeld, w, t, set);
    }
    return visibleBefore | visibleAfter;
  }

  /** Writes the subject's held targets, as the step left them, back into its record (placed after the step). */
  keepSubjectHeld(s: i32): void {
    if (this.plainRecords) memory.copy(this.recordOf(s) + recordHeld(this.dims == 3), step.held, HELD_BYTES);
  }

  // ---- records ------------------------------------------------------------

  /** Appends slot s's record, as side `at` has it (place, grown and plain half-extents) with the step's held targets, to its cell at level l. */
  place(s: i32, l: i32, at: Side): void {
    const lv = this.level(l);
    const r = this.append(lv, s, at.x, at.y, at.z);
    store<f64>(r, at.x, RECORD_X);
    store<f64>(r, at.y, RECORD_Y);
    const three = this.dims == 3;
    if (three) store<f64>(r, at.z, RECORD_Z);
    store<f64>(r + recordRx(three), at.rx);
    store<f64>(r + recordRy(three), at.ry);
    if (three) store<f64>(r, at.rz, RECORD_RZ_3D);
    if (this.plainRecords) {
      store<f64>(r + recordPx(three), at.px);
      store<f64>(r + recordPy(three), at.py);
      if (three) store<f64>(r, at.pz, RECORD_PZ_3D);
      memory.copy(r + recordHeld(three), step.held, HELD_BYTES);
    }
    store<i32>(this.slot(s), l, SLOT_LEVEL);
    if (lv.entities++ == 0) this.activate(l);
    if (at.rx >= 0) {
      lv.reach0 = max<f64>(lv.reach0, at.rx);
      lv.reach1 = max<f64>(lv.reach1, at.ry);
      lv.reach2 = max<f64>(lv.reach2, at.rz);
    }
  }

  /**
   * Makes room for slot s's record at the end of its cell (the one of x, y,
   * z) in level lv, creating the cell if needed; writes the record's slot
   * and id and returns its address, for the caller to write the rest.
   */
  append(lv: Level, s: i32, x: f64, y: f64, z: f64): usize {
    const cx = lv.cell(x);
    const cy = lv.cell(y);
    const cz = lv.cell(z);
    let b = lv.find(cx, cy, cz);
    if (b < 0) b = lv.create(cx, cy, cz);
    const e = lv.bucket(b);
    const stride = this.record;
    const k = load<i32>(e, BUCKET_COUNT);
    const cap = load<i32>(e, BUCKET_CAPACITY);
    if (k == cap) {
      const grown = max<i32>(cap << 1, 2);
      const old = <usize>load<i32>(e, BUCKET_BLOCK);
      const block = old == 0 ? heap.alloc(<usize>grown * stride) : heap.realloc(old, <usize>grown * stride);
      store<i32>(e, <i32>block, BUCKET_BLOCK);
      store<i32>(e, grown, BUCKET_CAPACITY);
      // The block may have moved: its records' slots point at their new places.
      for (let j = 0; j < k; j++) {
        const moved = block + <usize>j * stride;
        store<u32>(this.slot(load<i32>(moved, RECORD_SLOT)), <u32>moved, SLOT_RECORD);
      }
    }
    const r = <usize>load<i32>(e, BUCKET_BLOCK) + <usize>k * stride;
    store<i32>(r, s, RECORD_SLOT);
    store<i32>(r, load<i32>(this.slot(s), SLOT_ID), RECORD_ID);
    store<i32>(e, k + 1, BUCKET_COUNT);
    const p = this.slot(s);
    store<i32>(p, cx, SLOT_CX);
    store<i32>(p, cy, SLOT_CY);
    store<i32>(p, cz, SLOT_CZ);
    store<i32>(p, k, SLOT_INDEX);
    store<u32>(p, <u32>r, SLOT_RECORD);
    return r;
  }

  /**
   * Each time level l's entities double (from CHOOSE_MIN on), picks its cell
   * side again: twice the base while cells hold few entities (a step then
   * reads fewer, fuller cells), the base once they fill up.
   */
  chooseCellSize(l: i32): void {
    const lv = this.level(l);
    if (lv.entities < CHOOSE_MIN || lv.entities < 2 * lv.chosenAt) return;
    lv.chosenAt = lv.entities;
    // The population of the cell an entity stands in, on average: what a step reads per cell.
    let squares: f64 = 0;
    for (let b = 0; b <= lv.mask; b++) {
      const count = <f64>load<i32>(lv.bucket(b), BUCKET_COUNT);
      squares += count * count;
    }
    const perCell = squares / <f64>lv.entities;
    const coarse = lv.size != lv.base;
    if (!coarse && perCell < SPARSE_CELL) this.regrid(lv, lv.base * 2);
    else if (coarse && perCell > DENSE_CELL) this.regrid(lv, lv.base);
  }

  /** Re-cuts level lv into cells `size` wide: every record, in table order, goes to its new cell. */
  regrid(lv: Level, size: f64): void {
    const stride = this.record;
    const all = heap.alloc(<usize>lv.entities * stride);
    let at = all;
    for (let b = 0; b <= lv.mask; b++) {
      const e = lv.bucket(b);
      const count = load<i32>(e, BUCKET_COUNT);
      if (count == 0) continue;
      const block = <usize>load<i32>(e, BUCKET_BLOCK);
      memory.copy(at, block, <usize>count * stride);
      at += <usize>count * stride;
      heap.free(block);
    }
    lv.clearTable();
    lv.resize(size);
    const three = this.dims == 3;
    for (let r = all; r < at; r += stride) {
      const z = three ? load<f64>(r, RECORD_Z) : 0;
      memory.copy(this.append(lv, load<i32>(r, RECORD_SLOT), load<f64>(r, RECORD_X), load<f64>(r, RECORD_Y), z), r, stride);
    }
    heap.free(all);
  }

  /** Takes slot s's record out of its cell (the cell's last record fills the gap). */
  unplace(s: i32): void {
    const p = this.slot(s);
    const l = load<i32>(p, SLOT_LEVEL);
    const lv = this.levelOf(s);
    const b = lv.find(load<i32>(p, SLOT_CX), load<i32>(p, SLOT_CY), load<i32>(p, SLOT_CZ));
    const e = lv.bucket(b);
    const block = <usize>load<i32>(e, BUCKET_BLOCK);
    const last = load<i32>(e, BUCKET_COUNT) - 1;
    const k = load<i32>(p, SLOT_INDEX);
    if (k != last) {
      const to = block + <usize>k * this.record;
      memory.copy(to, block + <usize>last * this.record, this.record);
      const moved = this.slot(load<i32>(to, RECORD_SLOT));
      store<i32>(moved, k, SLOT_INDEX);
      store<u32>(moved, <u32>to, SLOT_RECORD);
    }
    store<i32>(e, last, BUCKET_COUNT);
    if (last == 0) {
      heap.free(block);
      lv.delete(b);
    }
    store<i32>(p, -1, SLOT_LEVEL);
    if (--lv.entities == 0) {
      lv.reset();
      this.deactivate(l);
    }
  }

  activate(l: i32): void {
    const active = this.active;
    active.push(l);
    let k = active.length - 1;
    while (k > 0 && active.get(k - 1) > l) {
      active.set(k, active.get(k - 1));
      k--;
    }
    active.set(k, l);
  }

  deactivate(l: i32): void {
    const active = this.active;
    let k = 0;
    while (active.get(k) != l) k++;
    for (; k + 1 < active.length; k++) active.set(k, active.get(k + 1));
    active.length--;
  }

  /**
   * Reads, for a batch of moves from index k on, the records of the
   * FETCH_AHEAD movers from k and the slots of the FETCH_AHEAD after them
   * (their records come at the next group). A mover's
   * slot and record are far apart in memory, and each read waits on the one
   * before; reading a group side by side, a group early, lets those waits
   * overlap. The sum is kept only so the reads stay.
   */
  fetchAhead(slots: usize, k: i32, count: i32): void {
    let sum: i32 = 0;
    const records = min<i32>(k + FETCH_AHEAD, count);
    for (let j = k; j < records; j++) sum += load<i32>(this.recordOf(load<i32>(slots + (<usize>j << 2))), RECORD_SLOT);
    const ahead = min<i32>(k + 2 * FETCH_AHEAD, count);
    for (let j = records; j < ahead; j++) {
      const p = this.slot(load<i32>(slots + (<usize>j << 2)));
      sum += load<i32>(p, SLOT_LEVEL) + load<i32>(p, SLOT_RECORD);
    }
    this.fetched = sum;
  }

  /** Reads slot s into the step's before side (place, grown and plain half-extents, shape, masks) and its record's address. */
  readOld(s: i32): void {
    const before = step.before;
    const r = this.recordOf(s);
    step.record = r;
    const shape = load<i32>(this.slot(s), SLOT_SHAPE);
    before.round = (shape & SHAPE_CIRCLE) != 0;
    before.margin = (shape & SHAPE_MARGIN) != 0;
    // While no entity has masks other than the defaults, s's are those: its masks entry is not read.
    before.layer = this.layered == 0 ? DEFAULT_LAYER : this.layerOf(s);
    before.sees = this.layered == 0 ? DEFAULT_SEES : this.seesOf(s);
    before.x = load<f64>(r, RECORD_X);
    before.y = load<f64>(r, RECORD_Y);
    if (this.dims == 3) {
      before.z = load<f64>(r, RECORD_Z);
      before.rx = load<f64>(r, RECORD_RX_3D);
      before.ry = load<f64>(r, RECORD_RY_3D);
      before.rz = load<f64>(r, RECORD_RZ_3D);
    } else {
      before.z = 0;
      before.rx = load<f64>(r, RECORD_RX_2D);
      before.ry = load<f64>(r, RECORD_RY_2D);
      before.rz = before.rx == before.rx ? 0 : NaN;
    }
    // Without plain half-extents in the records no slot has had a margin: plain = grown.
    const three = this.dims == 3;
    before.px = this.plainRecords ? load<f64>(r + recordPx(three)) : before.rx;
    before.py = this.plainRecords ? load<f64>(r + recordPy(three)) : before.ry;
    before.pz = this.plainRecords && three ? load<f64>(r, RECORD_PZ_3D) : before.rz;
    if (this.plainRecords) memory.copy(step.held, r + recordHeld(three), HELD_BYTES);
    else memory.fill(step.held, 0, HELD_BYTES);
  }

  /** Reads slot s into both sides of the step: it stays as it is (a query, or a change of masks). */
  readNew(s: i32): void {
    this.readOld(s);
    step.after.placeAs(step.before);
    step.after.shapeAs(step.before);
  }

  // ---- regions ----------------------------------------------------------

  /** One axis (a) of a region around c: the box of half-extent r, widened by the level's reach when asked; false when empty. */
  @inline axisSpan(lv: Level, a: i32, c: f64, r: f64, reach: bool, into: Region): bool {
    let lo = Infinity;
    let hi = -Infinity;
    if (r >= 0) {
      lo = c - r;
      hi = c + r;
    }
    const e = lv.reach(a);
    if (reach && e >= 0) {
      const span = e + (Math.abs(c) + e) * REACH_SLACK;
      lo = min<f64>(lo, c - span);
      hi = max<f64>(hi, c + span);
    }
    if (!(lo <= hi)) return false;
    into.setAxis(a, lv.cell(lo), lv.cell(hi), lo, hi);
    return true;
  }

  /**
   * Writes into `into` the cells of level lv that may matter around side's
   * place: its box (when it has one) and, with `reach`, the cells within the
   * level's largest half-extents (others who may see it). False when there
   * is nothing to read.
   */
  @inline region(lv: Level, side: Side, reach: bool, into: Region): bool {
    return this.axisSpan(lv, 0, side.x, side.rx, reach, into) && this.axisSpan(lv, 1, side.y, side.ry, reach, into) && this.axisSpan(lv, 2, side.z, side.rz, reach, into);
  }

  /** Visits every occupied cell of `area` in level lv: by coordinates, or from the table when the area has more cells than the level. */
  visitRect(lv: Level, visit: Visit, area: Region): void {
    const x0 = area.x0, y0 = area.y0, z0 = area.z0, x1 = area.x1, y1 = area.y1, z1 = area.z1;
    const cells = (<f64>x1 - <f64>x0 + 1) * (<f64>y1 - <f64>y0 + 1) * (<f64>z1 - <f64>z0 + 1);
    if (cells > SCAN_ALL_RATIO * <f64>lv.cells) {
      for (let b = 0; b <= lv.mask; b++) {
        const e = lv.bucket(b);
        const count = load<i32>(e, BUCKET_COUNT);
        if (count == 0) continue;
        const cx = load<i32>(e, BUCKET_CX);
        const cy = load<i32>(e, BUCKET_CY);
        const cz = load<i32>(e, BUCKET_CZ);
        if (cx < x0 || cx > x1 || cy < y0 || cy > y1 || cz < z0 || cz > z1) continue;
        this.visitCell(visit, area, <usize>load<i32>(e, BUCKET_BLOCK), count);
      }
      return;
    }
    // The cells are found (up to GATHER_CELLS at a time) before any is read, and each
    // block's first word is read as it is found, so the blocks load side by side.
    const gathered = this.gathered;
    let found = 0;
    let touched: i32 = 0;
    for (let cz = z0; cz <= z1; cz++) {
      for (let cy = y0; cy <= y1; cy++) {
        for (let cx = x0; cx <= x1; cx++) {
          const b = lv.find(cx, cy, cz);
          if (b < 0) continue;
          const e = lv.bucket(b);
          const block = load<i32>(e, BUCKET_BLOCK);
          const at = gathered + <usize>found * GATHERED_BYTES;
          store<i32>(at, block, GATHERED_BLOCK);
          store<i32>(at, load<i32>(e, BUCKET_COUNT), GATHERED_COUNT);
          touched += load<i32>(<usize>block);
          if (++found == GATHER_CELLS) {
            this.visitGathered(visit, area, found);
            found = 0;
          }
        }
      }
    }
    this.fetched = touched;
    this.visitGathered(visit, area, found);
  }

  /** Visits the first `cells` gathered cells in order: a 2-D step judges them together. */
  visitGathered(visit: Visit, area: Region, cells: i32): void {
    if (visit == Visit.Step && this.dims == 2) {
      this.judgeCells2(area, cells);
      return;
    }
    for (let j = 0; j < cells; j++) {
      const at = this.gathered + <usize>j * GATHERED_BYTES;
      this.visitCell(visit, area, <usize>load<i32>(at, GATHERED_BLOCK), load<i32>(at, GATHERED_COUNT));
    }
  }

  visitCell(visit: Visit, area: Region, block: usize, count: i32): void {
    if (visit == Visit.Step) {
      if (this.dims == 2) {
        // A cell of a table walk is judged as a gathering of one.
        store<i32>(this.gathered, <i32>block, GATHERED_BLOCK);
        store<i32>(this.gathered, count, GATHERED_COUNT);
        this.judgeCells2(area, 1);
      } else {
        this.judge3(area, block, count);
      }
      return;
    }
    this.collectCell(visit, area, block, count);
  }

  /** Appends to the results the ids of a cell's records that the query `visit` asks for. */
  collectCell(visit: Visit, area: Region, block: usize, count: i32): void {
    const w = step.subject;
    const n = step.after;
    const three = this.dims == 3;
    const stride = this.record;
    for (let k = 0; k < count; k++) {
      const r = block + <usize>k * stride;
      const t = load<i32>(r, RECORD_SLOT);
      // A query leaves out its subject; a box has none.
      if (t == w && visit != Visit.Box) continue;
      const x = load<f64>(r, RECORD_X);
      const y = load<f64>(r, RECORD_Y);
      const z = three ? load<f64>(r, RECORD_Z) : 0;
      let hit = false;
      if (visit == Visit.Box) {
        hit = area.loX <= x && x <= area.hiX && area.loY <= y && y <= area.hiY && area.loZ <= z && z <= area.hiZ;
      } else if (visit == Visit.Query) {
        hit = inBox(n.x, n.y, n.z, n.rx, n.ry, n.rz, x, y, z);
        if (hit && n.round) hit = inCircle(n.x, n.y, n.z, n.rx, x, y, z);
        if (hit && this.layered != 0) hit = (n.sees & this.layerOf(t)) != 0;
        if (hit && n.margin) hit = inRange(n.x, n.y, n.z, n.px, n.py, n.pz, n.round, x, y, z) || holdsTarget(step.held, w, t, this.held);
      } else {
        const rx = load<f64>(r + recordRx(three));
        const ry = load<f64>(r + recordRy(three));
        const rz = three ? load<f64>(r, RECORD_RZ_3D) : 0;
        hit = inBox(x, y, z, rx, ry, rz, n.x, n.y, n.z);
        if (hit && this.circles != 0 && this.isCircle(t)) hit = inCircle(x, y, z, rx, n.x, n.y, n.z);
        if (hit && this.layered != 0) hit = (this.seesOf(t) & n.layer) != 0;
        if (hit && this.margins != 0 && this.hasMargin(t)) hit = this.plainHolds(r, t, x, y, z, n.x, n.y, n.z) || holdsTarget(r + recordHeld(three), t, w, this.held);
      }
      if (hit) this.results.push(load<i32>(r, RECORD_ID));
    }
  }

  /** Whether the plain range of the record at r (slot t, centred on cx, cy, cz) holds the point. */
  plainHolds(r: usize, t: i32, cx: f64, cy: f64, cz: f64, x: f64, y: f64, z: f64): bool {
    const three = this.dims == 3;
    const pz = three ? load<f64>(r, RECORD_PZ_3D) : 0;
    return inRange(cx, cy, cz, load<f64>(r + recordPx(three)), load<f64>(r + recordPy(three)), pz, this.circles != 0 && this.isCircle(t), x, y, z);
  }

  // ---- the step -----------------------------------------------------------

  /**
   * Judges the step set in `step` (the subject's before and after sides) at
   * every level that holds entities: the cells around the subject's old
   * place and around its new one, as one block when they meet.
   */
  judgeStep(): void {
    const before = step.regionBefore;
    const after = step.regionAfter;
    const active = this.active;
    for (let k = 0; k < active.length; k++) {
      const lv = this.activeLevel(k);
      const hasBefore = this.region(lv, step.before, true, before);
      const hasAfter = this.region(lv, step.after, true, after);
      if (hasBefore && hasAfter && before.meets(after)) {
        const both = step.regionBoth;
        both.cover(before, after);
        this.visitRect(lv, Visit.Step, both);
        continue;
      }
      if (hasBefore) this.visitRect(lv, Visit.Step, before);
      if (hasAfter) this.visitRect(lv, Visit.Step, after);
    }
  }

  /** Appends an event; watcher and target are ids. */
  @inline emit(type: i32, watcher: i32, target: i32): void {
    if (this.silent) return;
    const events = this.events;
    if (events.length + EVENT_INTS > this.eventLimit) eventLimitReached();
    if (events.length + EVENT_INTS > events.capacity) events.reserve(events.length + EVENT_INTS);
    const at = events.data + (<usize>events.length << 2);
    store<i32>(at, type, EVENT_TYPE);
    store<i32>(at, watcher, EVENT_WATCHER);
    store<i32>(at, target, EVENT_TARGET);
    events.length += EVENT_INTS;
  }

  /**
   * The step's judgement of each record of the first `cells` gathered 2-D
   * cells of `area`: does it see the subject before and after, does the
   * subject see it before and after. First the records inside the area's
   * bounds are listed (each address written always, kept when inside), then
   * each listed record's four answers and two possible events are computed,
   * each event written always and kept (the end moved past it) only when it
   * happened: whether a record is near or sees the subject follows no
   * pattern a branch could learn. Circles, margins and layer masks, while
   * the scene has any, refine the boxes' answers.
   */
  judgeCells2(area: Region, cells: i32): void {
    if ((this.circles | this.layered | this.margins) != 0) this.judgeRefined2(area, cells);
    else this.judgeBoxes2(area, cells);
  }

  /** judgeCells2 while every range is a box without margin and every mask the default: the loop's copy without refinement. */
  judgeBoxes2(area: Region, cells: i32): void {
    this.judgeCellsAs2(area, cells, false);
  }

  /** judgeCells2 while the scene has circles, margins or masks other than the defaults. */
  judgeRefined2(area: Region, cells: i32): void {
    this.judgeCellsAs2(area, cells, true);
  }

  /** judgeCells2, refining the answers when `refined` (a constant at each of its two inlined uses). */
  @inline judgeCellsAs2(area: Region, cells: i32, refined: bool): void {
    const before = step.before;
    const after = step.after;
    const w = step.subject;
    const wid = load<i32>(this.slot(w), SLOT_ID);
    // (x, y) pairs in one v128: a record's position and half-extents are adjacent doubles.
    const o = pair(before.x, before.y);
    const n = pair(after.x, after.y);
    const oR = pair(before.rx, before.ry);
    const nR = pair(after.rx, after.ry);
    const oLo = f64x2.sub(o, oR), oHi = f64x2.add(o, oR);
    const nLo = f64x2.sub(n, nR), nHi = f64x2.add(n, nR);
    const fLo = pair(area.loX, area.loY), fHi = pair(area.hiX, area.hiY);
    const moved = <i32>step.moved;
    const events = this.events;
    // With margins the only refinement, the plain boxes' answers are final unless the margin rule may differ (see marginMatters).
    const marginsOnly = refined && (this.circles | this.layered) == 0;
    const oP = pair(before.px, before.py);
    const nP = pair(after.px, after.py);
    const oPLo = f64x2.sub(o, oP), oPHi = f64x2.add(o, oP);
    const nPLo = f64x2.sub(n, nP), nPHi = f64x2.add(n, nP);
    // The records inside the area's bounds, listed without a branch.
    const stride = this.record;
    const listed = this.listed;
    let m: usize = 0;
    for (let j = 0; j < cells; j++) {
      const at = this.gathered + <usize>j * GATHERED_BYTES;
      const block = <usize>load<i32>(at, GATHERED_BLOCK);
      const count = load<i32>(at, GATHERED_COUNT);
      listed.reserve(<i32>m + count);
      const list = listed.data;
      for (let k = 0; k < count; k++) {
        const r = block + <usize>k * stride;
        const p = v128.load(r, RECORD_X);
        store<u32>(list + (m << 2), <u32>r);
        m += <usize>(i64x2.bitmask(v128.and(f64x2.ge(p, fLo), f64x2.le(p, fHi))) == 3);
      }
    }
    const list = listed.data;
    // Two events at most per record.
    events.reserve(events.length + 2 * EVENT_INTS * <i32>m);
    const data = events.data;
    let at = data + (<usize>events.length << 2);
    for (let i: usize = 0; i < m; i++) {
      const r = <usize>load<u32>(list + (i << 2));
      const p = v128.load(r, RECORD_X);
      const range = v128.load(r, RECORD_RX_2D);
      const lo = f64x2.sub(p, range), hi = f64x2.add(p, range);
      const other = <i32>(load<i32>(r, RECORD_SLOT) != w);
      let saw = <i32>(i64x2.bitmask(v128.and(f64x2.le(lo, o), f64x2.le(o, hi))) == 3) & other;
      let sees = <i32>(i64x2.bitmask(v128.and(f64x2.le(lo, n), f64x2.le(n, hi))) == 3) & other;
      let was = <i32>(i64x2.bitmask(v128.and(f64x2.le(oLo, p), f64x2.le(p, oHi))) == 3) & other;
      let is = <i32>(i64x2.bitmask(v128.and(f64x2.le(nLo, p), f64x2.le(p, nHi))) == 3) & other;
      if (refined) {
        let mask = saw | (sees << 1) | (was << 2) | (is << 3);
        if (marginsOnly) {
          // Records hold plain half-extents while a watcher has a margin.
          const plain = v128.load(r, RECORD_PX_2D);
          const lo = f64x2.sub(p, plain), hi = f64x2.add(p, plain);
          const plainMask = mask & (<i32>within(lo, o, hi) | (<i32>within(lo, n, hi) << 1) | (<i32>within(oPLo, p, oPHi) << 2) | (<i32>within(nPLo, p, nPHi) << 3));
          mask = marginMatters(mask, plainMask) ? this.hysteresis(r, load<i32>(r, RECORD_SLOT), mask, plainMask) : plainMask;
        } else if (mask != 0) {
          mask = this.refine(r, mask);
        }
        saw &= mask;
        sees &= mask >> 1;
        was &= mask >> 2;
        is &= mask >> 3;
      }
      const tid = load<i32>(r, RECORD_ID);
      // Its view of the subject: move when it saw and sees, leave when it only saw, enter (0) when it only sees.
      store<i32>(at, ((saw & sees) * EVENT_MOVE) | ((saw & ~sees) * EVENT_LEAVE), EVENT_TYPE);
      store<i32>(at, tid, EVENT_WATCHER);
      store<i32>(at, wid, EVENT_TARGET);
      at += <usize>(((saw | sees) & ((saw ^ sees) | moved)) * <i32>EVENT_BYTES);
      // The subject's view of it: leave when it only was seen, enter (0) when it only is.
      store<i32>(at, was * EVENT_LEAVE, EVENT_TYPE);
      store<i32>(at, wid, EVENT_WATCHER);
      store<i32>(at, tid, EVENT_TARGET);
      at += <usize>((was ^ is) * <i32>EVENT_BYTES);
    }
    if (this.silent) return;
    events.length = <i32>((at - data) >> 2);
    if (events.length > this.eventLimit) eventLimitReached();
  }

  /** Emits what one record's four answers mean: its view of the subject (enter, leave, move), then the subject's view of it. */
  @inline judged(tid: i32, wid: i32, saw: i32, sees: i32, was: i32, is: i32, moved: i32): void {
    if (saw | sees) {
      if ((saw & sees) == 0) this.emit(sees ? EVENT_ENTER : EVENT_LEAVE, tid, wid);
      else if (moved) this.emit(EVENT_MOVE, tid, wid);
    }
    if (was ^ is) this.emit(is ? EVENT_ENTER : EVENT_LEAVE, wid, tid);
  }

  /** judgeCells2 for one 3-D cell of `area`, record by record. */
  judge3(area: Region, block: usize, count: i32): void {
    const before = step.before;
    const after = step.after;
    const w = step.subject;
    const wid = load<i32>(this.slot(w), SLOT_ID);
    const ox = before.x, oy = before.y, oz = before.z, nx = after.x, ny = after.y, nz = after.z;
    const fLoX = area.loX, fHiX = area.hiX, fLoY = area.loY, fHiY = area.hiY, fLoZ = area.loZ, fHiZ = area.hiZ;
    const moved = <i32>step.moved;
    const refined = (this.circles | this.layered | this.margins) != 0;
    for (let k = 0; k < count; k++) {
      const r = block + <usize>k * this.record;
      const x = load<f64>(r, RECORD_X);
      const y = load<f64>(r, RECORD_Y);
      const z = load<f64>(r, RECORD_Z);
      if (<i32>(x < fLoX) | <i32>(x > fHiX) | <i32>(y < fLoY) | <i32>(y > fHiY) | <i32>(z < fLoZ) | <i32>(z > fHiZ)) continue;
      if (load<i32>(r, RECORD_SLOT) == w) continue;
      const rx = load<f64>(r, RECORD_RX_3D);
      const ry = load<f64>(r, RECORD_RY_3D);
      const rz = load<f64>(r, RECORD_RZ_3D);
      let saw = <i32>inBox(x, y, z, rx, ry, rz, ox, oy, oz);
      let sees = <i32>inBox(x, y, z, rx, ry, rz, nx, ny, nz);
      let was = <i32>inBox(ox, oy, oz, before.rx, before.ry, before.rz, x, y, z);
      let is = <i32>inBox(nx, ny, nz, after.rx, after.ry, after.rz, x, y, z);
      if (refined && (saw | sees | was | is) != 0) {
        const mask = this.refine(r, saw | (sees << 1) | (was << 2) | (is << 3));
        saw &= mask;
        sees &= mask >> 1;
        was &= mask >> 2;
        is &= mask >> 3;
      }
      this.judged(load<i32>(r, RECORD_ID), wid, saw, sees, was, is, moved);
    }
  }

  // ---- the operations -----------------------------------------------------

  /**
   * The subject's range after the step: plain half-extents p, grown ones r
   * (plain + margin, computed by addition so every core holds the same bits;
   * z stays 0 in 2-D) and its margin flag. A marker has neither, and no margin.
   */
  setNewRange(watcher: bool, rx: f64, ry: f64, rz: f64, margin: f64): void {
    const after = step.after;
    if (this.dims != 3) rz = 0;
    after.margin = watcher && margin > 0;
    after.px = watcher ? rx : NaN;
    after.py = watcher ? ry : NaN;
    after.pz = watcher ? rz : NaN;
    const grow = after.margin ? margin : 0;
    after.rx = watcher ? rx + grow : NaN;
    after.ry = watcher ? ry + grow : NaN;
    after.rz = watcher ? (this.dims == 3 ? rz + grow : 0) : NaN;
  }

  /** The level of the subject's grown range after the step: the lowest whose cells are at least its largest half-extent (a marker's: see markerLevel). */
  rangeLevel(watcher: bool): i32 {
    const after = step.after;
    return watcher ? levelFor(this.cellSize, max<f64>(max<f64>(after.rx, after.ry), after.rz)) : this.markerLevel();
  }

  /**
   * The level a marker goes to: the lowest holding a watcher, else the
   * lowest holding anything, else 0. A marker sees nothing, so any level
   * holds it rightly; on a level of its own it would make every step visit
   * one more level's cells.
   */
  markerLevel(): i32 {
    const active = this.active;
    for (let k = 0; k < active.length; k++) if (this.activeLevel(k).reach0 >= 0) return active.get(k);
    return active.length > 0 ? active.get(0) : 0;
  }

  add(s: i32, id: i32, x: f64, y: f64, z: f64, rx: f64, ry: f64, rz: f64, watcher: bool, round: bool, layer: i32, sees: i32, margin: f64): void {
    const before = step.before;
    const after = step.after;
    this.ensureSlot(s);
    store<i32>(this.slot(s), id, SLOT_ID);
    before.round = false;
    before.margin = false;
    before.layer = DEFAULT_LAYER;
    before.sees = DEFAULT_SEES;
    after.round = watcher && round;
    after.layer = layer;
    after.sees = sees;
    this.setNewRange(watcher, rx, ry, rz, margin);
    this.setShape(s, after);
    after.setPlace(x, y, this.dims == 3 ? z : 0);
    memory.fill(step.held, 0, HELD_BYTES);
    this.place(s, this.rangeLevel(watcher), after);
    // Nothing was seen before an add.
    before.absent();
    step.begin(s, false);
    this.judgeStep();
    this.keepSubjectHeld(s);
    this.uncount(before);
    this.chooseCellSize(load<i32>(this.slot(s), SLOT_LEVEL));
  }

  move(s: i32, x: f64, y: f64, z: f64): void {
    this.readOld(s);
    const before = step.before;
    const after = step.after;
    if (this.dims == 2) z = 0;
    if (before.x == x && before.y == y && before.z == z) return;
    after.setPlace(x, y, z);
    after.rangeAs(before);
    after.shapeAs(before);
    this.relocate(s);
    step.begin(s, this.noMoves == 0);
    this.judgeStep();
    this.keepSubjectHeld(s);
  }

  /** Moves slot s's record to the step's after place: in place when the cell stays, else to the new cell (a marker's on markerLevel). */
  relocate(s: i32): void {
    const p = this.slot(s);
    const lv = this.levelOf(s);
    const after = step.after;
    if (lv.cell(after.x) == load<i32>(p, SLOT_CX) && lv.cell(after.y) == load<i32>(p, SLOT_CY) && lv.cell(after.z) == load<i32>(p, SLOT_CZ)) {
      const r = step.record;
      store<f64>(r, after.x, RECORD_X);
      store<f64>(r, after.y, RECORD_Y);
      if (this.dims == 3) store<f64>(r, after.z, RECORD_Z);
      return;
    }
    const l = load<i32>(p, SLOT_LEVEL);
    this.unplace(s);
    this.place(s, after.rx >= 0 ? l : this.markerLevel(), after);
  }

  remove(s: i32): void {
    this.readOld(s);
    const after = step.after;
    after.round = false;
    after.margin = false;
    after.layer = DEFAULT_LAYER;
    after.sees = DEFAULT_SEES;
    this.setShape(s, after);
    this.unplace(s);
    // Nothing is seen after a remove.
    after.absent();
    step.begin(s, false);
    this.judgeStep();
    this.uncount(step.before);
  }

  setRange(s: i32, rx: f64, ry: f64, rz: f64, watcher: bool, round: bool, margin: f64): void {
    this.readOld(s);
    const before = step.before;
    const after = step.after;
    after.shapeAs(before);
    after.round = watcher && round;
    this.setNewRange(watcher, rx, ry, rz, margin);
    this.setShape(s, after);
    after.setPlace(before.x, before.y, before.z);
    this.unplace(s);
    this.place(s, this.rangeLevel(watcher), after);
    step.begin(s, false);
    this.judgeStep();
    this.keepSubjectHeld(s);
    this.uncount(before);
    this.chooseCellSize(load<i32>(this.slot(s), SLOT_LEVEL));
  }

  /** New masks for slot s: enter / leave for every pair, with s as watcher or as target, whose visibility changes. */
  setLayers(s: i32, layer: i32, sees: i32): void {
    this.readNew(s);
    const after = step.after;
    after.layer = layer;
    after.sees = sees;
    this.setShape(s, after);
    step.begin(s, false);
    this.judgeStep();
    this.keepSubjectHeld(s);
    this.uncount(step.before);
  }

  // ---- queries ------------------------------------------------------------

  /** Visits, at every level, the region around the subject's after side (its box, with others' reach when asked); returns the result count. */
  collect(visit: Visit, s: i32, reach: bool): i32 {
    step.begin(s, false);
    this.results.length = 0;
    const area = step.regionAfter;
    const active = this.active;
    for (let k = 0; k < active.length; k++) {
      const lv = this.activeLevel(k);
      if (this.region(lv, step.after, reach, area)) this.visitRect(lv, visit, area);
    }
    return this.results.length;
  }

  /** Writes every held pair into the result buffer as slots w, t; returns the number of i32 written. */
  heldPairs(): i32 {
    this.results.length = 0;
    this.held.list(this.results);
    if (this.plainRecords) {
      const three = this.dims == 3;
      for (let k = 0; k < this.capacity; k++) {
        if (load<i32>(this.slot(k), SLOT_LEVEL) >= 0) listHeldTargets(this.recordOf(k) + recordHeld(three), k, this.results);
      }
    }
    return this.results.length;
  }

  /**
   * Makes (w, t) visible when w is a watcher, the masks meet, t is inside
   * w's grown range and the pair is not visible (an enter, and the pair
   * joins the held set, t being outside the plain range); otherwise nothing
   * happens. Restores a snapshot's held pairs.
   */
  hold(w: i32, t: i32): void {
    if (w == t) return;
    this.readOld(w);
    const before = step.before;
    if (!(before.rx >= 0) || (before.sees & this.layerOf(t)) == 0) return;
    const r = this.recordOf(t);
    const x = load<f64>(r, RECORD_X);
    const y = load<f64>(r, RECORD_Y);
    const z = this.dims == 3 ? load<f64>(r, RECORD_Z) : 0;
    if (!inRange(before.x, before.y, before.z, before.rx, before.ry, before.rz, before.round, x, y, z)) return;
    if (!before.margin || inRange(before.x, before.y, before.z, before.px, before.py, before.pz, before.round, x, y, z) || holdsTarget(step.held, w, t, this.held)) return;
    addHeldTarget(step.held, w, t, this.held);
    this.keepSubjectHeld(w);
    this.emit(EVENT_ENTER, load<i32>(this.slot(w), SLOT_ID), load<i32>(this.slot(t), SLOT_ID));
  }

  query(s: i32): i32 {
    this.readNew(s);
    return this.collect(Visit.Query, s, false);
  }

  /** Who sees slot s: its own range plays no part, others' reach finds them. */
  watchers(s: i32): i32 {
    this.readNew(s);
    step.after.seesNothing();
    return this.collect(Visit.Watchers, s, true);
  }

  queryBox(minX: f64, minY: f64, minZ: f64, maxX: f64, maxY: f64, maxZ: f64): i32 {
    if (this.dims == 2) {
      minZ = 0;
      maxZ = 0;
    }
    this.results.length = 0;
    const box = step.regionAfter;
    const active = this.active;
    for (let k = 0; k < active.length; k++) {
      const lv = this.activeLevel(k);
      box.setAxis(0, lv.cell(minX), lv.cell(maxX), minX, maxX);
      box.setAxis(1, lv.cell(minY), lv.cell(maxY), minY, maxY);
      box.setAxis(2, lv.cell(minZ), lv.cell(maxZ), minZ, maxZ);
      this.visitRect(lv, Visit.Box, box);
    }
    return this.results.length;
  }

  /**
   * Writes the ids of the k entities nearest to (x, y, z) into the result
   * buffer, nearest first (see KNearest); returns their count. At each level
   * holding entities, rings of cells outward from the point's cell, until a
   * ring's distance exceeds the k-th best; once the rings would read more
   * cells than the level holds, its table instead.
   */
  nearest(x: f64, y: f64, z: f64, k: i32, maxDistance: f64, filtered: bool, mask: i32): i32 {
    this.picker.reset(k, maxDistance, filtered, mask);
    if (this.dims == 2) z = 0;
    const active = this.active;
    for (let j = 0; j < active.length; j++) this.nearestInLevel(this.activeLevel(j), x, y, z);
    return this.picker.take(this.results);
  }

  nearestInLevel(lv: Level, x: f64, y: f64, z: f64): void {
    const picker = this.picker;
    const cx = lv.cell(x);
    const cy = lv.cell(y);
    const cz = lv.cell(z);
    const flat = this.dims == 2;
    const scale = Math.abs(x) + Math.abs(y) + Math.abs(z);
    let read: f64 = 0;
    for (let r = 0; ; r++) {
      if (beyondBound(ringGap(lv.size, <f64>r), scale, picker.bound())) return;
      const outer = <f64>(2 * r + 1);
      const inner = <f64>max(0, 2 * r - 1);
      const ringCells = flat ? outer * outer - inner * inner : outer * outer * outer - inner * inner * inner;
      if (read + ringCells > SCAN_ALL_RATIO * <f64>lv.cells) {
        // The table, for every cell at ring r or beyond that can still hold a winner.
        for (let b = 0; b <= lv.mask; b++) {
          const e = lv.bucket(b);
          const count = load<i32>(e, BUCKET_COUNT);
          if (count == 0) continue;
          const ring = max(max(Math.abs(<f64>load<i32>(e, BUCKET_CX) - <f64>cx), Math.abs(<f64>load<i32>(e, BUCKET_CY) - <f64>cy)), Math.abs(<f64>load<i32>(e, BUCKET_CZ) - <f64>cz));
          if (ring < <f64>r || beyondBound(ringGap(lv.size, ring), scale, picker.bound())) continue;
          this.nearestInCell(<usize>load<i32>(e, BUCKET_BLOCK), count, x, y, z);
        }
        return;
      }
      read += ringCells;
      const rz = flat ? 0 : r;
      for (let dz = -rz; dz <= rz; dz++) {
        for (let dy = -r; dy <= r; dy++) {
          // Inside the ring's shell only the two ends of a row belong to it.
          const wholeRow = dy == -r || dy == r || (!flat && (dz == -rz || dz == rz));
          const stride = wholeRow || r == 0 ? 1 : 2 * r;
          for (let dx = -r; dx <= r; dx += stride) {
            const b = lv.find(cx + dx, cy + dy, cz + dz);
            if (b < 0) continue;
            const e = lv.bucket(b);
            this.nearestInCell(<usize>load<i32>(e, BUCKET_BLOCK), load<i32>(e, BUCKET_COUNT), x, y, z);
          }
        }
      }
    }
  }

  nearestInCell(block: usize, count: i32, x: f64, y: f64, z: f64): void {
    const picker = this.picker;
    const three = this.dims == 3;
    const stride = this.record;
    for (let k = 0; k < count; k++) {
      const r = block + <usize>k * stride;
      picker.offer(load<i32>(r, RECORD_ID), this.layerOf(load<i32>(r, RECORD_SLOT)), load<f64>(r, RECORD_X), load<f64>(r, RECORD_Y), three ? load<f64>(r, RECORD_Z) : 0, x, y, z);
    }
  }

  clear(): void {
    for (let l = 0; l < this.levelCount; l++) {
      const lv = this.levelAt(l);
      if (lv != 0) changetype<Level>(lv).reset();
    }
    this.active.length = 0;
    for (let k = 0; k < this.capacity; k++) store<i32>(this.slot(k), -1, SLOT_LEVEL);
    this.circles = 0;
    this.margins = 0;
    this.plainRecords = false;
    this.record = recordBytes(this.dims == 3, false);
    this.held.clear();
    this.layered = 0;
    this.events.length = 0;
  }

  bytes(): f64 {
    let bytes = <f64>offsetof<GridIndex>() + <f64>this.capacity * <f64>(SLOT_BYTES + MASKS_BYTES) + <f64>this.levelCount * 4;
    for (let l = 0; l < this.levelCount; l++) {
      const p = this.levelAt(l);
      if (p == 0) continue;
      const lv = changetype<Level>(p);
      bytes += <f64>offsetof<Level>() + <f64>(lv.mask + 1) * <f64>BUCKET_BYTES;
      for (let b = 0; b <= lv.mask; b++) {
        const e = lv.bucket(b);
        if (load<i32>(e, BUCKET_COUNT) != 0) bytes += <f64>load<i32>(e, BUCKET_CAPACITY) * <f64>this.record;
      }
    }
    bytes += <f64>offsetof<KNearest>() + <f64>this.picker.capacity * 12;
    bytes += <f64>offsetof<PairSet>() + <f64>(this.held.mask + 1) * 8;
    bytes += <f64>(<usize>GATHER_CELLS * GATHERED_BYTES);
    return bytes + <f64>(this.active.capacity + this.events.capacity + this.results.capacity + this.listed.capacity) * 4;
  }
}

/**
 * The least distance on some axis from a point to any entity in a cell r
 * rings out from the point's cell (cells `size` wide): r - 1 whole cells.
 */
@inline function ringGap(size: f64, r: f64): f64 {
  return r <= 1 ? 0 : (r - 1) * size;
}

@inline function pair(x: f64, y: f64): v128 {
  return f64x2.replace_lane(f64x2.splat(x), 1, y);
}

/** True when the box centred on c with half-extents rx, ry, rz holds the point (NaN anywhere: false). */
@inline function inBox(cx: f64, cy: f64, cz: f64, rx: f64, ry: f64, rz: f64, x: f64, y: f64, z: f64): bool {
  return cx - rx <= x && x <= cx + rx && cy - ry <= y && y <= cy + ry && cz - rz <= z && z <= cz + rz;
}

/** Both lanes of v lie in [lo, hi]. */
@inline function within(lo: v128, v: v128, hi: v128): bool {
  return i64x2.bitmask(v128.and(f64x2.le(lo, v), f64x2.le(v, hi))) == 3;
}

/**
 * Whether the margin rule may answer otherwise than the plain boxes, from a
 * record's four box answers (bits as refine's: its view of the subject
 * before, after; the subject's view of it before, after), grown and plain:
 * only for a pair in the band between the two boxes before the step (it
 * may be held) or one that leaves its plain box for the band (it becomes
 * held). Otherwise the plain answers are final, and the pair is held
 * neither before nor after.
 */
@inline function marginMatters(grown: i32, plain: i32): bool {
  const band = grown & ~plain;
  return ((band | (plain & (band >> 1))) & 5) != 0;
}

/** True when the range centred on c (half-extents rx, ry, rz; with `round`, the circle of radius rx) holds the point. */
@inline function inRange(cx: f64, cy: f64, cz: f64, rx: f64, ry: f64, rz: f64, round: bool, x: f64, y: f64, z: f64): bool {
  return inBox(cx, cy, cz, rx, ry, rz, x, y, z) && (!round || inCircle(cx, cy, cz, rx, x, y, z));
}

// ---- what assembly/scene/exports.ts calls beyond the scene's methods ---------

export function newGridIndex(dims: i32, cellSize: f64): GridIndex {
  const s = changetype<GridIndex>(heap.alloc(offsetof<GridIndex>()));
  memory.fill(changetype<usize>(s), 0, offsetof<GridIndex>());
  s.dims = dims;
  s.cellSize = cellSize;
  s.record = recordBytes(dims == 3, false);
  s.active = newIntList();
  s.events = newIntList();
  s.results = newIntList();
  s.listed = newIntList();
  s.picker = newKNearest();
  s.held = newPairSet();
  s.gathered = heap.alloc(<usize>GATHER_CELLS << 3);
  s.ensureSlot(15);
  return s;
}

export function freeGridIndex(s: GridIndex): void {
  s.clear();
  for (let l = 0; l < s.levelCount; l++) {
    const lv = load<u32>(s.levels + (<usize>l << 2));
    if (lv == 0) continue;
    heap.free(changetype<Level>(<usize>lv).table);
    heap.free(<usize>lv);
  }
  if (s.levels != 0) heap.free(s.levels);
  heap.free(s.slots);
  heap.free(s.masks);
  freePairSet(s.held);
  freeIntList(s.active);
  freeIntList(s.events);
  freeIntList(s.results);
  freeIntList(s.listed);
  freeKNearest(s.picker);
  heap.free(s.gathered);
  heap.free(changetype<usize>(s));
}

export function gridMoveMany(s: GridIndex, slots: i32, xs: i32, ys: i32, zs: i32, count: i32): void {
  for (let k = 0; k < count; k++) {
    if ((k & (FETCH_AHEAD - 1)) == 0) s.fetchAhead(<usize>slots, k, count);
    const z = zs == 0 ? 0.0 : load<f64>(<usize>zs + (<usize>k << 3));
    s.move(load<i32>(<usize>slots + (<usize>k << 2)), load<f64>(<usize>xs + (<usize>k << 3)), load<f64>(<usize>ys + (<usize>k << 3)), z);
  }
}

/** Adds in array order, with the events of as many add calls; ranges[k] is a square (cube) half-extent. */
export function gridAddMany(s: GridIndex, slots: i32, ids: i32, xs: i32, ys: i32, zs: i32, ranges: i32, count: i32): void {
  for (let k = 0; k < count; k++) {
    const z = zs == 0 ? 0.0 : load<f64>(<usize>zs + (<usize>k << 3));
    const r = load<f64>(<usize>ranges + (<usize>k << 3));
    s.add(load<i32>(<usize>slots + (<usize>k << 2)), load<i32>(<usize>ids + (<usize>k << 2)), load<f64>(<usize>xs + (<usize>k << 3)), load<f64>(<usize>ys + (<usize>k << 3)), z, r, r, r, true, false, DEFAULT_LAYER, DEFAULT_SEES, 0);
  }
}

/** Writes slot's position into the result buffer as three doubles; returns its address. */
export function gridPositionOf(s: GridIndex, slot: i32): i32 {
  s.readOld(slot);
  const results = s.results;
  results.reserve(6);
  store<f64>(results.data, s.ox);
  store<f64>(results.data, s.oy, 8);
  store<f64>(results.data, s.oz, 16);
  return <i32>results.data;
}

/** Writes the positions of count slots (i32s at slots) into the result buffer, three doubles each; returns its address. */
export function gridPositions(s: GridIndex, slots: i32, count: i32): i32 {
  const results = s.results;
  results.reserve(6 * count);
  for (let k = 0; k < count; k++) {
    s.readOld(load<i32>(slots + (k << 2)));
    const at = results.data + (<usize>k) * 24;
    store<f64>(at, s.ox);
    store<f64>(at, s.oy, 8);
    store<f64>(at, s.oz, 16);
  }
  return <i32>results.data;
}
