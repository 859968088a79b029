// What a Scene needs to put its core back as it was when a call fails part
// way (an event past the limit, memory the host will not give): the pairs
// the core held thanks to a margin before the call, read from the pairs it
// holds now and the call's journal of changes to them. Everything else the
// facade keeps itself (ids, slots, positions, ranges, masks, margins), and
// the events from before the call stay in the core's log below the call's
// start.

/** The SceneBackend part a recovery reads from a core whose call failed. */
export interface CallRecord {
  /** The events logged before the failed call began. */
  events: Int32Array;
  /** The pairs held thanks to a margin before the call, as slots [w0, t0, w1, t1, ...]. */
  held: Int32Array;
}

/**
 * The held pairs before a call: `now` (slots w, t, ...) with the call's
 * journal (w, t, +1 held or -1 dropped, ...) undone from its last change to
 * its first. A change journaled but cut short by the failure undoes to the
 * same set, since undoing applies set semantics.
 */
export function heldBefore(now: ArrayLike<number>, journal: ArrayLike<number>): Int32Array {
  const pairs = new Set<number>();
  const key = (w: number, t: number): number => w * 2 ** 31 + t;
  for (let k = 0; k < now.length; k += 2) pairs.add(key(now[k], now[k + 1]));
  for (let k = journal.length - 3; k >= 0; k -= 3) {
    const pair = key(journal[k], journal[k + 1]);
    if (journal[k + 2] > 0) pairs.delete(pair);
    else pairs.add(pair);
  }
  const out = new Int32Array(pairs.size * 2);
  let at = 0;
  for (const pair of pairs) {
    out[at++] = Math.floor(pair / 2 ** 31);
    out[at++] = pair % 2 ** 31;
  }
  return out;
}
