// The targets a watcher holds by its margin (the pairs it keeps seeing only
// because of it), kept in its own record, HELD_INLINE of them, the rest in
// the scene's PairSet: a step reads the held pairs of the records it judges
// and of its subject, all in cache already, and probes the set only for a
// watcher with more. A block is a record's held targets or the Step's copy
// of its subject's (grid-records.ts draws it).
import { HELD_INLINE, HELD_SPILLED, HELD_TARGETS } from './grid-records';
import { IntList } from './int-list';
import { PairSet } from './pair-set';

/** Whether watcher w, whose held targets are at block b, holds t. */
@inline export function holdsTarget(b: usize, w: i32, t: i32, spilled: PairSet): bool {
  const k = t + 1;
  let inline = 0;
  for (let j = 0; j < HELD_INLINE; j++) inline |= <i32>(load<i32>(b + HELD_TARGETS + (<usize>j << 2)) == k);
  return inline != 0 || (load<i32>(b, HELD_SPILLED) != 0 && spilled.has(w, t));
}

/** Makes watcher w (held targets at block b) hold t, which it does not: in the block when it has room, else in the set. */
export function addHeldTarget(b: usize, w: i32, t: i32, spilled: PairSet): void {
  for (let j = 0; j < HELD_INLINE; j++) {
    const at = b + HELD_TARGETS + (<usize>j << 2);
    if (load<i32>(at) != 0) continue;
    spilled.note(w, t, 1);
    store<i32>(at, t + 1);
    return;
  }
  spilled.add(w, t);
  store<i32>(b, load<i32>(b, HELD_SPILLED) + 1, HELD_SPILLED);
}

/** Makes watcher w (held targets at block b) let go of t, which it holds. */
export function dropHeldTarget(b: usize, w: i32, t: i32, spilled: PairSet): void {
  for (let j = 0; j < HELD_INLINE; j++) {
    const at = b + HELD_TARGETS + (<usize>j << 2);
    if (load<i32>(at) != t + 1) continue;
    spilled.note(w, t, -1);
    store<i32>(at, 0);
    return;
  }
  spilled.delete(w, t);
  store<i32>(b, load<i32>(b, HELD_SPILLED) - 1, HELD_SPILLED);
}

/** Appends watcher w's held targets of block b (those in the block only) to out as w, t. */
export function listHeldTargets(b: usize, w: i32, out: IntList): void {
  for (let j = 0; j < HELD_INLINE; j++) {
    const k = load<i32>(b + HELD_TARGETS + (<usize>j << 2));
    if (k == 0) continue;
    out.push(w);
    out.push(k - 1);
  }
}
