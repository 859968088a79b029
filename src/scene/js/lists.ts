// The reference Scene core (backend 'js'): the same algorithm as
// assembly/scene/lists.ts, written as plain TypeScript over typed arrays.
//
// Each axis keeps its nodes on sorted doubly linked lists. An entity slot s
// owns five nodes per axis (nodeOf(s, role)): the entity itself and two
// pairs of view-box boundaries (x - range, x + range). Lists are sorted by
// (key, kind), kind lower < entity < upper, so at equal coordinates an entity
// exactly on the edge of a box lies inside it (the box is closed), whatever
// the arrival order.
//
// Bands: the list of axis a is cut into bands along its band axis (the next
// axis: x lists are banded by y, y lists by x in 2-D; z lists by x in 3-D),
// each band its own list between a head (-inf) and a tail (+inf) sentinel.
// An entity's node lives in the band of its own coordinate on the band axis;
// a watcher's boundary pairs live in every band its box overlaps on that axis
// (bands are at least as tall as two ranges, so one pair or two: pair 0 in
// the band of the box's low edge, pair 1 in that of its high edge when that
// is another band). A node in
// one band never meets nodes of another, so a step crosses only what lies
// near the mover on both axes, not every node between its old and new x.
//
// A move walks the mover's nodes to their new places; every node crossed is
// a candidate pair whose visibility may have changed, and each candidate is
// judged once on old and new positions over all axes. A node changing bands
// walks in its old band, then enters the new band at its old key and walks
// there too: a pair that starts or stops overlapping is crossed in the band
// where both are (see the README for why that finds every change). Who sees
// an entity is kept as a set per entity (its watchers), so the 'move' events
// of a step come straight from that set. A crossing is dropped at once when,
// on the band axis, the box held the point neither before nor after. Long
// jumps (teleports) and range changes re-scan the box instead of walking.
//
// Hysteresis: a watcher with a margin keeps seeing a target until it leaves
// its grown view (range + margin). The lists index the plain ranges only, so
// a walk finds every pair entering or leaving a plain range; a pair outside
// the plain range that stays visible is held (HeldLinks, linked from both of
// its slots), and a step of a slot judges its held pairs too: a held pair can
// only stop being visible when one of its two slots changes.

import { CallLog } from './call-log.js';
import { DEFAULT_LAYER, DEFAULT_SEES } from '../backend.js';
import { ENTER, LEAVE, MOVE } from '../event-codes.js';
import { inCircle } from './circle.js';
import { HeldLinks } from './held-links.js';
import { beyondBound, KNearest } from './k-nearest.js';
import { PairTable } from '../pair-table.js';

export const KIND_LOWER = 0;
export const KIND_ENTITY = 1;
export const KIND_UPPER = 2;

/** Node roles within a slot: the entity, then two boundary pairs (lower, upper). */
const ROLE_ENTITY = 1;
const PAIR_LOWER = [0, 3];
const PAIR_UPPER = [2, 4];
const ROLE_KIND = [KIND_LOWER, KIND_ENTITY, KIND_UPPER, KIND_LOWER, KIND_UPPER];
const NODES_PER_SLOT = 5;

/** Bands per axis at most; band b's sentinels are nodes 2b (head) and 2b + 1 (tail). */
const MAX_BANDS = 256;
const SENTINELS = 2 * MAX_BANDS;
/** A band is this many largest ranges (on the band axis) tall: a box overlaps at most two bands. */
const BAND_RANGES = 5;
/** A box overlapping more than two bands (a range grew) re-bands the axis once ranges exceed this share of a band. */
const BAND_FIT = 1 / 2.2;
/** Scenes below this many entities keep one band; re-banding happens whenever the count doubles. */
const BAND_MIN_ENTITIES = 16;

/** The coarse index keeps one entity in this many. */
const SNAP_STRIDE = 4;
/** Index entries a hint looks at, and how far (in mean gaps between entries) their entity may have moved since. */
const HINT_TRIES = 16;
const HINT_DRIFT = 64;

/** Slot states. */
const FREE = 0;
const WATCHER = 1;
const MARKER = 2;

/** Node of slot s in role (0..4). */
function nodeOf(s: number, role: number): number {
  return SENTINELS + NODES_PER_SLOT * s + role;
}

function slotOfNode(n: number): number {
  return ((n - SENTINELS) / NODES_PER_SLOT) | 0;
}

/** Sort kind of a node: heads before everything at -inf, tails after everything at +inf. */
function kindOf(n: number): number {
  if (n < SENTINELS) return n & 1 ? 3 : -1;
  return ROLE_KIND[(n - SENTINELS) % NODES_PER_SLOT];
}

function isSentinel(n: number): boolean {
  return n < SENTINELS;
}

/**
 * One axis: banded doubly linked lists of nodes sorted by (key, kind), plus a
 * sorted snapshot of entity nodes, by (band, key), that serves as a coarse
 * index, so an insert starts next to its place instead of at a band's head.
 */
class AxisList {
  keys: Float64Array;
  prev: Int32Array;
  next: Int32Array;
  /** The band a node is linked in, -1 when unlinked. */
  band: Int32Array;
  /** Bands: count, and the band of coordinate v is floor((v - origin) / height), clamped. */
  bands = 1;
  origin = 0;
  height = Infinity;
  /** Live entities more than a band beyond the cut on the band axis: the end bands hold them all. */
  outside = 0;
  /** Outsiders found not worth a re-cut (far outliers): the next check waits for more. */
  spared = 0;
  /** Snapshot of entity nodes in list order, by band then key, and their slots: the coarse index. */
  snapBands = new Int32Array(0);
  snapKeys = new Float64Array(0);
  snapSlots = new Int32Array(0);
  snapLength = 0;
  /** Typical key distance between neighbouring snapshot entries of one band. */
  snapGap = Infinity;
  /** Inserts since the snapshot was taken; a rebuild comes after enough of them. */
  stale = 0;
  /** Largest half-extent any watcher has had on this axis (bounds the backward scans). */
  maxRange = 0;

  constructor(nodeCapacity: number) {
    this.keys = new Float64Array(nodeCapacity);
    this.prev = new Int32Array(nodeCapacity);
    this.next = new Int32Array(nodeCapacity);
    this.band = new Int32Array(nodeCapacity).fill(-1);
    this.reset();
  }

  /** Empties every band and goes back to one band. */
  reset(): void {
    this.bands = 1;
    this.origin = 0;
    this.height = Infinity;
    this.outside = 0;
    this.spared = 0;
    this.clearBands();
    this.band.fill(-1, SENTINELS);
    this.snapLength = 0;
    this.stale = 0;
    this.maxRange = 0;
  }

  private clearBands(): void {
    for (let b = 0; b < MAX_BANDS; b++) {
      const head = 2 * b;
      const tail = head + 1;
      this.keys[head] = -Infinity;
      this.keys[tail] = Infinity;
      this.next[head] = tail;
      this.prev[tail] = head;
      this.prev[head] = head;
      this.next[tail] = tail;
      this.band[head] = b;
      this.band[tail] = b;
    }
  }

  grow(nodeCapacity: number): void {
    const keys = new Float64Array(nodeCapacity);
    keys.set(this.keys);
    const prev = new Int32Array(nodeCapacity);
    prev.set(this.prev);
    const next = new Int32Array(nodeCapacity);
    next.set(this.next);
    const band = new Int32Array(nodeCapacity).fill(-1);
    band.set(this.band);
    this.keys = keys;
    this.prev = prev;
    this.next = next;
    this.band = band;
  }

  /** The band holding coordinate v of the band axis. */
  bandOf(v: number): number {
    if (this.bands === 1) return 0;
    const b = Math.floor((v - this.origin) / this.height);
    return b < 0 ? 0 : b >= this.bands ? this.bands - 1 : b;
  }

  /** 1 when band-axis coordinate v lies more than a band beyond the cut, else 0. */
  beyond(v: number): number {
    return this.bands > 1 && !(v >= this.origin - this.height && v < this.origin + (this.bands + 1) * this.height) ? 1 : 0;
  }

  /** True when a box of half-extent r on the band axis overlaps at most two bands. */
  fits(r: number): boolean {
    return this.bands === 1 || r <= this.height * BAND_FIT;
  }

  /** True when node a sorts before node b: by key, then by kind. */
  less(a: number, b: number): boolean {
    const ka = this.keys[a];
    const kb = this.keys[b];
    return ka < kb || (ka === kb && kindOf(a) < kindOf(b));
  }

  unlink(n: number): void {
    const p = this.prev[n];
    const q = this.next[n];
    this.next[p] = q;
    this.prev[q] = p;
    this.band[n] = -1;
  }

  linkAfter(n: number, p: number): void {
    const q = this.next[p];
    this.prev[n] = p;
    this.next[n] = q;
    this.next[p] = n;
    this.prev[q] = n;
    this.band[n] = this.band[p];
  }

  /** Links the unlinked node n (its key set) at its place, walking from start, linked in the same band. */
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
   * A linked node of band b near key: the snapshot entity of that band with
   * the largest key <= key, or the band's head. Any node linked in the band
   * is a correct start; a near one is a fast one.
   */
  hint(b: number, key: number, state: Int32Array, exclude: number): number {
    let lo = 0;
    let hi = this.snapLength - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const mb = this.snapBands[mid];
      if (mb < b || (mb === b && this.snapKeys[mid] <= key)) {
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
    let fallback = 2 * b;
    for (let i = found; i >= 0 && i > found - HINT_TRIES && this.snapBands[i] === b; i--) {
      const slot = this.snapSlots[i];
      if (state[slot] === FREE || slot === exclude) continue;
      const n = nodeOf(slot, ROLE_ENTITY);
      if (this.band[n] !== b) continue;
      if (Math.abs(this.keys[n] - this.snapKeys[i]) <= spread) return n;
      if (fallback === 2 * b) fallback = n;
    }
    return fallback;
  }

  /** Links node n into band b at key, starting from the coarse index, and keeps the index fresh. */
  insert(n: number, b: number, key: number, state: Int32Array): void {
    this.keys[n] = key;
    this.insertFrom(n, this.hint(b, key, state, slotOfNode(n)));
    this.stale++;
  }

  /**
   * Re-takes the snapshot (every SNAP_STRIDE-th entity in list order) once
   * the nodes inserted since the last one outnumber the entities, or when forced.
   */
  refreshIndex(force: boolean): void {
    if (!force && this.stale <= this.snapLength * SNAP_STRIDE + 48) return;
    const bands: number[] = [];
    const keys: number[] = [];
    const slots: number[] = [];
    let seen = 0;
    let gaps = 0;
    let gapCount = 0;
    for (let b = 0; b < this.bands; b++) {
      for (let n = this.next[2 * b]; !isSentinel(n); n = this.next[n]) {
        if (kindOf(n) !== KIND_ENTITY) continue;
        if (seen++ % SNAP_STRIDE !== 0) continue;
        if (keys.length > 0 && bands[bands.length - 1] === b) {
          gaps += this.keys[n] - keys[keys.length - 1];
          gapCount++;
        }
        bands.push(b);
        keys.push(this.keys[n]);
        slots.push(slotOfNode(n));
      }
    }
    this.snapBands = Int32Array.from(bands);
    this.snapKeys = Float64Array.from(keys);
    this.snapSlots = Int32Array.from(slots);
    this.snapLength = keys.length;
    this.snapGap = gapCount > 0 ? gaps / gapCount : Infinity;
    this.stale = 0;
  }

  /** In band b, the last node with key < key (or the head): walking forward from it meets every node with key >= key. */
  seek(b: number, key: number, state: Int32Array): number {
    let p = this.hint(b, key, state, 0);
    while (this.keys[p] >= key && !isSentinel(p)) p = this.prev[p];
    while (this.keys[this.next[p]] < key) p = this.next[p];
    return p;
  }

  /**
   * Re-cuts the list into bands for band-axis coordinates in [min, max] and
   * the largest range on that axis, and empties every band.
   */
  recut(min: number, max: number, maxBandRange: number): void {
    const extent = max - min;
    let height = Math.max(BAND_RANGES * maxBandRange, extent / MAX_BANDS);
    if (!(height > 0) || !(extent / height < Infinity)) height = Infinity;
    this.bands = height < Infinity ? Math.min(MAX_BANDS, Math.floor(extent / height) + 1) : 1;
    this.origin = this.bands > 1 ? min : 0;
    this.height = this.bands > 1 ? height : Infinity;
    // The cut spans every entity now.
    this.outside = 0;
    this.spared = 0;
    this.clearBands();
    this.band.fill(-1, SENTINELS);
  }

  /** Links unlinked nodes (keys set) into the bands bandFor gives, sorted by (band, key, kind), and re-takes the index. */
  link(nodes: number[], bandFor: (n: number) => number): void {
    const bandOf = new Int32Array(this.keys.length);
    for (const n of nodes) bandOf[n] = bandFor(n);
    nodes.sort((u, v) => bandOf[u] - bandOf[v] || (this.less(u, v) ? -1 : this.less(v, u) ? 1 : 0));
    for (const n of nodes) this.linkAfter(n, this.prev[2 * bandOf[n] + 1]);
    this.refreshIndex(true);
  }
}

/** The reference core of one scene. Slots are chosen by the caller; ids are only carried into events. */
export class ListsIndexCore extends CallLog {
  readonly dimensions: number;
  private capacity = 0;
  private state = new Int32Array(0);
  private ids = new Int32Array(0);
  /** The k best of a nearest search. */
  private readonly picker = new KNearest();
  /** Positions and half-extents, three per slot (z is 0 in 2-D scenes). */
  private pos = new Float64Array(0);
  private range = new Float64Array(0);
  /** Hysteresis margin per slot (0 for markers). */
  private margin = new Float64Array(0);
  /** Watchers with a margin above 0: while there are none (and nothing is held), no judgement looks at margins. */
  private margined = 0;
  /** The pairs visible only thanks to a margin: the target is inside the watcher's range + margin, outside its range. */
  protected readonly held = new HeldLinks();
  /** 1 for a slot whose range is a circle (sphere) of radius range[3s], 0 for a box. */
  private circle = new Uint8Array(0);
  /** Watchers with a circle: while there are none, a move walks and never re-scans for them. */
  private circles = 0;
  /** Layer masks: W sees T only when seesMask[W] & layer[T] is not 0 (defaults: layer 1, every bit seen). */
  private layer = new Int32Array(0);
  private seesMask = new Int32Array(0);
  /** Entities with masks other than the defaults: while there are none, no judgement looks at masks. */
  private layered = 0;
  /** watchers[s]: the slots that see s now. */
  private watcherSets: number[][] = [];
  private readonly axes: AxisList[] = [];
  /** Candidate dedup: a slot is a candidate of this step when its mark equals the stamp. */
  private markWatcher = new Int32Array(0);
  private markTarget = new Int32Array(0);
  private stamp = 0;
  /** Entities in the scene. */
  private alive = 0;
  /** Entities when the axes were last re-banded for the scene's extent. */
  private bandedAt = 0;
  private candidateWatchers: number[] = [];
  private candidateTargets: number[] = [];
  /** False when the scene reports no move events: settle skips them. */
  moveEvents = true;
  /** The step's subject before it (place, range, shape, masks), and where a move takes it (as assembly/scene/lists-step.ts). */
  private readonly oldPos = [0, 0, 0];
  private readonly oldRange = [0, 0, 0];
  private readonly newPos = [0, 0, 0];
  private oldCircle = false;
  private oldLayer = DEFAULT_LAYER;
  private oldSees = DEFAULT_SEES;

  constructor(dimensions: number) {
    super();
    this.dimensions = dimensions;
    for (let a = 0; a < dimensions; a++) this.axes.push(new AxisList(SENTINELS + NODES_PER_SLOT * 16));
    this.ensureSlot(15);
  }

  /** How the x list is cut into bands by y: for tests of the banding (not part of the backend contract). */
  xCut(): { bands: number; origin: number; height: number; outside: number } {
    const { bands, origin, height, outside } = this.axes[0];
    return { bands, origin, height, outside };
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
    this.layer = grownI32(this.layer);
    this.seesMask = grownI32(this.seesMask);
    this.markWatcher = grownI32(this.markWatcher);
    this.markTarget = grownI32(this.markTarget);
    this.pos = grownF64(this.pos);
    this.range = grownF64(this.range);
    const margin = new Float64Array(capacity);
    margin.set(this.margin);
    this.margin = margin;
    const circle = new Uint8Array(capacity);
    circle.set(this.circle);
    this.circle = circle;
    for (let s = this.watcherSets.length; s < capacity; s++) this.watcherSets.push([]);
    this.held.grow(capacity);
    for (const axis of this.axes) axis.grow(SENTINELS + NODES_PER_SLOT * capacity);
    this.capacity = capacity;
  }

  /** The flat event buffer [type, watcherId, targetId, ...] since the last drain, then forgets it. */
  drain(): Int32Array {
    return this.events.drain();
  }

  get pendingEvents(): number {
    return this.events.length / 3;
  }

  private emit(type: number, watcher: number, target: number): void {
    this.events.push(type, this.ids[watcher], this.ids[target]);
  }

  /** True when a watcher placed at (wx, wy, wz) with half-extents r (a circle of radius rx when `round`) sees the point of slot target. */
  private inBox(wx: number, wy: number, wz: number, rx: number, ry: number, rz: number, target: number, round: boolean): boolean {
    const t = target * 3;
    const p = this.pos;
    if (!(wx - rx <= p[t] && p[t] <= wx + rx)) return false;
    if (!(wy - ry <= p[t + 1] && p[t + 1] <= wy + ry)) return false;
    if (this.dimensions === 3 && !(wz - rz <= p[t + 2] && p[t + 2] <= wz + rz)) return false;
    return !round || inCircle(wx, wy, wz, rx, p[t], p[t + 1], p[t + 2]);
  }

  /** The view of slot s: its half-extents now and whether they bound a circle. */
  private holds(s: number, target: number): boolean {
    const i = s * 3;
    const p = this.pos;
    const r = this.range;
    return this.inBox(p[i], p[i + 1], p[i + 2], r[i], r[i + 1], r[i + 2], target, this.circle[s] === 1) && this.meets(this.seesMask[s], target);
  }

  /**
   * True when watcher slot w's grown view holds the point of slot target:
   * half-extents range + margin (a circle of radius range + margin), sums
   * computed here and never derived by a difference, so every core gets
   * the same bits.
   */
  private inReach(w: number, target: number): boolean {
    const i = w * 3;
    const p = this.pos;
    const r = this.range;
    const m = this.margin[w];
    return this.inBox(p[i], p[i + 1], p[i + 2], r[i] + m, r[i + 1] + m, r[i + 2] + m, target, this.circle[w] === 1);
  }

  /** Sets slot s's half-extents and margin (both 0 for a marker), keeping count of the watchers with a margin. */
  private setView(s: number, rx: number, ry: number, rz: number, watcher: boolean, margin: number): void {
    const m = watcher && margin > 0 ? margin : 0;
    this.margined += Number(m > 0) - Number(this.margin[s] > 0);
    this.margin[s] = m;
    const i = s * 3;
    this.range[i] = watcher ? rx : 0;
    this.range[i + 1] = watcher ? ry : 0;
    this.range[i + 2] = watcher && this.dimensions === 3 ? rz : 0;
  }

  /** Every held pair of slot s (as watcher or as target) becomes a candidate: only a step of one of its slots can end it. */
  private collectHeld(s: number): void {
    for (const link of this.held.of(s)) {
      if (link & 1) this.addCandidateWatcher(link >> 1);
      else this.addCandidateTarget(link >> 1);
    }
  }

  /**
   * Whether this step must judge hysteresis: the scene has margins, or held
   * pairs left from a margin that has just dropped to 0.
   */
  private hysteresis(): boolean {
    return this.margined !== 0 || this.held.size !== 0;
  }

  /**
   * Whether pair (w, t) is visible after a step, under hysteresis: `plainIs`
   * (the plain judgement now: range and masks), or it was visible (`was`),
   * the masks meet now and t is inside w's range + margin. Keeps the held
   * set to the pairs visible outside the plain range; `plainWas` is the
   * plain judgement before the step (a pair visible then but not plainly
   * was held).
   */
  private keepHeld(w: number, t: number, plainWas: boolean, was: boolean, plainIs: boolean, meetsNow: boolean): boolean {
    const heldIs = !plainIs && was && meetsNow && this.state[w] === WATCHER && this.inReach(w, t);
    if (heldIs !== (was && !plainWas)) {
      if (heldIs) this.held.add(w, t);
      else this.held.delete(w, t);
    }
    return plainIs || heldIs;
  }

  /** The watcher's mask `sees` meets the layer of slot target. */
  private meets(sees: number, target: number): boolean {
    return this.layered === 0 || (sees & this.layer[target]) !== 0;
  }

  /** Sets slot s's masks, keeping count of the entities whose masks are not the defaults (s counted before when `counted`). */
  private setMasks(s: number, layer: number, sees: number, counted: boolean): void {
    if (counted) this.layered -= Number(this.layer[s] !== DEFAULT_LAYER || this.seesMask[s] !== DEFAULT_SEES);
    this.layer[s] = layer;
    this.seesMask[s] = sees;
    this.layered += Number(layer !== DEFAULT_LAYER || sees !== DEFAULT_SEES);
  }

  /** True when watcher slot w sees a point at (x, y, z). */
  private sees(w: number, x: number, y: number, z: number): boolean {
    if (this.state[w] !== WATCHER) return false;
    const i = w * 3;
    const p = this.pos;
    const r = this.range;
    if (!(p[i] - r[i] <= x && x <= p[i] + r[i])) return false;
    if (!(p[i + 1] - r[i + 1] <= y && y <= p[i + 1] + r[i + 1])) return false;
    if (this.dimensions === 3 && !(p[i + 2] - r[i + 2] <= z && z <= p[i + 2] + r[i + 2])) return false;
    return this.circle[w] === 0 || inCircle(p[i], p[i + 1], p[i + 2], r[i], x, y, z);
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

  /** The band axis of axis a: the next one. */
  private bandAxis(a: number): number {
    return a + 1 === this.dimensions ? 0 : a + 1;
  }

  private linkNodes(s: number): void {
    const watcher = this.state[s] === WATCHER;
    for (let a = 0; a < this.dimensions; a++) {
      const axis = this.axes[a];
      axis.insert(nodeOf(s, ROLE_ENTITY), axis.bandOf(this.pos[s * 3 + this.bandAxis(a)]), this.pos[s * 3 + a], this.state);
      if (watcher) this.linkBoundaries(a, s);
      axis.refreshIndex(false);
    }
  }

  /** Links s's boundary pairs on axis a into every band its box overlaps, re-banding first if the box is too tall. */
  private linkBoundaries(a: number, s: number): void {
    const axis = this.axes[a];
    const f = this.bandAxis(a);
    const r = this.range[s * 3 + a];
    if (r > axis.maxRange) axis.maxRange = r;
    // Re-banding links every live slot's nodes, these included.
    if (!axis.fits(this.range[s * 3 + f])) return this.reband(a);
    const p = this.pos[s * 3 + a];
    const low = axis.bandOf(this.pos[s * 3 + f] - this.range[s * 3 + f]);
    const high = axis.bandOf(this.pos[s * 3 + f] + this.range[s * 3 + f]);
    for (let k = 0; k < 2; k++) {
      if (k === 1 && high === low) break;
      const b = k === 0 ? low : high;
      axis.insert(nodeOf(s, PAIR_LOWER[k]), b, p - r, this.state);
      axis.insert(nodeOf(s, PAIR_UPPER[k]), b, p + r, this.state);
    }
  }

  private unlinkBoundaries(axis: AxisList, s: number): void {
    for (let k = 0; k < 2; k++) {
      if (axis.band[nodeOf(s, PAIR_LOWER[k])] < 0) continue;
      axis.unlink(nodeOf(s, PAIR_LOWER[k]));
      axis.unlink(nodeOf(s, PAIR_UPPER[k]));
    }
  }

  private unlinkNodes(s: number): void {
    for (const axis of this.axes) {
      axis.unlink(nodeOf(s, ROLE_ENTITY));
      this.unlinkBoundaries(axis, s);
    }
  }

  /**
   * Re-cuts axis a into bands for the entities there now (their extent on the
   * band axis, and its largest range: measured here unless the caller just
   * measured them) and links every live slot's nodes anew.
   */
  private reband(a: number, [min, max, maxRange] = this.measureCut(a)): void {
    const axis = this.axes[a];
    const f = this.bandAxis(a);
    axis.recut(min, max, maxRange);
    const nodes: number[] = [];
    for (let s = 1; s < this.capacity; s++) {
      if (this.state[s] === FREE) continue;
      const p = this.pos[s * 3 + a];
      axis.keys[nodeOf(s, ROLE_ENTITY)] = p;
      nodes.push(nodeOf(s, ROLE_ENTITY));
      if (this.state[s] !== WATCHER) continue;
      const r = this.range[s * 3 + a];
      const v = this.pos[s * 3 + f];
      const rf = this.range[s * 3 + f];
      const pairs = axis.bandOf(v + rf) !== axis.bandOf(v - rf) ? 2 : 1;
      for (let k = 0; k < pairs; k++) {
        axis.keys[nodeOf(s, PAIR_LOWER[k])] = p - r;
        axis.keys[nodeOf(s, PAIR_UPPER[k])] = p + r;
        nodes.push(nodeOf(s, PAIR_LOWER[k]), nodeOf(s, PAIR_UPPER[k]));
      }
    }
    axis.link(nodes, (n) => {
      const t = slotOfNode(n);
      const role = (n - SENTINELS) % NODES_PER_SLOT;
      const v = this.pos[t * 3 + f];
      if (role === ROLE_ENTITY) return axis.bandOf(v);
      const r = this.range[t * 3 + f];
      return role < 3 ? axis.bandOf(v - r) : axis.bandOf(v + r);
    });
  }

  /** The live entities' extent on axis a's band axis, and their largest range there. */
  private measureCut(a: number): [number, number, number] {
    const f = this.bandAxis(a);
    let min = Infinity;
    let max = -Infinity;
    let maxRange = 0;
    for (let s = 1; s < this.capacity; s++) {
      if (this.state[s] === FREE) continue;
      const v = this.pos[s * 3 + f];
      if (v < min) min = v;
      if (v > max) max = v;
      if (this.state[s] === WATCHER) maxRange = Math.max(maxRange, this.range[s * 3 + f]);
    }
    return [min, max, maxRange];
  }

  /** Re-bands every axis once the scene has doubled since the last time, so bands follow the scene's extent. */
  private rebandIfGrown(): void {
    if (this.alive < BAND_MIN_ENTITIES || this.alive < 2 * this.bandedAt) return;
    this.bandedAt = this.alive;
    for (let a = 0; a < this.dimensions; a++) this.reband(a);
  }

  /**
   * Re-bands an axis once more than an eighth of the entities have left its
   * cut: a population that migrates, without growing, would otherwise crowd
   * into an end band and walk an unbanded list there. Not when the new cut
   * would need bands over twice their height to reach far outliers.
   */
  private rebandIfOutgrown(): void {
    for (let a = 0; a < this.dimensions; a++) {
      const axis = this.axes[a];
      if (axis.outside <= axis.spared + (this.alive >> 3) + BAND_MIN_ENTITIES) continue;
      const cut = this.measureCut(a);
      const [min, max, maxRange] = cut;
      // Far outliers (entities parked far away) would stretch the cut and make every band taller: keep it.
      if ((max - min) / MAX_BANDS <= 2 * BAND_RANGES * maxRange) this.reband(a, cut);
      else axis.spared = axis.outside;
    }
  }

  /** Counts slot s, at its position now, into (delta 1) or out of (-1) each axis's entities beyond the cut. */
  private countOutside(s: number, delta: number): void {
    for (let a = 0; a < this.dimensions; a++) {
      const axis = this.axes[a];
      axis.outside += delta * axis.beyond(this.pos[s * 3 + this.bandAxis(a)]);
    }
  }

  /** Every entity between s's own boundaries on the x lists, and within its box on y, becomes a target candidate. */
  private collectSpan(s: number): void {
    if (this.state[s] !== WATCHER) return;
    const axis = this.axes[0];
    const low = this.pos[s * 3 + 1] - this.range[s * 3 + 1];
    const high = this.pos[s * 3 + 1] + this.range[s * 3 + 1];
    for (let k = 0; k < 2; k++) {
      const start = nodeOf(s, PAIR_LOWER[k]);
      if (axis.band[start] < 0) continue;
      const end = nodeOf(s, PAIR_UPPER[k]);
      for (let n = axis.next[start]; n !== end; n = axis.next[n]) {
        if (kindOf(n) !== KIND_ENTITY) continue;
        const t = slotOfNode(n);
        const y = this.pos[t * 3 + 1];
        if (low <= y && y <= high && t !== s) this.addCandidateTarget(t);
      }
    }
  }

  /**
   * Every watcher whose box may hold s becomes a watcher candidate: their
   * lower x boundaries lie in s's band, at most twice the largest range
   * before s, and their centres lie within the largest y range of s's y.
   */
  private collectBoxesAround(s: number): void {
    const axis = this.axes[0];
    const x = this.pos[s * 3];
    const y = this.pos[s * 3 + 1];
    const reach = 2 * axis.maxRange;
    const limit = x - reach - 1e-9 * (Math.abs(x) + reach);
    for (let n = axis.prev[nodeOf(s, ROLE_ENTITY)]; !isSentinel(n) && axis.keys[n] >= limit; n = axis.prev[n]) {
      if (kindOf(n) !== KIND_LOWER) continue;
      const w = slotOfNode(n);
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
    const [ox, oy, oz] = this.oldPos;
    const watchers = this.watcherSets[s];
    // Others looking at s: judged on s's old and new position, both boxes fixed.
    let entering = 0;
    const masks = this.layered !== 0;
    const margins = this.hysteresis();
    for (const w of this.candidateWatchers) {
      let was = this.sees(w, ox, oy, oz);
      let is = this.sees(w, p[i], p[i + 1], p[i + 2]);
      if (masks) {
        was &&= (this.seesMask[w] & this.oldLayer) !== 0;
        is &&= (this.seesMask[w] & this.layer[s]) !== 0;
      }
      if (margins) {
        const plainWas = was;
        was ||= this.held.hasWatcher(s, w);
        is = this.keepHeld(w, s, plainWas, was, is, this.meets(this.seesMask[w], s));
      }
      if (was && !is) {
        this.emit(LEAVE, w, s);
        removeFrom(watchers, w);
      } else if (is && !was) {
        this.emit(ENTER, w, s);
        this.candidateWatchers[entering++] = w;
      }
    }
    if (moved && this.moveEvents) for (const w of watchers) this.emit(MOVE, w, s);
    for (let k = 0; k < entering; k++) watchers.push(this.candidateWatchers[k]);
    // s looking at others: its old box against its new box.
    const watcherNow = this.state[s] === WATCHER;
    const [rx, ry, rz] = this.oldRange;
    for (const t of this.candidateTargets) {
      let was = wasWatcher && this.inBox(ox, oy, oz, rx, ry, rz, t, this.oldCircle) && (!masks || (this.oldSees & this.layer[t]) !== 0);
      let is = watcherNow && this.holds(s, t);
      if (margins) {
        const plainWas = was;
        was ||= this.held.has(s, t);
        is = this.keepHeld(s, t, plainWas, was, is, this.meets(this.seesMask[s], t));
      }
      if (was && !is) {
        this.emit(LEAVE, s, t);
        removeFrom(this.watcherSets[t], s);
      } else if (is && !was) {
        this.emit(ENTER, s, t);
        this.watcherSets[t].push(s);
      }
    }
  }

  private rememberOld(s: number): void {
    for (let a = 0; a < 3; a++) {
      this.oldPos[a] = this.pos[s * 3 + a];
      this.oldRange[a] = this.range[s * 3 + a];
    }
    this.oldCircle = this.circle[s] === 1;
    this.oldLayer = this.layer[s];
    this.oldSees = this.seesMask[s];
  }

  /** Sets slot s's shape, keeping count of the watchers with a circle. */
  private setShape(s: number, watcher: boolean, round: boolean): void {
    const now = watcher && round ? 1 : 0;
    this.circles += now - (this.state[s] === WATCHER ? this.circle[s] : 0);
    this.circle[s] = now;
  }

  /** Adds entity `slot` (free) with user id `id`; a marker (watcher = false) sees nothing. A watcher keeps seeing a target until it leaves range + `margin`. */
  add(slot: number, id: number, x: number, y: number, z: number, rx: number, ry: number, rz: number, watcher: boolean, round = false, layer = DEFAULT_LAYER, sees = DEFAULT_SEES, margin = 0): void {
    this.ensureSlot(slot);
    this.rebandIfGrown();
    this.setShape(slot, watcher, round);
    this.setMasks(slot, layer, sees, false);
    this.state[slot] = watcher ? WATCHER : MARKER;
    this.alive++;
    this.ids[slot] = id;
    const i = slot * 3;
    this.pos[i] = x;
    this.pos[i + 1] = y;
    this.pos[i + 2] = this.dimensions === 3 ? z : 0;
    this.setView(slot, rx, ry, rz, watcher, margin);
    this.watcherSets[slot].length = 0;
    this.linkNodes(slot);
    this.countOutside(slot, 1);
    this.newStep();
    this.collectSpan(slot);
    this.collectBoxesAround(slot);
    // Nothing was seen before the add: an old position no box holds.
    this.oldPos[0] = this.oldPos[1] = this.oldPos[2] = NaN;
    this.settle(slot, false, false);
    this.rebandIfOutgrown();
  }

  /** Moves entity `slot` to (x, y, z), walking its nodes or, for a long jump, re-scanning. */
  move(slot: number, x: number, y: number, z: number): void {
    const i = slot * 3;
    if (this.dimensions === 2) z = 0;
    const p = this.pos;
    if (p[i] === x && p[i + 1] === y && p[i + 2] === z) return;
    this.rememberOld(slot);
    this.newStep();
    this.countOutside(slot, -1);
    const watcher = this.state[slot] === WATCHER;
    const newPos = this.newPos;
    newPos[0] = x;
    newPos[1] = y;
    newPos[2] = z;
    if (this.isTeleport(slot, newPos)) {
      // Whoever sees it now has a box around its old place: found like an add's watchers.
      this.collectSpan(slot);
      this.collectBoxesAround(slot);
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
        const f = this.bandAxis(a);
        const from = p[i + a];
        const to = newPos[a];
        if (watcher) this.stepBoundaries(a, slot, from, to);
        this.step(a, nodeOf(slot, ROLE_ENTITY), from, to, axis.bandOf(newPos[f]), slot);
      }
      p[i] = x;
      p[i + 1] = y;
      p[i + 2] = z;
      if (this.circles > 0) this.collectInsideCircles(slot);
    }
    if (this.held.size !== 0) this.collectHeld(slot);
    this.countOutside(slot, 1);
    this.settle(slot, true, watcher);
    this.rebandIfOutgrown();
  }

  /**
   * A walk finds the pairs whose boxes the mover crossed; a circle's view
   * also changes inside its bounding box, where nothing is crossed. So, while
   * the scene has circles, every box that may hold the mover now is judged
   * (a box that held it before and not now was crossed), and a mover with a
   * circle judges everything in its new box.
   */
  private collectInsideCircles(slot: number): void {
    this.collectBoxesAround(slot);
    if (this.circle[slot] === 1) this.collectSpan(slot);
  }

  /**
   * A walk costs the nodes crossed, roughly |step| per node; a re-scan costs
   * the nodes of the mover's own box plus of the widest box around it.
   */
  private isTeleport(slot: number, newPos: number[]): boolean {
    const watcher = this.state[slot] === WATCHER;
    let walk = 0;
    for (let a = 0; a < this.dimensions; a++) walk += Math.abs(newPos[a] - this.pos[slot * 3 + a]);
    if (watcher) walk *= 3;
    const scan = (watcher ? 4 * this.range[slot * 3] : 0) + 2 * this.axes[0].maxRange;
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
  private stepBoundaries(a: number, s: number, from: number, to: number): void {
    const axis = this.axes[a];
    const f = this.bandAxis(a);
    const r = this.range[s * 3 + a];
    const rf = this.range[s * 3 + f];
    const lowWas = axis.bandOf(this.oldPos[f] - rf);
    const highWas = axis.bandOf(this.oldPos[f] + rf);
    const lowWill = axis.bandOf(this.newPos[f] - rf);
    const highWill = axis.bandOf(this.newPos[f] + rf);
    this.stepPair(a, 0, s, from, to, r, lowWas, lowWill);
    this.stepPair(a, 1, s, from, to, r, highWas !== lowWas ? highWas : -1, highWill !== lowWill ? highWill : -1);
  }

  /** Pair k of s goes from band `was` to band `will` (-1: not linked), walking in each. */
  private stepPair(a: number, k: number, s: number, from: number, to: number, r: number, was: number, will: number): void {
    const axis = this.axes[a];
    if (was >= 0) {
      this.walkPair(a, k, s, from, to, r);
      if (was === will) return;
      axis.unlink(nodeOf(s, PAIR_LOWER[k]));
      axis.unlink(nodeOf(s, PAIR_UPPER[k]));
    }
    if (will >= 0) this.enterBand(a, k, s, will, from, to, r);
  }

  /** Links pair k of s into band b at its old keys, then walks it to the new ones. */
  private enterBand(a: number, k: number, s: number, b: number, from: number, to: number, r: number): void {
    const axis = this.axes[a];
    axis.insert(nodeOf(s, PAIR_LOWER[k]), b, from - r, this.state);
    axis.insert(nodeOf(s, PAIR_UPPER[k]), b, from + r, this.state);
    this.walkPair(a, k, s, from, to, r);
  }

  /** Walks pair k of s to its keys around `to`, the leading boundary first. */
  private walkPair(a: number, k: number, s: number, from: number, to: number, r: number): void {
    const forward = to > from;
    if (forward) this.walk(a, nodeOf(s, PAIR_UPPER[k]), to + r, s);
    this.walk(a, nodeOf(s, PAIR_LOWER[k]), to - r, s);
    if (!forward) this.walk(a, nodeOf(s, PAIR_UPPER[k]), to + r, s);
  }

  /** Moves s's entity node on axis a from `from` to `to`, into band b: walking in its old band, then, when the band changes, in the new one from the old key. */
  private step(a: number, n: number, from: number, to: number, b: number, s: number): void {
    const axis = this.axes[a];
    this.walk(a, n, to, s);
    if (axis.band[n] === b) return;
    axis.unlink(n);
    axis.insert(n, b, from, this.state);
    this.walk(a, n, to, s);
  }

  /** Moves node n on axis a to key within its band, marking as candidates the entities or boxes it crosses. */
  private walk(a: number, n: number, key: number, slot: number): void {
    const axis = this.axes[a];
    axis.keys[n] = key;
    const entity = kindOf(n) === KIND_ENTITY;
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
    const otherSlot = slotOfNode(other);
    if (otherSlot === slot) return;
    const otherIsEntity = kindOf(other) === KIND_ENTITY;
    const f = this.bandAxis(a);
    const before = this.oldPos[f];
    const after = this.newPos[f];
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
    this.collectHeld(slot);
    this.rememberOld(slot);
    const wasWatcher = this.state[slot] === WATCHER;
    for (const t of this.candidateTargets) {
      if (wasWatcher && (this.holds(slot, t) || this.held.has(slot, t))) {
        this.emit(LEAVE, slot, t);
        removeFrom(this.watcherSets[t], slot);
      }
    }
    for (const w of this.watcherSets[slot]) this.emit(LEAVE, w, slot);
    this.watcherSets[slot].length = 0;
    this.held.release(slot);
    this.countOutside(slot, -1);
    this.unlinkNodes(slot);
    this.setShape(slot, false, false);
    this.setView(slot, 0, 0, 0, false, 0);
    this.setMasks(slot, DEFAULT_LAYER, DEFAULT_SEES, true);
    this.state[slot] = FREE;
    this.alive--;
    this.rebandIfOutgrown();
  }

  /** Changes what `slot` sees: new half-extents (of a circle when `round`) and margin, or a marker when watcher is false. */
  setRange(slot: number, rx: number, ry: number, rz: number, watcher: boolean, round = false, margin = 0): void {
    this.newStep();
    this.rememberOld(slot);
    const wasWatcher = this.state[slot] === WATCHER;
    this.collectSpan(slot);
    this.collectHeld(slot);
    if (wasWatcher) for (const axis of this.axes) this.unlinkBoundaries(axis, slot);
    this.setShape(slot, watcher, round);
    this.state[slot] = watcher ? WATCHER : MARKER;
    this.setView(slot, rx, ry, rz, watcher, margin);
    if (watcher) {
      for (let a = 0; a < this.dimensions; a++) this.linkBoundaries(a, slot);
    }
    this.collectSpan(slot);
    this.settle(slot, false, wasWatcher);
    this.rebandIfOutgrown();
  }

  /** Changes `slot`'s masks: enter / leave for every pair, with slot as watcher or as target, whose visibility changes. */
  setLayers(slot: number, layer: number, sees: number): void {
    this.newStep();
    this.rememberOld(slot);
    this.collectSpan(slot);
    this.collectBoxesAround(slot);
    this.collectHeld(slot);
    // The old masks stay counted through the step: its judgement needs them.
    this.setMasks(slot, layer, sees, false);
    this.settle(slot, false, this.state[slot] === WATCHER);
    this.layered -= Number(this.oldLayer !== DEFAULT_LAYER || this.oldSees !== DEFAULT_SEES);
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
      this.setView(s, r, r, r, true, 0);
      this.watcherSets[s].length = 0;
      this.circle[s] = 0;
      this.layer[s] = DEFAULT_LAYER;
      this.seesMask[s] = DEFAULT_SEES;
      this.markTarget[s] = this.stamp;
    }
    for (let k = 0; k < n; k++) this.state[slots[k]] = WATCHER;
    this.alive += n;
    // Sorting every node costs about what merging the new ones would, and the bands follow the new extent.
    this.bandedAt = this.alive;
    for (let a = 0; a < this.dimensions; a++) {
      for (let k = 0; k < n; k++) this.axes[a].maxRange = Math.max(this.axes[a].maxRange, ranges[k]);
      this.reband(a);
    }
    this.enterAllPairs(slots);
    this.rebandIfOutgrown();
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
            if (this.inBox(p[i], p[i + 1], p[i + 2], r[i], r[i + 1], r[i + 2], t, false) && this.meets(DEFAULT_SEES, t)) {
              this.emit(ENTER, s, t);
              this.watcherSets[t].push(s);
            }
            // A pair inside the batch is found again from its other member.
            if (this.markTarget[t] !== this.stamp && this.sees(t, p[i], p[i + 1], p[i + 2]) && this.meets(this.seesMask[t], s)) {
              this.emit(ENTER, t, s);
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

  /** x, y, z of each slot, in order. */
  positions(slots: Int32Array): Float64Array {
    const out = new Float64Array(3 * slots.length);
    for (let k = 0; k < slots.length; k++) out.set(this.pos.subarray(3 * slots[k], 3 * slots[k] + 3), 3 * k);
    return out;
  }

  /** Ids that `slot` sees, unordered. */
  query(slot: number): number[] {
    this.newStep();
    this.collectSpan(slot);
    const out: number[] = [];
    for (const t of this.candidateTargets) {
      if (this.holds(slot, t)) out.push(this.ids[t]);
    }
    // Held targets lie outside the range, so the span never has them.
    for (const link of this.held.of(slot)) if ((link & 1) === 0) out.push(this.ids[link >> 1]);
    return out;
  }

  /** Every held pair (visible only thanks to a margin) as slots [w0, t0, w1, t1, ...], in no particular order. */
  heldPairs(): Int32Array {
    return Int32Array.from(this.held.list());
  }

  /**
   * Makes pair (w, t) visible, for restoring a snapshot: when w is a
   * watcher, its mask meets t's layer, t is inside w's range + margin and
   * the pair is not visible, emits enter and holds the pair (t is then
   * outside w's plain range, or it would be visible already); otherwise
   * does nothing.
   */
  hold(w: number, t: number): void {
    if (w === t || this.state[w] !== WATCHER || this.state[t] === FREE) return;
    if ((this.seesMask[w] & this.layer[t]) === 0 || !this.inReach(w, t)) return;
    if (this.holds(w, t) || this.held.has(w, t)) return;
    this.emit(ENTER, w, t);
    this.watcherSets[t].push(w);
    this.held.add(w, t);
  }

  /** Ids that see `slot`, unordered. */
  watchers(slot: number): number[] {
    return this.watcherSets[slot].map((w) => this.ids[w]);
  }

  /** Ids positioned in the closed box, unordered: the x lists of the bands the box overlaps on y. */
  queryBox(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number[] {
    const axis = this.axes[0];
    const out: number[] = [];
    for (let b = axis.bandOf(minY); b <= axis.bandOf(maxY); b++) {
      for (let n = axis.next[axis.seek(b, minX, this.state)]; axis.keys[n] <= maxX && !isSentinel(n); n = axis.next[n]) {
        if (kindOf(n) !== KIND_ENTITY) continue;
        const s = slotOfNode(n);
        const y = this.pos[s * 3 + 1];
        const z = this.pos[s * 3 + 2];
        if (minY <= y && y <= maxY && (this.dimensions === 2 || (minZ <= z && z <= maxZ))) out.push(this.ids[s]);
      }
    }
    return out;
  }

  /** Layer mask of slot s. */
  private layerOf(s: number): number {
    return this.layer[s];
  }

  /**
   * Ids of the k entities nearest to (x, y, z), nearest first (see KNearest).
   * Bands of the x lists outward from y's band, while the band's gap on y
   * can still beat the k-th best; in each, two cursors walk outward from x
   * along the sorted list, nearer first, until the x gap alone is too far.
   */
  nearest(x: number, y: number, z: number, k: number, maxDistance: number, filtered: boolean, mask: number): Int32Array {
    const picker = this.picker;
    picker.reset(k, maxDistance, filtered, mask);
    const axis = this.axes[0];
    const home = axis.bandOf(y);
    const scale = Math.abs(y) + Math.abs(axis.origin);
    for (let d = 0; ; d++) {
      const low = home - d;
      const high = home + d;
      // Band gaps grow outward and the bound only shrinks: a side once closed stays closed.
      const lowOpen = low >= 0 && !beyondBound(bandGap(axis, low, y), scale, picker.bound());
      const highOpen = d > 0 && high < axis.bands && !beyondBound(bandGap(axis, high, y), scale, picker.bound());
      if (!lowOpen && !highOpen) break;
      if (lowOpen) this.nearestInBand(low, x, y, z, picker);
      if (highOpen) this.nearestInBand(high, x, y, z, picker);
    }
    return picker.take();
  }

  /** Offers band b's entities to the picker, outward from x, until the x gap alone is beyond its bound. */
  private nearestInBand(b: number, x: number, y: number, z: number, picker: KNearest): void {
    const axis = this.axes[0];
    let left = axis.seek(b, x, this.state);
    let right = axis.next[left];
    while (!isSentinel(left) && kindOf(left) !== KIND_ENTITY) left = axis.prev[left];
    while (!isSentinel(right) && kindOf(right) !== KIND_ENTITY) right = axis.next[right];
    for (;;) {
      const leftGap = isSentinel(left) ? Infinity : x - axis.keys[left];
      const rightGap = isSentinel(right) ? Infinity : axis.keys[right] - x;
      const takeLeft = leftGap < rightGap;
      const gap = takeLeft ? leftGap : rightGap;
      // Exact: a squared distance is at least its x term, and the x gap only grows outward.
      if (gap === Infinity || gap * gap > picker.bound()) return;
      const n = takeLeft ? left : right;
      const s = slotOfNode(n);
      picker.offer(this.ids[s], this.layerOf(s), this.pos[s * 3], this.pos[s * 3 + 1], this.pos[s * 3 + 2], x, y, z);
      if (takeLeft) {
        do left = axis.prev[left];
        while (!isSentinel(left) && kindOf(left) !== KIND_ENTITY);
      } else {
        do right = axis.next[right];
        while (!isSentinel(right) && kindOf(right) !== KIND_ENTITY);
      }
    }
  }

  /** Forgets every entity and every pending event. */
  clear(): void {
    this.state.fill(FREE);
    this.circle.fill(0);
    this.circles = 0;
    this.margin.fill(0);
    this.margined = 0;
    this.held.clear();
    this.layer.fill(DEFAULT_LAYER);
    this.seesMask.fill(DEFAULT_SEES);
    this.layered = 0;
    for (const set of this.watcherSets) set.length = 0;
    for (const axis of this.axes) axis.reset();
    this.events.clear();
    this.alive = 0;
    this.bandedAt = 0;
  }
}

/** How far band b of axis lies from band-axis coordinate v: 0 inside it (the end bands reach to infinity). */
function bandGap(axis: AxisList, b: number, v: number): number {
  const low = b === 0 ? -Infinity : axis.origin + b * axis.height;
  const high = b === axis.bands - 1 ? Infinity : axis.origin + (b + 1) * axis.height;
  return v < low ? low - v : v > high ? v - high : 0;
}

/** Batches at least this large (and a quarter of the scene) are loaded in bulk. */
const BULK_MIN = 32;

/**
 * A throwaway uniform grid over every entity's (x, y), cells at least as
 * wide as the largest range, so whoever sees a point sits in the 3 x 3 cells
 * around it. A grid whose cells would outnumber the entities (entities on a
 * line or in a few clusters across a wide world) keeps only the cells it
 * uses, numbered through a map of their (column, row): cells never grow
 * wider than the range, so a crowded strip is never lumped into a few huge
 * cells that every entity there would scan.
 */
class BulkGrid {
  private readonly minX: number;
  private readonly minY: number;
  private readonly size: number;
  private readonly columns: number;
  private readonly rows: number;
  private readonly starts: Int32Array;
  private readonly items: Int32Array;
  /** The occupied cells' numbers by (column, row), when the grid keeps only those. */
  private readonly occupied: PairTable | null;

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
    // Columns and rows stay int32, as in the wasm core.
    while (size < Infinity && Math.max(spanX, spanY) / size >= GRID_AXIS_CELLS) size *= 2;
    this.minX = minX;
    this.minY = minY;
    this.size = size;
    this.columns = size < Infinity ? Math.floor(spanX / size) + 1 : 1;
    this.rows = size < Infinity ? Math.floor(spanY / size) + 1 : 1;
    this.occupied = this.columns * this.rows <= 2 * count + 64 ? null : new PairTable();
    const cellOf = new Int32Array(capacity);
    for (let s = 1; s < capacity; s++) {
      if (state[s] === FREE) continue;
      const gx = this.column(pos[s * 3]);
      const gy = this.row(pos[s * 3 + 1]);
      cellOf[s] = this.occupied === null ? gx + gy * this.columns : this.occupied.indexOf(gx, gy);
    }
    const cells = this.occupied === null ? this.columns * this.rows : this.occupied.size;
    this.starts = new Int32Array(cells + 1);
    this.items = new Int32Array(count);
    for (let s = 1; s < capacity; s++) if (state[s] !== FREE) this.starts[cellOf[s] + 1]++;
    for (let c = 0; c < cells; c++) this.starts[c + 1] += this.starts[c];
    const fill = this.starts.slice(0, cells);
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
    const c = this.occupied === null ? gx + gy * this.columns : this.occupied.find(gx, gy);
    return c < 0 ? EMPTY : this.items.subarray(this.starts[c], this.starts[c + 1]);
  }
}

/** Columns (and rows) a bulk grid may have along an axis. */
const GRID_AXIS_CELLS = 2 ** 30;

const EMPTY = new Int32Array(0);

/** Removes one occurrence of value from an unordered list (swap with the last). */
function removeFrom(list: number[], value: number): void {
  const k = list.indexOf(value);
  const last = list.pop()!;
  if (k < list.length) list[k] = last;
}
