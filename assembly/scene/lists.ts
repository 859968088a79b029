// Area of interest by cross-linked sorted lists, over flat linear memory.
// The same algorithm as src/scene/js/lists.ts (read that file for the idea).
//
// Every entity slot s owns five nodes per axis (nodeOf(s, role)): the entity
// and two pairs of view-box boundaries. Lists sort by (key, kind), so at
// equal coordinates lower < entity < upper and an entity exactly on a box
// edge is inside. Each axis's list is cut into bands along its band axis
// (the next axis), each band a list of its own between a head (-inf) and a
// tail (+inf) sentinel: an entity's node lives in the band of its coordinate
// there, a watcher's boundary pairs in each of the (one or two) bands its box
// overlaps. A move walks the mover's nodes within their bands (a node that
// changes band walks in the old band, then in the new one from its old key);
// each node crossed names a candidate pair, judged once on old and new
// positions over all axes. The set of watchers of each entity is kept, so a
// step's 'move' events come straight from it. What differs from the
// reference is where the bytes live: list nodes sit in compact records kept
// in list order (see AxisList), so walks read memory forwards.
//
// Hysteresis: a watcher with a margin keeps seeing a target until it leaves
// range + margin. The lists index the plain ranges only, so a walk finds
// every pair entering or leaving a plain range; a pair outside the plain
// range that stays visible is held (HeldLinks, linked from both of its
// slots), and a step of a slot judges its held pairs too: a held pair can
// only stop being visible when one of its two slots changes.

import { eventLimitReached, tryAlloc } from './imports';
import { growBytes, IntList, newIntList, freeIntList } from './int-list';
import { inCircle } from './circle';
import { beyondBound, KNearest, newKNearest, freeKNearest } from './k-nearest';
import { HeldLinks, newHeldLinks, freeHeldLinks } from './held-links';
import {
  DEFAULT_LAYER, DEFAULT_SEES, EVENT_BYTES, EVENT_ENTER, EVENT_INTS, EVENT_LEAVE, EVENT_MOVE,
  EVENT_TARGET, EVENT_TYPE, EVENT_WATCHER, MASKS_BYTES, MASKS_LAYER, MASKS_SEES,
} from './codes';
import {
  BULK_BUCKET_BYTES, BULK_CELL, BULK_COLUMN, BULK_ROW, KIND_ENTITY, KIND_LOWER, KIND_UPPER,
  LIST_BYTES, LIST_CENTRE, LIST_KEY, LIST_KIND_BITS, LIST_NEXT, LIST_OWNER, LIST_PREV,
  SLOT_BYTES, SLOT_ID, SLOT_MARK_TARGET, SLOT_MARK_WATCHER, SLOT_POS, SLOT_POS_BYTES, SLOT_RANGE, SLOT_SHIFT, SLOT_STATE,
} from './lists-records';
import { subject } from './lists-step';

/** Node roles within a slot: the entity, then two boundary pairs (lower, upper). */
const ROLE_ENTITY: i32 = 1;
const NODES_PER_SLOT: i32 = 5;

@inline function nodeOf(s: i32, role: i32): i32 {
  return NODES_PER_SLOT * s + role;
}
@inline function pairLower(k: i32): i32 {
  return k == 0 ? 0 : 3;
}
@inline function pairUpper(k: i32): i32 {
  return k == 0 ? 2 : 4;
}
/** Sort kind of a role: 0 and 3 lower, 1 entity, 2 and 4 upper. */
@inline function roleKind(role: i32): i32 {
  return role == ROLE_ENTITY ? KIND_ENTITY : role % 3 == 0 ? KIND_LOWER : KIND_UPPER;
}

/** Bands per axis at most; band b's sentinels are records 2b (head) and 2b + 1 (tail). */
const MAX_BANDS: i32 = 256;
/** A band is this many largest ranges (on the band axis) tall: a box overlaps at most two bands. */
const BAND_RANGES: f64 = 5;
/** A range beyond this share of a band's height re-bands the axis. */
const BAND_FIT: f64 = 1.0 / 2.2;
/** Scenes below this many entities keep one band; re-banding happens whenever the count doubles. */
const BAND_MIN_ENTITIES: i32 = 16;

/** Slot states: free, a watcher (it has a range), a marker (seen, sees nothing). */
const FREE: i32 = 0;
const WATCHER: i32 = 1;
const MARKER: i32 = 2;

// ---- one axis: sorted doubly linked list plus its coarse index ----------

// A node lives in a list record of its axis (lists-records.ts draws it). A
// walk reads nothing but the records it passes, and drops most crossed nodes
// (far away on the filter axis) from the record's centre alone: an entity's
// is its point, a box edge's the centre of a box no wider than the filter
// axis's largest range; the test is widened by the f32 rounding, so it never
// drops a real candidate. Records are renumbered in list order now and then
// (compact), band by band, so a walk reads memory in order instead of
// jumping. handles[node] holds the node's record (0 when it has none); the
// band a node is linked in is not stored, it follows from its owner (see
// ListsIndex.bandOfNode). Records 2b and 2b + 1 are band b's head and tail.
/** Relative widening of a filter test: twice the f32 rounding error. */
const F32_SLACK: f64 = 1.0 / 8388608.0;
/** Above this magnitude f32 coordinates saturate: the filter lets everything through. */
const F32_SAFE: f64 = 1e37;
const F32_MAX: f64 = 3.4028234663852886e38;
/** The coarse index keeps one entity in this many. */
const SNAP_STRIDE: i32 = 4;
/** Index entries a hint looks at, and how far (in mean gaps between entries) their entity may have moved since. */
const HINT_TRIES: i32 = 16;
const HINT_DRIFT: f64 = 64;

@unmanaged
class AxisList {
  records: usize = 0;
  recordCount: i32 = 0;
  recordCapacity: i32 = 0;
  handles: usize = 0;
  handleCapacity: i32 = 0;
  /** Records relinked or appended since the last renumbering. */
  churn: i32 = 0;
  snapKeys: usize = 0;
  snapSlots: usize = 0;
  snapBands: usize = 0;
  snapLength: i32 = 0;
  snapCapacity: i32 = 0;
  /** Typical key distance between neighbouring snapshot entries of one band. */
  snapGap: f64 = Infinity;
  stale: i32 = 0;
  maxRange: f64 = 0;
  /** The axis the bands cut (the next one); a node's band follows from its owner's coordinate there. */
  bandAxis: i32 = 0;
  /** Bands in use; the band of coordinate v is floor((v - origin) / height), clamped. */
  bandCount: i32 = 1;
  /** Records 0 .. 2 * bandCount - 1 are the bands' sentinels. */
  sentinels: i32 = 2;
  origin: f64 = 0;
  height: f64 = Infinity;
  /** Live entities more than a band beyond the cut on the band axis: the end bands hold them all. */
  outside: i32 = 0;
  /** Outsiders found not worth a re-cut (far outliers): the next check waits for more. */
  spared: i32 = 0;

  @inline at(r: i32): usize {
    return this.records + <usize>r * LIST_BYTES;
  }
  @inline key(r: i32): f64 {
    return load<f64>(this.at(r), LIST_KEY);
  }
  @inline setKey(r: i32, key: f64): void {
    store<f64>(this.at(r), key, LIST_KEY);
  }
  @inline prev(r: i32): i32 {
    return <i32>(<u32>(load<i32>(this.at(r), LIST_PREV) & ~LIST_KIND_BITS) / <u32>LIST_BYTES);
  }
  @inline next(r: i32): i32 {
    return <i32>(<u32>load<i32>(this.at(r), LIST_NEXT) / <u32>LIST_BYTES);
  }
  /** The node of record r. */
  @inline owner(r: i32): i32 {
    return load<i32>(this.at(r), LIST_OWNER);
  }
  @inline slotOf(r: i32): i32 {
    return <i32>(<u32>this.owner(r) / <u32>NODES_PER_SLOT);
  }
  @inline kindOf(r: i32): i32 {
    return load<i32>(this.at(r), LIST_PREV) & LIST_KIND_BITS;
  }
  @inline setPrev(r: i32, p: i32): void {
    const at = this.at(r);
    store<i32>(at, (p * <i32>LIST_BYTES) | (load<i32>(at, LIST_PREV) & LIST_KIND_BITS), LIST_PREV);
  }
  @inline setNext(r: i32, q: i32): void {
    store<i32>(this.at(r), q * <i32>LIST_BYTES, LIST_NEXT);
  }
  /** Record r holds node, of kind: its prev link is cleared (linking sets it). */
  @inline setOwner(r: i32, node: i32, kind: i32): void {
    store<i32>(this.at(r), node, LIST_OWNER);
    store<i32>(this.at(r), kind, LIST_PREV);
  }
  /** The owner's coordinate on the filter axis, as f32. */
  @inline centre(r: i32): f64 {
    return <f64>load<f32>(this.at(r), LIST_CENTRE);
  }
  @inline setCentre(r: i32, c: f64): void {
    store<f32>(this.at(r), <f32>min(max(c, -F32_MAX), F32_MAX), LIST_CENTRE);
  }
  /** The record of node, 0 when it has none. */
  @inline handle(node: i32): i32 {
    return load<i32>(this.handles + (<usize>node << 2));
  }
  @inline setHandle(node: i32, r: i32): void {
    store<i32>(this.handles + (<usize>node << 2), r);
  }

  @inline isSentinel(r: i32): bool {
    return r < this.sentinels;
  }

  /** The band holding coordinate v of the band axis. */
  @inline bandOf(v: f64): i32 {
    if (this.bandCount == 1) return 0;
    const b = Math.floor((v - this.origin) / this.height);
    return b < 0 ? 0 : b >= <f64>this.bandCount ? this.bandCount - 1 : <i32>b;
  }

  /** 1 when band-axis coordinate v lies more than a band beyond the cut, else 0. */
  @inline beyond(v: f64): i32 {
    return <i32>(this.bandCount > 1 && !(v >= this.origin - this.height && v < this.origin + <f64>(this.bandCount + 1) * this.height));
  }

  /** A box of half-extent r on the band axis overlaps at most two bands. */
  @inline fits(r: f64): bool {
    return this.bandCount == 1 || r <= this.height * BAND_FIT;
  }

  /** Empties every band and goes back to one band. */
  reset(): void {
    this.recut(0, 0, 0);
    this.maxRange = 0;
  }

  /**
   * Re-cuts the list into bands for band-axis coordinates in [min, max] and
   * the largest range on that axis, and empties every band: every node
   * loses its record (linking it again appends a fresh one).
   */
  recut(min: f64, max: f64, maxBandRange: f64): void {
    const extent = max - min;
    let height = Math.max(BAND_RANGES * maxBandRange, extent / <f64>MAX_BANDS);
    if (!(height > 0) || !(extent / height < Infinity)) height = Infinity;
    this.bandCount = height < Infinity ? <i32>Math.min(<f64>MAX_BANDS, Math.floor(extent / height) + 1) : 1;
    this.origin = this.bandCount > 1 ? min : 0;
    this.height = this.bandCount > 1 ? height : Infinity;
    this.emptyBands();
  }

  /** Empties every band of the current cut: every node loses its record. */
  emptyBands(): void {
    memory.fill(this.handles, 0, <usize>this.handleCapacity << 2);
    // Only the bands in use get sentinels, so a small scene stays small.
    this.sentinels = 2 * this.bandCount;
    this.recordCount = this.sentinels;
    if (this.recordCapacity < this.sentinels + 64) {
      this.recordCapacity = this.sentinels + 64;
      this.records = growBytes(this.records, <usize>this.recordCapacity * LIST_BYTES);
    }
    for (let b = 0; b < this.bandCount; b++) {
      const head = 2 * b;
      const tail = head + 1;
      this.setKey(head, -Infinity);
      this.setOwner(head, 0, KIND_LOWER);
      this.setKey(tail, Infinity);
      this.setOwner(tail, 0, KIND_UPPER);
      this.setNext(head, tail);
      this.setPrev(tail, head);
      this.setPrev(head, head);
      this.setNext(tail, tail);
    }
    this.snapLength = 0;
    this.stale = 0;
    this.churn = 0;
    // The cut spans every entity now.
    this.outside = 0;
    this.spared = 0;
  }

  growHandles(nodeCapacity: i32): void {
    this.handles = growZeroed(this.handles, <usize>this.handleCapacity << 2, <usize>nodeCapacity << 2);
    this.handleCapacity = nodeCapacity;
  }

  /** The node's record, appending one when it has none. */
  recordOf(node: i32): i32 {
    let r = this.handle(node);
    if (r != 0) return r;
    if (this.recordCount == this.recordCapacity) {
      const capacity = max(this.recordCapacity << 1, 64);
      this.records = growBytes(this.records, <usize>capacity * LIST_BYTES);
      this.recordCapacity = capacity;
    }
    r = this.recordCount++;
    this.setOwner(r, node, roleKind(node % NODES_PER_SLOT));
    this.setHandle(node, r);
    this.churn++;
    return r;
  }

  /** Record a sorts before record b: by key, then by kind. */
  @inline less(a: i32, b: i32): bool {
    const ka = this.key(a);
    const kb = this.key(b);
    return ka < kb || (ka == kb && this.kindOf(a) < this.kindOf(b));
  }

  @inline unlink(r: i32): void {
    const p = this.prev(r);
    const q = this.next(r);
    this.setNext(p, q);
    this.setPrev(q, p);
  }

  @inline linkAfter(r: i32, p: i32): void {
    const q = this.next(p);
    this.setPrev(r, p);
    this.setNext(r, q);
    this.setNext(p, r);
    this.setPrev(q, r);
  }

  insertFrom(r: i32, start: i32): void {
    if (this.less(r, start)) {
      let p = this.prev(start);
      while (this.less(r, p)) p = this.prev(p);
      this.linkAfter(r, p);
    } else {
      let q = this.next(start);
      while (this.less(q, r)) q = this.next(q);
      this.linkAfter(r, this.prev(q));
    }
  }

  /** A record linked in band b near key: a snapshot entity of that band, or the band's head (slots: the scene's slot records). */
  hint(b: i32, key: f64, slots: usize, exclude: i32): i32 {
    let lo = 0;
    let hi = this.snapLength - 1;
    let found = -1;
    const keys = this.snapKeys;
    const bands = this.snapBands;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const mb = load<i32>(bands + (<usize>mid << 2));
      if (mb < b || (mb == b && load<f64>(keys + (<usize>mid << 3)) <= key)) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    // A removed entity (or the one being placed) is not in the list, and one
    // that moved since the snapshot may be far from its entry or in another
    // band: prefer the nearest entry whose entity is still in the band and near it.
    const spread = this.snapGap * HINT_DRIFT;
    const head = 2 * b;
    let fallback = head;
    for (let i = found; i >= 0 && i > found - HINT_TRIES && load<i32>(bands + (<usize>i << 2)) == b; i--) {
      const slot = load<i32>(this.snapSlots + (<usize>i << 2));
      if (load<i32>(slots + (<usize>slot << SLOT_SHIFT), SLOT_STATE) == FREE || slot == exclude) continue;
      // The entity's band follows from its coordinate on the band axis.
      if (this.bandOf(load<f64>(slots + (<usize>slot << SLOT_SHIFT) + (<usize>this.bandAxis << 3), SLOT_POS)) != b) continue;
      const r = this.handle(nodeOf(slot, ROLE_ENTITY));
      if (Math.abs(this.key(r) - load<f64>(keys + (<usize>i << 3))) <= spread) return r;
      if (fallback == head) fallback = r;
    }
    return fallback;
  }

  /** Links node into band b at key, starting from the coarse index. */
  place(node: i32, b: i32, key: f64, slots: usize): void {
    const r = this.recordOf(node);
    this.setKey(r, key);
    this.insertFrom(r, this.hint(b, key, slots, <i32>(<u32>node / <u32>NODES_PER_SLOT)));
    this.stale++;
  }

  @inline unlinkNode(node: i32): void {
    this.unlink(this.handle(node));
  }

  /**
   * Re-takes the snapshot (every SNAP_STRIDE-th entity in list order, band
   * by band) once the nodes inserted since the last one outnumber the
   * entities, or when forced.
   */
  refreshIndex(force: bool): void {
    if (!force && this.stale <= this.snapLength * SNAP_STRIDE + 48) return;
    let entities = 0;
    for (let b = 0; b < this.bandCount; b++) {
      for (let r = this.next(2 * b); !this.isSentinel(r); r = this.next(r)) if (this.kindOf(r) == KIND_ENTITY) entities++;
    }
    const count = (entities + SNAP_STRIDE - 1) / SNAP_STRIDE;
    if (this.snapCapacity < count) {
      const capacity = count + (count >> 2) + 16;
      this.snapKeys = growBytes(this.snapKeys, <usize>capacity << 3);
      this.snapSlots = growBytes(this.snapSlots, <usize>capacity << 2);
      this.snapBands = growBytes(this.snapBands, <usize>capacity << 2);
      this.snapCapacity = capacity;
    }
    let i = 0;
    let seen = 0;
    let gaps: f64 = 0;
    let gapCount = 0;
    for (let b = 0; b < this.bandCount; b++) {
      for (let r = this.next(2 * b); !this.isSentinel(r); r = this.next(r)) {
        if (this.kindOf(r) != KIND_ENTITY) continue;
        if (seen++ % SNAP_STRIDE != 0) continue;
        if (i > 0 && load<i32>(this.snapBands + (<usize>(i - 1) << 2)) == b) {
          gaps += this.key(r) - load<f64>(this.snapKeys + (<usize>(i - 1) << 3));
          gapCount++;
        }
        store<f64>(this.snapKeys + (<usize>i << 3), this.key(r));
        store<i32>(this.snapSlots + (<usize>i << 2), this.slotOf(r));
        store<i32>(this.snapBands + (<usize>i << 2), b);
        i++;
      }
    }
    this.snapLength = count;
    this.snapGap = gapCount > 0 ? gaps / <f64>gapCount : Infinity;
    this.stale = 0;
  }

  /** Renumbers the records in list order once the churn since the last time exceeds an eighth of them (measured: walks then stay on memory read forwards). */
  compactIfChurned(): void {
    if (this.churn <= (this.recordCount >> 1) + 64) return;
    this.compact();
  }

  /**
   * Renumbers the linked records in list order, band by band; unlinked nodes
   * lose their records. Only speed depends on it: where the memory for the
   * renumbered copy cannot be had, the records stay as they are.
   */
  compact(): void {
    let live = this.sentinels;
    for (let b = 0; b < this.bandCount; b++) {
      for (let r = this.next(2 * b); !this.isSentinel(r); r = this.next(r)) live++;
    }
    const capacity = live + (live >> 3) + 64;
    const fresh = <usize>tryAlloc(capacity * <i32>LIST_BYTES);
    if (fresh == 0) {
      this.churn = 0;
      return;
    }
    // Unlinked nodes lose their records; linked ones get their new number below.
    for (let node = 0; node < this.handleCapacity; node++) this.setHandle(node, 0);
    memory.copy(fresh, this.records, <usize>this.sentinels * LIST_BYTES);
    let i = this.sentinels;
    for (let b = 0; b < this.bandCount; b++) {
      let last = 2 * b;
      for (let r = this.next(2 * b); !this.isSentinel(r); r = this.next(r)) {
        const at = fresh + <usize>i * LIST_BYTES;
        memory.copy(at, this.at(r), LIST_BYTES);
        store<i32>(at, (last * <i32>LIST_BYTES) | this.kindOf(r), LIST_PREV);
        store<i32>(fresh + <usize>last * LIST_BYTES, i * <i32>LIST_BYTES, LIST_NEXT);
        this.setHandle(this.owner(r), i);
        last = i++;
      }
      const tail = 2 * b + 1;
      store<i32>(fresh + <usize>last * LIST_BYTES, tail * <i32>LIST_BYTES, LIST_NEXT);
      store<i32>(fresh + <usize>tail * LIST_BYTES, (last * <i32>LIST_BYTES) | KIND_UPPER, LIST_PREV);
    }
    heap.free(this.records);
    this.records = fresh;
    this.recordCapacity = capacity;
    this.recordCount = i;
    this.churn = 0;
  }

  /** In band b, the last record with key < key (or the head). */
  seek(b: i32, key: f64, slots: usize): i32 {
    let p = this.hint(b, key, slots, 0);
    while (this.key(p) >= key && !this.isSentinel(p)) p = this.prev(p);
    while (this.key(this.next(p)) < key) p = this.next(p);
    return p;
  }

  /**
   * Links `count` unlinked records (keys set; their bands in `bands`, in the
   * same order) band by band in sorted order, then renumbers and re-takes
   * the index: the bulk path of re-banding and of large batches.
   */
  linkSorted(records: usize, recordBands: usize, count: i32, slots: usize): void {
    // Counting sort by band, then each band's run sorted by (key, kind) and appended before its tail.
    const starts = heap.alloc(<usize>(MAX_BANDS + 1) << 2);
    memory.fill(starts, 0, <usize>(MAX_BANDS + 1) << 2);
    for (let k = 0; k < count; k++) {
      const at = starts + (<usize>(load<i32>(recordBands + (<usize>k << 2)) + 1) << 2);
      store<i32>(at, load<i32>(at) + 1);
    }
    for (let b = 0; b < MAX_BANDS; b++) {
      const at = starts + (<usize>(b + 1) << 2);
      store<i32>(at, load<i32>(at) + load<i32>(at - 4));
    }
    const sorted = heap.alloc(<usize>max(count, 1) << 2);
    for (let k = 0; k < count; k++) {
      const at = starts + (<usize>load<i32>(recordBands + (<usize>k << 2)) << 2);
      const i = load<i32>(at);
      store<i32>(at, i + 1);
      store<i32>(sorted + (<usize>i << 2), load<i32>(records + (<usize>k << 2)));
    }
    // starts[b] now holds the end of band b's run.
    let begin = 0;
    for (let b = 0; b < MAX_BANDS; b++) {
      const end = load<i32>(starts + (<usize>b << 2));
      if (end > begin) {
        sortNodes(this, sorted, begin, end - 1);
        for (let i = begin; i < end; i++) {
          const r = load<i32>(sorted + (<usize>i << 2));
          this.linkAfter(r, this.prev(2 * b + 1));
        }
      }
      begin = end;
    }
    heap.free(sorted);
    heap.free(starts);
    this.compact();
    this.refreshIndex(true);
  }

  release(): void {
    if (this.records != 0) heap.free(this.records);
    if (this.handles != 0) heap.free(this.handles);
    if (this.snapKeys != 0) heap.free(this.snapKeys);
    if (this.snapSlots != 0) heap.free(this.snapSlots);
    if (this.snapBands != 0) heap.free(this.snapBands);
    heap.free(changetype<usize>(this));
  }
}

// ---- the scene ------------------------------------------------------------

// Everything a pair judgment or an event reads about one slot shares one
// aligned slot record (lists-records.ts), so judging a candidate costs one
// cache line.

@unmanaged
export class ListsIndex {
  dims: i32 = 2;
  capacity: i32 = 0;
  /** A slot record per slot, SLOT_BYTES-aligned (lists-records.ts); slotsRaw is the allocation. */
  slots: usize = 0;
  slotsRaw: usize = 0;
  sets: usize = 0; // an IntList (12 bytes) per slot: who sees the slot
  /** A byte per slot: 1 when its range is a circle (sphere) of radius rangeOf(s, 0), 0 for a box. */
  shapes: usize = 0;
  /** Watchers with a circle: while there are none, a move walks and never re-scans for them. */
  circles: i32 = 0;
  /** A masks pair per slot (codes.ts): the layers it is on, the layers it sees. */
  masks: usize = 0;
  /** Entities with masks other than the defaults: while there are none, no judgement looks at masks. */
  layered: i32 = 0;
  /** An f64 per slot: its hysteresis margin (0 for markers). */
  margins: usize = 0;
  /** Watchers with a margin above 0: while there are none (and nothing is held), no judgement looks at margins. */
  margined: i32 = 0;
  /** The pairs visible only thanks to a margin: the target is inside the watcher's range + margin, outside its range. */
  held: HeldLinks = changetype<HeldLinks>(0);
  stamp: i32 = 0;
  alive: i32 = 0;
  /** Entities when the axes were last re-banded for the scene's extent. */
  bandedAt: i32 = 0;
  /** What measureCut found: the band-axis extent, the largest range there, and the nodes to link. */
  cutLo: f64 = 0;
  cutHi: f64 = 0;
  cutRange: f64 = 0;
  cutNodes: i32 = 0;
  axis0: AxisList = changetype<AxisList>(0);
  axis1: AxisList = changetype<AxisList>(0);
  axis2: AxisList = changetype<AxisList>(0);
  candidateWatchers: IntList = changetype<IntList>(0);
  candidateTargets: IntList = changetype<IntList>(0);
  events: IntList = changetype<IntList>(0);
  results: IntList = changetype<IntList>(0);
  /** Sink of touch(): keeps its loads from being optimised away. */
  touched: i32 = 0;
  /** The k best of a nearest search. */
  picker: KNearest = changetype<KNearest>(0);
  /** Nonzero when the scene reports no move events: settle skips writing them. */
  noMoves: i32 = 0;
  /** Int32 entries the event buffer may hold: an event past it traps, and the caller rebuilds the scene as it was (see src/scene/recovery.ts). */
  eventLimit: i32 = i32.MAX_VALUE;
  /** Nonzero while a snapshot or a recovery loads entities: no event is written. */
  silent: i32 = 0;
  /**
   * Nonzero while a recovery reloads the entities of a failed call (see
   * src/scene/recovery.ts): clear keeps the bands' cut, and entities are
   * added one by one without re-cutting, so the reload asks for no memory
   * the scene did not hold already.
   */
  lean: i32 = 0;
  /** The event buffer's length when the current call began. */
  callStart: i32 = 0;

  @inline axis(a: i32): AxisList {
    return a == 0 ? this.axis0 : a == 1 ? this.axis1 : this.axis2;
  }

  /** Starts a call from outside: what the events and the held pairs were before it stays readable should it fail part way. */
  @inline beginCall(): void {
    this.callStart = this.events.length;
    this.held.journal.length = 0;
  }
  @inline slotAt(s: i32): usize {
    return this.slots + (<usize>s << SLOT_SHIFT);
  }
  @inline stateOf(s: i32): i32 {
    return load<i32>(this.slotAt(s), SLOT_STATE);
  }
  @inline setState(s: i32, state: i32): void {
    store<i32>(this.slotAt(s), state, SLOT_STATE);
  }
  @inline idOf(s: i32): i32 {
    return load<i32>(this.slotAt(s), SLOT_ID);
  }
  @inline posOf(s: i32, a: i32): f64 {
    return load<f64>(this.slotAt(s) + (<usize>a << 3), SLOT_POS);
  }
  @inline setPos(s: i32, a: i32, v: f64): void {
    store<f64>(this.slotAt(s) + (<usize>a << 3), v, SLOT_POS);
  }
  @inline rangeOf(s: i32, a: i32): f64 {
    return load<f64>(this.slotAt(s) + (<usize>a << 3), SLOT_RANGE);
  }
  @inline setRangeOf(s: i32, a: i32, v: f64): void {
    store<f64>(this.slotAt(s) + (<usize>a << 3), v, SLOT_RANGE);
  }
  @inline marginOf(s: i32): f64 {
    return load<f64>(this.margins + (<usize>s << 3));
  }
  /** Who sees slot s: the watchers' ids (unique in a scene), so 'move' events need no lookup. */
  @inline watcherSet(s: i32): IntList {
    return changetype<IntList>(this.sets + <usize>s * offsetof<IntList>());
  }

  ensureSlot(slot: i32): void {
    if (slot < this.capacity) return;
    // Growth by half keeps adds amortised O(1); a batch gets an eighth to spare.
    const capacity = max(max(slot + 1 + (slot >> 3), this.capacity + (this.capacity >> 1)), 16);
    const old = <usize>this.capacity;
    const cap = <usize>capacity;
    const raw = heap.alloc((cap << SLOT_SHIFT) + SLOT_BYTES);
    const slots = (raw + SLOT_BYTES - 1) & ~(SLOT_BYTES - 1);
    memory.fill(slots, 0, cap << SLOT_SHIFT);
    if (this.slotsRaw != 0) {
      memory.copy(slots, this.slots, old << SLOT_SHIFT);
      heap.free(this.slotsRaw);
    }
    this.slotsRaw = raw;
    this.slots = slots;
    this.sets = growZeroed(this.sets, old * offsetof<IntList>(), cap * offsetof<IntList>());
    this.shapes = growZeroed(this.shapes, old, cap);
    this.masks = growZeroed(this.masks, old * MASKS_BYTES, cap * MASKS_BYTES);
    this.margins = growZeroed(this.margins, old << 3, cap << 3);
    this.held.grow(capacity);
    for (let a = 0; a < this.dims; a++) this.axis(a).growHandles(capacity * NODES_PER_SLOT);
    this.capacity = capacity;
  }

  @inline emit(type: i32, watcher: i32, target: i32): void {
    this.emitIds(type, this.idOf(watcher), this.idOf(target));
  }

  @inline emitIds(type: i32, watcherId: i32, targetId: i32): void {
    if (this.silent) return;
    const events = this.events;
    if (events.length + EVENT_INTS > this.eventLimit) eventLimitReached();
    events.reserve(events.length + EVENT_INTS);
    const at = events.data + (<usize>events.length << 2);
    store<i32>(at, type, EVENT_TYPE);
    store<i32>(at, watcherId, EVENT_WATCHER);
    store<i32>(at, targetId, EVENT_TARGET);
    events.length += EVENT_INTS;
  }

  @inline isCircle(s: i32): bool {
    return load<u8>(this.shapes + <usize>s) != 0;
  }

  /** Sets slot s's shape, keeping count of the watchers with a circle. */
  setShape(s: i32, watcher: bool, round: bool): void {
    const now: i32 = watcher && round ? 1 : 0;
    this.circles += now - (this.stateOf(s) == WATCHER ? <i32>load<u8>(this.shapes + <usize>s) : 0);
    store<u8>(this.shapes + <usize>s, <u8>now);
  }

  /** A box centred at (wx, wy, wz) with half-extents r (bounding a circle of radius rx when `round`) holds the point of slot t. */
  @inline inBox(wx: f64, wy: f64, wz: f64, rx: f64, ry: f64, rz: f64, t: i32, round: bool): bool {
    const tx = this.posOf(t, 0);
    if (!(wx - rx <= tx && tx <= wx + rx)) return false;
    const ty = this.posOf(t, 1);
    if (!(wy - ry <= ty && ty <= wy + ry)) return false;
    const tz = this.posOf(t, 2);
    if (this.dims == 3 && !(wz - rz <= tz && tz <= wz + rz)) return false;
    return !round || inCircle(wx, wy, wz, rx, tx, ty, tz);
  }

  /** Slot s, with its range and masks now, sees the point of slot t. */
  @inline holds(s: i32, t: i32): bool {
    return this.inBox(this.posOf(s, 0), this.posOf(s, 1), this.posOf(s, 2), this.rangeOf(s, 0), this.rangeOf(s, 1), this.rangeOf(s, 2), t, this.isCircle(s)) && this.meets(this.seesOf(s), t);
  }

  /** Watcher w's grown view (half-extents range + margin, or a circle of radius range + margin: sums, never differences) holds the point of slot t. */
  @inline inReach(w: i32, t: i32): bool {
    const m = this.marginOf(w);
    return this.inBox(this.posOf(w, 0), this.posOf(w, 1), this.posOf(w, 2), this.rangeOf(w, 0) + m, this.rangeOf(w, 1) + m, this.rangeOf(w, 2) + m, t, this.isCircle(w));
  }

  /** Sets slot s's half-extents and margin (both 0 for a marker), keeping count of the watchers with a margin. */
  setView(s: i32, rx: f64, ry: f64, rz: f64, watcher: bool, margin: f64): void {
    const m = watcher && margin > 0 ? margin : 0;
    this.margined += <i32>(m > 0) - <i32>(this.marginOf(s) > 0);
    store<f64>(this.margins + (<usize>s << 3), m);
    this.setRangeOf(s, 0, watcher ? rx : 0);
    this.setRangeOf(s, 1, watcher ? ry : 0);
    this.setRangeOf(s, 2, watcher && this.dims == 3 ? rz : 0);
  }

  /** This step must judge hysteresis: the scene has margins, or held pairs left from a margin that has just dropped to 0. */
  @inline hysteresis(): bool {
    return this.margined != 0 || this.held.size != 0;
  }

  /**
   * Whether pair (w, t) is visible after a step, under hysteresis: plainIs
   * (the plain judgement now: range and masks), or it was visible (was), the
   * masks meet now and t is inside w's range + margin. Keeps the held set
   * to the pairs visible outside the plain range; plainWas is the plain
   * judgement before the step (a pair visible then but not plainly was held).
   */
  keepHeld(w: i32, t: i32, plainWas: bool, was: bool, plainIs: bool, meetsNow: bool): bool {
    const heldIs = !plainIs && was && meetsNow && this.stateOf(w) == WATCHER && this.inReach(w, t);
    if (heldIs != (was && !plainWas)) {
      if (heldIs) this.held.add(w, t);
      else this.held.delete(w, t);
    }
    return plainIs || heldIs;
  }

  /** Every held pair of slot s (as watcher or as target) becomes a candidate: only a step of one of its slots can end it. */
  collectHeld(s: i32): void {
    const own = this.held.of(s);
    for (let k = 0, n = own.length; k < n; k++) {
      const link = own.get(k);
      if (link & 1) this.addCandidateWatcher(link >> 1);
      else this.addCandidateTarget(link >> 1);
    }
  }

  @inline masksAt(s: i32): usize {
    return this.masks + <usize>s * MASKS_BYTES;
  }
  @inline layerOf(s: i32): i32 {
    return load<i32>(this.masksAt(s), MASKS_LAYER);
  }
  @inline seesOf(s: i32): i32 {
    return load<i32>(this.masksAt(s), MASKS_SEES);
  }

  /** A watcher's mask `sees` meets the layer of slot t. */
  @inline meets(sees: i32, t: i32): bool {
    return this.layered == 0 || (sees & this.layerOf(t)) != 0;
  }

  /** Sets slot s's masks, keeping count of the entities whose masks are not the defaults (s counted before when `counted`). */
  setMasks(s: i32, layer: i32, sees: i32, counted: bool): void {
    if (counted) this.layered -= <i32>(this.layerOf(s) != DEFAULT_LAYER || this.seesOf(s) != DEFAULT_SEES);
    store<i32>(this.masksAt(s), layer, MASKS_LAYER);
    store<i32>(this.masksAt(s), sees, MASKS_SEES);
    this.layered += <i32>(layer != DEFAULT_LAYER || sees != DEFAULT_SEES);
  }

  /** Watcher slot w sees a point at (x, y, z). */
  @inline sees(w: i32, x: f64, y: f64, z: f64): bool {
    if (this.stateOf(w) != WATCHER) return false;
    let p = this.posOf(w, 0);
    let r = this.rangeOf(w, 0);
    if (!(p - r <= x && x <= p + r)) return false;
    p = this.posOf(w, 1);
    r = this.rangeOf(w, 1);
    if (!(p - r <= y && y <= p + r)) return false;
    if (this.dims == 3) {
      p = this.posOf(w, 2);
      r = this.rangeOf(w, 2);
      if (!(p - r <= z && z <= p + r)) return false;
    }
    return this.circles == 0 || !this.isCircle(w) || inCircle(this.posOf(w, 0), this.posOf(w, 1), this.posOf(w, 2), this.rangeOf(w, 0), x, y, z);
  }

  @inline addCandidateWatcher(w: i32): void {
    const at = this.slotAt(w) + SLOT_MARK_WATCHER;
    if (load<i32>(at) == this.stamp) return;
    store<i32>(at, this.stamp);
    this.candidateWatchers.push(w);
  }

  @inline addCandidateTarget(t: i32): void {
    const at = this.slotAt(t) + SLOT_MARK_TARGET;
    if (load<i32>(at) == this.stamp) return;
    store<i32>(at, this.stamp);
    this.candidateTargets.push(t);
  }

  @inline newStep(): void {
    this.stamp++;
    this.candidateWatchers.length = 0;
    this.candidateTargets.length = 0;
  }

  linkNodes(s: i32): void {
    const watcher = this.stateOf(s) == WATCHER;
    for (let a = 0; a < this.dims; a++) {
      const axis = this.axis(a);
      axis.place(nodeOf(s, ROLE_ENTITY), axis.bandOf(this.posOf(s, filterAxis(a, this.dims))), this.posOf(s, a), this.slots);
      if (watcher) this.linkBoundaries(a, s);
      axis.refreshIndex(false);
    }
    this.stampExtents(s);
  }

  /** Links s's boundary pairs on axis a into every band its box overlaps, re-banding first if the box is too tall. */
  linkBoundaries(a: i32, s: i32): void {
    const axis = this.axis(a);
    const f = filterAxis(a, this.dims);
    const r = this.rangeOf(s, a);
    if (r > axis.maxRange) axis.maxRange = r;
    const rf = this.rangeOf(s, f);
    // Re-banding links every live slot's nodes, these included.
    if (!axis.fits(rf)) {
      this.reband(a);
      return;
    }
    const p = this.posOf(s, a);
    const low = axis.bandOf(this.posOf(s, f) - rf);
    const high = axis.bandOf(this.posOf(s, f) + rf);
    axis.place(nodeOf(s, pairLower(0)), low, p - r, this.slots);
    axis.place(nodeOf(s, pairUpper(0)), low, p + r, this.slots);
    if (high != low) {
      axis.place(nodeOf(s, pairLower(1)), high, p - r, this.slots);
      axis.place(nodeOf(s, pairUpper(1)), high, p + r, this.slots);
    }
  }

  /**
   * The band the node of s in `role` is linked in on axis a, -1 when it is
   * not linked: it follows from the slot's state, its coordinate on the band
   * axis and its range there (pair 0 in the band of the box's low edge, pair
   * 1 in that of its high edge when that differs), so nothing stores it.
   */
  bandOfNode(axis: AxisList, a: i32, s: i32, role: i32): i32 {
    const state = this.stateOf(s);
    if (state == FREE || (role != ROLE_ENTITY && state != WATCHER)) return -1;
    const f = filterAxis(a, this.dims);
    const p = this.posOf(s, f);
    if (role == ROLE_ENTITY) return axis.bandOf(p);
    const low = axis.bandOf(p - this.rangeOf(s, f));
    if (role == pairLower(0) || role == pairUpper(0)) return low;
    const high = axis.bandOf(p + this.rangeOf(s, f));
    return high != low ? high : -1;
  }

  unlinkBoundaries(axis: AxisList, a: i32, s: i32): void {
    for (let k = 0; k < 2; k++) {
      if (this.bandOfNode(axis, a, s, pairLower(k)) < 0) continue;
      axis.unlinkNode(nodeOf(s, pairLower(k)));
      axis.unlinkNode(nodeOf(s, pairUpper(k)));
    }
  }

  unlinkNodes(s: i32): void {
    for (let a = 0; a < this.dims; a++) {
      const axis = this.axis(a);
      axis.unlinkNode(nodeOf(s, ROLE_ENTITY));
      this.unlinkBoundaries(axis, a, s);
    }
  }

  /**
   * Re-cuts axis a into bands for the entities there now (their extent on the
   * band axis, and its largest range) and links every live slot's nodes anew.
   */
  reband(a: i32): void {
    this.measureCut(a);
    this.bandAsMeasured(a);
  }

  /** reband, with the cut measureCut(a) has just found. */
  bandAsMeasured(a: i32): void {
    const axis = this.axis(a);
    const f = filterAxis(a, this.dims);
    const count = this.cutNodes;
    axis.recut(this.cutLo, this.cutHi, this.cutRange);
    const records = heap.alloc(<usize>max(count, 1) << 2);
    const bands = heap.alloc(<usize>max(count, 1) << 2);
    let n = 0;
    for (let s = 1; s < this.capacity; s++) {
      const state = this.stateOf(s);
      if (state == FREE) continue;
      const p = this.posOf(s, a);
      const v = this.posOf(s, f);
      let r = axis.recordOf(nodeOf(s, ROLE_ENTITY));
      axis.setKey(r, p);
      axis.setCentre(r, v);
      store<i32>(records + (<usize>n << 2), r);
      store<i32>(bands + (<usize>n << 2), axis.bandOf(v));
      n++;
      if (state != WATCHER) continue;
      const ra = this.rangeOf(s, a);
      const rf = this.rangeOf(s, f);
      const low = axis.bandOf(v - rf);
      const high = axis.bandOf(v + rf);
      for (let k = 0; k < 2; k++) {
        if (k == 1 && high == low) break;
        for (let e = 0; e < 2; e++) {
          r = axis.recordOf(nodeOf(s, e == 0 ? pairLower(k) : pairUpper(k)));
          axis.setKey(r, e == 0 ? p - ra : p + ra);
          axis.setCentre(r, v);
          store<i32>(records + (<usize>n << 2), r);
          store<i32>(bands + (<usize>n << 2), k == 0 ? low : high);
          n++;
        }
      }
    }
    axis.linkSorted(records, bands, n, this.slots);
    heap.free(records);
    heap.free(bands);
  }

  /** Sets cutLo, cutHi and cutRange to the live entities' extent on axis a's band axis and their largest range there, and cutNodes to how many nodes they have on a. */
  measureCut(a: i32): void {
    const f = filterAxis(a, this.dims);
    let lo = Infinity;
    let hi = -Infinity;
    let maxRange: f64 = 0;
    let count = 0;
    for (let s = 1; s < this.capacity; s++) {
      const state = this.stateOf(s);
      if (state == FREE) continue;
      const v = this.posOf(s, f);
      lo = min(lo, v);
      hi = max(hi, v);
      count += state == WATCHER ? 5 : 1;
      if (state == WATCHER) maxRange = max(maxRange, this.rangeOf(s, f));
    }
    this.cutLo = lo;
    this.cutHi = hi;
    this.cutRange = maxRange;
    this.cutNodes = count;
  }

  /** Re-bands every axis once the scene has doubled since the last time, so bands follow the scene's extent. */
  rebandIfGrown(): void {
    if (this.alive < BAND_MIN_ENTITIES || this.alive < 2 * this.bandedAt) return;
    this.bandedAt = this.alive;
    for (let a = 0; a < this.dims; a++) this.reband(a);
  }

  /**
   * Re-bands an axis once more than an eighth of the entities have left its
   * cut: a population that migrates, without growing, would otherwise crowd
   * into an end band and walk an unbanded list there. Not when the new cut
   * would need bands over twice their height to reach far outliers.
   */
  rebandIfOutgrown(): void {
    for (let a = 0; a < this.dims; a++) {
      const axis = this.axis(a);
      if (axis.outside <= axis.spared + (this.alive >> 3) + BAND_MIN_ENTITIES) continue;
      this.measureCut(a);
      // Far outliers (entities parked far away) would stretch the cut and make every band taller: keep it.
      if ((this.cutHi - this.cutLo) / <f64>MAX_BANDS <= 2 * BAND_RANGES * this.cutRange) this.bandAsMeasured(a);
      else axis.spared = axis.outside;
    }
  }

  /** Counts slot s, at its position now, into (delta 1) or out of (-1) each axis's entities beyond the cut. */
  countOutside(s: i32, delta: i32): void {
    for (let a = 0; a < this.dims; a++) {
      const axis = this.axis(a);
      axis.outside += delta * axis.beyond(this.posOf(s, filterAxis(a, this.dims)));
    }
  }

  /** Entities between s's own boundaries on the x lists (one span per band its box overlaps) become target candidates. */
  collectSpan(s: i32): void {
    if (this.stateOf(s) != WATCHER) return;
    const axis = this.axis0;
    // An entity off s's box on y (the x list's filter axis) cannot be seen.
    const y = this.posOf(s, 1);
    const half = filterHalf(y, this.rangeOf(s, 1));
    const low = y - half;
    const high = y + half;
    for (let k = 0; k < 2; k++) {
      const start = nodeOf(s, pairLower(k));
      if (this.bandOfNode(axis, 0, s, pairLower(k)) < 0) continue;
      const end = axis.handle(nodeOf(s, pairUpper(k)));
      for (let r = axis.next(axis.handle(start)); r != end; r = axis.next(r)) {
        if (axis.kindOf(r) != KIND_ENTITY) continue;
        const c = axis.centre(r);
        if (!(low <= c && c <= high)) continue;
        const t = axis.slotOf(r);
        if (t != s) this.addCandidateTarget(t);
      }
    }
  }

  /** Watchers whose lower x boundary lies in s's band, within twice the largest range before s, become candidates. */
  collectBoxesAround(s: i32): void {
    const axis = this.axis0;
    const x = this.posOf(s, 0);
    const y = this.posOf(s, 1);
    const reach = 2 * axis.maxRange;
    const limit = x - reach - 1e-9 * (Math.abs(x) + reach);
    // A box off s on y cannot hold s: its centre is further than the largest y range.
    const half = filterHalf(y, this.axis1.maxRange);
    for (let r = axis.prev(axis.handle(nodeOf(s, ROLE_ENTITY))); !axis.isSentinel(r) && axis.key(r) >= limit; r = axis.prev(r)) {
      if (axis.kindOf(r) != KIND_LOWER) continue;
      const c = axis.centre(r);
      if (!(y - half <= c && c <= y + half)) continue;
      const w = axis.slotOf(r);
      if (w != s) this.addCandidateWatcher(w);
    }
  }

  settle(s: i32, moved: bool, wasWatcher: bool): void {
    const ox = subject.oldX, oy = subject.oldY, oz = subject.oldZ;
    const nx = this.posOf(s, 0), ny = this.posOf(s, 1), nz = this.posOf(s, 2);
    const watchers = this.watcherSet(s);
    const candidates = this.candidateWatchers;
    let entering = 0;
    const masks = this.layered != 0;
    const margins = this.hysteresis();
    const oldLayer = subject.oldLayer, layer = this.layerOf(s);
    for (let k = 0, n = candidates.length; k < n; k++) {
      const w = candidates.get(k);
      let was = this.sees(w, ox, oy, oz);
      let is = this.sees(w, nx, ny, nz);
      if (masks) {
        was = was && (this.seesOf(w) & oldLayer) != 0;
        is = is && (this.seesOf(w) & layer) != 0;
      }
      if (margins) {
        const plainWas = was;
        was = was || this.held.hasWatcher(s, w);
        is = this.keepHeld(w, s, plainWas, was, is, this.meets(this.seesOf(w), s));
      }
      if (was && !is) {
        this.emit(EVENT_LEAVE, w, s);
        watchers.removeValue(this.idOf(w));
      } else if (is && !was) {
        this.emit(EVENT_ENTER, w, s);
        candidates.set(entering++, w);
      }
    }
    if (moved && !this.noMoves && !this.silent) {
      const count = watchers.length;
      const events = this.events;
      if (events.length + EVENT_INTS * count > this.eventLimit) eventLimitReached();
      events.reserve(events.length + EVENT_INTS * count);
      const id = this.idOf(s);
      let at = events.data + (<usize>events.length << 2);
      let from = watchers.data;
      for (let k = 0; k < count; k++) {
        store<i32>(at, EVENT_MOVE, EVENT_TYPE);
        store<i32>(at, load<i32>(from), EVENT_WATCHER);
        store<i32>(at, id, EVENT_TARGET);
        at += EVENT_BYTES;
        from += 4;
      }
      events.length += EVENT_INTS * count;
    }
    for (let k = 0; k < entering; k++) {
      const w = candidates.get(k);
      watchers.push(this.idOf(w));
    }
    const watcherNow = this.stateOf(s) == WATCHER;
    const orx = subject.oldRx, ory = subject.oldRy, orz = subject.oldRz;
    const rx = this.rangeOf(s, 0), ry = this.rangeOf(s, 1), rz = this.rangeOf(s, 2);
    const oldRound = subject.oldCircle, round = this.isCircle(s);
    const targets = this.candidateTargets;
    for (let k = 0, n = targets.length; k < n; k++) {
      const t = targets.get(k);
      let was = wasWatcher && this.inBox(ox, oy, oz, orx, ory, orz, t, oldRound);
      let is = watcherNow && this.inBox(nx, ny, nz, rx, ry, rz, t, round);
      if (masks) {
        was = was && (subject.oldSees & this.layerOf(t)) != 0;
        is = is && (this.seesOf(s) & this.layerOf(t)) != 0;
      }
      if (margins) {
        const plainWas = was;
        was = was || this.held.has(s, t);
        is = this.keepHeld(s, t, plainWas, was, is, this.meets(this.seesOf(s), t));
      }
      if (was && !is) {
        this.emit(EVENT_LEAVE, s, t);
        this.watcherSet(t).removeValue(this.idOf(s));
      } else if (is && !was) {
        this.emit(EVENT_ENTER, s, t);
        this.watcherSet(t).push(this.idOf(s));
      }
    }
  }

  /** Slot s becomes the subject of a step: what it is now is kept as its state before the step. */
  rememberOld(s: i32): void {
    subject.setOldPos(this.posOf(s, 0), this.posOf(s, 1), this.posOf(s, 2));
    subject.oldRx = this.rangeOf(s, 0);
    subject.oldRy = this.rangeOf(s, 1);
    subject.oldRz = this.rangeOf(s, 2);
    subject.oldCircle = this.isCircle(s);
    subject.oldLayer = this.layerOf(s);
    subject.oldSees = this.seesOf(s);
  }

  add(slot: i32, id: i32, x: f64, y: f64, z: f64, rx: f64, ry: f64, rz: f64, watcher: bool, round: bool, layer: i32, sees: i32, margin: f64): void {
    this.ensureSlot(slot);
    if (!this.lean) this.rebandIfGrown();
    this.setShape(slot, watcher, round);
    this.setMasks(slot, layer, sees, false);
    this.setState(slot, watcher ? WATCHER : MARKER);
    this.alive++;
    store<i32>(this.slotAt(slot), id, SLOT_ID);
    this.setPos(slot, 0, x);
    this.setPos(slot, 1, y);
    this.setPos(slot, 2, this.dims == 3 ? z : 0);
    this.setView(slot, rx, ry, rz, watcher, margin);
    this.watcherSet(slot).length = 0;
    this.linkNodes(slot);
    this.countOutside(slot, 1);
    this.newStep();
    this.collectSpan(slot);
    this.collectBoxesAround(slot);
    subject.setOldPos(NaN, NaN, NaN);
    this.settle(slot, false, false);
    this.tidy();
  }

  move(slot: i32, x: f64, y: f64, z: f64): void {
    if (this.dims == 2) z = 0;
    if (this.posOf(slot, 0) == x && this.posOf(slot, 1) == y && this.posOf(slot, 2) == z) return;
    this.rememberOld(slot);
    this.newStep();
    this.countOutside(slot, -1);
    const watcher = this.stateOf(slot) == WATCHER;
    if (this.isTeleport(slot, x, y, z)) {
      // Whoever sees it now has a box around its old place: found like an add's watchers.
      this.collectSpan(slot);
      this.collectBoxesAround(slot);
      this.unlinkNodes(slot);
      this.setPos(slot, 0, x);
      this.setPos(slot, 1, y);
      this.setPos(slot, 2, z);
      this.linkNodes(slot);
      this.collectSpan(slot);
      this.collectBoxesAround(slot);
    } else {
      subject.setNewPos(x, y, z);
      for (let a = 0; a < this.dims; a++) {
        const axis = this.axis(a);
        const from = this.posOf(slot, a);
        const to = a == 0 ? x : a == 1 ? y : z;
        if (watcher) this.stepBoundaries(axis, a, slot, from, to);
        const f = filterAxis(a, this.dims);
        this.step(axis, a, nodeOf(slot, ROLE_ENTITY), from, to, axis.bandOf(subject.oldPos(f)), axis.bandOf(subject.newPos(f)), slot);
      }
      this.setPos(slot, 0, x);
      this.setPos(slot, 1, y);
      this.setPos(slot, 2, z);
      if (this.circles > 0) this.collectInsideCircles(slot);
    }
    if (this.held.size != 0) this.collectHeld(slot);
    this.countOutside(slot, 1);
    this.settle(slot, true, watcher);
    this.tidy();
  }

  /**
   * Reads the memory a move of slot will start from (its slot record, its
   * list records and its watchers), so that a batch can fetch it while the move before runs:
   * those first reads are cache misses, and this way they overlap.
   */
  touch(slot: i32): void {
    let sum = load<i32>(this.slotAt(slot), SLOT_STATE);
    for (let a = 0; a < this.dims; a++) {
      const axis = this.axis(a);
      for (let role = 0; role < NODES_PER_SLOT; role++) sum += load<i32>(axis.at(axis.handle(nodeOf(slot, role))), LIST_PREV);
    }
    sum += load<i32>(this.watcherSet(slot).data);
    this.touched += sum;
  }

  /** Judges the pairs a walk cannot find while the scene has circles (see the reference core). */
  collectInsideCircles(slot: i32): void {
    this.collectBoxesAround(slot);
    if (this.isCircle(slot)) this.collectSpan(slot);
  }

  isTeleport(slot: i32, x: f64, y: f64, z: f64): bool {
    const watcher = this.stateOf(slot) == WATCHER;
    let walk = Math.abs(x - this.posOf(slot, 0)) + Math.abs(y - this.posOf(slot, 1));
    if (this.dims == 3) walk += Math.abs(z - this.posOf(slot, 2));
    if (watcher) walk *= 3;
    const scan = (watcher ? 4 * this.rangeOf(slot, 0) : 0) + 2 * this.axis0.maxRange;
    return walk > scan;
  }

  /**
   * Moves s's boundary pairs on axis a from their old place to their new one.
   * Pair 0 lives in the band of the box's low edge on the band axis, pair 1
   * in that of its high edge when that is another band: each pair walks in
   * its old band and, when its band changes, enters the new one at its old
   * keys and walks there too (or leaves, or appears), so every band of the
   * old and the new box sees the edges pass.
   */
  stepBoundaries(axis: AxisList, a: i32, s: i32, from: f64, to: f64): void {
    const f = filterAxis(a, this.dims);
    const r = this.rangeOf(s, a);
    const rf = this.rangeOf(s, f);
    const lowWas = axis.bandOf(subject.oldPos(f) - rf), highWas = axis.bandOf(subject.oldPos(f) + rf);
    const lowWill = axis.bandOf(subject.newPos(f) - rf), highWill = axis.bandOf(subject.newPos(f) + rf);
    this.stepPair(axis, a, 0, s, from, to, r, lowWas, lowWill);
    this.stepPair(axis, a, 1, s, from, to, r, highWas != lowWas ? highWas : -1, highWill != lowWill ? highWill : -1);
  }

  /** Pair k of s goes from band `was` to band `will` (-1: not linked), walking in each. */
  stepPair(axis: AxisList, a: i32, k: i32, s: i32, from: f64, to: f64, r: f64, was: i32, will: i32): void {
    if (was >= 0) {
      this.walkPair(axis, a, k, s, from, to, r);
      if (was == will) return;
      axis.unlinkNode(nodeOf(s, pairLower(k)));
      axis.unlinkNode(nodeOf(s, pairUpper(k)));
    }
    if (will >= 0) this.enterBand(axis, a, k, s, will, from, to, r);
  }

  /** Links pair k of s into band b at its old keys, then walks it to the new ones. */
  enterBand(axis: AxisList, a: i32, k: i32, s: i32, b: i32, from: f64, to: f64, r: f64): void {
    axis.place(nodeOf(s, pairLower(k)), b, from - r, this.slots);
    axis.place(nodeOf(s, pairUpper(k)), b, from + r, this.slots);
    this.walkPair(axis, a, k, s, from, to, r);
  }

  /** Walks pair k of s to its keys around `to`, the leading boundary first. */
  @inline walkPair(axis: AxisList, a: i32, k: i32, s: i32, from: f64, to: f64, r: f64): void {
    const forward = to > from;
    if (forward) this.walk(axis, a, nodeOf(s, pairUpper(k)), to + r, s);
    this.walk(axis, a, nodeOf(s, pairLower(k)), to - r, s);
    if (!forward) this.walk(axis, a, nodeOf(s, pairUpper(k)), to + r, s);
  }

  /** Moves s's entity node on axis a from `from` to `to`, into band b: walking in its old band, then, when the band changes, in the new one from the old key. */
  step(axis: AxisList, a: i32, node: i32, from: f64, to: f64, was: i32, b: i32, s: i32): void {
    this.walk(axis, a, node, to, s);
    if (was == b) return;
    axis.unlinkNode(node);
    axis.place(node, b, from, this.slots);
    this.walk(axis, a, node, to, s);
  }

  /**
   * Moves node to key on axis a, relinking it once at its new place. Every
   * record passed is a crossing: for the mover's entity node, a box edge of
   * another watcher; for one of its own box edges, another entity. A
   * crossing names a candidate pair unless, on the filter axis, the box held
   * the point neither before nor after (then it was out and stays out). The
   * loop reads only the records it passes.
   */
  walk(axis: AxisList, a: i32, node: i32, key: f64, slot: i32): void {
    const n = axis.handle(node);
    const f = filterAxis(a, this.dims);
    const before = subject.oldPos(f);
    const after = subject.newPos(f);
    // Every linked node of the mover walks, so this keeps its filter coordinate current.
    axis.setKey(n, key);
    axis.setCentre(n, after);
    const kind = roleKind(node % NODES_PER_SLOT);
    // The mover's entity node crosses box edges, its box edges cross entities.
    const wanted = kind == KIND_ENTITY ? 0 : 1;
    // A crossing names a pair when, on f, the other record's coordinate lies
    // within the mover's range of the mover (an entity crossed: is it in the
    // mover's box?) or within the largest range on f (a box edge crossed: can
    // its box hold the mover?), before or after the move.
    const range = kind == KIND_ENTITY ? this.axis(f).maxRange : this.rangeOf(slot, f);
    const half1 = filterHalf(before, range), half2 = filterHalf(after, range);
    const lo1 = before - half1, hi1 = before + half1, lo2 = after - half2, hi2 = after + half2;
    const base = axis.records;
    const own = base + <usize>n * LIST_BYTES;
    let q = base + <usize>load<u32>(own, LIST_NEXT);
    if (precedes(q, key, kind)) {
      do {
        if (crossing(q, wanted, lo1, hi1, lo2, hi2)) this.nominate(axis, recordAt(base, q), wanted, slot);
        q = base + <usize>load<u32>(q, LIST_NEXT);
      } while (precedes(q, key, kind));
      axis.unlink(n);
      axis.linkAfter(n, axis.prev(recordAt(base, q)));
      axis.churn++;
      return;
    }
    let p = base + <usize>(load<u32>(own, LIST_PREV) & ~LIST_KIND_BITS);
    if (follows(p, key, kind)) {
      do {
        if (crossing(p, wanted, lo1, hi1, lo2, hi2)) this.nominate(axis, recordAt(base, p), wanted, slot);
        p = base + <usize>(load<u32>(p, LIST_PREV) & ~LIST_KIND_BITS);
      } while (follows(p, key, kind));
      axis.unlink(n);
      axis.linkAfter(n, recordAt(base, p));
      axis.churn++;
    }
  }

  /** The owner of crossed record r becomes a candidate watcher (an edge crossed) or target (an entity crossed). */
  nominate(axis: AxisList, r: i32, entityCrossed: i32, slot: i32): void {
    const other = axis.slotOf(r);
    if (other == slot) return;
    if (entityCrossed) this.addCandidateTarget(other);
    else this.addCandidateWatcher(other);
  }

  /** Re-bands an outgrown axis and renumbers each axis's records when they have churned enough; never during a walk, nor in a lean reload. */
  tidy(): void {
    if (this.lean) return;
    this.rebandIfOutgrown();
    for (let a = 0; a < this.dims; a++) this.axis(a).compactIfChurned();
  }

  /** Writes slot's coordinate on each axis's filter axis into its linked records there. */
  stampExtents(s: i32): void {
    for (let a = 0; a < this.dims; a++) {
      const axis = this.axis(a);
      const p = this.posOf(s, filterAxis(a, this.dims));
      for (let role = 0; role < NODES_PER_SLOT; role++) {
        if (this.bandOfNode(axis, a, s, role) >= 0) axis.setCentre(axis.handle(nodeOf(s, role)), p);
      }
    }
  }

  remove(slot: i32): void {
    this.newStep();
    this.collectSpan(slot);
    this.collectHeld(slot);
    this.rememberOld(slot);
    const wasWatcher = this.stateOf(slot) == WATCHER;
    const targets = this.candidateTargets;
    for (let k = 0, n = targets.length; k < n; k++) {
      const t = targets.get(k);
      if (wasWatcher && (this.holds(slot, t) || this.held.has(slot, t))) {
        this.emit(EVENT_LEAVE, slot, t);
        this.watcherSet(t).removeValue(this.idOf(slot));
      }
    }
    const set = this.watcherSet(slot);
    for (let k = 0, n = set.length; k < n; k++) this.emitIds(EVENT_LEAVE, set.get(k), this.idOf(slot));
    set.length = 0;
    this.held.release(slot);
    this.countOutside(slot, -1);
    this.unlinkNodes(slot);
    this.setShape(slot, false, false);
    this.setView(slot, 0, 0, 0, false, 0);
    this.setMasks(slot, DEFAULT_LAYER, DEFAULT_SEES, true);
    this.setState(slot, FREE);
    this.alive--;
    this.tidy();
  }

  setRange(slot: i32, rx: f64, ry: f64, rz: f64, watcher: bool, round: bool, margin: f64): void {
    this.newStep();
    this.rememberOld(slot);
    const wasWatcher = this.stateOf(slot) == WATCHER;
    this.collectSpan(slot);
    this.collectHeld(slot);
    if (wasWatcher) for (let a = 0; a < this.dims; a++) this.unlinkBoundaries(this.axis(a), a, slot);
    this.setShape(slot, watcher, round);
    this.setState(slot, watcher ? WATCHER : MARKER);
    this.setView(slot, rx, ry, rz, watcher, margin);
    if (watcher) {
      for (let a = 0; a < this.dims; a++) this.linkBoundaries(a, slot);
      this.stampExtents(slot);
    }
    this.collectSpan(slot);
    this.settle(slot, false, wasWatcher);
    this.tidy();
  }

  /** New masks for slot: enter / leave for every pair, with slot as watcher or as target, whose visibility changes. */
  setLayers(slot: i32, layer: i32, sees: i32): void {
    this.newStep();
    this.rememberOld(slot);
    this.collectSpan(slot);
    this.collectBoxesAround(slot);
    this.collectHeld(slot);
    // The old masks stay counted through the step: its judgement needs them.
    this.setMasks(slot, layer, sees, false);
    this.settle(slot, false, this.stateOf(slot) == WATCHER);
    this.layered -= <i32>(subject.oldLayer != DEFAULT_LAYER || subject.oldSees != DEFAULT_SEES);
  }

  /** A large batch is loaded in bulk: sorted links per axis, enter events from a throwaway grid. */
  addMany(slots: usize, ids: usize, xs: usize, ys: usize, zs: usize, ranges: usize, n: i32): void {
    if (n < BULK_MIN || n * 4 < this.alive || this.lean) {
      for (let k = 0; k < n; k++) {
        const z = zs == 0 ? 0.0 : load<f64>(zs + (<usize>k << 3));
        const r = load<f64>(ranges + (<usize>k << 3));
        this.add(load<i32>(slots + (<usize>k << 2)), load<i32>(ids + (<usize>k << 2)), load<f64>(xs + (<usize>k << 3)), load<f64>(ys + (<usize>k << 3)), z, r, r, r, true, false, DEFAULT_LAYER, DEFAULT_SEES, 0); // no margin
      }
      return;
    }
    let top = 0;
    for (let k = 0; k < n; k++) top = max(top, load<i32>(slots + (<usize>k << 2)));
    this.ensureSlot(top);
    this.newStep();
    for (let k = 0; k < n; k++) {
      const s = load<i32>(slots + (<usize>k << 2));
      const r = load<f64>(ranges + (<usize>k << 3));
      store<i32>(this.slotAt(s), load<i32>(ids + (<usize>k << 2)), SLOT_ID);
      this.setPos(s, 0, load<f64>(xs + (<usize>k << 3)));
      this.setPos(s, 1, load<f64>(ys + (<usize>k << 3)));
      this.setPos(s, 2, zs == 0 ? 0.0 : load<f64>(zs + (<usize>k << 3)));
      this.setView(s, r, r, r, true, 0);
      this.watcherSet(s).length = 0;
      store<u8>(this.shapes + <usize>s, 0); // a box
      store<i32>(this.masksAt(s), DEFAULT_LAYER, MASKS_LAYER);
      store<i32>(this.masksAt(s), DEFAULT_SEES, MASKS_SEES);
      store<i32>(this.slotAt(s), this.stamp, SLOT_MARK_TARGET);
    }
    for (let k = 0; k < n; k++) this.setState(load<i32>(slots + (<usize>k << 2)), WATCHER);
    this.alive += n;
    // Sorting every node costs about what merging the new ones would, and the bands follow the new extent.
    this.bandedAt = this.alive;
    for (let a = 0; a < this.dims; a++) {
      const axis = this.axis(a);
      for (let k = 0; k < n; k++) axis.maxRange = max(axis.maxRange, load<f64>(ranges + (<usize>k << 3)));
      this.reband(a);
    }
    this.enterAllPairs(slots, n);
    this.tidy();
  }

  /** Emits enter for every pair with at least one member in the batch (marked with the current stamp). */
  enterAllPairs(batch: usize, n: i32): void {
    const grid = new BulkGrid(this, max(this.axis0.maxRange, this.axis1.maxRange));
    for (let k = 0; k < n; k++) {
      const s = load<i32>(batch + (<usize>k << 2));
      const x = this.posOf(s, 0), y = this.posOf(s, 1), z = this.posOf(s, 2);
      const rx = this.rangeOf(s, 0), ry = this.rangeOf(s, 1), rz = this.rangeOf(s, 2);
      const cx = grid.column(x);
      const cy = grid.row(y);
      for (let gy = cy - 1; gy <= cy + 1; gy++) {
        for (let gx = cx - 1; gx <= cx + 1; gx++) {
          const c = grid.cellAt(gx, gy);
          if (c < 0) continue;
          const end = load<i32>(grid.starts + (<usize>(c + 1) << 2));
          for (let i = load<i32>(grid.starts + (<usize>c << 2)); i < end; i++) {
            const t = load<i32>(grid.items + (<usize>i << 2));
            if (t == s) continue;
            if (this.inBox(x, y, z, rx, ry, rz, t, false) && this.meets(DEFAULT_SEES, t)) {
              this.emit(EVENT_ENTER, s, t);
              this.watcherSet(t).push(this.idOf(s));
            }
            // A pair inside the batch is found again from its other member.
            if (load<i32>(this.slotAt(t), SLOT_MARK_TARGET) != this.stamp && this.sees(t, x, y, z) && this.meets(this.seesOf(t), s)) {
              this.emit(EVENT_ENTER, t, s);
              this.watcherSet(s).push(this.idOf(t));
            }
          }
        }
      }
    }
    grid.release();
    for (let s = 1; s < this.capacity; s++) if (this.stateOf(s) != FREE) this.watcherSet(s).fit();
  }

  query(slot: i32): i32 {
    this.newStep();
    this.collectSpan(slot);
    const results = this.results;
    results.length = 0;
    const targets = this.candidateTargets;
    for (let k = 0, n = targets.length; k < n; k++) {
      const t = targets.get(k);
      if (this.holds(slot, t)) results.push(this.idOf(t));
    }
    // Held targets lie outside the range, so the span never has them.
    const own = this.held.of(slot);
    for (let k = 0, n = own.length; k < n; k++) {
      const link = own.get(k);
      if ((link & 1) == 0) results.push(this.idOf(link >> 1));
    }
    return results.length;
  }

  /** Writes every held pair into the result buffer as slots w, t; returns the number of ints written. */
  heldPairs(): i32 {
    const results = this.results;
    results.length = 0;
    this.held.list(results);
    return results.length;
  }

  /**
   * Makes pair (w, t) visible, for restoring a snapshot: when w is a
   * watcher, its mask meets t's layer, t is inside w's range + margin and
   * the pair is not visible, emits enter and holds the pair (t is then
   * outside w's plain range, or it would be visible already); otherwise
   * does nothing.
   */
  hold(w: i32, t: i32): void {
    if (w == t || this.stateOf(w) != WATCHER || this.stateOf(t) == FREE) return;
    if ((this.seesOf(w) & this.layerOf(t)) == 0 || !this.inReach(w, t)) return;
    if (this.holds(w, t) || this.held.has(w, t)) return;
    this.emit(EVENT_ENTER, w, t);
    this.watcherSet(t).push(this.idOf(w));
    this.held.add(w, t);
  }

  watchers(slot: i32): i32 {
    const results = this.results;
    results.length = 0;
    const set = this.watcherSet(slot);
    for (let k = 0, n = set.length; k < n; k++) results.push(set.get(k));
    return results.length;
  }

  /** Entities in the closed box: the x lists of the bands the box overlaps on y. */
  queryBox(minX: f64, minY: f64, minZ: f64, maxX: f64, maxY: f64, maxZ: f64): i32 {
    const axis = this.axis0;
    const results = this.results;
    results.length = 0;
    for (let b = axis.bandOf(minY), last = axis.bandOf(maxY); b <= last; b++) {
      for (let r = axis.next(axis.seek(b, minX, this.slots)); !axis.isSentinel(r) && axis.key(r) <= maxX; r = axis.next(r)) {
        if (axis.kindOf(r) != KIND_ENTITY) continue;
        const s = axis.slotOf(r);
        const y = this.posOf(s, 1);
        if (!(minY <= y && y <= maxY)) continue;
        if (this.dims == 3) {
          const z = this.posOf(s, 2);
          if (!(minZ <= z && z <= maxZ)) continue;
        }
        results.push(this.idOf(s));
      }
    }
    return results.length;
  }

  /**
   * Writes the ids of the k entities nearest to (x, y, z) into the result
   * buffer, nearest first (see KNearest); returns their count. Bands of the
   * x lists outward from y's band, while the band's gap on y can still beat
   * the k-th best; in each, two cursors walk outward from x along the
   * sorted list, nearer first, until the x gap alone is too far.
   */
  nearest(x: f64, y: f64, z: f64, k: i32, maxDistance: f64, filtered: bool, mask: i32): i32 {
    const picker = this.picker;
    picker.reset(k, maxDistance, filtered, mask);
    const axis = this.axis0;
    const home = axis.bandOf(y);
    const scale = Math.abs(y) + Math.abs(axis.origin);
    for (let d = 0; ; d++) {
      const low = home - d;
      const high = home + d;
      // Band gaps grow outward and the bound only shrinks: a side once closed stays closed.
      const lowOpen = low >= 0 && !beyondBound(bandGap(axis, low, y), scale, picker.bound());
      const highOpen = d > 0 && high < axis.bandCount && !beyondBound(bandGap(axis, high, y), scale, picker.bound());
      if (!lowOpen && !highOpen) break;
      if (lowOpen) this.nearestInBand(low, x, y, z);
      if (highOpen) this.nearestInBand(high, x, y, z);
    }
    return picker.take(this.results);
  }

  /** Offers band b's entities to the picker, outward from x, until the x gap alone is beyond its bound. */
  nearestInBand(b: i32, x: f64, y: f64, z: f64): void {
    const axis = this.axis0;
    const picker = this.picker;
    let left = axis.seek(b, x, this.slots);
    let right = axis.next(left);
    while (!axis.isSentinel(left) && axis.kindOf(left) != KIND_ENTITY) left = axis.prev(left);
    while (!axis.isSentinel(right) && axis.kindOf(right) != KIND_ENTITY) right = axis.next(right);
    while (true) {
      const leftGap = axis.isSentinel(left) ? Infinity : x - axis.key(left);
      const rightGap = axis.isSentinel(right) ? Infinity : axis.key(right) - x;
      const takeLeft = leftGap < rightGap;
      const gap = takeLeft ? leftGap : rightGap;
      // Exact: a squared distance is at least its x term, and the x gap only grows outward.
      if (gap == Infinity || gap * gap > picker.bound()) return;
      const s = axis.slotOf(takeLeft ? left : right);
      picker.offer(this.idOf(s), this.layerOf(s), this.posOf(s, 0), this.posOf(s, 1), this.posOf(s, 2), x, y, z);
      if (takeLeft) {
        do left = axis.prev(left);
        while (!axis.isSentinel(left) && axis.kindOf(left) != KIND_ENTITY);
      } else {
        do right = axis.next(right);
        while (!axis.isSentinel(right) && axis.kindOf(right) != KIND_ENTITY);
      }
    }
  }

  clear(): void {
    memory.fill(this.slots, 0, <usize>this.capacity << SLOT_SHIFT);
    memory.fill(this.shapes, 0, <usize>this.capacity);
    this.circles = 0;
    this.layered = 0;
    memory.fill(this.margins, 0, <usize>this.capacity << 3);
    this.margined = 0;
    this.held.clear();
    for (let s = 0; s < this.capacity; s++) this.watcherSet(s).length = 0;
    for (let a = 0; a < this.dims; a++) {
      if (this.lean) this.axis(a).emptyBands();
      else this.axis(a).reset();
    }
    this.events.length = 0;
    this.alive = 0;
    // A lean reload refills the same cut with the same entities.
    if (!this.lean) this.bandedAt = 0;
  }
}

/** How far band b of axis lies from band-axis coordinate v: 0 inside it (the end bands reach to infinity). */
function bandGap(axis: AxisList, b: i32, v: f64): f64 {
  const low = b == 0 ? -Infinity : axis.origin + <f64>b * axis.height;
  const high = b == axis.bandCount - 1 ? Infinity : axis.origin + <f64>(b + 1) * axis.height;
  return v < low ? low - v : v > high ? v - high : 0;
}

/** Batches at least this large (and a quarter of the scene) are loaded in bulk. */
const BULK_MIN: i32 = 32;

/** Sorts node ids in [lo, hi] by (key, kind): quicksort, insertion sort for short runs. */
function sortNodes(axis: AxisList, base: usize, lo: i32, hi: i32): void {
  while (hi - lo > 16) {
    const mid = lo + ((hi - lo) >> 1);
    // Median of three as the pivot.
    if (axis.less(nodeAt(base, mid), nodeAt(base, lo))) swapNodes(base, mid, lo);
    if (axis.less(nodeAt(base, hi), nodeAt(base, lo))) swapNodes(base, hi, lo);
    if (axis.less(nodeAt(base, hi), nodeAt(base, mid))) swapNodes(base, hi, mid);
    const pivot = nodeAt(base, mid);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (axis.less(nodeAt(base, i), pivot)) i++;
      while (axis.less(pivot, nodeAt(base, j))) j--;
      if (i <= j) {
        swapNodes(base, i, j);
        i++;
        j--;
      }
    }
    // Recurse into the smaller side, loop on the larger: stack depth stays logarithmic.
    if (j - lo < hi - i) {
      sortNodes(axis, base, lo, j);
      lo = i;
    } else {
      sortNodes(axis, base, i, hi);
      hi = j;
    }
  }
  for (let i = lo + 1; i <= hi; i++) {
    const node = nodeAt(base, i);
    let j = i - 1;
    while (j >= lo && axis.less(node, nodeAt(base, j))) {
      store<i32>(base + (<usize>(j + 1) << 2), nodeAt(base, j));
      j--;
    }
    store<i32>(base + (<usize>(j + 1) << 2), node);
  }
}

/** The record at address at (records start at base). */
@inline function recordAt(base: usize, at: usize): i32 {
  return <i32>((at - base) / LIST_BYTES);
}

/** The record at address at sorts before a node with this key and kind. */
@inline function precedes(at: usize, key: f64, kind: i32): bool {
  const k = load<f64>(at, LIST_KEY);
  return k < key || (k == key && (load<i32>(at, LIST_PREV) & LIST_KIND_BITS) < kind);
}

/** The record at address at sorts after a node with this key and kind. */
@inline function follows(at: usize, key: f64, kind: i32): bool {
  const k = load<f64>(at, LIST_KEY);
  return k > key || (k == key && (load<i32>(at, LIST_PREV) & LIST_KIND_BITS) > kind);
}

/**
 * How far from p, on a filter axis, an f32-rounded coordinate may lie when
 * the exact one is within half of p: widened by twice the rounding, and
 * unbounded where f32 saturates.
 */
@inline function filterHalf(p: f64, half: f64): f64 {
  const reach = Math.abs(p) + half;
  return reach >= F32_SAFE ? Infinity : half + reach * F32_SLACK + 1e-37;
}

/**
 * The record at `at` is of the wanted sort (1 entity, 0 box edge) and its
 * coordinate on the filter axis lies in [lo1, hi1] or [lo2, hi2]: evaluated
 * without branches, as most crossings fail it at random.
 */
@inline function crossing(at: usize, wanted: i32, lo1: f64, hi1: f64, lo2: f64, hi2: f64): bool {
  const isEntity = <i32>((load<i32>(at, LIST_PREV) & LIST_KIND_BITS) == KIND_ENTITY);
  const c = <f64>load<f32>(at, LIST_CENTRE);
  const inside = (<i32>(lo1 <= c) & <i32>(c <= hi1)) | (<i32>(lo2 <= c) & <i32>(c <= hi2));
  return ((isEntity ^ wanted ^ 1) & inside) != 0;
}

/** The axis whose extent the records of axis a carry: the next one, round. */
@inline function filterAxis(a: i32, dims: i32): i32 {
  return a + 1 == dims ? 0 : a + 1;
}

@inline function nodeAt(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}

@inline function swapNodes(base: usize, i: i32, j: i32): void {
  const t = nodeAt(base, i);
  store<i32>(base + (<usize>i << 2), nodeAt(base, j));
  store<i32>(base + (<usize>j << 2), t);
}

/**
 * A throwaway uniform grid over every entity's (x, y), cells at least as
 * wide as the largest range, so whoever sees a point sits in the 3 x 3 cells
 * around it. A grid whose cells would outnumber the entities (entities on a
 * line or in a few clusters across a wide world) keeps only the cells it
 * uses, numbered through a hash table of their (column, row): cells never
 * grow wider than the range, so a crowded strip is never lumped into a few
 * huge cells that every entity there would scan.
 */
@unmanaged
class BulkGrid {
  minX: f64 = 0;
  minY: f64 = 0;
  size: f64 = 1;
  columns: i32 = 0;
  rows: i32 = 0;
  /** Cells in use: columns * rows, or the occupied ones when `table` is set. */
  cells: i32 = 0;
  starts: usize = 0;
  items: usize = 0;
  /** Occupied cells by (column, row), a bulk bucket each (lists-records.ts); 0 for a dense grid. */
  table: usize = 0;
  mask: i32 = 0;

  constructor(scene: ListsIndex, maxRange: f64) {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    let count = 0;
    const capacity = scene.capacity;
    for (let s = 1; s < capacity; s++) {
      if (scene.stateOf(s) == FREE) continue;
      count++;
      const x = scene.posOf(s, 0);
      const y = scene.posOf(s, 1);
      minX = min(minX, x);
      maxX = max(maxX, x);
      minY = min(minY, y);
      maxY = max(maxY, y);
    }
    // The margin keeps rounding in the division from splitting a pair by two cells.
    let size = maxRange * 1.001 + 1e-9 * (Math.abs(minX) + Math.abs(maxX) + Math.abs(minY) + Math.abs(maxY)) + 1e-300;
    const spanX = maxX - minX;
    const spanY = maxY - minY;
    // Spans beyond the doubles (entities near +-1e308): one cell holds all.
    if (!(spanX < Infinity && spanY < Infinity)) size = Infinity;
    // Columns and rows stay i32.
    while (size < Infinity && max(spanX, spanY) / size >= <f64>GRID_AXIS_CELLS) size *= 2;
    this.minX = minX;
    this.minY = minY;
    this.size = size;
    this.columns = size < Infinity ? <i32>Math.floor(spanX / size) + 1 : 1;
    this.rows = size < Infinity ? <i32>Math.floor(spanY / size) + 1 : 1;
    const dense = <f64>this.columns * <f64>this.rows <= <f64>(2 * count + 64);
    const cellOf = heap.alloc(<usize>capacity << 2);
    if (dense) {
      this.cells = this.columns * this.rows;
      for (let s = 1; s < capacity; s++) {
        if (scene.stateOf(s) == FREE) continue;
        const cell = this.column(scene.posOf(s, 0)) + this.row(scene.posOf(s, 1)) * this.columns;
        store<i32>(cellOf + (<usize>s << 2), cell);
      }
    } else {
      let buckets = 64;
      while (buckets < 2 * count) buckets <<= 1;
      this.mask = buckets - 1;
      this.table = heap.alloc(<usize>buckets * BULK_BUCKET_BYTES);
      memory.fill(this.table, 0xff, <usize>buckets * BULK_BUCKET_BYTES);
      for (let s = 1; s < capacity; s++) {
        if (scene.stateOf(s) == FREE) continue;
        const cell = this.occupy(this.column(scene.posOf(s, 0)), this.row(scene.posOf(s, 1)));
        store<i32>(cellOf + (<usize>s << 2), cell);
      }
    }
    const cells = this.cells;
    this.starts = heap.alloc(<usize>(cells + 1) << 2);
    memory.fill(this.starts, 0, <usize>(cells + 1) << 2);
    this.items = heap.alloc(<usize>max(count, 1) << 2);
    for (let s = 1; s < capacity; s++) {
      if (scene.stateOf(s) == FREE) continue;
      const at = this.starts + (<usize>(load<i32>(cellOf + (<usize>s << 2)) + 1) << 2);
      store<i32>(at, load<i32>(at) + 1);
    }
    for (let c = 0; c < cells; c++) {
      const at = this.starts + (<usize>(c + 1) << 2);
      store<i32>(at, load<i32>(at) + load<i32>(at - 4));
    }
    // Fill by counting down from each cell's end, then the starts are intact again.
    for (let s = capacity - 1; s >= 1; s--) {
      if (scene.stateOf(s) == FREE) continue;
      const at = this.starts + (<usize>(load<i32>(cellOf + (<usize>s << 2)) + 1) << 2);
      const i = load<i32>(at) - 1;
      store<i32>(at, i);
      store<i32>(this.items + (<usize>i << 2), s);
    }
    // Each starts[c + 1] now holds the start of cell c: shift down by one.
    for (let c = 0; c < cells; c++) store<i32>(this.starts + (<usize>c << 2), load<i32>(this.starts + (<usize>(c + 1) << 2)));
    store<i32>(this.starts + (<usize>cells << 2), count);
    heap.free(cellOf);
  }

  @inline column(x: f64): i32 {
    return this.size < Infinity ? <i32>Math.floor((x - this.minX) / this.size) : 0;
  }

  @inline row(y: f64): i32 {
    return this.size < Infinity ? <i32>Math.floor((y - this.minY) / this.size) : 0;
  }

  /** The cell at (gx, gy), -1 when it is outside the grid or holds nobody. */
  cellAt(gx: i32, gy: i32): i32 {
    if (gx < 0 || gy < 0 || gx >= this.columns || gy >= this.rows) return -1;
    if (this.table == 0) return gx + gy * this.columns;
    for (let b = bucketOfCell(gx, gy, this.mask); ; b = (b + 1) & this.mask) {
      const at = this.table + <usize>b * BULK_BUCKET_BYTES;
      const cell = load<i32>(at, BULK_CELL);
      if (cell < 0 || (load<i32>(at, BULK_COLUMN) == gx && load<i32>(at, BULK_ROW) == gy)) return cell;
    }
    return -1;
  }

  /** The number of the cell at (gx, gy), numbering it when it is new (sparse grids). */
  occupy(gx: i32, gy: i32): i32 {
    for (let b = bucketOfCell(gx, gy, this.mask); ; b = (b + 1) & this.mask) {
      const at = this.table + <usize>b * BULK_BUCKET_BYTES;
      const cell = load<i32>(at, BULK_CELL);
      if (cell >= 0 && load<i32>(at, BULK_COLUMN) == gx && load<i32>(at, BULK_ROW) == gy) return cell;
      if (cell >= 0) continue;
      store<i32>(at, gx, BULK_COLUMN);
      store<i32>(at, gy, BULK_ROW);
      store<i32>(at, this.cells, BULK_CELL);
      return this.cells++;
    }
    return -1;
  }

  release(): void {
    heap.free(this.starts);
    heap.free(this.items);
    if (this.table != 0) heap.free(this.table);
    heap.free(changetype<usize>(this));
  }
}

/** Columns (and rows) a bulk grid may have along an axis, so that they stay i32. */
const GRID_AXIS_CELLS: i32 = 1 << 30;

@inline function bucketOfCell(gx: i32, gy: i32, mask: i32): i32 {
  const h = (gx * 0x9e3779b1) ^ ((gy ^ (gy >>> 15)) * 0x85ebca77);
  return (h ^ (h >>> 16)) & mask;
}

function growZeroed(ptr: usize, oldBytes: usize, newBytes: usize): usize {
  const grown = growBytes(ptr, newBytes);
  memory.fill(grown + oldBytes, 0, newBytes - oldBytes);
  return grown;
}

function newAxis(bandAxis: i32): AxisList {
  const axis = changetype<AxisList>(heap.alloc(offsetof<AxisList>()));
  memory.fill(changetype<usize>(axis), 0, offsetof<AxisList>());
  axis.bandAxis = bandAxis;
  const capacity = 2 + 64;
  axis.records = heap.alloc(<usize>capacity * LIST_BYTES);
  axis.recordCapacity = capacity;
  axis.reset();
  return axis;
}

// ---- what assembly/scene/exports.ts calls beyond the scene's methods ---------

export function newListsIndex(dims: i32): ListsIndex {
  const s = changetype<ListsIndex>(heap.alloc(offsetof<ListsIndex>()));
  memory.fill(changetype<usize>(s), 0, offsetof<ListsIndex>());
  s.dims = dims;
  s.axis0 = newAxis(1);
  s.axis1 = newAxis(filterAxis(1, dims));
  s.axis2 = dims == 3 ? newAxis(0) : changetype<AxisList>(0);
  s.candidateWatchers = newIntList();
  s.candidateTargets = newIntList();
  s.events = newIntList();
  s.results = newIntList();
  s.picker = newKNearest();
  s.held = newHeldLinks();
  s.ensureSlot(15);
  return s;
}

export function freeListsIndex(s: ListsIndex): void {
  for (let k = 0; k < s.capacity; k++) s.watcherSet(k).release();
  for (let a = 0; a < s.dims; a++) s.axis(a).release();
  heap.free(s.slotsRaw);
  heap.free(s.sets);
  heap.free(s.shapes);
  heap.free(s.masks);
  heap.free(s.margins);
  freeHeldLinks(s.held);
  freeIntList(s.candidateWatchers);
  freeIntList(s.candidateTargets);
  freeIntList(s.events);
  freeIntList(s.results);
  freeKNearest(s.picker);
  heap.free(changetype<usize>(s));
}

/** How many moves ahead a batch touches the memory a move starts from. */
const MOVE_LEAD: i32 = 8;

/** Moves slots[k] to (xs[k], ys[k], zs[k]) in order; zs is 0 for 2-D scenes. */
export function listsMoveMany(s: ListsIndex, slots: i32, xs: i32, ys: i32, zs: i32, count: i32): void {
  for (let k = 0; k < count; k++) {
    if (k + MOVE_LEAD < count) s.touch(load<i32>(<usize>slots + (<usize>(k + MOVE_LEAD) << 2)));
    const z = zs == 0 ? 0.0 : load<f64>(<usize>zs + (<usize>k << 3));
    s.move(load<i32>(<usize>slots + (<usize>k << 2)), load<f64>(<usize>xs + (<usize>k << 3)), load<f64>(<usize>ys + (<usize>k << 3)), z);
  }
}

/** Address of slot's position (3 doubles). */
export function listsPositionOf(s: ListsIndex, slot: i32): i32 {
  return <i32>(s.slotAt(slot) + SLOT_POS);
}

/** Copies the positions of count slots (i32s at slots) into the result buffer, three doubles each; returns its address. */
export function listsPositions(s: ListsIndex, slots: i32, count: i32): i32 {
  const results = s.results;
  results.reserve(6 * count);
  for (let k = 0; k < count; k++) {
    memory.copy(results.data + (<usize>k) * SLOT_POS_BYTES, s.slotAt(load<i32>(slots + (k << 2))) + SLOT_POS, SLOT_POS_BYTES);
  }
  return <i32>results.data;
}

/** Bytes of linear memory this scene holds (its arrays, lists and buffers, by capacity). */
export function listsBytes(s: ListsIndex): f64 {
  const cap = <f64>s.capacity;
  // Per slot: its record, watcher set, shape byte, masks and margin; once, the slot table's alignment slack.
  let bytes = <f64>offsetof<ListsIndex>() + <f64>SLOT_BYTES + cap * <f64>(SLOT_BYTES + offsetof<IntList>() + 1 + MASKS_BYTES + 8);
  bytes += s.held.bytes();
  for (let k = 0; k < s.capacity; k++) bytes += <f64>s.watcherSet(k).capacity * 4;
  for (let a = 0; a < s.dims; a++) {
    const axis = s.axis(a);
    bytes += <f64>offsetof<AxisList>() + <f64>axis.recordCapacity * <f64>LIST_BYTES + <f64>axis.handleCapacity * 4 + <f64>axis.snapCapacity * 16;
  }
  bytes += <f64>(s.candidateWatchers.capacity + s.candidateTargets.capacity + s.events.capacity + s.results.capacity) * 4;
  bytes += <f64>offsetof<KNearest>() + <f64>s.picker.capacity * 12;
  return bytes;
}
