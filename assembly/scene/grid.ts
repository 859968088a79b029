// Area of interest by a hashed uniform cell grid, over flat linear memory.
// The same algorithm as src/scene/js/grid.ts (read that file for the
// idea: levels of cells, records kept per cell, a step judged from the cells
// around the mover's old and new place).
//
// What a step reads is contiguous: a cell's records (slot, position and
// half-extents: 40 bytes in 2-D, 56 in 3-D) sit in one block, and the cell's
// coordinates, count and block address in one 24-byte table bucket.
//
// A record's half-extents are its watcher's grown ones (range + margin). Once
// some watcher has a margin, a side table keeps every slot's plain ones
// (read only for records near the edge of a grown box), and a PairSet the
// pairs visible only thanks to a margin (the held set).
import { eventLimitReached } from './imports';
import { inCircle } from './circle';
import { IntList, newIntList, freeIntList, forgetEvents } from './int-list';
import { beyondBound, KNearest, newKNearest, freeKNearest } from './k-nearest';
import { PairSet, newPairSet, freePairSet } from './pair-set';

const EVENT_ENTER: i32 = 0;
const EVENT_LEAVE: i32 = 1;
const EVENT_MOVE: i32 = 2;

const CELL_LIMIT: f64 = <f64>(1 << 30);
/** Bucket: cx, cy, cz, count (0: empty), capacity (records), block address. */
const BUCKET: usize = 24;
/** Record: slot, id, then dims coordinates and dims half-extents (f64). */
const REACH_SLACK: f64 = 1e-15;
const SCAN_ALL_RATIO: f64 = 2;
const CHOOSE_MIN: i32 = 32;
const SPARSE_CELL: f64 = 4;
const DENSE_CELL: f64 = 32;
/** Movers of a batch whose slots and records are read a group ahead (a power of two). */
const FETCH_AHEAD: i32 = 8;
/** Cells of a region that visitRect finds before it reads them. */
const GATHER_CELLS: i32 = 32;
/** Slot record: id, level (-1: free), cx, cy, cz, index in the cell, shape (SHAPE_ bits), address of its record. */
const SLOT: usize = 32;
/** Shape bits: the range is a circle (sphere) of radius its first half-extent; the watcher has a margin. */
const SHAPE_CIRCLE: i32 = 1;
const SHAPE_MARGIN: i32 = 2;
/** Bytes per slot of the plain half-extents table (three f64). */
const PLAIN: usize = 24;

/** The masks of an entity added without any: layer 1, every layer seen. */
const DEFAULT_LAYER: i32 = 1;
const DEFAULT_SEES: i32 = -1;

const VISIT_STEP: i32 = 0;
const VISIT_QUERY: i32 = 1;
const VISIT_WATCHERS: i32 = 2;
const VISIT_BOX: i32 = 3;

/** 2^k for 0 <= k <= 1000, exactly. */
@inline function pow2(k: i32): f64 {
  return reinterpret<f64>(<u64>(1023 + k) << 52);
}

function levelSize(cellSize: f64, level: i32): f64 {
  let size = cellSize;
  while (level > 1000) {
    size *= pow2(1000);
    level -= 1000;
  }
  return size * pow2(level);
}

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

@unmanaged
class Level {
  /** cellSize * 2^level; the cell side is this or, while the level is sparse, twice it. */
  base: f64;
  size: f64;
  inv: f64;
  /** Entities when the cell side was last chosen. */
  chosenAt: i32;
  reach0: f64;
  reach1: f64;
  reach2: f64;
  entities: i32;
  cells: i32;
  table: usize;
  mask: i32;

  @inline reach(a: i32): f64 {
    return a == 0 ? this.reach0 : a == 1 ? this.reach1 : this.reach2;
  }

  @inline cell(v: f64): i32 {
    if (this.inv == 0) return 0;
    return <i32>min<f64>(max<f64>(Math.floor(v * this.inv), -CELL_LIMIT), CELL_LIMIT);
  }

  @inline bucket(b: i32): usize {
    return this.table + <usize>b * BUCKET;
  }

  find(cx: i32, cy: i32, cz: i32): i32 {
    const mask = this.mask;
    let b = cellHash(cx, cy, cz, mask);
    while (true) {
      const e = this.bucket(b);
      if (load<i32>(e, 12) == 0) return -1;
      if (load<i32>(e) == cx && load<i32>(e, 4) == cy && load<i32>(e, 8) == cz) return b;
      b = (b + 1) & mask;
    }
    return -1;
  }

  create(cx: i32, cy: i32, cz: i32): i32 {
    if ((this.cells + 1) * 2 > this.mask + 1) this.grow();
    let b = cellHash(cx, cy, cz, this.mask);
    while (load<i32>(this.bucket(b), 12) != 0) b = (b + 1) & this.mask;
    const e = this.bucket(b);
    store<i32>(e, cx);
    store<i32>(e, cy, 4);
    store<i32>(e, cz, 8);
    store<i32>(e, 0, 16);
    store<i32>(e, 0, 20);
    this.cells++;
    return b;
  }

  grow(): void {
    const old = this.table;
    const oldBuckets = this.mask + 1;
    this.mask = this.mask * 2 + 1;
    this.table = zeroed(<usize>(this.mask + 1) * BUCKET);
    for (let k = 0; k < oldBuckets; k++) {
      const e = old + <usize>k * BUCKET;
      if (load<i32>(e, 12) == 0) continue;
      let b = cellHash(load<i32>(e), load<i32>(e, 4), load<i32>(e, 8), this.mask);
      while (load<i32>(this.bucket(b), 12) != 0) b = (b + 1) & this.mask;
      memory.copy(this.bucket(b), e, BUCKET);
    }
    heap.free(old);
  }

  delete(b: i32): void {
    const mask = this.mask;
    let hole = b;
    for (let j = (b + 1) & mask; load<i32>(this.bucket(j), 12) != 0; j = (j + 1) & mask) {
      const e = this.bucket(j);
      const home = cellHash(load<i32>(e), load<i32>(e, 4), load<i32>(e, 8), mask);
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      memory.copy(this.bucket(hole), e, BUCKET);
      hole = j;
    }
    store<i32>(this.bucket(hole), 0, 12);
    this.cells--;
  }

  resize(size: f64): void {
    this.size = size;
    this.inv = size == Infinity ? 0 : 1 / size;
  }

  /** Empties the table (the caller keeps or frees the blocks). */
  clearTable(): void {
    heap.free(this.table);
    this.table = zeroed(8 * BUCKET);
    this.mask = 7;
    this.cells = 0;
  }

  /** Frees every cell's block and empties the table. */
  reset(): void {
    for (let b = 0; b <= this.mask; b++) {
      const e = this.bucket(b);
      if (load<i32>(e, 12) != 0) heap.free(<usize>load<i32>(e, 20));
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
  lv.table = zeroed(8 * BUCKET);
  lv.mask = 7;
  lv.cells = 0;
  lv.entities = 0;
  lv.reach0 = -1;
  lv.reach1 = -1;
  lv.reach2 = -1;
  return lv;
}

@unmanaged
class GridScene {
  dims: i32;
  cellSize: f64;
  /** Bytes per record: slot and id, then dims coordinates and dims half-extents. */
  record: usize;
  levels: usize;
  levelCount: i32;
  active: IntList;
  slots: usize;
  capacity: i32;
  events: IntList;
  results: IntList;
  visit: i32;
  subject: i32;
  /** Address of the subject's record, as readOld found it. */
  subjectRecord: usize;
  moved: bool;
  ox: f64; oy: f64; oz: f64;
  nx: f64; ny: f64; nz: f64;
  orx: f64; ory: f64; orz: f64;
  nrx: f64; nry: f64; nrz: f64;
  /** Watchers with a circle: while there are none, no judgement looks at shapes. */
  circles: i32;
  /** The subject's range is a circle before (o) and after (n) the step. */
  oRound: bool;
  nRound: bool;
  /** Watchers with a margin: while there are none, no judgement looks at margins or the held set. */
  margins: i32;
  /** The largest margin any watcher has had since the scene was created or cleared. */
  maxMargin: f64;
  /** Plain half-extents (PLAIN bytes per slot) of every placed slot (a slot without margin: its grown ones); 0 until the first margin. */
  plain: usize;
  /** The pairs visible only thanks to a margin: inside the watcher's grown range, outside its plain one. */
  held: PairSet;
  /** The subject has a margin before (o) and after (n) the step, and then these plain half-extents (orx.., nrx.. hold the grown ones). */
  oMargin: bool;
  nMargin: bool;
  opx: f64; opy: f64; opz: f64;
  npx: f64; npy: f64; npz: f64;
  /** Two i32 per slot, its layer masks: the layers it is on, the layers it sees. */
  masks: usize;
  /** Entities with masks other than the defaults: while there are none, no judgement looks at masks. */
  layered: i32;
  /** The subject's masks before (o) and after (n) the step. */
  oLayer: i32; oSees: i32;
  nLayer: i32; nSees: i32;
  // Two regions of cells: x0 y0 z0 x1 y1 z1 each, and the coordinate bounds they were cut from.
  ax0: i32; ay0: i32; az0: i32; ax1: i32; ay1: i32; az1: i32;
  bx0: i32; by0: i32; bz0: i32; bx1: i32; by1: i32; bz1: i32;
  aLoX: f64; aLoY: f64; aLoZ: f64; aHiX: f64; aHiY: f64; aHiZ: f64;
  bLoX: f64; bLoY: f64; bLoZ: f64; bHiX: f64; bHiY: f64; bHiZ: f64;
  /** Bounds of the region being visited: a record outside them on any axis can change nothing. */
  fLoX: f64; fLoY: f64; fLoZ: f64; fHiX: f64; fHiY: f64; fHiZ: f64;
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
  /** What fetchAhead and visitRect read ahead, summed. */
  fetched: i32;
  /** Addresses of the records inside a step's region, for judgeCells2. */
  listed: IntList;
  /** Room for GATHER_CELLS (block, count) pairs: cells of a region, found before any is read. */
  gathered: usize;

  @inline slot(s: i32): usize {
    return this.slots + <usize>s * SLOT;
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
    const grown = heap.alloc(<usize>capacity * SLOT);
    if (this.slots != 0) {
      memory.copy(grown, this.slots, <usize>this.capacity * SLOT);
      heap.free(this.slots);
    }
    for (let k = this.capacity; k < capacity; k++) store<i32>(grown + <usize>k * SLOT, -1, 4);
    this.slots = grown;
    const masks = heap.alloc(<usize>capacity << 3);
    if (this.masks != 0) {
      memory.copy(masks, this.masks, <usize>this.capacity << 3);
      heap.free(this.masks);
    }
    this.masks = masks;
    if (this.plain != 0) this.plain = grownTable(this.plain, <usize>this.capacity * PLAIN, <usize>capacity * PLAIN);
    this.capacity = capacity;
  }

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
    let lv = load<u32>(this.levels + (<usize>l << 2));
    if (lv == 0) {
      lv = <u32>changetype<usize>(newLevel(levelSize(this.cellSize, l)));
      store<u32>(this.levels + (<usize>l << 2), lv);
    }
    return changetype<Level>(<usize>lv);
  }

  @inline levelOf(s: i32): Level {
    return changetype<Level>(<usize>load<u32>(this.levels + (<usize>load<i32>(this.slot(s), 4) << 2)));
  }

  /** Slot s's range is a circle (sphere) of radius its first half-extent. */
  @inline isCircle(s: i32): bool {
    return (load<i32>(this.slot(s), 24) & SHAPE_CIRCLE) != 0;
  }

  /** Slot s is a watcher with a margin. */
  @inline hasMargin(s: i32): bool {
    return (load<i32>(this.slot(s), 24) & SHAPE_MARGIN) != 0;
  }

  /** Address of slot s's plain half-extents (valid for every placed slot once the table exists). */
  @inline plainOf(s: i32): usize {
    return this.plain + <usize>s * PLAIN;
  }

  @inline layerOf(s: i32): i32 {
    return load<i32>(this.masks + (<usize>s << 3));
  }
  @inline seesOf(s: i32): i32 {
    return load<i32>(this.masks + (<usize>s << 3), 4);
  }

  /**
   * Sets slot s's shape to nRound and nMargin (with plain half-extents np)
   * and masks to nLayer, nSees, counting them into circles, margins and
   * layered; the old ones (oRound, oMargin, oLayer, oSees) stay counted
   * until uncountOld, after the step, whose judgement needs them.
   */
  setShape(s: i32): void {
    this.circles += <i32>this.nRound;
    this.margins += <i32>this.nMargin;
    store<i32>(this.slot(s), (this.nRound ? SHAPE_CIRCLE : 0) | (this.nMargin ? SHAPE_MARGIN : 0), 24);
    if (this.nMargin && this.plain == 0) this.allocatePlain();
    if (this.plain != 0) {
      // Without a margin the plain range is the grown one.
      const p = this.plainOf(s);
      store<f64>(p, this.nMargin ? this.npx : this.nrx);
      store<f64>(p, this.nMargin ? this.npy : this.nry, 8);
      store<f64>(p, this.nMargin ? this.npz : this.nrz, 16);
    }
    this.layered += <i32>(this.nLayer != DEFAULT_LAYER || this.nSees != DEFAULT_SEES);
    store<i32>(this.masks + (<usize>s << 3), this.nLayer);
    store<i32>(this.masks + (<usize>s << 3), this.nSees, 4);
  }

  /** Allocates the plain half-extents table at the first margin, filled from the records (no slot has a margin yet: plain = grown). */
  allocatePlain(): void {
    this.plain = heap.alloc(<usize>this.capacity * PLAIN);
    const three = this.dims == 3;
    for (let k = 0; k < this.capacity; k++) {
      if (load<i32>(this.slot(k), 4) < 0) continue;
      const r = this.recordOf(k) + (three ? 32 : 24);
      const p = this.plainOf(k);
      const rx = load<f64>(r);
      store<f64>(p, rx);
      store<f64>(p, load<f64>(r, 8), 8);
      store<f64>(p, three ? load<f64>(r, 16) : rx == rx ? 0 : NaN, 16);
    }
  }

  /** Counts the subject's old shape and masks out of circles and layered. */
  uncountOld(): void {
    this.circles -= <i32>this.oRound;
    this.margins -= <i32>this.oMargin;
    this.layered -= <i32>(this.oLayer != DEFAULT_LAYER || this.oSees != DEFAULT_SEES);
  }

  /** The subject keeps its shape and masks through the step. */
  keepShape(): void {
    this.nRound = this.oRound;
    this.nMargin = this.oMargin;
    if (this.oMargin) {
      this.npx = this.opx;
      this.npy = this.opy;
      this.npz = this.opz;
    }
    this.nLayer = this.oLayer;
    this.nSees = this.oSees;
  }

  /**
   * The four answers (bits 0-3: it saw, sees the subject; the subject saw,
   * sees it) of the record at address r, from the boxes' answers `box`,
   * after the exact test of circles, the layer masks and the margin rule.
   * Called only while the scene has circles, margins or masks other than the
   * defaults.
   */
  refine(r: usize, box: i32): i32 {
    const t = load<i32>(r);
    const three = this.dims == 3;
    const x = load<f64>(r, 8);
    const y = load<f64>(r, 16);
    const z = three ? load<f64>(r, 24) : 0;
    const rx = load<f64>(r + (three ? 32 : 24));
    let mask = box;
    if (this.layered != 0) {
      const tSees = this.seesOf(t), tLayer = this.layerOf(t);
      if ((tSees & this.oLayer) == 0) mask &= ~1;
      if ((tSees & this.nLayer) == 0) mask &= ~2;
      if ((this.oSees & tLayer) == 0) mask &= ~4;
      if ((this.nSees & tLayer) == 0) mask &= ~8;
    }
    if (this.circles != 0) {
      if (this.isCircle(t)) {
        if (!inCircle(x, y, z, rx, this.ox, this.oy, this.oz)) mask &= ~1;
        if (!inCircle(x, y, z, rx, this.nx, this.ny, this.nz)) mask &= ~2;
      }
      if (this.oRound && !inCircle(this.ox, this.oy, this.oz, this.orx, x, y, z)) mask &= ~4;
      if (this.nRound && !inCircle(this.nx, this.ny, this.nz, this.nrx, x, y, z)) mask &= ~8;
    }
    if (this.margins != 0) mask = this.hysteresis(r, t, x, y, z, rx, mask);
    return mask;
  }

  /**
   * The margin rule on refine's answers, which so far mean "masks meet and
   * inside the grown range": a pair is visible before the step when the
   * target is inside the plain range or the pair is held, and after it when
   * the target is inside the plain range, or was visible and is inside the
   * grown range. Moves the pair into or out of the held set to match. The
   * record (t at x, y, z, grown half-extents from rx) gives its plain range
   * from the table (which holds every slot's once a margin exists), read
   * only when the subject is not deep inside its grown box.
   */
  hysteresis(r: usize, t: i32, x: f64, y: f64, z: f64, rx: f64, mask: i32): i32 {
    const w = this.subject;
    if ((mask & 3) != 0) {
      const three = this.dims == 3;
      const ry = load<f64>(r + (three ? 40 : 32));
      const rz = three ? load<f64>(r, 48) : 0;
      const round = this.circles != 0 && this.isCircle(t);
      const grownOld = (mask & 1) != 0;
      const grownNew = (mask & 2) != 0;
      let plainOld = grownOld;
      let plainNew = grownNew;
      const readOld = grownOld && (round || !this.deepInside(x, y, z, rx, ry, rz, this.ox, this.oy, this.oz));
      const readNew = grownNew && (round || !this.deepInside(x, y, z, rx, ry, rz, this.nx, this.ny, this.nz));
      if (readOld || readNew) {
        const p = this.plainOf(t);
        const px = load<f64>(p), py = load<f64>(p, 8), pz = load<f64>(p, 16);
        if (readOld) plainOld = inRange(x, y, z, px, py, pz, round, this.ox, this.oy, this.oz);
        if (readNew) plainNew = inRange(x, y, z, px, py, pz, round, this.nx, this.ny, this.nz);
      }
      const saw = plainOld || (grownOld && this.held.has(t, w));
      const sees = plainNew || (saw && grownNew);
      this.keepHeld(t, w, saw && !plainOld, sees && !plainNew);
      mask = (mask & ~3) | <i32>saw | (<i32>sees << 1);
    }
    if ((this.oMargin || this.nMargin) && (mask & 12) != 0) {
      const grownOld = (mask & 4) != 0;
      const grownNew = (mask & 8) != 0;
      const plainOld = grownOld && (!this.oMargin || inRange(this.ox, this.oy, this.oz, this.opx, this.opy, this.opz, this.oRound, x, y, z));
      const plainNew = grownNew && (!this.nMargin || inRange(this.nx, this.ny, this.nz, this.npx, this.npy, this.npz, this.nRound, x, y, z));
      const was = plainOld || (grownOld && this.oMargin && this.held.has(w, t));
      const is = plainNew || (was && grownNew);
      this.keepHeld(w, t, was && !plainOld, is && !plainNew);
      mask = (mask & ~12) | (<i32>was << 2) | (<i32>is << 3);
    }
    return mask;
  }

  /**
   * Whether the point p is inside the box centred on c with grown
   * half-extents r shrunk by maxMargin and a rounding slack: then it is
   * inside the plain box of every margin up to maxMargin, to the last bit
   * of the exact test, which need not be run. z is not tested in 2-D.
   */
  @inline deepInside(cx: f64, cy: f64, cz: f64, rx: f64, ry: f64, rz: f64, px: f64, py: f64, pz: f64): bool {
    const m = this.maxMargin;
    return deepOnAxis(cx, rx, m, px) && deepOnAxis(cy, ry, m, py) && (this.dims != 3 || deepOnAxis(cz, rz, m, pz));
  }

  /** Adds the pair (w, t) to the held set or takes it out, when it was held (before) and is held (after) differ. */
  keepHeld(w: i32, t: i32, before: bool, after: bool): void {
    if (before == after) return;
    if (after) this.held.add(w, t);
    else this.held.delete(w, t);
  }

  /**
   * Whether margin watcher w (at c, plain half-extents at address plain)
   * sees t (at x, y, z), given that t is inside w's grown range and the
   * masks meet: t is inside the plain range, or the pair is held.
   */
  visibleInside(w: i32, t: i32, cx: f64, cy: f64, cz: f64, plain: usize, round: bool, x: f64, y: f64, z: f64): bool {
    return inRange(cx, cy, cz, load<f64>(plain), load<f64>(plain, 8), load<f64>(plain, 16), round, x, y, z) || this.held.has(w, t);
  }

  /** Address of slot s's record. */
  @inline recordOf(s: i32): usize {
    return <usize>load<u32>(this.slot(s), 28);
  }

  /** Appends slot s's record to its cell at level l. */
  place(s: i32, l: i32, x: f64, y: f64, z: f64, rx: f64, ry: f64, rz: f64): void {
    const lv = this.level(l);
    this.append(lv, s, x, y, z, rx, ry, rz);
    store<i32>(this.slot(s), l, 4);
    if (lv.entities++ == 0) this.activate(l);
    if (rx >= 0) {
      lv.reach0 = max<f64>(lv.reach0, rx);
      lv.reach1 = max<f64>(lv.reach1, ry);
      lv.reach2 = max<f64>(lv.reach2, rz);
    }
  }

  /** Writes slot s's record at the end of its cell in level lv, creating the cell if needed. */
  append(lv: Level, s: i32, x: f64, y: f64, z: f64, rx: f64, ry: f64, rz: f64): void {
    const cx = lv.cell(x);
    const cy = lv.cell(y);
    const cz = lv.cell(z);
    let b = lv.find(cx, cy, cz);
    if (b < 0) b = lv.create(cx, cy, cz);
    const e = lv.bucket(b);
    const k = load<i32>(e, 12);
    const cap = load<i32>(e, 16);
    if (k == cap) {
      const grown = max<i32>(cap << 1, 2);
      const old = <usize>load<i32>(e, 20);
      const block = old == 0 ? heap.alloc(<usize>grown * this.record) : heap.realloc(old, <usize>grown * this.record);
      store<i32>(e, <i32>block, 20);
      store<i32>(e, grown, 16);
      // The block may have moved: its records' slots point at their new places.
      for (let j = 0; j < k; j++) store<u32>(this.slot(load<i32>(block + <usize>j * this.record)), <u32>(block + <usize>j * this.record), 28);
    }
    const r = <usize>load<i32>(e, 20) + <usize>k * this.record;
    store<i32>(r, s);
    store<i32>(r, load<i32>(this.slot(s)), 4);
    store<f64>(r, x, 8);
    store<f64>(r, y, 16);
    if (this.dims == 3) {
      store<f64>(r, z, 24);
      store<f64>(r, rx, 32);
      store<f64>(r, ry, 40);
      store<f64>(r, rz, 48);
    } else {
      store<f64>(r, rx, 24);
      store<f64>(r, ry, 32);
    }
    store<i32>(e, k + 1, 12);
    const p = this.slot(s);
    store<i32>(p, cx, 8);
    store<i32>(p, cy, 12);
    store<i32>(p, cz, 16);
    store<i32>(p, k, 20);
    store<u32>(p, <u32>r, 28);
  }

  /** Each time level l's entities double (from CHOOSE_MIN on), picks its cell side again (see the reference core). */
  chooseCellSize(l: i32): void {
    const lv = this.level(l);
    if (lv.entities < CHOOSE_MIN || lv.entities < 2 * lv.chosenAt) return;
    lv.chosenAt = lv.entities;
    let squares: f64 = 0;
    for (let b = 0; b <= lv.mask; b++) {
      const count = <f64>load<i32>(lv.bucket(b), 12);
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
      const count = load<i32>(e, 12);
      if (count == 0) continue;
      const block = <usize>load<i32>(e, 20);
      memory.copy(at, block, <usize>count * stride);
      at += <usize>count * stride;
      heap.free(block);
    }
    lv.clearTable();
    lv.resize(size);
    const three = this.dims == 3;
    for (let r = all; r < at; r += stride) {
      const x = load<f64>(r, 8);
      const y = load<f64>(r, 16);
      if (three) this.append(lv, load<i32>(r), x, y, load<f64>(r, 24), load<f64>(r, 32), load<f64>(r, 40), load<f64>(r, 48));
      else this.append(lv, load<i32>(r), x, y, 0, load<f64>(r, 24), load<f64>(r, 32), 0);
    }
    heap.free(all);
  }

  unplace(s: i32): void {
    const p = this.slot(s);
    const l = load<i32>(p, 4);
    const lv = this.levelOf(s);
    const b = lv.find(load<i32>(p, 8), load<i32>(p, 12), load<i32>(p, 16));
    const e = lv.bucket(b);
    const block = <usize>load<i32>(e, 20);
    const last = load<i32>(e, 12) - 1;
    const k = load<i32>(p, 20);
    if (k != last) {
      const to = block + <usize>k * this.record;
      memory.copy(to, block + <usize>last * this.record, this.record);
      const moved = this.slot(load<i32>(to));
      store<i32>(moved, k, 20);
      store<u32>(moved, <u32>to, 28);
    }
    store<i32>(e, last, 12);
    if (last == 0) {
      heap.free(block);
      lv.delete(b);
    }
    store<i32>(p, -1, 4);
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
    for (let j = k; j < records; j++) sum += load<i32>(this.recordOf(load<i32>(slots + (<usize>j << 2))));
    const ahead = min<i32>(k + 2 * FETCH_AHEAD, count);
    for (let j = records; j < ahead; j++) {
      const p = this.slot(load<i32>(slots + (<usize>j << 2)));
      sum += load<i32>(p, 4) + load<i32>(p, 28);
    }
    this.fetched = sum;
  }

  /** Reads slot s's position into (ox, oy, oz), (grown) half-extents into (orx, ory, orz), shape and masks (and plain half-extents with a margin). */
  readOld(s: i32): void {
    const r = this.recordOf(s);
    this.subjectRecord = r;
    const shape = load<i32>(this.slot(s), 24);
    this.oRound = (shape & SHAPE_CIRCLE) != 0;
    this.oMargin = (shape & SHAPE_MARGIN) != 0;
    if (this.oMargin) {
      const p = this.plainOf(s);
      this.opx = load<f64>(p);
      this.opy = load<f64>(p, 8);
      this.opz = load<f64>(p, 16);
    }
    // While no entity has masks other than the defaults, s's are those: its masks entry is not read.
    this.oLayer = this.layered == 0 ? DEFAULT_LAYER : this.layerOf(s);
    this.oSees = this.layered == 0 ? DEFAULT_SEES : this.seesOf(s);
    this.ox = load<f64>(r, 8);
    this.oy = load<f64>(r, 16);
    if (this.dims == 3) {
      this.oz = load<f64>(r, 24);
      this.orx = load<f64>(r, 32);
      this.ory = load<f64>(r, 40);
      this.orz = load<f64>(r, 48);
    } else {
      this.oz = 0;
      this.orx = load<f64>(r, 24);
      this.ory = load<f64>(r, 32);
      this.orz = this.orx == this.orx ? 0 : NaN;
    }
  }

  // ---- regions ----------------------------------------------------------

  /** One axis of a region: writes the cell span into (lo, hi) of region `which`; false when empty. */
  @inline axisSpan(lv: Level, a: i32, c: f64, r: f64, reach: bool, which: i32): bool {
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
    const at = changetype<usize>(this) + (which == 0 ? offsetof<GridScene>('ax0') : offsetof<GridScene>('bx0')) + (<usize>a << 2);
    store<i32>(at, lv.cell(lo));
    store<i32>(at, lv.cell(hi), 12);
    const bounds = changetype<usize>(this) + (which == 0 ? offsetof<GridScene>('aLoX') : offsetof<GridScene>('bLoX')) + (<usize>a << 3);
    store<f64>(bounds, lo);
    store<f64>(bounds, hi, 24);
    return true;
  }

  @inline region(lv: Level, x: f64, y: f64, z: f64, rx: f64, ry: f64, rz: f64, reach: bool, which: i32): bool {
    return this.axisSpan(lv, 0, x, rx, reach, which) && this.axisSpan(lv, 1, y, ry, reach, which) && this.axisSpan(lv, 2, z, rz, reach, which);
  }

  visitRect(lv: Level, x0: i32, y0: i32, z0: i32, x1: i32, y1: i32, z1: i32): void {
    const cells = (<f64>x1 - <f64>x0 + 1) * (<f64>y1 - <f64>y0 + 1) * (<f64>z1 - <f64>z0 + 1);
    if (cells > SCAN_ALL_RATIO * <f64>lv.cells) {
      for (let b = 0; b <= lv.mask; b++) {
        const e = lv.bucket(b);
        const count = load<i32>(e, 12);
        if (count == 0) continue;
        const cx = load<i32>(e);
        const cy = load<i32>(e, 4);
        const cz = load<i32>(e, 8);
        if (cx < x0 || cx > x1 || cy < y0 || cy > y1 || cz < z0 || cz > z1) continue;
        this.visitCell(<usize>load<i32>(e, 20), count);
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
          const block = load<i32>(e, 20);
          store<i32>(gathered + (<usize>found << 3), block);
          store<i32>(gathered + (<usize>found << 3), load<i32>(e, 12), 4);
          touched += load<i32>(<usize>block);
          if (++found == GATHER_CELLS) {
            this.visitGathered(found);
            found = 0;
          }
        }
      }
    }
    this.fetched = touched;
    this.visitGathered(found);
  }

  /** Visits the first `cells` gathered cells in order: a 2-D step judges them together. */
  visitGathered(cells: i32): void {
    if (this.visit == VISIT_STEP && this.dims == 2) {
      this.judgeCells2(cells);
      return;
    }
    for (let j = 0; j < cells; j++) this.visitCell(<usize>load<i32>(this.gathered + (<usize>j << 3)), load<i32>(this.gathered + (<usize>j << 3), 4));
  }

  @inline visitRegions(lv: Level, hasA: bool, hasB: bool): void {
    if (hasA && hasB) {
      const meet = this.ax0 <= this.bx1 && this.bx0 <= this.ax1 && this.ay0 <= this.by1 && this.by0 <= this.ay1 && this.az0 <= this.bz1 && this.bz0 <= this.az1;
      if (meet) {
        this.fLoX = min(this.aLoX, this.bLoX);
        this.fLoY = min(this.aLoY, this.bLoY);
        this.fLoZ = min(this.aLoZ, this.bLoZ);
        this.fHiX = max(this.aHiX, this.bHiX);
        this.fHiY = max(this.aHiY, this.bHiY);
        this.fHiZ = max(this.aHiZ, this.bHiZ);
        this.visitRect(lv, min(this.ax0, this.bx0), min(this.ay0, this.by0), min(this.az0, this.bz0), max(this.ax1, this.bx1), max(this.ay1, this.by1), max(this.az1, this.bz1));
        return;
      }
    }
    if (hasA) {
      memory.copy(changetype<usize>(this) + offsetof<GridScene>('fLoX'), changetype<usize>(this) + offsetof<GridScene>('aLoX'), 48);
      this.visitRect(lv, this.ax0, this.ay0, this.az0, this.ax1, this.ay1, this.az1);
    }
    if (hasB) {
      memory.copy(changetype<usize>(this) + offsetof<GridScene>('fLoX'), changetype<usize>(this) + offsetof<GridScene>('bLoX'), 48);
      this.visitRect(lv, this.bx0, this.by0, this.bz0, this.bx1, this.by1, this.bz1);
    }
  }

  /** Judges the step in (o, or) -> (n, nr) at every level that holds entities. */
  step(): void {
    const active = this.active;
    for (let k = 0; k < active.length; k++) {
      const lv = changetype<Level>(<usize>load<u32>(this.levels + (<usize>active.get(k) << 2)));
      const hasA = this.region(lv, this.ox, this.oy, this.oz, this.orx, this.ory, this.orz, true, 0);
      const hasB = this.region(lv, this.nx, this.ny, this.nz, this.nrx, this.nry, this.nrz, true, 1);
      this.visitRegions(lv, hasA, hasB);
    }
  }

  /** Appends an event; watcher and target are ids. */
  @inline emit(type: i32, watcher: i32, target: i32): void {
    if (this.silent) return;
    const events = this.events;
    if (events.length + 3 > this.eventLimit) eventLimitReached();
    if (events.length + 3 > events.capacity) events.reserve(events.length + 3);
    const at = events.data + (<usize>events.length << 2);
    store<i32>(at, type);
    store<i32>(at, watcher, 4);
    store<i32>(at, target, 8);
    events.length += 3;
  }

  visitCell(block: usize, count: i32): void {
    if (this.visit == VISIT_STEP) {
      if (this.dims == 2) {
        // A cell of a table walk is judged as a gathering of one.
        store<i32>(this.gathered, <i32>block);
        store<i32>(this.gathered, count, 4);
        this.judgeCells2(1);
      } else {
        this.judge3(block, count);
      }
      return;
    }
    const w = this.subject;
    const three = this.dims == 3;
    const stride = this.record;
    for (let k = 0; k < count; k++) {
      const r = block + <usize>k * stride;
      const t = load<i32>(r);
      if (t == w) continue;
      const x = load<f64>(r, 8);
      const y = load<f64>(r, 16);
      const z = three ? load<f64>(r, 24) : 0;
      let hit = false;
      if (this.visit == VISIT_QUERY) {
        hit = inBox(this.nx, this.ny, this.nz, this.nrx, this.nry, this.nrz, x, y, z);
        if (hit && this.nRound) hit = inCircle(this.nx, this.ny, this.nz, this.nrx, x, y, z);
        if (hit && this.layered != 0) hit = (this.nSees & this.layerOf(t)) != 0;
        if (hit && this.nMargin) hit = this.visibleInside(w, t, this.nx, this.ny, this.nz, changetype<usize>(this) + offsetof<GridScene>('npx'), this.nRound, x, y, z);
      } else if (this.visit == VISIT_WATCHERS) {
        const rx = three ? load<f64>(r, 32) : load<f64>(r, 24);
        const ry = three ? load<f64>(r, 40) : load<f64>(r, 32);
        const rz = three ? load<f64>(r, 48) : 0;
        hit = inBox(x, y, z, rx, ry, rz, this.nx, this.ny, this.nz);
        if (hit && this.circles != 0 && this.isCircle(t)) hit = inCircle(x, y, z, rx, this.nx, this.ny, this.nz);
        if (hit && this.layered != 0) hit = (this.seesOf(t) & this.nLayer) != 0;
        if (hit && this.margins != 0 && this.hasMargin(t)) hit = this.visibleInside(t, w, x, y, z, this.plainOf(t), this.isCircle(t), this.nx, this.ny, this.nz);
      } else {
        hit = this.ox <= x && x <= this.nx && this.oy <= y && y <= this.ny && this.oz <= z && z <= this.nz;
      }
      if (hit) this.results.push(load<i32>(r, 4));
    }
  }

  /**
   * The step's judgement of each record of the first `cells` gathered 2-D
   * cells: does it see the subject before and after, does the subject see it
   * before and after. First the records inside the region's bounds are
   * listed (each address written always, kept when inside), then each listed
   * record's four answers and two possible events are computed, each event
   * written always and kept (the end moved past it) only when it happened:
   * whether a record is near or sees the subject follows no pattern a branch
   * could learn. Circles, margins and layer masks, while the scene has any,
   * refine the boxes' answers.
   */
  judgeCells2(cells: i32): void {
    if ((this.circles | this.layered | this.margins) != 0) this.judgeRefined2(cells);
    else this.judgeBoxes2(cells);
  }

  /** judgeCells2 while every range is a box without margin and every mask the default: the loop's copy without refinement. */
  judgeBoxes2(cells: i32): void {
    this.judgeCellsAs2(cells, false);
  }

  /** judgeCells2 while the scene has circles, margins or masks other than the defaults. */
  judgeRefined2(cells: i32): void {
    this.judgeCellsAs2(cells, true);
  }

  /** judgeCells2, refining the answers when `refined` (a constant at each of its two inlined uses). */
  @inline judgeCellsAs2(cells: i32, refined: bool): void {
    const w = this.subject;
    const wid = load<i32>(this.slot(w));
    // (x, y) pairs in one v128: a record's position and half-extents are adjacent doubles.
    const o = pair(this.ox, this.oy);
    const n = pair(this.nx, this.ny);
    const oR = pair(this.orx, this.ory);
    const nR = pair(this.nrx, this.nry);
    const oLo = f64x2.sub(o, oR), oHi = f64x2.add(o, oR);
    const nLo = f64x2.sub(n, nR), nHi = f64x2.add(n, nR);
    const fLo = pair(this.fLoX, this.fLoY), fHi = pair(this.fHiX, this.fHiY);
    const moved = <i32>this.moved;
    const events = this.events;
    // With margins the only refinement, answers deep inside the boxes shrunk by the largest margin need none (see deepInside).
    const marginsOnly = refined && (this.circles | this.layered) == 0;
    const mm = f64x2.splat(this.maxMargin);
    const oH = shrunk(o, oR, mm), nH = shrunk(n, nR, mm);
    const oDLo = f64x2.sub(o, oH), oDHi = f64x2.add(o, oH);
    const nDLo = f64x2.sub(n, nH), nDHi = f64x2.add(n, nH);
    // The records inside the region's bounds, listed without a branch.
    const listed = this.listed;
    let m: usize = 0;
    for (let j = 0; j < cells; j++) {
      const block = <usize>load<i32>(this.gathered + (<usize>j << 3));
      const count = load<i32>(this.gathered + (<usize>j << 3), 4);
      listed.reserve(<i32>m + count);
      const list = listed.data;
      for (let k = 0; k < count; k++) {
        const r = block + <usize>k * 40;
        const p = v128.load(r, 8);
        store<u32>(list + (m << 2), <u32>r);
        m += <usize>(i64x2.bitmask(v128.and(f64x2.ge(p, fLo), f64x2.le(p, fHi))) == 3);
      }
    }
    const list = listed.data;
    // Two events of three i32 at most per record.
    events.reserve(events.length + 6 * <i32>m);
    const data = events.data;
    let at = data + (<usize>events.length << 2);
    for (let i: usize = 0; i < m; i++) {
      const r = <usize>load<u32>(list + (i << 2));
      const p = v128.load(r, 8);
      const range = v128.load(r, 24);
      const lo = f64x2.sub(p, range), hi = f64x2.add(p, range);
      const other = <i32>(load<i32>(r) != w);
      let saw = <i32>(i64x2.bitmask(v128.and(f64x2.le(lo, o), f64x2.le(o, hi))) == 3) & other;
      let sees = <i32>(i64x2.bitmask(v128.and(f64x2.le(lo, n), f64x2.le(n, hi))) == 3) & other;
      let was = <i32>(i64x2.bitmask(v128.and(f64x2.le(oLo, p), f64x2.le(p, oHi))) == 3) & other;
      let is = <i32>(i64x2.bitmask(v128.and(f64x2.le(nLo, p), f64x2.le(p, nHi))) == 3) & other;
      if (refined && (saw | sees | was | is) != 0 && !(marginsOnly && deepAnswers(p, range, mm, o, n, oDLo, oDHi, nDLo, nDHi, saw, sees, was, is))) {
        const mask = this.refine(r, saw | (sees << 1) | (was << 2) | (is << 3));
        saw &= mask;
        sees &= mask >> 1;
        was &= mask >> 2;
        is &= mask >> 3;
      }
      const tid = load<i32>(r, 4);
      // Its view of the subject: move (2) when it saw and sees, leave (1) when it only saw, enter (0) when it only sees.
      store<i32>(at, ((saw & sees) << 1) | (saw & ~sees));
      store<i32>(at, tid, 4);
      store<i32>(at, wid, 8);
      at += <usize>(((saw | sees) & ((saw ^ sees) | moved)) * 12);
      // The subject's view of it: leave (1) when it only was seen, enter (0) when it only is.
      store<i32>(at, was);
      store<i32>(at, wid, 4);
      store<i32>(at, tid, 8);
      at += <usize>((was ^ is) * 12);
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

  /** judgeCells2 for one 3-D cell, record by record. */
  judge3(block: usize, count: i32): void {
    const w = this.subject;
    const wid = load<i32>(this.slot(w));
    const ox = this.ox, oy = this.oy, oz = this.oz, nx = this.nx, ny = this.ny, nz = this.nz;
    const fLoX = this.fLoX, fHiX = this.fHiX, fLoY = this.fLoY, fHiY = this.fHiY, fLoZ = this.fLoZ, fHiZ = this.fHiZ;
    const moved = <i32>this.moved;
    const refined = (this.circles | this.layered | this.margins) != 0;
    for (let k = 0; k < count; k++) {
      const r = block + <usize>k * 56;
      const x = load<f64>(r, 8);
      const y = load<f64>(r, 16);
      const z = load<f64>(r, 24);
      if (<i32>(x < fLoX) | <i32>(x > fHiX) | <i32>(y < fLoY) | <i32>(y > fHiY) | <i32>(z < fLoZ) | <i32>(z > fHiZ)) continue;
      if (load<i32>(r) == w) continue;
      const rx = load<f64>(r, 32);
      const ry = load<f64>(r, 40);
      const rz = load<f64>(r, 48);
      let saw = <i32>inBox(x, y, z, rx, ry, rz, ox, oy, oz);
      let sees = <i32>inBox(x, y, z, rx, ry, rz, nx, ny, nz);
      let was = <i32>inBox(ox, oy, oz, this.orx, this.ory, this.orz, x, y, z);
      let is = <i32>inBox(nx, ny, nz, this.nrx, this.nry, this.nrz, x, y, z);
      if (refined && (saw | sees | was | is) != 0) {
        const mask = this.refine(r, saw | (sees << 1) | (was << 2) | (is << 3));
        saw &= mask;
        sees &= mask >> 1;
        was &= mask >> 2;
        is &= mask >> 3;
      }
      this.judged(load<i32>(r, 4), wid, saw, sees, was, is, moved);
    }
  }

  // ---- the operations -----------------------------------------------------

  /**
   * The subject's range after the step: plain half-extents np, grown ones nr
   * (plain + margin, computed by addition so every core holds the same bits;
   * z stays 0 in 2-D) and nMargin. A marker has neither, and no margin.
   */
  setNewRange(watcher: bool, rx: f64, ry: f64, rz: f64, margin: f64): void {
    if (this.dims != 3) rz = 0;
    this.nMargin = watcher && margin > 0;
    if (this.nMargin) this.maxMargin = max<f64>(this.maxMargin, margin);
    this.npx = watcher ? rx : NaN;
    this.npy = watcher ? ry : NaN;
    this.npz = watcher ? rz : NaN;
    const grow = this.nMargin ? margin : 0;
    this.nrx = watcher ? rx + grow : NaN;
    this.nry = watcher ? ry + grow : NaN;
    this.nrz = watcher ? (this.dims == 3 ? rz + grow : 0) : NaN;
  }

  rangeLevel(watcher: bool): i32 {
    return watcher ? levelFor(this.cellSize, max<f64>(max<f64>(this.nrx, this.nry), this.nrz)) : 0;
  }

  add(s: i32, id: i32, x: f64, y: f64, z: f64, rx: f64, ry: f64, rz: f64, watcher: bool, round: bool, layer: i32, sees: i32, margin: f64): void {
    this.ensureSlot(s);
    store<i32>(this.slot(s), id);
    this.oRound = false;
    this.oMargin = false;
    this.oLayer = DEFAULT_LAYER;
    this.oSees = DEFAULT_SEES;
    this.nRound = watcher && round;
    this.nLayer = layer;
    this.nSees = sees;
    this.setNewRange(watcher, rx, ry, rz, margin);
    this.setShape(s);
    this.nx = x;
    this.ny = y;
    this.nz = this.dims == 3 ? z : 0;
    this.place(s, this.rangeLevel(watcher), this.nx, this.ny, this.nz, this.nrx, this.nry, this.nrz);
    // Nothing was seen before an add: no box holds a NaN place.
    memory.fill(changetype<usize>(this) + offsetof<GridScene>('ox'), 0xff, 24);
    memory.fill(changetype<usize>(this) + offsetof<GridScene>('orx'), 0xff, 24);
    this.begin(VISIT_STEP, s, false);
    this.step();
    this.uncountOld();
    this.chooseCellSize(load<i32>(this.slot(s), 4));
  }

  @inline begin(visit: i32, s: i32, moved: bool): void {
    this.visit = visit;
    this.subject = s;
    this.moved = moved;
  }

  move(s: i32, x: f64, y: f64, z: f64): void {
    this.readOld(s);
    if (this.dims == 2) z = 0;
    if (this.ox == x && this.oy == y && this.oz == z) return;
    this.nx = x;
    this.ny = y;
    this.nz = z;
    this.nrx = this.orx;
    this.nry = this.ory;
    this.nrz = this.orz;
    this.keepShape();
    this.relocate(s);
    this.begin(VISIT_STEP, s, this.noMoves == 0);
    this.step();
  }

  relocate(s: i32): void {
    const p = this.slot(s);
    const lv = this.levelOf(s);
    if (lv.cell(this.nx) == load<i32>(p, 8) && lv.cell(this.ny) == load<i32>(p, 12) && lv.cell(this.nz) == load<i32>(p, 16)) {
      const r = this.subjectRecord;
      store<f64>(r, this.nx, 8);
      store<f64>(r, this.ny, 16);
      if (this.dims == 3) store<f64>(r, this.nz, 24);
      return;
    }
    const l = load<i32>(p, 4);
    this.unplace(s);
    this.place(s, l, this.nx, this.ny, this.nz, this.nrx, this.nry, this.nrz);
  }

  remove(s: i32): void {
    this.readOld(s);
    this.nRound = false;
    this.nMargin = false;
    this.nLayer = DEFAULT_LAYER;
    this.nSees = DEFAULT_SEES;
    this.setShape(s);
    this.unplace(s);
    // Nothing is seen after a remove: no box holds a NaN place.
    memory.fill(changetype<usize>(this) + offsetof<GridScene>('nx'), 0xff, 24);
    memory.fill(changetype<usize>(this) + offsetof<GridScene>('nrx'), 0xff, 24);
    this.begin(VISIT_STEP, s, false);
    this.step();
    this.uncountOld();
  }

  setRange(s: i32, rx: f64, ry: f64, rz: f64, watcher: bool, round: bool, margin: f64): void {
    this.readOld(s);
    this.keepShape();
    this.nRound = watcher && round;
    this.setNewRange(watcher, rx, ry, rz, margin);
    this.setShape(s);
    this.nx = this.ox;
    this.ny = this.oy;
    this.nz = this.oz;
    this.unplace(s);
    this.place(s, this.rangeLevel(watcher), this.nx, this.ny, this.nz, this.nrx, this.nry, this.nrz);
    this.begin(VISIT_STEP, s, false);
    this.step();
    this.uncountOld();
    this.chooseCellSize(load<i32>(this.slot(s), 4));
  }

  /** New masks for slot s: enter / leave for every pair, with s as watcher or as target, whose visibility changes. */
  setLayers(s: i32, layer: i32, sees: i32): void {
    this.readNew(s);
    this.nLayer = layer;
    this.nSees = sees;
    this.setShape(s);
    this.begin(VISIT_STEP, s, false);
    this.step();
    this.uncountOld();
  }

  /** Visits, at every level, the region around n (the box nr, with others' reach when asked); returns the result count. */
  collect(visit: i32, s: i32, reach: bool): i32 {
    this.begin(visit, s, false);
    this.results.length = 0;
    const active = this.active;
    for (let k = 0; k < active.length; k++) {
      const lv = changetype<Level>(<usize>load<u32>(this.levels + (<usize>active.get(k) << 2)));
      if (this.region(lv, this.nx, this.ny, this.nz, this.nrx, this.nry, this.nrz, reach, 0)) {
        this.visitRect(lv, this.ax0, this.ay0, this.az0, this.ax1, this.ay1, this.az1);
      }
    }
    return this.results.length;
  }

  /** Reads slot s's position and half-extents into (n, nr). */
  readNew(s: i32): void {
    this.readOld(s);
    this.nx = this.ox;
    this.ny = this.oy;
    this.nz = this.oz;
    this.nrx = this.orx;
    this.nry = this.ory;
    this.nrz = this.orz;
    this.keepShape();
  }

  /** Writes every held pair into the result buffer as slots w, t; returns the number of i32 written. */
  heldPairs(): i32 {
    this.results.length = 0;
    this.held.list(this.results);
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
    if (!(this.orx >= 0) || (this.oSees & this.layerOf(t)) == 0) return;
    const r = this.recordOf(t);
    const x = load<f64>(r, 8);
    const y = load<f64>(r, 16);
    const z = this.dims == 3 ? load<f64>(r, 24) : 0;
    if (!inRange(this.ox, this.oy, this.oz, this.orx, this.ory, this.orz, this.oRound, x, y, z)) return;
    if (!this.oMargin || this.visibleInside(w, t, this.ox, this.oy, this.oz, changetype<usize>(this) + offsetof<GridScene>('opx'), this.oRound, x, y, z)) return;
    this.held.add(w, t);
    this.emit(EVENT_ENTER, load<i32>(this.slot(w)), load<i32>(this.slot(t)));
  }

  query(s: i32): i32 {
    this.readNew(s);
    return this.collect(VISIT_QUERY, s, false);
  }

  watchers(s: i32): i32 {
    this.readNew(s);
    memory.fill(changetype<usize>(this) + offsetof<GridScene>('nrx'), 0xff, 24);
    return this.collect(VISIT_WATCHERS, s, true);
  }

  queryBox(minX: f64, minY: f64, minZ: f64, maxX: f64, maxY: f64, maxZ: f64): i32 {
    if (this.dims == 2) {
      minZ = 0;
      maxZ = 0;
    }
    this.ox = minX;
    this.oy = minY;
    this.oz = minZ;
    this.nx = maxX;
    this.ny = maxY;
    this.nz = maxZ;
    this.begin(VISIT_BOX, 0, false);
    this.results.length = 0;
    const active = this.active;
    for (let k = 0; k < active.length; k++) {
      const lv = changetype<Level>(<usize>load<u32>(this.levels + (<usize>active.get(k) << 2)));
      this.visitRect(lv, lv.cell(minX), lv.cell(minY), lv.cell(minZ), lv.cell(maxX), lv.cell(maxY), lv.cell(maxZ));
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
    for (let j = 0; j < active.length; j++) {
      this.nearestInLevel(changetype<Level>(<usize>load<u32>(this.levels + (<usize>active.get(j) << 2))), x, y, z);
    }
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
          const count = load<i32>(e, 12);
          if (count == 0) continue;
          const ring = max(max(Math.abs(<f64>load<i32>(e) - <f64>cx), Math.abs(<f64>load<i32>(e, 4) - <f64>cy)), Math.abs(<f64>load<i32>(e, 8) - <f64>cz));
          if (ring < <f64>r || beyondBound(ringGap(lv.size, ring), scale, picker.bound())) continue;
          this.nearestInCell(<usize>load<i32>(e, 20), count, x, y, z);
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
            this.nearestInCell(<usize>load<i32>(e, 20), load<i32>(e, 12), x, y, z);
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
      picker.offer(load<i32>(r, 4), this.layerOf(load<i32>(r)), load<f64>(r, 8), load<f64>(r, 16), three ? load<f64>(r, 24) : 0, x, y, z);
    }
  }

  clear(): void {
    for (let l = 0; l < this.levelCount; l++) {
      const lv = load<u32>(this.levels + (<usize>l << 2));
      if (lv != 0) changetype<Level>(<usize>lv).reset();
    }
    this.active.length = 0;
    for (let k = 0; k < this.capacity; k++) store<i32>(this.slot(k), -1, 4);
    this.circles = 0;
    this.margins = 0;
    this.maxMargin = 0;
    this.held.clear();
    this.layered = 0;
    this.events.length = 0;
  }

  bytes(): f64 {
    let bytes = <f64>offsetof<GridScene>() + <f64>this.capacity * <f64>(SLOT + 8) + <f64>this.levelCount * 4;
    for (let l = 0; l < this.levelCount; l++) {
      const p = load<u32>(this.levels + (<usize>l << 2));
      if (p == 0) continue;
      const lv = changetype<Level>(<usize>p);
      bytes += <f64>offsetof<Level>() + <f64>(lv.mask + 1) * <f64>BUCKET;
      for (let b = 0; b <= lv.mask; b++) {
        const e = lv.bucket(b);
        if (load<i32>(e, 12) != 0) bytes += <f64>load<i32>(e, 16) * <f64>this.record;
      }
    }
    bytes += <f64>offsetof<KNearest>() + <f64>this.picker.capacity * 12;
    bytes += <f64>offsetof<PairSet>() + <f64>(this.held.mask + 1) * 8;
    if (this.plain != 0) bytes += <f64>this.capacity * <f64>PLAIN;
    bytes += <f64>(GATHER_CELLS << 3);
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

@inline function inBox(cx: f64, cy: f64, cz: f64, rx: f64, ry: f64, rz: f64, x: f64, y: f64, z: f64): bool {
  return cx - rx <= x && x <= cx + rx && cy - ry <= y && y <= cy + ry && cz - rz <= z && z <= cz + rz;
}

/**
 * Rounding slack of deepOnAxis, relative to the magnitudes: far more than
 * the few roundings between the plain bounds c +- r and the shrunk ones.
 */
const DEEP_SLACK: f64 = 1e-14;

/**
 * On one axis, p is inside c +- (r - m - slack), so inside the computed
 * bounds c - rp, c + rp of any plain half-extent rp whose sum with a margin
 * up to m rounds to r. Overflow or NaN answers false.
 */
@inline function deepOnAxis(c: f64, r: f64, m: f64, p: f64): bool {
  const h = r - (m + (Math.abs(c) + r + m) * DEEP_SLACK);
  return c - h <= p && p <= c + h;
}

/** Both lanes of deepOnAxis's shrunk half-extents: r - (m + (|c| + r + m) * DEEP_SLACK). */
@inline function shrunk(c: v128, r: v128, m: v128): v128 {
  return f64x2.sub(r, f64x2.add(m, f64x2.mul(f64x2.add(f64x2.add(f64x2.abs(c), r), m), f64x2.splat(DEEP_SLACK))));
}

/** Both lanes of v lie in [lo, hi]. */
@inline function within(lo: v128, v: v128, hi: v128): bool {
  return i64x2.bitmask(v128.and(f64x2.le(lo, v), f64x2.le(v, hi))) == 3;
}

/**
 * Whether each of a 2-D record's four box answers is either no or deep
 * inside its box shrunk by the largest margin m (the record's box around p
 * for old and new subject places o and n, the subject's shrunk boxes
 * [oDLo, oDHi], [nDLo, nDHi] for p): then every answer is the plain one, no
 * pair is or becomes held, and the margin rule changes nothing.
 */
@inline function deepAnswers(p: v128, range: v128, m: v128, o: v128, n: v128, oDLo: v128, oDHi: v128, nDLo: v128, nDHi: v128, saw: i32, sees: i32, was: i32, is: i32): bool {
  const h = shrunk(p, range, m);
  const lo = f64x2.sub(p, h), hi = f64x2.add(p, h);
  return (saw == 0 || within(lo, o, hi)) && (sees == 0 || within(lo, n, hi)) && (was == 0 || within(oDLo, p, oDHi)) && (is == 0 || within(nDLo, p, nDHi));
}

/** True when the range centred on c (half-extents rx, ry, rz; with `round`, the circle of radius rx) holds the point. */
@inline function inRange(cx: f64, cy: f64, cz: f64, rx: f64, ry: f64, rz: f64, round: bool, x: f64, y: f64, z: f64): bool {
  return inBox(cx, cy, cz, rx, ry, rz, x, y, z) && (!round || inCircle(cx, cy, cz, rx, x, y, z));
}

/** A copy of the table at `from` (bytes `used`) in a new allocation of `bytes`; frees the old one. */
function grownTable(from: usize, used: usize, bytes: usize): usize {
  const to = heap.alloc(bytes);
  memory.copy(to, from, used);
  heap.free(from);
  return to;
}

@inline function grid(ptr: i32): GridScene {
  return changetype<GridScene>(<usize>ptr);
}

// ---- exports --------------------------------------------------------------

export function aoiGridCreate(dims: i32, cellSize: f64): i32 {
  const s = changetype<GridScene>(heap.alloc(offsetof<GridScene>()));
  memory.fill(changetype<usize>(s), 0, offsetof<GridScene>());
  s.dims = dims;
  s.cellSize = cellSize;
  s.record = dims == 3 ? 56 : 40;
  s.active = newIntList();
  s.events = newIntList();
  s.results = newIntList();
  s.listed = newIntList();
  s.picker = newKNearest();
  s.held = newPairSet();
  s.gathered = heap.alloc(<usize>GATHER_CELLS << 3);
  s.ensureSlot(15);
  return <i32>changetype<usize>(s);
}

export function aoiGridDestroy(ptr: i32): void {
  const s = grid(ptr);
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
  if (s.plain != 0) heap.free(s.plain);
  freePairSet(s.held);
  freeIntList(s.active);
  freeIntList(s.events);
  freeIntList(s.results);
  freeIntList(s.listed);
  freeKNearest(s.picker);
  heap.free(s.gathered);
  heap.free(<usize>ptr);
}

/** Adds slot with id; a watcher's margin (>= 0) keeps a target seen until it is outside the range grown by the margin. */
export function aoiGridAdd(ptr: i32, slot: i32, id: i32, x: f64, y: f64, z: f64, rx: f64, ry: f64, rz: f64, watcher: i32, round: i32, layer: i32, sees: i32, margin: f64): void {
  grid(ptr).beginCall();
  grid(ptr).add(slot, id, x, y, z, rx, ry, rz, watcher != 0, round != 0, layer, sees, margin);
}

export function aoiGridSetLayers(ptr: i32, slot: i32, layer: i32, sees: i32): void {
  grid(ptr).beginCall();
  grid(ptr).setLayers(slot, layer, sees);
}

export function aoiGridMove(ptr: i32, slot: i32, x: f64, y: f64, z: f64): void {
  grid(ptr).beginCall();
  grid(ptr).move(slot, x, y, z);
}

export function aoiGridRemove(ptr: i32, slot: i32): void {
  grid(ptr).beginCall();
  grid(ptr).remove(slot);
}

/** Changes slot's range, shape and margin. */
export function aoiGridSetRange(ptr: i32, slot: i32, rx: f64, ry: f64, rz: f64, watcher: i32, round: i32, margin: f64): void {
  grid(ptr).beginCall();
  grid(ptr).setRange(slot, rx, ry, rz, watcher != 0, round != 0, margin);
}

/** Writes every held pair (visible only thanks to the watcher's margin) into the result buffer as slots w, t; returns the number of i32 written. */
export function aoiGridHeldPairs(ptr: i32): i32 {
  return grid(ptr).heldPairs();
}

/** Makes (w, t) visible if w's grown range holds t, the masks meet and the pair is not visible (see GridScene.hold). */
export function aoiGridHold(ptr: i32, w: i32, t: i32): void {
  grid(ptr).beginCall();
  grid(ptr).hold(w, t);
}

export function aoiGridMoveMany(ptr: i32, slots: i32, xs: i32, ys: i32, zs: i32, count: i32): void {
  const s = grid(ptr);
  s.beginCall();
  for (let k = 0; k < count; k++) {
    if ((k & (FETCH_AHEAD - 1)) == 0) s.fetchAhead(<usize>slots, k, count);
    const z = zs == 0 ? 0.0 : load<f64>(<usize>zs + (<usize>k << 3));
    s.move(load<i32>(<usize>slots + (<usize>k << 2)), load<f64>(<usize>xs + (<usize>k << 3)), load<f64>(<usize>ys + (<usize>k << 3)), z);
  }
}

/** Adds in array order, with the events of as many add calls; ranges[k] is a square (cube) half-extent. */
export function aoiGridAddMany(ptr: i32, slots: i32, ids: i32, xs: i32, ys: i32, zs: i32, ranges: i32, count: i32): void {
  const s = grid(ptr);
  s.beginCall();
  for (let k = 0; k < count; k++) {
    const z = zs == 0 ? 0.0 : load<f64>(<usize>zs + (<usize>k << 3));
    const r = load<f64>(<usize>ranges + (<usize>k << 3));
    s.add(load<i32>(<usize>slots + (<usize>k << 2)), load<i32>(<usize>ids + (<usize>k << 2)), load<f64>(<usize>xs + (<usize>k << 3)), load<f64>(<usize>ys + (<usize>k << 3)), z, r, r, r, true, false, DEFAULT_LAYER, DEFAULT_SEES, 0);
  }
}

export function aoiGridEventLength(ptr: i32): i32 {
  return grid(ptr).events.length;
}

export function aoiGridEventData(ptr: i32): i32 {
  return <i32>grid(ptr).events.data;
}

export function aoiGridEventReset(ptr: i32): void {
  forgetEvents(grid(ptr).events);
}

/** Whether moves produce move events (on by default). */
export function aoiGridSetMoveEvents(ptr: i32, on: i32): void {
  grid(ptr).noMoves = on ? 0 : 1;
}

/** The most Int32 entries the event buffer may hold: an event past it traps. */
export function aoiGridSetEventLimit(ptr: i32, limit: i32): void {
  grid(ptr).eventLimit = limit;
}

/** Whether events are kept (off while entities are loaded from a snapshot). */
export function aoiGridSetSilent(ptr: i32, on: i32): void {
  grid(ptr).silent = on;
}

/** Ints in the event buffer when the last call began. */
export function aoiGridCallStart(ptr: i32): i32 {
  return grid(ptr).callStart;
}

/** Ints in the held-pair journal of the last call (three per change: w, t, +1 or -1). */
export function aoiGridJournalLength(ptr: i32): i32 {
  return grid(ptr).held.journal.length;
}

export function aoiGridJournalData(ptr: i32): i32 {
  return <i32>grid(ptr).held.journal.data;
}

export function aoiGridQuery(ptr: i32, slot: i32): i32 {
  return grid(ptr).query(slot);
}

export function aoiGridWatchers(ptr: i32, slot: i32): i32 {
  return grid(ptr).watchers(slot);
}

export function aoiGridQueryBox(ptr: i32, minX: f64, minY: f64, minZ: f64, maxX: f64, maxY: f64, maxZ: f64): i32 {
  return grid(ptr).queryBox(minX, minY, minZ, maxX, maxY, maxZ);
}

/** Writes the ids of the k entities nearest to (x, y, z) into the result buffer, nearest first; returns their count. */
export function aoiGridNearest(ptr: i32, x: f64, y: f64, z: f64, k: i32, maxDistance: f64, filtered: i32, mask: i32): i32 {
  return grid(ptr).nearest(x, y, z, k, maxDistance, filtered != 0, mask);
}

export function aoiGridResultData(ptr: i32): i32 {
  return <i32>grid(ptr).results.data;
}

/** Writes slot's position into the result buffer as three doubles; returns its address. */
export function aoiGridPositionOf(ptr: i32, slot: i32): i32 {
  const s = grid(ptr);
  s.readOld(slot);
  const results = s.results;
  results.reserve(6);
  store<f64>(results.data, s.ox);
  store<f64>(results.data, s.oy, 8);
  store<f64>(results.data, s.oz, 16);
  return <i32>results.data;
}

/** Writes the positions of count slots (i32s at slots) into the result buffer, three doubles each; returns its address. */
export function aoiGridPositions(ptr: i32, slots: i32, count: i32): i32 {
  const s = grid(ptr);
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

export function aoiGridClear(ptr: i32): void {
  grid(ptr).clear();
}

export function aoiGridBytes(ptr: i32): f64 {
  return grid(ptr).bytes();
}
