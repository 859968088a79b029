// A set of (watcher, target) slot pairs in linear memory: the pairs a grid
// watcher keeps seeing only because of a hysteresis margin (the target is
// inside the watcher's range + margin but outside its range) that its
// record has no room for (see held-targets.ts). Open addressing with linear
// probing; deletion shifts the probe run back, so no tombstones pile up
// under steady churn. Every change of a held pair, wherever it is kept, is
// journaled here first (see `journal`), so a call that fails part way can
// still name the pairs held before it.
import { IntList, newIntList, freeIntList } from './int-list';

/** Buckets hold one u64 key each: watcher << 32 | target; 0 is an empty bucket (slot 0 is never a pair's watcher). */
@unmanaged
export class PairSet {
  table: usize;
  mask: i32;
  size: i32;
  /** The current call's changes, three i32 each: w, t, then 1 (added) or -1 (deleted); the scene empties it as a call begins. */
  journal: IntList;

  @inline static key(w: i32, t: i32): u64 {
    return (<u64><u32>w << 32) | <u64><u32>t;
  }

  @inline home(key: u64): i32 {
    let h = key * 0x9e3779b97f4a7c15;
    h ^= h >> 29;
    return <i32>h & this.mask;
  }

  @inline at(b: i32): usize {
    return this.table + (<usize>b << 3);
  }

  has(w: i32, t: i32): bool {
    if (this.size == 0) return false;
    const key = PairSet.key(w, t);
    for (let b = this.home(key); ; b = (b + 1) & this.mask) {
      const k = load<u64>(this.at(b));
      if (k == key) return true;
      if (k == 0) return false;
    }
    return false;
  }

  add(w: i32, t: i32): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    const key = PairSet.key(w, t);
    let b = this.home(key);
    while (true) {
      const k = load<u64>(this.at(b));
      if (k == key) return;
      if (k == 0) break;
      b = (b + 1) & this.mask;
    }
    this.note(w, t, 1);
    store<u64>(this.at(b), key);
    this.size++;
  }

  delete(w: i32, t: i32): void {
    if (this.size == 0) return;
    const key = PairSet.key(w, t);
    let b = this.home(key);
    while (true) {
      const k = load<u64>(this.at(b));
      if (k == 0) return;
      if (k == key) break;
      b = (b + 1) & this.mask;
    }
    this.note(w, t, -1);
    // Backward shift: later entries of the run whose home is not between the hole and them move into it.
    let hole = b;
    for (let j = (b + 1) & this.mask; ; j = (j + 1) & this.mask) {
      const k = load<u64>(this.at(j));
      if (k == 0) break;
      const h = this.home(k);
      const stays = hole <= j ? hole < h && h <= j : hole < h || h <= j;
      if (stays) continue;
      store<u64>(this.at(hole), k);
      hole = j;
    }
    store<u64>(this.at(hole), 0);
    this.size--;
  }

  /** Appends every pair to out as watcher, target. */
  list(out: IntList): void {
    for (let b = 0; b <= this.mask; b++) {
      const k = load<u64>(this.at(b));
      if (k == 0) continue;
      out.push(<i32>(k >> 32));
      out.push(<i32>k);
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
    this.size = 0;
    for (let b = 0; b < buckets; b++) {
      const k = load<u64>(old + (<usize>b << 3));
      if (k != 0) this.insert(k);
    }
    heap.free(old);
  }

  /** Puts key into a free bucket of its run (the table has room; nothing journaled). */
  insert(key: u64): void {
    let b = this.home(key);
    while (load<u64>(this.at(b)) != 0) b = (b + 1) & this.mask;
    store<u64>(this.at(b), key);
    this.size++;
  }
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
