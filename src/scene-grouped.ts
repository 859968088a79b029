// Events grouped by watcher: a counting sort of a flat event stream by
// watcher id, stable within a watcher, so a server hands each client its
// slice without sorting of its own. Watcher ids up to a bound proportional
// to the stream index a count array directly (the routing a server writes
// by hand over dense ids); larger ids are numbered through a hash table.
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

/** Ids below events * DIRECT_PER_EVENT + DIRECT_MIN are counted in an array indexed by id: memory stays proportional to the stream. */
const DIRECT_PER_EVENT = 8;
const DIRECT_MIN = 1 << 16;

const table = new PairTable();

/**
 * Each event's watcher rank (the watcher's place among the distinct
 * watchers, ascending), the distinct watchers, and how many events each has.
 */
function rankWatchers(stream: Int32Array): { rankOf: Int32Array; watchers: Int32Array; sizes: Int32Array } {
  const count = stream.length / 3;
  let maxId = -1;
  for (let i = 1; i < stream.length; i += 3) if (stream[i] > maxId) maxId = stream[i];
  const rankOf = new Int32Array(count);
  if (maxId < count * DIRECT_PER_EVENT + DIRECT_MIN) {
    const perId = new Int32Array(maxId + 1);
    for (let i = 1; i < stream.length; i += 3) perId[stream[i]]++;
    let groups = 0;
    for (let id = 0; id <= maxId; id++) if (perId[id] > 0) groups++;
    const watchers = new Int32Array(groups);
    const sizes = new Int32Array(groups);
    for (let id = 0, r = 0; id <= maxId; id++) {
      if (perId[id] === 0) continue;
      watchers[r] = id;
      sizes[r] = perId[id];
      perId[id] = r++;
    }
    for (let k = 0; k < count; k++) rankOf[k] = perId[stream[k * 3 + 1]];
    return { rankOf, watchers, sizes };
  }
  table.reset();
  for (let k = 0; k < count; k++) rankOf[k] = table.indexOf(stream[k * 3 + 1], 0);
  const groups = table.size;
  const firstSeen = new Int32Array(groups);
  for (let k = 0; k < count; k++) firstSeen[rankOf[k]] = stream[k * 3 + 1];
  const watchers = firstSeen.slice().sort();
  const rank = new Int32Array(groups);
  for (let r = 0; r < groups; r++) rank[table.indexOf(watchers[r], 0)] = r;
  const sizes = new Int32Array(groups);
  for (let k = 0; k < count; k++) sizes[(rankOf[k] = rank[rankOf[k]])]++;
  return { rankOf, watchers, sizes };
}

/** Groups a flat [type, watcher, target, ...] stream by watcher, ascending; stable within a watcher. */
export function groupByWatcher(stream: Int32Array): GroupedEvents {
  const { rankOf, watchers, sizes } = rankWatchers(stream);
  const groups = watchers.length;
  const offsets = new Int32Array(groups + 1);
  for (let r = 0; r < groups; r++) offsets[r + 1] = offsets[r] + sizes[r] * 3;
  const cursor = offsets.slice(0, groups);
  const events = new Int32Array(stream.length);
  for (let k = 0, i = 0; k < rankOf.length; k++, i += 3) {
    const r = rankOf[k];
    const at = cursor[r];
    events[at] = stream[i];
    events[at + 1] = stream[i + 1];
    events[at + 2] = stream[i + 2];
    cursor[r] = at + 3;
  }
  return { watchers, offsets, events };
}
