// Events grouped by watcher: a counting sort of a flat event stream by
// watcher id, stable within a watcher, so a server hands each client its
// slice without sorting of its own.
import { PairTable } from './pair-table.js';

/** A drain's events grouped by watcher; see {@link Scene.drainGrouped}. */
export interface GroupedEvents {
  /** The distinct watchers of the drained events, ascending. */
  watchers: Int32Array;
  /**
   * watchers.length + 1 entries: the events of watchers[g] are
   * events.subarray(offsets[g], offsets[g + 1]) (Int32 entries, three per event).
   */
  offsets: Int32Array;
  /** Every drained event, flat [type, watcher, target, ...], sorted by watcher, each watcher's in drain order. */
  events: Int32Array;
}

const table = new PairTable();

/** Groups a flat [type, watcher, target, ...] stream by watcher, ascending; stable within a watcher. */
export function groupByWatcher(stream: Int32Array): GroupedEvents {
  const count = stream.length / 3;
  table.reset(count);
  // Number watchers in order of appearance and count their events.
  const groupOf = new Int32Array(count);
  let sizes: Int32Array = new Int32Array(64);
  let ids: Int32Array = new Int32Array(64);
  for (let k = 0; k < count; k++) {
    const watcher = stream[k * 3 + 1];
    const seen = table.size;
    const g = table.indexOf(watcher, 0);
    if (g === seen && g === sizes.length) {
      sizes = grown(sizes);
      ids = grown(ids);
    }
    ids[g] = watcher;
    sizes[g]++;
    groupOf[k] = g;
  }
  const groups = table.size;
  const watchers = ids.slice(0, groups).sort();
  // rank[g]: the position of group g's watcher in ascending order.
  const rank = new Int32Array(groups);
  for (let r = 0; r < groups; r++) rank[table.indexOf(watchers[r], 0)] = r;
  const offsets = new Int32Array(groups + 1);
  for (let g = 0; g < groups; g++) offsets[rank[g] + 1] = sizes[g] * 3;
  for (let r = 0; r < groups; r++) offsets[r + 1] += offsets[r];
  const cursor = offsets.slice(0, groups);
  const events = new Int32Array(stream.length);
  for (let k = 0; k < count; k++) {
    const r = rank[groupOf[k]];
    const at = cursor[r];
    const i = k * 3;
    events[at] = stream[i];
    events[at + 1] = stream[i + 1];
    events[at + 2] = stream[i + 2];
    cursor[r] = at + 3;
  }
  return { watchers, offsets, events };
}

function grown(array: Int32Array): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
