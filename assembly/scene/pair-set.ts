// A set of (watcher, target) slot pairs in linear memory: the pairs a Scene
// core keeps seeing only because of a hysteresis margin (the target is
// inside the watcher's range + margin but outside its range). Both pairs of
// two slots share one entry, a flag each, so a step that judges two slots
// both ways finds both in one probe. Open addressing with linear probing;
// deletion shifts the probe run back, so no tombstones pile up under steady
// churn. Every change is journaled first (see `journal`), so a call that
// fails part way can still name the pairs held before it.
import { IntList, newIntList, freeIntList } from './int-list';

/**
 * An entry, one u64 per bucket, 0 for an empty one: the two slots of the
 * pairs, lower (lo) and higher (hi), and a flag for each pair held. Slots
 * are below 2^31, so each half keeps its top bit for a flag:
 *
 *   63   62          32   31   30           0
 *   ┌────┬─────────────┬────┬──────────────┐
 *   │ lo │     lo      │ hi │      hi      │   flag bit: (lo, hi) held; (hi, lo) held
 *   │sees│             │sees│              │
 *   └────┴─────────────┴────┴──────────────┘
 */
const LO_SEES: u64 = 1 << 63;
const HI_SEES: u64 = 1 << 31;
const FLAGS: u64 = LO_SEES | HI_SEES;

/** The pairs of slots s and t: bit 0 for (t, s) held, bit 1 for (s, t) held (as `both` answers). */
export const T_HOLDS_S: i32 = 1;
export const S_HOLDS_T: i32 = 2;

@unmanaged
export class PairSet {
  table: usize;
  mask: i32;
  /** Entries: slot pairs with at least one pair held. */
  size: i32;
  /** The current call's changes, three i32 each: w, t, then 1 (added) or -1 (deleted); the scene empties it as a call begins. */
  journal: IntList;

  /** The entry's slots of s and t, without flags. */
  @inline static key(s: i32, t: i32): u64 {
    const lo = min<u32>(<u32>s, <u32>t), hi = max<u32>(<u32>s, <u32>t);
    return (<u64>lo << 32) | <u64>hi;
  }

  @inline home(key: u64): i32 {
    let h = key * 0x9e3779b97f4a7c15;
    h ^= h >> 29;
    return <i32>h & this.mask;
  }

  @inline at(b: i32): usize {
    return this.table + (<usize>b << 3);
  }

  /** The bucket of key's entry, or the empty bucket where it would go. */
  @inline find(key: u64): i32 {
    let b = this.home(key);
    while (true) {
      const k = load<u64>(this.at(b)) & ~FLAGS;
      if (k == key || k == 0) return b;
      b = (b + 1) & this.mask;
    }
    return b;
  }

  /** The pairs of s and t held: T_HOLDS_S, S_HOLDS_T, both or none. */
  @inline both(s: i32, t: i32): i32 {
    if (this.size == 0) return 0;
    return flagsOf(s, t, load<u64>(this.at(this.find(PairSet.key(s, t)))));
  }

  has(w: i32, t: i32): bool {
    return (this.both(w, t) & S_HOLDS_T) != 0;
  }

  add(w: i32, t: i32): void {
    const both = this.both(w, t);
    this.setBoth(w, t, both, both | S_HOLDS_T);
  }

  delete(w: i32, t: i32): void {
    const both = this.both(w, t);
    this.setBoth(w, t, both, both & ~S_HOLDS_T);
  }

  /** Sets the pairs of s and t held from `from` (what `both` answers) to `to`, journaling each change. */
  setBoth(s: i32, t: i32, from: i32, to: i32): void {
    if (from == to) return;
    const change = from ^ to;
    if (change & T_HOLDS_S) this.note(t, s, (to & T_HOLDS_S) != 0 ? 1 : -1);
    if (change & S_HOLDS_T) this.note(s, t, (to & S_HOLDS_T) != 0 ? 1 : -1);
    const key = PairSet.key(s, t);
    if (to == 0) {
      this.remove(this.find(key));
      return;
    }
    if (from == 0 && (this.size + 1) * 2 > this.mask + 1) this.grow();
    const b = this.find(key);
    if (from == 0) this.size++;
    store<u64>(this.at(b), key | entryFlags(s, t, to));
  }

  /** Empties bucket b, shifting back later entries of its run whose home is not between the hole and them. */
  remove(b: i32): void {
    let hole = b;
    for (let j = (b + 1) & this.mask; ; j = (j + 1) & this.mask) {
      const k = load<u64>(this.at(j));
      if (k == 0) break;
      const h = this.home(k & ~FLAGS);
      const stays = hole <= j ? hole < h && h <= j : hole < h || h <= j;
      if (stays) continue;
      store<u64>(this.at(hole), k);
      hole = j;
    }
    store<u64>(this.at(hole), 0);
    this.size--;
  }

  /** Appends every pair held to out as watcher, target. */
  list(out: IntList): void {
    for (let b = 0; b <= this.mask; b++) {
      const k = load<u64>(this.at(b));
      if (k == 0) continue;
      const lo = <i32>((k >> 32) & 0x7fffffff), hi = <i32>(k & 0x7fffffff);
      if (k & LO_SEES) {
        out.push(lo);
        out.push(hi);
      }
      if (k & HI_SEES) {
        out.push(hi);
        out.push(lo);
      }
    }
  }

  clear(): void {
    memory.fill(this.table, 0, (<usize>this.mask + 1) << 3);
    this.size = 0;
  }

  /** Journals a change of pair (w, t) before it is made. */
  @inline note(w: i32, t: i32, change: i32): void {
    const journal = this.journal;
    journal.reserve(journal.length + 3);
    const at = journal.data + (<usize>journal.length << 2);
    store<i32>(at, w);
    store<i32>(at, t, 4);
    store<i32>(at, change, 8);
    journal.length += 3;
  }

  grow(): void {
    const old = this.table;
    const buckets = this.mask + 1;
    // The bigger table first: should it not be had, the set is as it was.
    const table = heap.alloc(<usize>buckets << 4);
    memory.fill(table, 0, <usize>buckets << 4);
    this.table = table;
    this.mask = this.mask * 2 + 1;
    for (let b = 0; b < buckets; b++) {
      const k = load<u64>(old + (<usize>b << 3));
      if (k != 0) store<u64>(this.at(this.find(k & ~FLAGS)), k);
    }
    heap.free(old);
  }
}

/** What `both(s, t)` answers for entry k of s and t. */
@inline function flagsOf(s: i32, t: i32, k: u64): i32 {
  const loSees = <i32>((k & LO_SEES) != 0), hiSees = <i32>((k & HI_SEES) != 0);
  // s is lo: (s, t) is lo's pair; s is hi: (s, t) is hi's.
  return s < t ? hiSees | (loSees << 1) : loSees | (hiSees << 1);
}

/** The flags of an entry of s and t for `both` answers `to`. */
@inline function entryFlags(s: i32, t: i32, to: i32): u64 {
  const sHolds = (to & S_HOLDS_T) != 0, tHolds = (to & T_HOLDS_S) != 0;
  const loHolds = s < t ? sHolds : tHolds, hiHolds = s < t ? tHolds : sHolds;
  return (loHolds ? LO_SEES : 0) | (hiHolds ? HI_SEES : 0);
}

export function newPairSet(): PairSet {
  const set = changetype<PairSet>(heap.alloc(offsetof<PairSet>()));
  set.mask = 15;
  set.table = heap.alloc(16 << 3);
  memory.fill(set.table, 0, 16 << 3);
  set.size = 0;
  set.journal = newIntList();
  return set;
}

export function freePairSet(set: PairSet): void {
  heap.free(set.table);
  freeIntList(set.journal);
  heap.free(changetype<usize>(set));
}
