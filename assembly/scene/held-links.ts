// The (watcher, target) slot pairs a lists Scene core keeps seeing only
// because of a hysteresis margin (the target is inside the watcher's range +
// margin, outside its range), kept as a link on each slot of a pair: a step
// finds the held pairs of the slot it changes without a search. An IntList
// per slot holds its links, 2 * t for a held pair (s, t) and 2 * w + 1 for a
// held pair (w, s); a slot holds few, so lookups scan. Every change is
// journaled first (see `journal`), so a call that fails part way can still
// name the pairs held before it.
import { IntList, newIntList, freeIntList } from './int-list';

/** The held pairs of a scene, as links per slot. */
@unmanaged
export class HeldLinks {
  /** An IntList per slot. */
  lists: usize;
  capacity: i32;
  /** Pairs held. */
  size: i32;
  /** The current call's changes, three i32 each: w, t, then 1 (held) or -1 (dropped); the scene empties it as a call begins. */
  journal: IntList;

  /** Journals a change of pair (w, t) before it is made. */
  @inline note(w: i32, t: i32, change: i32): void {
    const journal = this.journal;
    journal.push(w);
    journal.push(t);
    journal.push(change);
  }

  /** Slot s's links. */
  @inline of(s: i32): IntList {
    return changetype<IntList>(this.lists + <usize>s * offsetof<IntList>());
  }

  /** Makes room for slots below capacity. */
  grow(capacity: i32): void {
    if (capacity <= this.capacity) return;
    const oldBytes = <usize>this.capacity * offsetof<IntList>();
    const bytes = <usize>capacity * offsetof<IntList>();
    this.lists = this.lists == 0 ? heap.alloc(bytes) : heap.realloc(this.lists, bytes);
    memory.fill(this.lists + oldBytes, 0, bytes - oldBytes);
    this.capacity = capacity;
  }

  /** Pair (w, t) is held: looked up in w's links. */
  @inline has(w: i32, t: i32): bool {
    return this.links(w, 2 * t);
  }

  /** Pair (w, t) is held: looked up in t's links (the ones in cache when t is the slot being changed). */
  @inline hasWatcher(t: i32, w: i32): bool {
    return this.links(t, 2 * w + 1);
  }

  /** Slot s has this link. */
  links(s: i32, link: i32): bool {
    if (this.size == 0) return false;
    const own = this.of(s);
    for (let k = 0, n = own.length; k < n; k++) if (own.get(k) == link) return true;
    return false;
  }

  /** Holds pair (w, t), which is not held. */
  add(w: i32, t: i32): void {
    this.note(w, t, 1);
    this.of(w).push(2 * t);
    this.of(t).push(2 * w + 1);
    this.size++;
  }

  /** Drops pair (w, t), which is held. */
  delete(w: i32, t: i32): void {
    this.note(w, t, -1);
    this.of(w).removeValue(2 * t);
    this.of(t).removeValue(2 * w + 1);
    this.size--;
  }

  /** Drops every held pair of slot s, as watcher or as target. */
  release(s: i32): void {
    const own = this.of(s);
    for (let k = 0, n = own.length; k < n; k++) {
      const link = own.get(k);
      if (link & 1) this.note(link >> 1, s, -1);
      else this.note(s, link >> 1, -1);
    }
    for (let k = 0, n = own.length; k < n; k++) {
      const link = own.get(k);
      this.of(link >> 1).removeValue(link & 1 ? 2 * s : 2 * s + 1);
    }
    this.size -= own.length;
    own.length = 0;
  }

  /** Appends every pair to out as watcher, target. */
  list(out: IntList): void {
    for (let w = 0; w < this.capacity; w++) {
      const own = this.of(w);
      for (let k = 0, n = own.length; k < n; k++) {
        const link = own.get(k);
        if ((link & 1) != 0) continue;
        out.push(w);
        out.push(link >> 1);
      }
    }
  }

  clear(): void {
    for (let s = 0; s < this.capacity; s++) this.of(s).length = 0;
    this.size = 0;
  }

  /** Bytes held, by capacity. */
  bytes(): f64 {
    let bytes = <f64>offsetof<HeldLinks>() + <f64>this.capacity * <f64>offsetof<IntList>();
    for (let s = 0; s < this.capacity; s++) bytes += <f64>this.of(s).capacity * 4;
    return bytes;
  }
}

/** An empty set of held pairs with room for no slot yet (grow gives it some). */
export function newHeldLinks(): HeldLinks {
  const links = changetype<HeldLinks>(heap.alloc(offsetof<HeldLinks>()));
  links.lists = 0;
  links.capacity = 0;
  links.size = 0;
  links.journal = newIntList();
  return links;
}

/** Frees the links and every slot's list. */
export function freeHeldLinks(links: HeldLinks): void {
  for (let s = 0; s < links.capacity; s++) links.of(s).release();
  if (links.lists != 0) heap.free(links.lists);
  freeIntList(links.journal);
  heap.free(changetype<usize>(links));
}
