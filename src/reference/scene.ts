// The reference Scene core (backend 'js'): the same algorithm as
// assembly/aoi.ts, written as plain TypeScript over typed arrays.
//
// Every entity slot s owns three nodes on each axis list: 3s is the lower
// boundary of its view box (x - range), 3s + 1 the entity itself, 3s + 2 the
// upper boundary (x + range). Slot 0 is reserved: node 0 is the head (-inf)
// and node 2 the tail (+inf) of every list. Lists are sorted by (key, kind)
// with kind = node % 3, so at equal coordinates a lower boundary comes before
// an entity and an entity before an upper boundary: an entity exactly on the
// edge of a box lies inside it (the box is closed), whatever the arrival order.
//
// A move walks the mover's nodes to their new places; every node crossed is
// a candidate pair whose visibility may have changed, and each candidate is
// judged once on old and new positions over all axes. Who sees an entity is
// kept as a set per entity (its watchers), so the 'move' events of a step
// come straight from that set. A crossing is dropped at once when, on the
// next axis, the box held the point neither before nor after. Long jumps
// (teleports) and range changes re-scan the box instead of walking.

export const KIND_LOWER = 0;
export const KIND_ENTITY = 1;
export const KIND_UPPER = 2;

const HEAD = 0;
const TAIL = 2;
/** The coarse index keeps one entity in this many. */
const SNAP_STRIDE = 4;
/** Index entries a hint looks at, and how far (in mean gaps between entries) their entity may have moved since. */
const HINT_TRIES = 16;
const HINT_DRIFT = 64;

/** Event type codes in the flat event buffer. */
export const EVENT_ENTER = 0;
export const EVENT_LEAVE = 1;
export const EVENT_MOVE = 2;

/** Slot states. */
const FREE = 0;
const WATCHER = 1;
const MARKER = 2;

/**
 * One axis: a doubly linked list of nodes sorted by (key, kind), plus a
 * sorted snapshot of entity nodes that serves as a coarse index, so an insert
 * starts next to its place instead of at the head.
 */
class AxisList {
  keys: Float64Array;
  prev: Int32Array;
  next: Int32Array;
  /** Snapshot of entity keys in list order and their slots: the coarse index. */
  snapKeys = new Float64Array(0);
  snapSlots = new Int32Array(0);
  snapLength = 0;
  /** Inserts since the snapshot was taken; a rebuild comes after enough of them. */
  stale = 0;
  /** Largest half-extent any watcher has had on this axis (bounds the backward scans). */
  maxRange = 0;

  constructor(nodeCapacity: number) {
    this.keys = new Float64Array(nodeCapacity);
    this.prev = new Int32Array(nodeCapacity);
    this.next = new Int32Array(nodeCapacity);
    this.reset();
  }

  reset(): void {
    this.keys[HEAD] = -Infinity;
    this.keys[TAIL] = Infinity;
    this.next[HEAD] = TAIL;
    this.prev[TAIL] = HEAD;
    this.prev[HEAD] = HEAD;
    this.next[TAIL] = TAIL;
    this.snapLength = 0;
    this.stale = 0;
    this.maxRange = 0;
  }

  grow(nodeCapacity: number): void {
    const keys = new Float64Array(nodeCapacity);
    keys.set(this.keys);
    const prev = new Int32Array(nodeCapacity);
    prev.set(this.prev);
    const next = new Int32Array(nodeCapacity);
    next.set(this.next);
    this.keys = keys;
    this.prev = prev;
    this.next = next;
  }

  /** True when node a sorts before node b: by key, then by kind. */
  less(a: number, b: number): boolean {
    const ka = this.keys[a];
    const kb = this.keys[b];
    return ka < kb || (ka === kb && a % 3 < b % 3);
  }

  unlink(n: number): void {
    const p = this.prev[n];
    const q = this.next[n];
    this.next[p] = q;
    this.prev[q] = p;
  }

  linkAfter(n: number, p: number): void {
    const q = this.next[p];
    this.prev[n] = p;
    this.next[n] = q;
    this.next[p] = n;
    this.prev[q] = n;
  }

  /** Links the unlinked node n (its key set) at its place, walking from the linked node start. */
  insertFrom(n: number, start: number): void {
    if (this.less(n, start)) {
      let p = this.prev[start];
      while (this.less(n, p)) p = this.prev[p];
      this.linkAfter(n, p);
    } else {
      let q = this.next[start];
      while (this.less(q, n)) q = this.next[q];
      this.linkAfter(n, this.prev[q]);
    }
  }

  /**
   * A linked node near key: the snapshot entity with the largest key <= key,
   * or the head. Any linked node is a correct start; a near one is a fast one.
   */
  hint(key: number, state: Int32Array, exclude: number): number {
    let lo = 0;
    let hi = this.snapLength - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.snapKeys[mid] <= key) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    // A removed entity (or the one being placed) is not in the list, and one
    // that jumped since the snapshot is far from its entry: prefer the
    // nearest entry whose entity is linked and still near it.
    const spread = this.snapLength < 2 ? Infinity : ((this.snapKeys[this.snapLength - 1] - this.snapKeys[0]) / this.snapLength) * HINT_DRIFT;
    let fallback = HEAD;
    for (let i = found; i >= 0 && i > found - HINT_TRIES; i--) {
      const slot = this.snapSlots[i];
      if (state[slot] === FREE || slot === exclude) continue;
      const n = 3 * slot + KIND_ENTITY;
      if (Math.abs(this.keys[n] - this.snapKeys[i]) <= spread) return n;
      if (fallback === HEAD) fallback = n;
    }
    return fallback;
  }

  /** Inserts node n (its key set) starting from the coarse index, and keeps the index fresh. */
  insert(n: number, state: Int32Array): void {
    this.insertFrom(n, this.hint(this.keys[n], state, (n / 3) | 0));
    this.stale++;
  }

  /**
   * Re-takes the snapshot (every SNAP_STRIDE-th entity in list order) once
   * the nodes inserted since the last one outnumber the entities, or when forced.
   */
  refreshIndex(force: boolean): void {
    if (!force && this.stale <= this.snapLength * SNAP_STRIDE + 48) return;
    const keys: number[] = [];
    const slots: number[] = [];
    let seen = 0;
    for (let n = this.next[HEAD]; n !== TAIL; n = this.next[n]) {
      if (n % 3 !== KIND_ENTITY) continue;
      if (seen++ % SNAP_STRIDE !== 0) continue;
      keys.push(this.keys[n]);
      slots.push((n - KIND_ENTITY) / 3);
    }
    this.snapKeys = Float64Array.from(keys);
    this.snapSlots = Int32Array.from(slots);
    this.snapLength = keys.length;
    this.stale = 0;
  }

  /** The last node with key < key (or the head): walking forward from it meets every node with key >= key. */
  seek(key: number, state: Int32Array): number {
    let p = this.hint(key, state, 0);
    while (this.keys[p] >= key) p = this.prev[p];
    while (this.keys[this.next[p]] < key) p = this.next[p];
    return p;
  }
}

/** The reference core of one scene. Slots are chosen by the caller; ids are only carried into events. */
export class SceneCore {
  readonly dimensions: number;
  private capacity = 0;
  private state = new Int32Array(0);
  private ids = new Int32Array(0);
  /** Positions and half-extents, three per slot (z is 0 in 2-D scenes). */
  private pos = new Float64Array(0);
  private range = new Float64Array(0);
  /** watchers[s]: the slots that see s now. */
  private watcherSets: number[][] = [];
  private readonly axes: AxisList[] = [];
  /** Candidate dedup: a slot is a candidate of this step when its mark equals the stamp. */
  private markWatcher = new Int32Array(0);
  private markTarget = new Int32Array(0);
  private stamp = 0;
  /** Entities in the scene. */
  private alive = 0;
  private candidateWatchers: number[] = [];
  private candidateTargets: number[] = [];
  private events: number[] = [];
  /** The moving entity's position before the step, and after it. */
  private readonly old = [0, 0, 0];
  private readonly target = [0, 0, 0];
  private readonly oldRange = [0, 0, 0];

  constructor(dimensions: number) {
    this.dimensions = dimensions;
    for (let a = 0; a < dimensions; a++) this.axes.push(new AxisList(48));
    this.ensureSlot(15);
  }

  private ensureSlot(slot: number): void {
    if (slot < this.capacity) return;
    let capacity = Math.max(this.capacity, 16);
    while (capacity <= slot) capacity *= 2;
    const grownI32 = (from: Int32Array): Int32Array<ArrayBuffer> => {
      const to = new Int32Array(capacity);
      to.set(from);
      return to;
    };
    const grownF64 = (from: Float64Array): Float64Array<ArrayBuffer> => {
      const to = new Float64Array(capacity * 3);
      to.set(from);
      return to;
    };
    this.state = grownI32(this.state);
    this.ids = grownI32(this.ids);
    this.markWatcher = grownI32(this.markWatcher);
    this.markTarget = grownI32(this.markTarget);
    this.pos = grownF64(this.pos);
    this.range = grownF64(this.range);
    for (let s = this.watcherSets.length; s < capacity; s++) this.watcherSets.push([]);
    for (const axis of this.axes) axis.grow(capacity * 3);
    this.capacity = capacity;
  }

  /** The flat event buffer [type, watcherId, targetId, ...] since the last drain, then forgets it. */
  drain(): Int32Array {
    const out = Int32Array.from(this.events);
    this.events.length = 0;
    return out;
  }

  get pendingEvents(): number {
    return this.events.length / 3;
  }

  private emit(type: number, watcher: number, target: number): void {
    this.events.push(type, this.ids[watcher], this.ids[target]);
  }

  /** True when watcher w, placed at (wx, wy, wz) with half-extents r, sees the point t of slot target. */
  private inBox(wx: number, wy: number, wz: number, rx: number, ry: number, rz: number, target: number): boolean {
    const t = target * 3;
    const p = this.pos;
    if (!(wx - rx <= p[t] && p[t] <= wx + rx)) return false;
    if (!(wy - ry <= p[t + 1] && p[t + 1] <= wy + ry)) return false;
    return this.dimensions === 2 || (wz - rz <= p[t + 2] && p[t + 2] <= wz + rz);
  }

  /** True when watcher slot w sees a point at (x, y, z). */
  private sees(w: number, x: number, y: number, z: number): boolean {
    if (this.state[w] !== WATCHER) return false;
    const i = w * 3;
    const p = this.pos;
    const r = this.range;
    if (!(p[i] - r[i] <= x && x <= p[i] + r[i])) return false;
    if (!(p[i + 1] - r[i + 1] <= y && y <= p[i + 1] + r[i + 1])) return false;
    return this.dimensions === 2 || (p[i + 2] - r[i + 2] <= z && z <= p[i + 2] + r[i + 2]);
  }

  private addCandidateWatcher(w: number): void {
    if (this.markWatcher[w] === this.stamp) return;
    this.markWatcher[w] = this.stamp;
    this.candidateWatchers.push(w);
  }

  private addCandidateTarget(t: number): void {
    if (this.markTarget[t] === this.stamp) return;
    this.markTarget[t] = this.stamp;
    this.candidateTargets.push(t);
  }

  private newStep(): void {
    this.stamp++;
    this.candidateWatchers.length = 0;
    this.candidateTargets.length = 0;
  }

  private linkNodes(s: number): void {
    const watcher = this.state[s] === WATCHER;
    for (let a = 0; a < this.dimensions; a++) {
      const axis = this.axes[a];
      const p = this.pos[s * 3 + a];
      axis.keys[3 * s + KIND_ENTITY] = p;
      axis.insert(3 * s + KIND_ENTITY, this.state);
      if (watcher) this.linkBoundaries(axis, s, p, this.range[s * 3 + a]);
      axis.refreshIndex(false);
    }
  }

  private linkBoundaries(axis: AxisList, s: number, p: number, r: number): void {
    axis.keys[3 * s + KIND_LOWER] = p - r;
    axis.insert(3 * s + KIND_LOWER, this.state);
    axis.keys[3 * s + KIND_UPPER] = p + r;
    axis.insert(3 * s + KIND_UPPER, this.state);
    if (r > axis.maxRange) axis.maxRange = r;
  }

  private unlinkNodes(s: number): void {
    const watcher = this.state[s] === WATCHER;
    for (const axis of this.axes) {
      axis.unlink(3 * s + KIND_ENTITY);
      if (watcher) {
        axis.unlink(3 * s + KIND_LOWER);
        axis.unlink(3 * s + KIND_UPPER);
      }
    }
  }

  /** Every entity between s's own boundaries on the x list, and within its box on y, becomes a target candidate. */
  private collectSpan(s: number): void {
    if (this.state[s] !== WATCHER) return;
    const axis = this.axes[0];
    const end = 3 * s + KIND_UPPER;
    const low = this.pos[s * 3 + 1] - this.range[s * 3 + 1];
    const high = this.pos[s * 3 + 1] + this.range[s * 3 + 1];
    for (let n = axis.next[3 * s + KIND_LOWER]; n !== end; n = axis.next[n]) {
      if (n % 3 !== KIND_ENTITY) continue;
      const t = (n - KIND_ENTITY) / 3;
      const y = this.pos[t * 3 + 1];
      if (low <= y && y <= high && t !== s) this.addCandidateTarget(t);
    }
  }

  /**
   * Every watcher whose box may hold s becomes a watcher candidate: their
   * lower x boundaries lie at most twice the largest range before s, and
   * their centres lie within the largest y range of s's y.
   */
  private collectBoxesAround(s: number): void {
    const axis = this.axes[0];
    const x = this.pos[s * 3];
    const y = this.pos[s * 3 + 1];
    const reach = 2 * axis.maxRange;
    const limit = x - reach - 1e-9 * (Math.abs(x) + reach);
    for (let n = axis.prev[3 * s + KIND_ENTITY]; n !== HEAD && axis.keys[n] >= limit; n = axis.prev[n]) {
      if (n % 3 !== KIND_LOWER) continue;
      const w = n / 3;
      const wy = this.pos[w * 3 + 1];
      const ry = this.axes[1].maxRange;
      if (wy - ry <= y && y <= wy + ry && w !== s) this.addCandidateWatcher(w);
    }
  }

  /**
   * Emits the events of a step of entity s from the candidates: `old` holds
   * its position before the step (and `oldRange` its view before, with
   * `wasWatcher`), the slot arrays hold the new state.
   */
  private settle(s: number, moved: boolean, wasWatcher: boolean): void {
    const p = this.pos;
    const i = s * 3;
    const [ox, oy, oz] = this.old;
    const watchers = this.watcherSets[s];
    // Others looking at s: judged on s's old and new position, both boxes fixed.
    let entering = 0;
    for (const w of this.candidateWatchers) {
      const was = this.sees(w, ox, oy, oz);
      const is = this.sees(w, p[i], p[i + 1], p[i + 2]);
      if (was && !is) {
        this.emit(EVENT_LEAVE, w, s);
        removeFrom(watchers, w);
      } else if (is && !was) {
        this.emit(EVENT_ENTER, w, s);
        this.candidateWatchers[entering++] = w;
      }
    }
    if (moved) for (const w of watchers) this.emit(EVENT_MOVE, w, s);
    for (let k = 0; k < entering; k++) watchers.push(this.candidateWatchers[k]);
    // s looking at others: its old box against its new box.
    const watcherNow = this.state[s] === WATCHER;
    const [rx, ry, rz] = this.oldRange;
    const r = this.range;
    for (const t of this.candidateTargets) {
      const was = wasWatcher && this.inBox(ox, oy, oz, rx, ry, rz, t);
      const is = watcherNow && this.inBox(p[i], p[i + 1], p[i + 2], r[i], r[i + 1], r[i + 2], t);
      if (was && !is) {
        this.emit(EVENT_LEAVE, s, t);
        removeFrom(this.watcherSets[t], s);
      } else if (is && !was) {
        this.emit(EVENT_ENTER, s, t);
        this.watcherSets[t].push(s);
      }
    }
  }

  private rememberOld(s: number): void {
    for (let a = 0; a < 3; a++) {
      this.old[a] = this.pos[s * 3 + a];
      this.oldRange[a] = this.range[s * 3 + a];
    }
  }

  /** Adds entity `slot` (free) with user id `id`; a marker (watcher = false) sees nothing. */
  add(slot: number, id: number, x: number, y: number, z: number, rx: number, ry: number, rz: number, watcher: boolean): void {
    this.ensureSlot(slot);
    this.state[slot] = watcher ? WATCHER : MARKER;
    this.alive++;
    this.ids[slot] = id;
    const i = slot * 3;
    this.pos[i] = x;
    this.pos[i + 1] = y;
    this.pos[i + 2] = this.dimensions === 3 ? z : 0;
    this.range[i] = watcher ? rx : 0;
    this.range[i + 1] = watcher ? ry : 0;
    this.range[i + 2] = watcher && this.dimensions === 3 ? rz : 0;
    this.watcherSets[slot].length = 0;
    this.linkNodes(slot);
    this.newStep();
    this.collectSpan(slot);
    this.collectBoxesAround(slot);
    // Nothing was seen before the add: an old position no box holds.
    this.old[0] = this.old[1] = this.old[2] = NaN;
    this.settle(slot, false, false);
  }

  /** Moves entity `slot` to (x, y, z), walking its nodes or, for a long jump, re-scanning. */
  move(slot: number, x: number, y: number, z: number): void {
    const i = slot * 3;
    if (this.dimensions === 2) z = 0;
    const p = this.pos;
    if (p[i] === x && p[i + 1] === y && p[i + 2] === z) return;
    this.rememberOld(slot);
    this.newStep();
    const watcher = this.state[slot] === WATCHER;
    const target = this.target;
    target[0] = x;
    target[1] = y;
    target[2] = z;
    if (this.isTeleport(slot, target)) {
      this.collectSpan(slot);
      for (const w of this.watcherSets[slot]) this.addCandidateWatcher(w);
      this.unlinkNodes(slot);
      p[i] = x;
      p[i + 1] = y;
      p[i + 2] = z;
      this.linkNodes(slot);
      this.collectSpan(slot);
      this.collectBoxesAround(slot);
    } else {
      for (let a = 0; a < this.dimensions; a++) {
        const axis = this.axes[a];
        const to = target[a];
        const r = this.range[i + a];
        const base = 3 * slot;
        // The leading node goes first, so the mover's nodes do not cross each other.
        if (watcher && to > p[i + a]) this.walk(a, base + KIND_UPPER, to + r, slot);
        else if (watcher) this.walk(a, base + KIND_LOWER, to - r, slot);
        this.walk(a, base + KIND_ENTITY, to, slot);
        if (watcher && to > p[i + a]) this.walk(a, base + KIND_LOWER, to - r, slot);
        else if (watcher) this.walk(a, base + KIND_UPPER, to + r, slot);
      }
      p[i] = x;
      p[i + 1] = y;
      p[i + 2] = z;
    }
    this.settle(slot, true, watcher);
  }

  /**
   * A walk costs the nodes crossed, roughly |step| per node; a re-scan costs
   * the nodes of the mover's own box plus of the widest box around it.
   */
  private isTeleport(slot: number, target: number[]): boolean {
    const watcher = this.state[slot] === WATCHER;
    let walk = 0;
    for (let a = 0; a < this.dimensions; a++) walk += Math.abs(target[a] - this.pos[slot * 3 + a]);
    if (watcher) walk *= 3;
    const scan = (watcher ? 4 * this.range[slot * 3] : 0) + 2 * this.axes[0].maxRange;
    return walk > scan;
  }

  /** Moves node n on axis a to key, marking as candidates the entities or boxes it crosses. */
  private walk(a: number, n: number, key: number, slot: number): void {
    const axis = this.axes[a];
    axis.keys[n] = key;
    const entity = n % 3 === KIND_ENTITY;
    let q = axis.next[n];
    if (axis.less(q, n)) {
      do {
        this.cross(q, a, entity, slot);
        q = axis.next[q];
      } while (axis.less(q, n));
      axis.unlink(n);
      axis.linkAfter(n, axis.prev[q]);
      return;
    }
    let p = axis.prev[n];
    if (axis.less(n, p)) {
      do {
        this.cross(p, a, entity, slot);
        p = axis.prev[p];
      } while (axis.less(n, p));
      axis.unlink(n);
      axis.linkAfter(n, p);
    }
  }

  /**
   * An entity node crossing a box edge, or a box edge crossing an entity node,
   * on axis a: a candidate pair, unless on the filter axis (the next one) the
   * box held the point neither before nor after, so it was out and stays out.
   * A crossed box is taken as wide as the largest range on that axis: the
   * test then needs only the other node's coordinate, which the wasm core
   * keeps in the list node itself.
   */
  private cross(other: number, a: number, movingEntity: boolean, slot: number): void {
    const otherSlot = (other / 3) | 0;
    if (otherSlot === slot) return;
    const otherIsEntity = other % 3 === KIND_ENTITY;
    const f = a + 1 === this.dimensions ? 0 : a + 1;
    const before = this.old[f];
    const after = this.target[f];
    if (movingEntity && !otherIsEntity) {
      const p = this.pos[otherSlot * 3 + f];
      const r = this.axes[f].maxRange;
      if ((p - r <= before && before <= p + r) || (p - r <= after && after <= p + r)) this.addCandidateWatcher(otherSlot);
    } else if (!movingEntity && otherIsEntity) {
      const e = this.pos[otherSlot * 3 + f];
      const r = this.range[slot * 3 + f];
      if ((before - r <= e && e <= before + r) || (after - r <= e && e <= after + r)) this.addCandidateTarget(otherSlot);
    }
  }

  /** Removes entity `slot`: everyone who saw it, and everyone it saw, gets a leave. */
  remove(slot: number): void {
    this.newStep();
    this.collectSpan(slot);
    this.rememberOld(slot);
    const wasWatcher = this.state[slot] === WATCHER;
    for (const t of this.candidateTargets) {
      if (wasWatcher && this.inBox(this.old[0], this.old[1], this.old[2], this.oldRange[0], this.oldRange[1], this.oldRange[2], t)) {
        this.emit(EVENT_LEAVE, slot, t);
        removeFrom(this.watcherSets[t], slot);
      }
    }
    for (const w of this.watcherSets[slot]) this.emit(EVENT_LEAVE, w, slot);
    this.watcherSets[slot].length = 0;
    this.unlinkNodes(slot);
    this.state[slot] = FREE;
    this.alive--;
  }

  /** Changes what `slot` sees: new half-extents, or a marker when watcher is false. */
  setRange(slot: number, rx: number, ry: number, rz: number, watcher: boolean): void {
    this.newStep();
    this.rememberOld(slot);
    const wasWatcher = this.state[slot] === WATCHER;
    this.collectSpan(slot);
    const i = slot * 3;
    for (const axis of this.axes) {
      if (wasWatcher) {
        axis.unlink(3 * slot + KIND_LOWER);
        axis.unlink(3 * slot + KIND_UPPER);
      }
    }
    this.state[slot] = watcher ? WATCHER : MARKER;
    this.range[i] = watcher ? rx : 0;
    this.range[i + 1] = watcher ? ry : 0;
    this.range[i + 2] = watcher && this.dimensions === 3 ? rz : 0;
    if (watcher) {
      for (let a = 0; a < this.dimensions; a++) this.linkBoundaries(this.axes[a], slot, this.pos[i + a], this.range[i + a]);
    }
    this.collectSpan(slot);
    this.settle(slot, false, wasWatcher);
  }

  /** Applies moves in order: slots[k] to (xs[k], ys[k], zs[k]). */
  moveMany(slots: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null): void {
    for (let k = 0; k < slots.length; k++) this.move(slots[k], xs[k], ys[k], zs === null ? 0 : zs[k]);
  }

  /**
   * Adds a batch; ranges[k] is a square (cube) half-extent. A large batch is
   * loaded in bulk: each axis's new nodes are sorted and linked in one pass,
   * and the enter events come from a temporary grid over every entity (cells
   * as wide as the largest range), so nothing scans an x strip per entity.
   * The events are those of adding one by one, in any order.
   */
  addMany(slots: Int32Array, ids: Int32Array, xs: Float64Array, ys: Float64Array, zs: Float64Array | null, ranges: Float64Array): void {
    const n = slots.length;
    if (n < BULK_MIN || n * 4 < this.alive) {
      for (let k = 0; k < n; k++) {
        const r = ranges[k];
        this.add(slots[k], ids[k], xs[k], ys[k], zs === null ? 0 : zs[k], r, r, r, true);
      }
      return;
    }
    let top = 0;
    for (let k = 0; k < n; k++) top = Math.max(top, slots[k]);
    this.ensureSlot(top);
    this.newStep(); // marks the batch: markTarget[s] === stamp
    for (let k = 0; k < n; k++) {
      const s = slots[k];
      const i = s * 3;
      const r = ranges[k];
      this.ids[s] = ids[k];
      this.pos[i] = xs[k];
      this.pos[i + 1] = ys[k];
      this.pos[i + 2] = zs === null ? 0 : zs[k];
      this.range[i] = r;
      this.range[i + 1] = r;
      this.range[i + 2] = this.dimensions === 3 ? r : 0;
      this.watcherSets[s].length = 0;
      this.markTarget[s] = this.stamp;
    }
    // Linked while still FREE, so the coarse index never offers a half-linked node.
    const nodes = new Int32Array(3 * n);
    for (let a = 0; a < this.dimensions; a++) {
      const axis = this.axes[a];
      for (let k = 0; k < n; k++) {
        const s = slots[k];
        const p = this.pos[s * 3 + a];
        const r = this.range[s * 3 + a];
        axis.keys[3 * s + KIND_LOWER] = p - r;
        axis.keys[3 * s + KIND_ENTITY] = p;
        axis.keys[3 * s + KIND_UPPER] = p + r;
        nodes[3 * k] = 3 * s + KIND_LOWER;
        nodes[3 * k + 1] = 3 * s + KIND_ENTITY;
        nodes[3 * k + 2] = 3 * s + KIND_UPPER;
        if (r > axis.maxRange) axis.maxRange = r;
      }
      nodes.sort((u, v) => (axis.less(u, v) ? -1 : axis.less(v, u) ? 1 : 0));
      let at = axis.hint(axis.keys[nodes[0]], this.state, -1);
      for (const node of nodes) {
        axis.insertFrom(node, at);
        at = node;
      }
    }
    for (let k = 0; k < n; k++) this.state[slots[k]] = WATCHER;
    this.alive += n;
    for (const axis of this.axes) axis.refreshIndex(true);
    this.enterAllPairs(slots);
  }

  /** Emits enter for every pair with at least one member in the batch (marked with the current stamp). */
  private enterAllPairs(batch: Int32Array): void {
    const grid = new BulkGrid(this.pos, this.state, this.capacity, Math.max(this.axes[0].maxRange, this.axes[1].maxRange));
    const p = this.pos;
    const r = this.range;
    for (const s of batch) {
      const i = s * 3;
      const cx = grid.column(p[i]);
      const cy = grid.row(p[i + 1]);
      for (let gy = cy - 1; gy <= cy + 1; gy++) {
        for (let gx = cx - 1; gx <= cx + 1; gx++) {
          for (const t of grid.cell(gx, gy)) {
            if (t === s) continue;
            if (this.inBox(p[i], p[i + 1], p[i + 2], r[i], r[i + 1], r[i + 2], t)) {
              this.emit(EVENT_ENTER, s, t);
              this.watcherSets[t].push(s);
            }
            // A pair inside the batch is found again from its other member.
            if (this.markTarget[t] !== this.stamp && this.sees(t, p[i], p[i + 1], p[i + 2])) {
              this.emit(EVENT_ENTER, t, s);
              this.watcherSets[s].push(t);
            }
          }
        }
      }
    }
  }

  position(slot: number): { x: number; y: number; z: number } {
    const i = slot * 3;
    return { x: this.pos[i], y: this.pos[i + 1], z: this.pos[i + 2] };
  }

  /** Ids that `slot` sees, unordered. */
  query(slot: number): number[] {
    this.newStep();
    this.collectSpan(slot);
    const i = slot * 3;
    const out: number[] = [];
    for (const t of this.candidateTargets) {
      if (this.inBox(this.pos[i], this.pos[i + 1], this.pos[i + 2], this.range[i], this.range[i + 1], this.range[i + 2], t)) out.push(this.ids[t]);
    }
    return out;
  }

  /** Ids that see `slot`, unordered. */
  watchers(slot: number): number[] {
    return this.watcherSets[slot].map((w) => this.ids[w]);
  }

  /** Ids positioned in the closed box, unordered. */
  queryBox(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number[] {
    const axis = this.axes[0];
    const out: number[] = [];
    for (let n = axis.next[axis.seek(minX, this.state)]; axis.keys[n] <= maxX && n !== TAIL; n = axis.next[n]) {
      if (n % 3 !== KIND_ENTITY) continue;
      const s = (n - KIND_ENTITY) / 3;
      const y = this.pos[s * 3 + 1];
      const z = this.pos[s * 3 + 2];
      if (minY <= y && y <= maxY && (this.dimensions === 2 || (minZ <= z && z <= maxZ))) out.push(this.ids[s]);
    }
    return out;
  }

  /** Forgets every entity and every pending event. */
  clear(): void {
    this.state.fill(FREE);
    for (const set of this.watcherSets) set.length = 0;
    for (const axis of this.axes) axis.reset();
    this.events.length = 0;
    this.alive = 0;
  }
}

/** Batches at least this large (and a quarter of the scene) are loaded in bulk. */
const BULK_MIN = 32;

/**
 * A throwaway uniform grid over every entity's (x, y), cells at least as wide
 * as the largest range, so whoever sees a point sits in the 3 x 3 cells around it.
 */
class BulkGrid {
  private readonly minX: number;
  private readonly minY: number;
  private readonly size: number;
  private readonly columns: number;
  private readonly rows: number;
  private readonly starts: Int32Array;
  private readonly items: Int32Array;

  constructor(pos: Float64Array, state: Int32Array, capacity: number, maxRange: number) {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    let count = 0;
    for (let s = 1; s < capacity; s++) {
      if (state[s] === FREE) continue;
      count++;
      minX = Math.min(minX, pos[s * 3]);
      maxX = Math.max(maxX, pos[s * 3]);
      minY = Math.min(minY, pos[s * 3 + 1]);
      maxY = Math.max(maxY, pos[s * 3 + 1]);
    }
    // The margin keeps rounding in the division from splitting a pair by two cells.
    let size = maxRange * 1.001 + 1e-9 * (Math.abs(minX) + Math.abs(maxX) + Math.abs(minY) + Math.abs(maxY)) + 1e-300;
    const spanX = maxX - minX;
    const spanY = maxY - minY;
    // Spans beyond the doubles (entities near +-1e308): one cell holds all.
    if (!(spanX < Infinity && spanY < Infinity)) size = Infinity;
    while (size < Infinity && (spanX / size + 1) * (spanY / size + 1) > 2 * count + 64) size *= 2;
    this.minX = minX;
    this.minY = minY;
    this.size = size;
    this.columns = size < Infinity ? Math.floor(spanX / size) + 1 : 1;
    this.rows = size < Infinity ? Math.floor(spanY / size) + 1 : 1;
    this.starts = new Int32Array(this.columns * this.rows + 1);
    this.items = new Int32Array(count);
    const cellOf = new Int32Array(capacity);
    for (let s = 1; s < capacity; s++) {
      if (state[s] === FREE) continue;
      cellOf[s] = this.column(pos[s * 3]) + this.row(pos[s * 3 + 1]) * this.columns;
      this.starts[cellOf[s] + 1]++;
    }
    for (let c = 0; c < this.columns * this.rows; c++) this.starts[c + 1] += this.starts[c];
    const fill = this.starts.slice(0, this.columns * this.rows);
    for (let s = 1; s < capacity; s++) if (state[s] !== FREE) this.items[fill[cellOf[s]]++] = s;
  }

  column(x: number): number {
    return this.size < Infinity ? Math.floor((x - this.minX) / this.size) : 0;
  }

  row(y: number): number {
    return this.size < Infinity ? Math.floor((y - this.minY) / this.size) : 0;
  }

  /** The slots in cell (gx, gy); empty outside the grid. */
  cell(gx: number, gy: number): Int32Array {
    if (gx < 0 || gy < 0 || gx >= this.columns || gy >= this.rows) return EMPTY;
    const c = gx + gy * this.columns;
    return this.items.subarray(this.starts[c], this.starts[c + 1]);
  }
}

const EMPTY = new Int32Array(0);

/** Removes one occurrence of value from an unordered list (swap with the last). */
function removeFrom(list: number[], value: number): void {
  const k = list.indexOf(value);
  const last = list.pop()!;
  if (k < list.length) list[k] = last;
}
