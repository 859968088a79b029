// NPC sights on their way to onNpcSight. The adapter queues them while it
// applies a call's visibility changes and hands them to the hook only once
// every view is right, so a hook may call the adapter again: that call is
// applied at once, and its own sights join the end of the queue. The
// outermost call delivers the queue until it is empty, so each (watcher,
// target) pair's sights reach the hook in the order they happened, enter and
// leave in turn.
//
// A sight is one record of three int32 in `records`:
//
//   +-------+---------+--------+
//   | type  | watcher | target |     type: ENTER or LEAVE
//   +-------+---------+--------+
import { ENTER, LEAVE, SpatialError } from '../../scene/index.js';

/**
 * Hooks whose calls keep causing sights end in HOOK_LOOP: one outermost call
 * delivers at most this many rounds of sights, and at most this many times
 * the sights it caused itself (or HOOK_FLOOR, if more): a ping-pong between
 * hooks meets the first bound, hooks whose sights multiply the second.
 */
export const MAX_HOOK_ROUNDS = 64;
export const HOOK_FLOOR = 4096;

const TYPE = 0;
const WATCHER = 1;
const TARGET = 2;
const RECORD = 3;

export class SightQueue {
  private records = new Int32Array(64 * RECORD);
  /** Int32 slots in use: RECORD per queued sight. */
  private length = 0;
  private delivering = false;

  constructor(private readonly hook: (type: 'enter' | 'leave', watcher: number, target: number) => void) {}

  push(type: number, watcher: number, target: number): void {
    if (this.length === this.records.length) {
      const grown = new Int32Array(this.records.length * 2);
      grown.set(this.records);
      this.records = grown;
    }
    const at = this.length;
    this.records[at + TYPE] = type;
    this.records[at + WATCHER] = watcher;
    this.records[at + TARGET] = target;
    this.length += RECORD;
  }

  /**
   * Hands every queued sight to the hook, and those the hook's calls queue
   * meanwhile, until none is left; inside a hook it returns at once (the
   * delivery under way reaches what was queued). A hook that throws does not
   * stop the delivery: the first error is rethrown once the queue is empty.
   * Round one is the sights queued before delivery began, round n + 1 those
   * queued while round n was delivered. Past MAX_HOOK_ROUNDS rounds, or
   * MAX_HOOK_ROUNDS times the sights of round one (HOOK_FLOOR at least), the
   * sights left are dropped and HOOK_LOOP thrown.
   */
  deliver(): void {
    if (this.delivering) return;
    this.delivering = true;
    let failure: { error: unknown } | undefined;
    try {
      let round = 1;
      let roundEnd = this.length;
      const most = MAX_HOOK_ROUNDS * Math.max(this.length, HOOK_FLOOR * RECORD);
      for (let at = 0; at < this.length; at += RECORD) {
        if (at === roundEnd) {
          round++;
          roundEnd = this.length;
        }
        if (round > MAX_HOOK_ROUNDS || this.length > most) {
          const left = (this.length - at) / RECORD;
          throw new SpatialError('HOOK_LOOP', `onNpcSight hooks kept causing sights (${at / RECORD} delivered in ${round - 1} rounds): the views are applied, the ${left} sights left are dropped`);
        }
        const records = this.records; // a hook's calls may have grown the queue
        try {
          this.hook(records[at + TYPE] === ENTER ? 'enter' : 'leave', records[at + WATCHER], records[at + TARGET]);
        } catch (error) {
          failure ??= { error };
        }
      }
    } finally {
      this.length = 0;
      this.delivering = false;
    }
    if (failure !== undefined) throw failure.error;
  }
}
