// Area of interest by cross-linked sorted lists, over flat linear memory.
// The same algorithm as src/reference/scene.ts (read that file for the idea).
//
// Every entity slot s owns three nodes per axis: 3s lower boundary of its
// view box, 3s + 1 the entity, 3s + 2 upper boundary. Slot 0 is reserved:
// node 0 is the head (-inf), node 2 the tail (+inf). Lists sort by (key,
// kind), kind = node % 3, so at equal coordinates lower < entity < upper and
// an entity exactly on a box edge is inside. A move walks the mover's nodes;
// each node crossed names a candidate pair, judged once on old and new
// positions over all axes. The set of watchers of each entity is kept, so a
// step's 'move' events come straight from it. What differs from the
// reference is where the bytes live: list nodes sit in compact records kept
// in list order (see AxisList), so walks read memory forwards.

const KIND_LOWER: i32 = 0;
const KIND_ENTITY: i32 = 1;
const KIND_UPPER: i32 = 2;
const HEAD: i32 = 0;
const TAIL: i32 = 2;

const EVENT_ENTER: i32 = 0;
const EVENT_LEAVE: i32 = 1;
const EVENT_MOVE: i32 = 2;

const FREE: i32 = 0;
const WATCHER: i32 = 1;
const MARKER: i32 = 2;


// ---- growable i32 lists (candidates, events, watcher sets) --------------

@inline function growBytes(ptr: usize, bytes: usize): usize {
  return ptr == 0 ? heap.alloc(bytes) : heap.realloc(ptr, bytes);
}

/** A growable list of i32 in linear memory. */
@unmanaged
class IntList {
  data: usize = 0;
  length: i32 = 0;
  capacity: i32 = 0;

  @inline get(i: i32): i32 {
    return load<i32>(this.data + (<usize>i << 2));
  }

  @inline set(i: i32, value: i32): void {
    store<i32>(this.data + (<usize>i << 2), value);
  }

  push(value: i32): void {
    if (this.length == this.capacity) this.reserve(this.length + 1);
    store<i32>(this.data + (<usize>this.length << 2), value);
    this.length++;
  }

  reserve(count: i32): void {
    if (count <= this.capacity) return;
    let capacity = max(this.capacity << 1, 4);
    while (capacity < count) capacity <<= 1;
    this.data = growBytes(this.data, <usize>capacity << 2);
    this.capacity = capacity;
  }

  /** Appends the pair (a, b). */
  pushPair(a: i32, b: i32): void {
    if (this.length + 2 > this.capacity) this.reserve(this.length + 2);
    const at = this.data + (<usize>this.length << 2);
    store<i32>(at, a);
    store<i32>(at, b, 4);
    this.length += 2;
  }

  /** Removes the pair whose first half is a, moving the last pair into its place. */
  removePair(a: i32): void {
    const last = this.length - 2;
    const data = this.data;
    for (let k = 0; k <= last; k += 2) {
      if (load<i32>(data + (<usize>k << 2)) == a) {
        store<u64>(data + (<usize>k << 2), load<u64>(data + (<usize>last << 2)));
        this.length = last;
        return;
      }
    }
  }

  release(): void {
    if (this.data != 0) heap.free(this.data);
    this.data = 0;
    this.length = 0;
    this.capacity = 0;
  }
}

// ---- one axis: sorted doubly linked list plus its coarse index ----------

// A node (3 * slot + kind) lives in a 16-byte record of its axis: its key
// as the nearest f32, the byte offset of prev | kind (i32), the byte offset of
// next (i32), and the owner's coordinate on the axis's filter axis (the next
// one) as the nearest f32. The exact key (f64) sits apart in keys[record]: a
// walk compares the f32 keys, which order as the exact ones do wherever they
// differ (rounding to nearest is monotonic), and reads the exact key only on
// a tie. A walk drops most crossed nodes (far away on the filter axis) from
// the coordinate alone: an entity's is its point, a box edge's the centre of
// a box no wider than the filter axis's largest range; the test is widened
// by the f32 rounding, so it never drops a real candidate. The owning slot
// sits apart in owners[record]. 16 bytes keep a walk to a quarter of a cache
// line per node crossed: walks through a large scene stream from memory.
// Records are renumbered in list order now and then (compact), so a walk
// reads memory in order instead of jumping: most of the speed of a walk.
// handles[node] is the node's record, 0 when it has none. Record 0 is the
// head, 1 the tail. Links are byte offsets (record * 16, so the low two bits
// are free for the kind): a walk steps to the next record with one add.
const RECORD_BYTES: usize = 16;
/** Relative widening of a filter test: twice the f32 rounding error. */
const F32_SLACK: f64 = 1.0 / 8388608.0;
/** Above this magnitude f32 coordinates saturate: the filter lets everything through. */
const F32_SAFE: f64 = 1e37;
const F32_MAX: f64 = 3.4028234663852886e38;
const HEAD_RECORD: i32 = 0;
const TAIL_RECORD: i32 = 1;
/** The coarse index keeps one entity in this many. */
const SNAP_STRIDE: i32 = 4;
/** Index entries a hint looks at, and how far (in mean gaps between entries) their entity may have moved since. */
const HINT_TRIES: i32 = 16;
const HINT_DRIFT: f64 = 64;

@unmanaged
class AxisList {
  records: usize = 0;
  keys: usize = 0;
  owners: usize = 0;
  recordCount: i32 = 0;
  recordCapacity: i32 = 0;
  handles: usize = 0;
  handleCapacity: i32 = 0;
  /** Records relinked or appended since the last renumbering. */
  churn: i32 = 0;
  snapKeys: usize = 0;
  snapSlots: usize = 0;
  snapLength: i32 = 0;
  snapCapacity: i32 = 0;
  stale: i32 = 0;
  maxRange: f64 = 0;

  @inline key(r: i32): f64 {
    return load<f64>(this.keys + (<usize>r << 3));
  }
  @inline setKey(r: i32, key: f64): void {
    store<f64>(this.keys + (<usize>r << 3), key);
    store<f32>(this.records + <usize>r * RECORD_BYTES, <f32>key);
  }
  @inline prev(r: i32): i32 {
    return <i32>(<u32>(load<i32>(this.records + <usize>r * RECORD_BYTES, 4) & ~3) / <u32>RECORD_BYTES);
  }
  @inline next(r: i32): i32 {
    return <i32>(<u32>load<i32>(this.records + <usize>r * RECORD_BYTES, 8) / <u32>RECORD_BYTES);
  }
  @inline owner(r: i32): i32 {
    return this.slotOf(r) * 3 + this.kindOf(r);
  }
  @inline slotOf(r: i32): i32 {
    return load<i32>(this.owners + (<usize>r << 2));
  }
  @inline kindOf(r: i32): i32 {
    return load<i32>(this.records + <usize>r * RECORD_BYTES, 4) & 3;
  }
  @inline setPrev(r: i32, p: i32): void {
    const at = this.records + <usize>r * RECORD_BYTES;
    store<i32>(at, (p * <i32>RECORD_BYTES) | (load<i32>(at, 4) & 3), 4);
  }
  @inline setNext(r: i32, q: i32): void {
    store<i32>(this.records + <usize>r * RECORD_BYTES, q * <i32>RECORD_BYTES, 8);
  }
  @inline setOwner(r: i32, node: i32): void {
    store<i32>(this.owners + (<usize>r << 2), node / 3);
    store<i32>(this.records + <usize>r * RECORD_BYTES, node % 3, 4);
  }
  /** The owner's coordinate on the filter axis, as f32. */
  @inline centre(r: i32): f64 {
    return <f64>load<f32>(this.records + <usize>r * RECORD_BYTES, 12);
  }
  @inline setCentre(r: i32, c: f64): void {
    store<f32>(this.records + <usize>r * RECORD_BYTES, <f32>min(max(c, -F32_MAX), F32_MAX), 12);
  }
  @inline handle(node: i32): i32 {
    return load<i32>(this.handles + (<usize>node << 2));
  }

  reset(): void {
    memory.fill(this.handles, 0, <usize>this.handleCapacity << 2);
    this.recordCount = 2;
    this.setKey(HEAD_RECORD, -Infinity);
    this.setOwner(HEAD_RECORD, HEAD);
    this.setKey(TAIL_RECORD, Infinity);
    this.setOwner(TAIL_RECORD, TAIL);
    this.setNext(HEAD_RECORD, TAIL_RECORD);
    this.setPrev(TAIL_RECORD, HEAD_RECORD);
    this.setPrev(HEAD_RECORD, HEAD_RECORD);
    this.setNext(TAIL_RECORD, TAIL_RECORD);
    this.snapLength = 0;
    this.stale = 0;
    this.maxRange = 0;
    this.churn = 0;
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
      this.records = growBytes(this.records, <usize>capacity * RECORD_BYTES);
      this.keys = growBytes(this.keys, <usize>capacity << 3);
      this.owners = growBytes(this.owners, <usize>capacity << 2);
      this.recordCapacity = capacity;
    }
    r = this.recordCount++;
    this.setOwner(r, node);
    store<i32>(this.handles + (<usize>node << 2), r);
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

  /** The record of a linked entity near key, from the snapshot, or the head (slots: the scene's slot records). */
  hint(key: f64, slots: usize, exclude: i32): i32 {
    let lo = 0;
    let hi = this.snapLength - 1;
    let found = -1;
    const keys = this.snapKeys;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (load<f64>(keys + (<usize>mid << 3)) <= key) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    // A removed entity (or the one being placed) is not in the list, and one
    // that jumped since the snapshot is far from its entry: prefer the
    // nearest entry whose entity is linked and still near it.
    const spread = this.snapLength < 2 ? Infinity : (load<f64>(keys + (<usize>(this.snapLength - 1) << 3)) - load<f64>(keys)) / <f64>this.snapLength * HINT_DRIFT;
    let fallback = HEAD_RECORD;
    for (let i = found; i >= 0 && i > found - HINT_TRIES; i--) {
      const slot = load<i32>(this.snapSlots + (<usize>i << 2));
      if (load<i32>(slots + (<usize>slot << SLOT_SHIFT), SLOT_STATE) == FREE || slot == exclude) continue;
      const r = this.handle(3 * slot + KIND_ENTITY);
      if (Math.abs(this.key(r) - load<f64>(keys + (<usize>i << 3))) <= spread) return r;
      if (fallback == HEAD_RECORD) fallback = r;
    }
    return fallback;
  }

  /** Links node at key, starting from the coarse index. */
  place(node: i32, key: f64, slots: usize): void {
    const r = this.recordOf(node);
    this.setKey(r, key);
    this.insertFrom(r, this.hint(key, slots, node / 3));
    this.stale++;
  }

  @inline unlinkNode(node: i32): void {
    this.unlink(this.handle(node));
  }

  /**
   * Re-takes the snapshot (every SNAP_STRIDE-th entity in list order) once
   * the nodes inserted since the last one outnumber the entities, or when forced.
   */
  refreshIndex(force: bool): void {
    if (!force && this.stale <= this.snapLength * SNAP_STRIDE + 48) return;
    let entities = 0;
    for (let r = this.next(HEAD_RECORD); r != TAIL_RECORD; r = this.next(r)) if (this.kindOf(r) == KIND_ENTITY) entities++;
    const count = (entities + SNAP_STRIDE - 1) / SNAP_STRIDE;
    if (this.snapCapacity < count) {
      const capacity = count + (count >> 2) + 16;
      this.snapKeys = growBytes(this.snapKeys, <usize>capacity << 3);
      this.snapSlots = growBytes(this.snapSlots, <usize>capacity << 2);
      this.snapCapacity = capacity;
    }
    let i = 0;
    let seen = 0;
    for (let r = this.next(HEAD_RECORD); r != TAIL_RECORD; r = this.next(r)) {
      if (this.kindOf(r) != KIND_ENTITY) continue;
      if (seen++ % SNAP_STRIDE != 0) continue;
      store<f64>(this.snapKeys + (<usize>i << 3), this.key(r));
      store<i32>(this.snapSlots + (<usize>i << 2), this.slotOf(r));
      i++;
    }
    this.snapLength = count;
    this.stale = 0;
  }

  /** Renumbers the records in list order once the churn since the last time exceeds an eighth of them (measured: walks then stay on memory read forwards). */
  compactIfChurned(): void {
    if (this.churn <= (this.recordCount >> 3) + 64) return;
    let live = 2;
    for (let r = this.next(HEAD_RECORD); r != TAIL_RECORD; r = this.next(r)) live++;
    const capacity = live + (live >> 3) + 64;
    const fresh = heap.alloc(<usize>capacity * RECORD_BYTES);
    const freshKeys = heap.alloc(<usize>capacity << 3);
    const freshOwners = heap.alloc(<usize>capacity << 2);
    memory.fill(this.handles, 0, <usize>this.handleCapacity << 2);
    memory.copy(fresh, this.records, 2 * RECORD_BYTES); // head and tail
    memory.copy(freshKeys, this.keys, 16);
    memory.copy(freshOwners, this.owners, 8);
    let last = HEAD_RECORD;
    let i = 2;
    for (let r = this.next(HEAD_RECORD); r != TAIL_RECORD; r = this.next(r)) {
      const from = this.records + <usize>r * RECORD_BYTES;
      const at = fresh + <usize>i * RECORD_BYTES;
      const slot = this.slotOf(r);
      const kind = this.kindOf(r);
      store<f32>(at, load<f32>(from));
      store<i32>(at, (last * <i32>RECORD_BYTES) | kind, 4);
      store<f32>(at, load<f32>(from, 12), 12);
      store<f64>(freshKeys + (<usize>i << 3), this.key(r));
      store<i32>(fresh + <usize>last * RECORD_BYTES, i * <i32>RECORD_BYTES, 8);
      store<i32>(freshOwners + (<usize>i << 2), slot);
      store<i32>(this.handles + (<usize>(slot * 3 + kind) << 2), i);
      last = i++;
    }
    store<i32>(fresh + <usize>last * RECORD_BYTES, TAIL_RECORD * <i32>RECORD_BYTES, 8);
    store<i32>(fresh + RECORD_BYTES, (last * <i32>RECORD_BYTES) | KIND_UPPER, 4);
    heap.free(this.records);
    heap.free(this.keys);
    heap.free(this.owners);
    this.records = fresh;
    this.keys = freshKeys;
    this.owners = freshOwners;
    this.recordCapacity = capacity;
    this.recordCount = i;
    this.churn = 0;
  }

  /** The last record with key < key (or the head). */
  seek(key: f64, slots: usize): i32 {
    let p = this.hint(key, slots, 0);
    while (this.key(p) >= key) p = this.prev(p);
    while (this.key(this.next(p)) < key) p = this.next(p);
    return p;
  }

  release(): void {
    if (this.records != 0) heap.free(this.records);
    if (this.keys != 0) heap.free(this.keys);
    if (this.owners != 0) heap.free(this.owners);
    if (this.handles != 0) heap.free(this.handles);
    if (this.snapKeys != 0) heap.free(this.snapKeys);
    if (this.snapSlots != 0) heap.free(this.snapSlots);
    heap.free(changetype<usize>(this));
  }
}

// ---- the scene ------------------------------------------------------------

// Everything a pair judgment or an event reads about one slot shares one
// 64-byte, 64-byte-aligned record, so judging a candidate costs one cache
// line: state, id, the two candidate stamps, position and range (3 f64 each).
const SLOT_SHIFT: usize = 6;
const SLOT_STATE: usize = 0;
const SLOT_ID: usize = 4;
const SLOT_MARK_WATCHER: usize = 8;
const SLOT_MARK_TARGET: usize = 12;
const SLOT_POS: usize = 16;
const SLOT_RANGE: usize = 40;

@unmanaged
class AoiScene {
  dims: i32 = 2;
  capacity: i32 = 0;
  /** SLOT_BYTES per slot, 64-byte aligned (see SLOT_BYTES); slotsRaw is the allocation. */
  slots: usize = 0;
  slotsRaw: usize = 0;
  sets: usize = 0; // an IntList (12 bytes) per slot: who sees the slot
  stamp: i32 = 0;
  alive: i32 = 0;
  axis0: AxisList = changetype<AxisList>(0);
  axis1: AxisList = changetype<AxisList>(0);
  axis2: AxisList = changetype<AxisList>(0);
  candidateWatchers: IntList = changetype<IntList>(0);
  candidateTargets: IntList = changetype<IntList>(0);
  events: IntList = changetype<IntList>(0);
  results: IntList = changetype<IntList>(0);
  ox: f64 = 0;
  oy: f64 = 0;
  oz: f64 = 0;
  orx: f64 = 0;
  ory: f64 = 0;
  orz: f64 = 0;
  nx: f64 = 0;
  ny: f64 = 0;
  nz: f64 = 0;
  /** Sink of touch(): keeps its loads from being optimised away. */
  touched: i32 = 0;

  @inline axis(a: i32): AxisList {
    return a == 0 ? this.axis0 : a == 1 ? this.axis1 : this.axis2;
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
  /** Who sees slot s: pairs (watcher slot, watcher id), the id kept so 'move' events need no lookup. */
  @inline watcherSet(s: i32): IntList {
    return changetype<IntList>(this.sets + <usize>s * offsetof<IntList>());
  }

  ensureSlot(slot: i32): void {
    if (slot < this.capacity) return;
    let capacity = max(this.capacity, 16);
    while (capacity <= slot) capacity <<= 1;
    const old = <usize>this.capacity;
    const cap = <usize>capacity;
    const raw = heap.alloc((cap << SLOT_SHIFT) + 64);
    const slots = (raw + 63) & ~(<usize>63);
    memory.fill(slots, 0, cap << SLOT_SHIFT);
    if (this.slotsRaw != 0) {
      memory.copy(slots, this.slots, old << SLOT_SHIFT);
      heap.free(this.slotsRaw);
    }
    this.slotsRaw = raw;
    this.slots = slots;
    this.sets = growZeroed(this.sets, old * offsetof<IntList>(), cap * offsetof<IntList>());
    for (let a = 0; a < this.dims; a++) this.axis(a).growHandles(capacity * 3);
    this.capacity = capacity;
  }

  @inline emit(type: i32, watcher: i32, target: i32): void {
    const events = this.events;
    events.reserve(events.length + 3);
    const at = events.data + (<usize>events.length << 2);
    store<i32>(at, type);
    store<i32>(at, this.idOf(watcher), 4);
    store<i32>(at, this.idOf(target), 8);
    events.length += 3;
  }

  /** A box centred at (wx, wy, wz) with half-extents r holds the point of slot t. */
  @inline inBox(wx: f64, wy: f64, wz: f64, rx: f64, ry: f64, rz: f64, t: i32): bool {
    const tx = this.posOf(t, 0);
    if (!(wx - rx <= tx && tx <= wx + rx)) return false;
    const ty = this.posOf(t, 1);
    if (!(wy - ry <= ty && ty <= wy + ry)) return false;
    if (this.dims == 2) return true;
    const tz = this.posOf(t, 2);
    return wz - rz <= tz && tz <= wz + rz;
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
    if (this.dims == 2) return true;
    p = this.posOf(w, 2);
    r = this.rangeOf(w, 2);
    return p - r <= z && z <= p + r;
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
      const p = this.posOf(s, a);
      axis.place(3 * s + KIND_ENTITY, p, this.slots);
      if (watcher) this.linkBoundaries(axis, s, p, this.rangeOf(s, a));
      axis.refreshIndex(false);
    }
    this.stampExtents(s);
  }

  linkBoundaries(axis: AxisList, s: i32, p: f64, r: f64): void {
    axis.place(3 * s + KIND_LOWER, p - r, this.slots);
    axis.place(3 * s + KIND_UPPER, p + r, this.slots);
    if (r > axis.maxRange) axis.maxRange = r;
  }

  unlinkNodes(s: i32): void {
    const watcher = this.stateOf(s) == WATCHER;
    for (let a = 0; a < this.dims; a++) {
      const axis = this.axis(a);
      axis.unlinkNode(3 * s + KIND_ENTITY);
      if (watcher) {
        axis.unlinkNode(3 * s + KIND_LOWER);
        axis.unlinkNode(3 * s + KIND_UPPER);
      }
    }
  }

  /** Entities between s's own boundaries on the x list become target candidates. */
  collectSpan(s: i32): void {
    if (this.stateOf(s) != WATCHER) return;
    const axis = this.axis0;
    const end = axis.handle(3 * s + KIND_UPPER);
    // An entity off s's box on y (the x list's filter axis) cannot be seen.
    const y = this.posOf(s, 1);
    const half = filterHalf(y, this.rangeOf(s, 1));
    const low = y - half;
    const high = y + half;
    for (let r = axis.next(axis.handle(3 * s + KIND_LOWER)); r != end; r = axis.next(r)) {
      if (axis.kindOf(r) != KIND_ENTITY) continue;
      const c = axis.centre(r);
      if (!(low <= c && c <= high)) continue;
      const t = axis.slotOf(r);
      if (t != s) this.addCandidateTarget(t);
    }
  }

  /** Watchers whose lower x boundary lies within twice the largest range before s become candidates. */
  collectBoxesAround(s: i32): void {
    const axis = this.axis0;
    const x = this.posOf(s, 0);
    const y = this.posOf(s, 1);
    const reach = 2 * axis.maxRange;
    const limit = x - reach - 1e-9 * (Math.abs(x) + reach);
    // A box off s on y cannot hold s: its centre is further than the largest y range.
    const half = filterHalf(y, this.axis1.maxRange);
    for (let r = axis.prev(axis.handle(3 * s + KIND_ENTITY)); r != HEAD_RECORD && axis.key(r) >= limit; r = axis.prev(r)) {
      if (axis.kindOf(r) != KIND_LOWER) continue;
      const c = axis.centre(r);
      if (!(y - half <= c && c <= y + half)) continue;
      const w = axis.slotOf(r);
      if (w != s) this.addCandidateWatcher(w);
    }
  }

  settle(s: i32, moved: bool, wasWatcher: bool): void {
    const ox = this.ox, oy = this.oy, oz = this.oz;
    const nx = this.posOf(s, 0), ny = this.posOf(s, 1), nz = this.posOf(s, 2);
    const watchers = this.watcherSet(s);
    const candidates = this.candidateWatchers;
    let entering = 0;
    for (let k = 0, n = candidates.length; k < n; k++) {
      const w = candidates.get(k);
      const was = this.sees(w, ox, oy, oz);
      const is = this.sees(w, nx, ny, nz);
      if (was && !is) {
        this.emit(EVENT_LEAVE, w, s);
        watchers.removePair(w);
      } else if (is && !was) {
        this.emit(EVENT_ENTER, w, s);
        candidates.set(entering++, w);
      }
    }
    if (moved) {
      const count = watchers.length >> 1;
      const events = this.events;
      events.reserve(events.length + 3 * count);
      const id = this.idOf(s);
      let at = events.data + (<usize>events.length << 2);
      let from = watchers.data;
      for (let k = 0; k < count; k++) {
        store<i32>(at, EVENT_MOVE);
        store<i32>(at, load<i32>(from, 4), 4);
        store<i32>(at, id, 8);
        at += 12;
        from += 8;
      }
      events.length += 3 * count;
    }
    for (let k = 0; k < entering; k++) {
      const w = candidates.get(k);
      watchers.pushPair(w, this.idOf(w));
    }
    const watcherNow = this.stateOf(s) == WATCHER;
    const orx = this.orx, ory = this.ory, orz = this.orz;
    const rx = this.rangeOf(s, 0), ry = this.rangeOf(s, 1), rz = this.rangeOf(s, 2);
    const targets = this.candidateTargets;
    for (let k = 0, n = targets.length; k < n; k++) {
      const t = targets.get(k);
      const was = wasWatcher && this.inBox(ox, oy, oz, orx, ory, orz, t);
      const is = watcherNow && this.inBox(nx, ny, nz, rx, ry, rz, t);
      if (was && !is) {
        this.emit(EVENT_LEAVE, s, t);
        this.watcherSet(t).removePair(s);
      } else if (is && !was) {
        this.emit(EVENT_ENTER, s, t);
        this.watcherSet(t).pushPair(s, this.idOf(s));
      }
    }
  }

  rememberOld(s: i32): void {
    this.ox = this.posOf(s, 0);
    this.oy = this.posOf(s, 1);
    this.oz = this.posOf(s, 2);
    this.orx = this.rangeOf(s, 0);
    this.ory = this.rangeOf(s, 1);
    this.orz = this.rangeOf(s, 2);
  }

  add(slot: i32, id: i32, x: f64, y: f64, z: f64, rx: f64, ry: f64, rz: f64, watcher: bool): void {
    this.ensureSlot(slot);
    this.setState(slot, watcher ? WATCHER : MARKER);
    this.alive++;
    store<i32>(this.slotAt(slot), id, SLOT_ID);
    this.setPos(slot, 0, x);
    this.setPos(slot, 1, y);
    this.setPos(slot, 2, this.dims == 3 ? z : 0);
    this.setRangeOf(slot, 0, watcher ? rx : 0);
    this.setRangeOf(slot, 1, watcher ? ry : 0);
    this.setRangeOf(slot, 2, watcher && this.dims == 3 ? rz : 0);
    this.watcherSet(slot).length = 0;
    this.linkNodes(slot);
    this.newStep();
    this.collectSpan(slot);
    this.collectBoxesAround(slot);
    this.ox = NaN;
    this.oy = NaN;
    this.oz = NaN;
    this.settle(slot, false, false);
    this.tidy();
  }

  move(slot: i32, x: f64, y: f64, z: f64): void {
    if (this.dims == 2) z = 0;
    if (this.posOf(slot, 0) == x && this.posOf(slot, 1) == y && this.posOf(slot, 2) == z) return;
    this.rememberOld(slot);
    this.newStep();
    const watcher = this.stateOf(slot) == WATCHER;
    if (this.isTeleport(slot, x, y, z)) {
      this.collectSpan(slot);
      const set = this.watcherSet(slot);
      for (let k = 0, n = set.length; k < n; k += 2) this.addCandidateWatcher(set.get(k));
      this.unlinkNodes(slot);
      this.setPos(slot, 0, x);
      this.setPos(slot, 1, y);
      this.setPos(slot, 2, z);
      this.linkNodes(slot);
      this.collectSpan(slot);
      this.collectBoxesAround(slot);
    } else {
      this.nx = x;
      this.ny = y;
      this.nz = z;
      for (let a = 0; a < this.dims; a++) {
        const axis = this.axis(a);
        const to = a == 0 ? x : a == 1 ? y : z;
        const r = this.rangeOf(slot, a);
        const base = 3 * slot;
        const forward = to > this.posOf(slot, a);
        if (watcher) {
          if (forward) this.walk(axis, a, base + KIND_UPPER, to + r, slot);
          else this.walk(axis, a, base + KIND_LOWER, to - r, slot);
        }
        this.walk(axis, a, base + KIND_ENTITY, to, slot);
        if (watcher) {
          if (forward) this.walk(axis, a, base + KIND_LOWER, to - r, slot);
          else this.walk(axis, a, base + KIND_UPPER, to + r, slot);
        }
      }
      this.setPos(slot, 0, x);
      this.setPos(slot, 1, y);
      this.setPos(slot, 2, z);
      this.stampExtents(slot);
    }
    this.settle(slot, true, watcher);
    this.tidy();
  }

  /**
   * Reads the memory a move of slot will start from (its slot record, its
   * list records and its watchers), so that a batch can fetch it while the move before runs:
   * those first reads are cache misses, and this way they overlap.
   */
  touch(slot: i32): void {
    let sum = load<i32>(this.slotAt(slot));
    for (let a = 0; a < this.dims; a++) {
      const axis = this.axis(a);
      const handles = axis.handles + (<usize>(3 * slot) << 2);
      const records = axis.records;
      sum += load<i32>(records + <usize>load<i32>(handles) * RECORD_BYTES, 4);
      sum += load<i32>(records + <usize>load<i32>(handles, 4) * RECORD_BYTES, 4);
      sum += load<i32>(records + <usize>load<i32>(handles, 8) * RECORD_BYTES, 4);
    }
    sum += load<i32>(this.watcherSet(slot).data);
    this.touched += sum;
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
   * Moves node to key on axis a, relinking it once at its new place. Every
   * record passed is a crossing: for the mover's entity node, a box edge of
   * another watcher; for one of its own box edges, another entity. A
   * crossing names a candidate pair unless, on the filter axis, the box held
   * the point neither before nor after (then it was out and stays out). The
   * loop reads only the records it passes.
   */
  walk(axis: AxisList, a: i32, node: i32, key: f64, slot: i32): void {
    const n = axis.handle(node);
    axis.setKey(n, key);
    const kind = node % 3;
    // The mover's entity node crosses box edges, its box edges cross entities.
    const wanted = kind == KIND_ENTITY ? 0 : 1;
    const f = filterAxis(a, this.dims);
    const before = this.oldAt(f);
    const after = this.newAt(f);
    // A crossing names a pair when, on f, the other record's coordinate lies
    // within the mover's range of the mover (an entity crossed: is it in the
    // mover's box?) or within the largest range on f (a box edge crossed: can
    // its box hold the mover?), before or after the move.
    const range = kind == KIND_ENTITY ? this.axis(f).maxRange : this.rangeOf(slot, f);
    const half1 = filterHalf(before, range), half2 = filterHalf(after, range);
    const lo1 = before - half1, hi1 = before + half1, lo2 = after - half2, hi2 = after + half2;
    const base = axis.records;
    const keys = axis.keys;
    const key32 = <f32>key;
    const own = base + <usize>n * RECORD_BYTES;
    let q = base + <usize>load<u32>(own, 8);
    if (precedes(q, base, keys, key, key32, kind)) {
      do {
        if (crossing(q, wanted, lo1, hi1, lo2, hi2)) this.nominate(axis, recordAt(base, q), wanted, slot);
        q = base + <usize>load<u32>(q, 8);
      } while (precedes(q, base, keys, key, key32, kind));
      axis.unlink(n);
      axis.linkAfter(n, axis.prev(recordAt(base, q)));
      axis.churn++;
      return;
    }
    let p = base + <usize>(load<u32>(own, 4) & ~3);
    if (follows(p, base, keys, key, key32, kind)) {
      do {
        if (crossing(p, wanted, lo1, hi1, lo2, hi2)) this.nominate(axis, recordAt(base, p), wanted, slot);
        p = base + <usize>(load<u32>(p, 4) & ~3);
      } while (follows(p, base, keys, key, key32, kind));
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

  /** Renumbers each axis's records when they have churned enough; never during a walk. */
  tidy(): void {
    for (let a = 0; a < this.dims; a++) this.axis(a).compactIfChurned();
  }

  /** Writes slot's coordinate on each axis's filter axis into its records there. */
  stampExtents(s: i32): void {
    const watcher = this.stateOf(s) == WATCHER;
    for (let a = 0; a < this.dims; a++) {
      const axis = this.axis(a);
      const p = this.posOf(s, filterAxis(a, this.dims));
      axis.setCentre(axis.handle(3 * s + KIND_ENTITY), p);
      if (watcher) {
        axis.setCentre(axis.handle(3 * s + KIND_LOWER), p);
        axis.setCentre(axis.handle(3 * s + KIND_UPPER), p);
      }
    }
  }

  @inline oldAt(b: i32): f64 {
    return b == 0 ? this.ox : b == 1 ? this.oy : this.oz;
  }

  @inline newAt(b: i32): f64 {
    return b == 0 ? this.nx : b == 1 ? this.ny : this.nz;
  }

  remove(slot: i32): void {
    this.newStep();
    this.collectSpan(slot);
    this.rememberOld(slot);
    const wasWatcher = this.stateOf(slot) == WATCHER;
    const targets = this.candidateTargets;
    for (let k = 0, n = targets.length; k < n; k++) {
      const t = targets.get(k);
      if (wasWatcher && this.inBox(this.ox, this.oy, this.oz, this.orx, this.ory, this.orz, t)) {
        this.emit(EVENT_LEAVE, slot, t);
        this.watcherSet(t).removePair(slot);
      }
    }
    const set = this.watcherSet(slot);
    for (let k = 0, n = set.length; k < n; k += 2) this.emit(EVENT_LEAVE, set.get(k), slot);
    set.length = 0;
    this.unlinkNodes(slot);
    this.setState(slot, FREE);
    this.alive--;
    this.tidy();
  }

  setRange(slot: i32, rx: f64, ry: f64, rz: f64, watcher: bool): void {
    this.newStep();
    this.rememberOld(slot);
    const wasWatcher = this.stateOf(slot) == WATCHER;
    this.collectSpan(slot);
    if (wasWatcher) {
      for (let a = 0; a < this.dims; a++) {
        const axis = this.axis(a);
        axis.unlinkNode(3 * slot + KIND_LOWER);
        axis.unlinkNode(3 * slot + KIND_UPPER);
      }
    }
    this.setState(slot, watcher ? WATCHER : MARKER);
    this.setRangeOf(slot, 0, watcher ? rx : 0);
    this.setRangeOf(slot, 1, watcher ? ry : 0);
    this.setRangeOf(slot, 2, watcher && this.dims == 3 ? rz : 0);
    if (watcher) {
      for (let a = 0; a < this.dims; a++) {
        this.linkBoundaries(this.axis(a), slot, this.posOf(slot, a), this.rangeOf(slot, a));
      }
      this.stampExtents(slot);
    }
    this.collectSpan(slot);
    this.settle(slot, false, wasWatcher);
    this.tidy();
  }

  /** A large batch is loaded in bulk: sorted links per axis, enter events from a throwaway grid. */
  addMany(slots: usize, ids: usize, xs: usize, ys: usize, zs: usize, ranges: usize, n: i32): void {
    if (n < BULK_MIN || n * 4 < this.alive) {
      for (let k = 0; k < n; k++) {
        const z = zs == 0 ? 0.0 : load<f64>(zs + (<usize>k << 3));
        const r = load<f64>(ranges + (<usize>k << 3));
        this.add(load<i32>(slots + (<usize>k << 2)), load<i32>(ids + (<usize>k << 2)), load<f64>(xs + (<usize>k << 3)), load<f64>(ys + (<usize>k << 3)), z, r, r, r, true);
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
      this.setRangeOf(s, 0, r);
      this.setRangeOf(s, 1, r);
      this.setRangeOf(s, 2, this.dims == 3 ? r : 0);
      this.watcherSet(s).length = 0;
      store<i32>(this.slotAt(s), this.stamp, SLOT_MARK_TARGET);
    }
    const nodes = heap.alloc(<usize>n * 12);
    for (let a = 0; a < this.dims; a++) {
      const axis = this.axis(a);
      for (let k = 0; k < n; k++) {
        const s = load<i32>(slots + (<usize>k << 2));
        const p = this.posOf(s, a);
        const r = this.rangeOf(s, a);
        const lower = axis.recordOf(3 * s + KIND_LOWER);
        const entity = axis.recordOf(3 * s + KIND_ENTITY);
        const upper = axis.recordOf(3 * s + KIND_UPPER);
        axis.setKey(lower, p - r);
        axis.setKey(entity, p);
        axis.setKey(upper, p + r);
        store<i32>(nodes + <usize>k * 12, lower);
        store<i32>(nodes + <usize>k * 12, entity, 4);
        store<i32>(nodes + <usize>k * 12, upper, 8);
        if (r > axis.maxRange) axis.maxRange = r;
      }
      sortNodes(axis, nodes, 0, 3 * n - 1);
      let at = axis.hint(axis.key(load<i32>(nodes)), this.slots, -1);
      for (let k = 0; k < 3 * n; k++) {
        const node = load<i32>(nodes + (<usize>k << 2));
        axis.insertFrom(node, at);
        at = node;
      }
    }
    heap.free(nodes);
    for (let k = 0; k < n; k++) {
      const s = load<i32>(slots + (<usize>k << 2));
      this.setState(s, WATCHER);
      this.stampExtents(s);
    }
    this.alive += n;
    for (let a = 0; a < this.dims; a++) this.axis(a).refreshIndex(true);
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
          if (gx < 0 || gy < 0 || gx >= grid.columns || gy >= grid.rows) continue;
          const c = gx + gy * grid.columns;
          const end = load<i32>(grid.starts + (<usize>(c + 1) << 2));
          for (let i = load<i32>(grid.starts + (<usize>c << 2)); i < end; i++) {
            const t = load<i32>(grid.items + (<usize>i << 2));
            if (t == s) continue;
            if (this.inBox(x, y, z, rx, ry, rz, t)) {
              this.emit(EVENT_ENTER, s, t);
              this.watcherSet(t).pushPair(s, this.idOf(s));
            }
            // A pair inside the batch is found again from its other member.
            if (load<i32>(this.slotAt(t), SLOT_MARK_TARGET) != this.stamp && this.sees(t, x, y, z)) {
              this.emit(EVENT_ENTER, t, s);
              this.watcherSet(s).pushPair(t, this.idOf(t));
            }
          }
        }
      }
    }
    grid.release();
  }

  query(slot: i32): i32 {
    this.newStep();
    this.collectSpan(slot);
    const results = this.results;
    results.length = 0;
    const x = this.posOf(slot, 0), y = this.posOf(slot, 1), z = this.posOf(slot, 2);
    const rx = this.rangeOf(slot, 0), ry = this.rangeOf(slot, 1), rz = this.rangeOf(slot, 2);
    const targets = this.candidateTargets;
    for (let k = 0, n = targets.length; k < n; k++) {
      const t = targets.get(k);
      if (this.inBox(x, y, z, rx, ry, rz, t)) results.push(this.idOf(t));
    }
    return results.length;
  }

  watchers(slot: i32): i32 {
    const results = this.results;
    results.length = 0;
    const set = this.watcherSet(slot);
    for (let k = 1, n = set.length; k < n; k += 2) results.push(set.get(k));
    return results.length;
  }

  queryBox(minX: f64, minY: f64, minZ: f64, maxX: f64, maxY: f64, maxZ: f64): i32 {
    const axis = this.axis0;
    const results = this.results;
    results.length = 0;
    for (let r = axis.next(axis.seek(minX, this.slots)); r != TAIL_RECORD && axis.key(r) <= maxX; r = axis.next(r)) {
      const n = axis.owner(r);
      if (n % 3 != KIND_ENTITY) continue;
      const s = n / 3;
      const y = this.posOf(s, 1);
      if (!(minY <= y && y <= maxY)) continue;
      if (this.dims == 3) {
        const z = this.posOf(s, 2);
        if (!(minZ <= z && z <= maxZ)) continue;
      }
      results.push(this.idOf(s));
    }
    return results.length;
  }

  clear(): void {
    memory.fill(this.slots, 0, <usize>this.capacity << SLOT_SHIFT);
    for (let s = 0; s < this.capacity; s++) this.watcherSet(s).length = 0;
    for (let a = 0; a < this.dims; a++) this.axis(a).reset();
    this.events.length = 0;
    this.alive = 0;
  }
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

/** The largest f32 <= x. */
@inline function floor32(x: f64): f32 {
  const v = <f32>x;
  if (<f64>v <= x) return v;
  if (v == 0) return reinterpret<f32>(<i32>0x80000001);
  const bits = reinterpret<i32>(v);
  return reinterpret<f32>(v > 0 ? bits - 1 : bits + 1);
}

/** The smallest f32 >= x. */
@inline function ceil32(x: f64): f32 {
  const v = <f32>x;
  if (<f64>v >= x) return v;
  if (v == 0) return reinterpret<f32>(<i32>1);
  const bits = reinterpret<i32>(v);
  return reinterpret<f32>(v > 0 ? bits + 1 : bits - 1);
}

/** The record at address at (records start at base). */
@inline function recordAt(base: usize, at: usize): i32 {
  return <i32>((at - base) / RECORD_BYTES);
}

/**
 * The record at address at sorts before a node with this key and kind. The
 * f32 keys decide unless they tie; then the exact key in keys[record] does.
 */
@inline function precedes(at: usize, base: usize, keys: usize, key: f64, key32: f32, kind: i32): bool {
  const k = load<f32>(at);
  if (k != key32) return k < key32;
  const exact = load<f64>(keys + ((at - base) >> 1));
  return exact < key || (exact == key && (load<i32>(at, 4) & 3) < kind);
}

/** The record at address at sorts after a node with this key and kind (see precedes). */
@inline function follows(at: usize, base: usize, keys: usize, key: f64, key32: f32, kind: i32): bool {
  const k = load<f32>(at);
  if (k != key32) return k > key32;
  const exact = load<f64>(keys + ((at - base) >> 1));
  return exact > key || (exact == key && (load<i32>(at, 4) & 3) > kind);
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
  const isEntity = <i32>((load<i32>(at, 4) & 3) == KIND_ENTITY);
  const c = <f64>load<f32>(at, 12);
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
 * A throwaway uniform grid over every entity's (x, y), cells at least as wide
 * as the largest range, so whoever sees a point sits in the 3 x 3 cells around it.
 */
@unmanaged
class BulkGrid {
  minX: f64 = 0;
  minY: f64 = 0;
  size: f64 = 1;
  columns: i32 = 0;
  rows: i32 = 0;
  starts: usize = 0;
  items: usize = 0;

  constructor(scene: AoiScene, maxRange: f64) {
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
    while (size < Infinity && (spanX / size + 1) * (spanY / size + 1) > <f64>(2 * count + 64)) size *= 2;
    this.minX = minX;
    this.minY = minY;
    this.size = size;
    this.columns = size < Infinity ? <i32>Math.floor(spanX / size) + 1 : 1;
    this.rows = size < Infinity ? <i32>Math.floor(spanY / size) + 1 : 1;
    const cells = this.columns * this.rows;
    this.starts = heap.alloc(<usize>(cells + 1) << 2);
    memory.fill(this.starts, 0, <usize>(cells + 1) << 2);
    this.items = heap.alloc(<usize>max(count, 1) << 2);
    const cellOf = heap.alloc(<usize>capacity << 2);
    for (let s = 1; s < capacity; s++) {
      if (scene.stateOf(s) == FREE) continue;
      const c = this.column(scene.posOf(s, 0)) + this.row(scene.posOf(s, 1)) * this.columns;
      store<i32>(cellOf + (<usize>s << 2), c);
      const at = this.starts + (<usize>(c + 1) << 2);
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

  release(): void {
    heap.free(this.starts);
    heap.free(this.items);
    heap.free(changetype<usize>(this));
  }
}

function growZeroed(ptr: usize, oldBytes: usize, newBytes: usize): usize {
  const grown = growBytes(ptr, newBytes);
  memory.fill(grown + oldBytes, 0, newBytes - oldBytes);
  return grown;
}

function newIntList(): IntList {
  const list = changetype<IntList>(heap.alloc(offsetof<IntList>()));
  list.data = 0;
  list.length = 0;
  list.capacity = 0;
  return list;
}

function freeIntList(list: IntList): void {
  list.release();
  heap.free(changetype<usize>(list));
}

function newAxis(): AxisList {
  const axis = changetype<AxisList>(heap.alloc(offsetof<AxisList>()));
  memory.fill(changetype<usize>(axis), 0, offsetof<AxisList>());
  axis.records = heap.alloc(64 * RECORD_BYTES);
  axis.keys = heap.alloc(64 << 3);
  axis.owners = heap.alloc(64 << 2);
  axis.recordCapacity = 64;
  axis.reset();
  return axis;
}

@inline function scene(ptr: i32): AoiScene {
  return changetype<AoiScene>(<usize>ptr);
}

// ---- exports --------------------------------------------------------------

export function aoiCreate(dims: i32): i32 {
  const s = changetype<AoiScene>(heap.alloc(offsetof<AoiScene>()));
  memory.fill(changetype<usize>(s), 0, offsetof<AoiScene>());
  s.dims = dims;
  s.axis0 = newAxis();
  s.axis1 = newAxis();
  s.axis2 = dims == 3 ? newAxis() : changetype<AxisList>(0);
  s.candidateWatchers = newIntList();
  s.candidateTargets = newIntList();
  s.events = newIntList();
  s.results = newIntList();
  s.ensureSlot(15);
  return <i32>changetype<usize>(s);
}

export function aoiDestroy(ptr: i32): void {
  const s = scene(ptr);
  for (let k = 0; k < s.capacity; k++) s.watcherSet(k).release();
  for (let a = 0; a < s.dims; a++) s.axis(a).release();
  heap.free(s.slotsRaw);
  heap.free(s.sets);
  freeIntList(s.candidateWatchers);
  freeIntList(s.candidateTargets);
  freeIntList(s.events);
  freeIntList(s.results);
  heap.free(<usize>ptr);
}

export function aoiAdd(ptr: i32, slot: i32, id: i32, x: f64, y: f64, z: f64, rx: f64, ry: f64, rz: f64, watcher: i32): void {
  scene(ptr).add(slot, id, x, y, z, rx, ry, rz, watcher != 0);
}

export function aoiMove(ptr: i32, slot: i32, x: f64, y: f64, z: f64): void {
  scene(ptr).move(slot, x, y, z);
}

export function aoiRemove(ptr: i32, slot: i32): void {
  scene(ptr).remove(slot);
}

export function aoiSetRange(ptr: i32, slot: i32, rx: f64, ry: f64, rz: f64, watcher: i32): void {
  scene(ptr).setRange(slot, rx, ry, rz, watcher != 0);
}

/** How many moves ahead a batch touches the memory a move starts from. */
const MOVE_LEAD: i32 = 4;

/** Moves slots[k] to (xs[k], ys[k], zs[k]) in order; zs is 0 for 2-D scenes. */
export function aoiMoveMany(ptr: i32, slots: i32, xs: i32, ys: i32, zs: i32, count: i32): void {
  const s = scene(ptr);
  for (let k = 0; k < count; k++) {
    if (k + MOVE_LEAD < count) s.touch(load<i32>(<usize>slots + (<usize>(k + MOVE_LEAD) << 2)));
    const z = zs == 0 ? 0.0 : load<f64>(<usize>zs + (<usize>k << 3));
    s.move(load<i32>(<usize>slots + (<usize>k << 2)), load<f64>(<usize>xs + (<usize>k << 3)), load<f64>(<usize>ys + (<usize>k << 3)), z);
  }
}

/** Adds slots[k] with ids[k] at (xs[k], ys[k], zs[k]) and square half-extent ranges[k], in order. */
export function aoiAddMany(ptr: i32, slots: i32, ids: i32, xs: i32, ys: i32, zs: i32, ranges: i32, count: i32): void {
  scene(ptr).addMany(<usize>slots, <usize>ids, <usize>xs, <usize>ys, <usize>zs, <usize>ranges, count);
}

/** Ints in the event buffer (3 per event). */
export function aoiEventLength(ptr: i32): i32 {
  return scene(ptr).events.length;
}

export function aoiEventData(ptr: i32): i32 {
  return <i32>scene(ptr).events.data;
}

/** Forgets the drained events; a buffer grown past 4 MiB by a burst (a big build) is given back. */
export function aoiEventReset(ptr: i32): void {
  const events = scene(ptr).events;
  events.length = 0;
  if (events.capacity > 1 << 20) events.release();
}

/** Writes the ids slot sees into the result buffer; returns their count. */
export function aoiQuery(ptr: i32, slot: i32): i32 {
  return scene(ptr).query(slot);
}

export function aoiWatchers(ptr: i32, slot: i32): i32 {
  return scene(ptr).watchers(slot);
}

export function aoiQueryBox(ptr: i32, minX: f64, minY: f64, minZ: f64, maxX: f64, maxY: f64, maxZ: f64): i32 {
  return scene(ptr).queryBox(minX, minY, minZ, maxX, maxY, maxZ);
}

export function aoiResultData(ptr: i32): i32 {
  return <i32>scene(ptr).results.data;
}

/** Address of slot's position (3 doubles). */
export function aoiPositionOf(ptr: i32, slot: i32): i32 {
  return <i32>(scene(ptr).slotAt(slot) + SLOT_POS);
}

export function aoiClear(ptr: i32): void {
  scene(ptr).clear();
}

/** Bytes of linear memory this scene holds (its arrays, lists and buffers, by capacity). */
export function aoiBytes(ptr: i32): f64 {
  const s = scene(ptr);
  const cap = <f64>s.capacity;
  let bytes = <f64>offsetof<AoiScene>() + 64 + cap * (<f64>(1 << SLOT_SHIFT) + <f64>offsetof<IntList>());
  for (let k = 0; k < s.capacity; k++) bytes += <f64>s.watcherSet(k).capacity * 4;
  for (let a = 0; a < s.dims; a++) {
    const axis = s.axis(a);
    bytes += <f64>offsetof<AxisList>() + <f64>axis.recordCapacity * <f64>(RECORD_BYTES + 12) + <f64>axis.handleCapacity * 4 + <f64>axis.snapCapacity * 12;
  }
  bytes += <f64>(s.candidateWatchers.capacity + s.candidateTargets.capacity + s.events.capacity + s.results.capacity) * 4;
  return bytes;
}
