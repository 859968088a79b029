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

/** Whether ids up to maxId may index arrays for a stream of `events` events (see DIRECT_PER_EVENT). */
export function indexableIds(maxId: number, events: number): boolean {
  return maxId < events * DIRECT_PER_EVENT + DIRECT_MIN;
}

const table = new PairTable();
/** The per-id counts and cursors of groupDirect, kept between calls (it is zeroed up to the largest id on use). */
let perIdScratch = new Int32Array(0);

/** Places each event at its watcher's cursor (advancing it), into a stream of the same length. */
function scatter(stream: Int32Array, cursorOf: (k: number, watcher: number) => number): Int32Array {
  const events = new Int32Array(stream.length);
  for (let k = 0, i = 0; i < stream.length; k++, i += 3) {
    const at = cursorOf(k, stream[i + 1]);
    events[at] = stream[i];
    events[at + 1] = stream[i + 1];
    events[at + 2] = stream[i + 2];
  }
  return events;
}

/** Groups by counting into an array indexed by watcher id (ids 0..maxId). */
function groupDirect(stream: Int32Array, maxId: number): GroupedEvents {
  if (perIdScratch.length <= maxId) perIdScratch = new Int32Array(Math.max(maxId + 1, perIdScratch.length * 2));
  const perId = perIdScratch;
  perId.fill(0, 0, maxId + 1);
  for (let i = 1; i < stream.length; i += 3) perId[stream[i]]++;
  let groups = 0;
  for (let id = 0; id <= maxId; id++) if (perId[id] > 0) groups++;
  const watchers = new Int32Array(groups);
  const offsets = new Int32Array(groups + 1);
  // perId becomes each watcher's cursor into the grouped stream.
  for (let id = 0, r = 0; id <= maxId; id++) {
    if (perId[id] === 0) continue;
    watchers[r] = id;
    offsets[r + 1] = offsets[r] + perId[id] * 3;
    perId[id] = offsets[r++];
  }
  const events = new Int32Array(stream.length);
  for (let i = 0; i < stream.length; i += 3) {
    const at = perId[stream[i + 1]];
    perId[stream[i + 1]] = at + 3;
    events[at] = stream[i];
    events[at + 1] = stream[i + 1];
    events[at + 2] = stream[i + 2];
  }
  return { watchers, offsets, events };
}

/** Groups by numbering watchers through the hash table, for ids too large to index an array. */
function groupHashed(stream: Int32Array): GroupedEvents {
  const count = stream.length / 3;
  const groupOf = new Int32Array(count);
  table.reset();
  for (let k = 0; k < count; k++) groupOf[k] = table.indexOf(stream[k * 3 + 1], 0);
  const groups = table.size;
  const watchers = new Int32Array(groups);
  const sizes = new Int32Array(groups);
  for (let k = 0; k < count; k++) {
    watchers[groupOf[k]] = stream[k * 3 + 1];
    sizes[groupOf[k]]++;
  }
  watchers.sort();
  const offsets = new Int32Array(groups + 1);
  // cursor[g]: where group g (numbered as first seen) writes next.
  const cursor = new Int32Array(groups);
  for (let r = 0; r < groups; r++) {
    const g = table.indexOf(watchers[r], 0);
    offsets[r + 1] = offsets[r] + sizes[g] * 3;
    cursor[g] = offsets[r];
  }
  const events = scatter(stream, (k) => (cursor[groupOf[k]] += 3) - 3);
  return { watchers, offsets, events };
}

/** Groups a flat [type, watcher, target, ...] stream by watcher, ascending; stable within a watcher. */
export function groupByWatcher(stream: Int32Array): GroupedEvents {
  let maxId = -1;
  for (let i = 1; i < stream.length; i += 3) if (stream[i] > maxId) maxId = stream[i];
  return indexableIds(maxId, stream.length / 3) ? groupDirect(stream, maxId) : groupHashed(stream);
}
