// The net fold of a scene's event log where the log lies, for a 'net' Scene
// on the wasm backend: the dense fold of src/scene/net.ts (NetView.foldDense,
// whose comments explain each step) done over the core's buffer, with no copy
// out before it. The facade decides when ids are dense enough (from
// eventIdBound) and passes the ids its view found elsewhere. The scratch is
// the module's, shared by its scenes, like the batch results.
import { EVENT_BYTES, EVENT_INTS, EVENT_TARGET, EVENT_TYPE, EVENT_WATCHER } from './codes';
import { forgetEvents, IntList, newIntList } from './int-list';

/** Pair positions and stamps restart from zero (arrays cleared) before they could overflow. */
const STAMP_LIMIT: i32 = 1 << 30;

/** netType as a table: NET_TYPE[elsewhere << 4 | first << 2 | last], -1 for none (as net.ts builds it). */
const NET_TYPE: StaticArray<i32> = [
  0, -1, 0, -1, -1, 1, -1, -1, -1, 1, -1, -1, -1, -1, -1, -1,
  0, -1, 0, -1, 2, 1, 2, -1, 2, 1, 2, -1, -1, -1, -1, -1,
];

/** Per watcher id its counting-sort cursor (valid for the watchers in `watching`); per target id its pair's position plus pairBase; per id the fold that found it elsewhere. */
const cursor: IntList = newIntList();
/** A bit per watcher id with events in this fold, then those watchers ascending: a fold costs its events and ids / 32, not ids. */
const watching: IntList = newIntList();
const watchers: IntList = newIntList();
const pairAt: IntList = newIntList();
const elsewhereAt: IntList = newIntList();
/** The log as (target << 2 | type) words grouped by watcher, folded in place into pair words. */
const packed: IntList = newIntList();
/** The net events of the last fold, three ints each. */
export const netEvents: IntList = newIntList();
let pairBase: i32 = 0;
let foldsSoFar: i32 = 0;

/** The OR of the log's ids: at least the largest, below twice it. */
export function eventIdBound(events: IntList): i32 {
  let bound = 0;
  const data = events.data;
  for (let i = 0; i < events.length; i += EVENT_INTS) {
    const at = data + (<usize>i << 2);
    bound |= load<i32>(at, EVENT_WATCHER) | load<i32>(at, EVENT_TARGET);
  }
  return bound;
}

/**
 * Folds the log (ids below `ids`) into netEvents: per pair its net event,
 * sorted by watcher, each watcher's pairs in the order of their first event.
 * `elsewhere`: `elsewhereCount` ids that stand elsewhere than at the last
 * drain; `moveEvents` false reports no move.
 */
export function foldEvents(events: IntList, ids: i32, elsewhere: usize, elsewhereCount: i32, moveEvents: bool): void {
  const count = events.length / EVENT_INTS;
  reserve(ids, count);
  const stamp = ++foldsSoFar;
  const marks = elsewhereAt.data;
  for (let k = 0; k < elsewhereCount; k++) {
    const id = load<i32>(elsewhere + (<usize>k << 2));
    if (id < ids) store<i32>(marks + (<usize>id << 2), stamp);
  }
  const elsewhereBit = moveEvents ? 16 : 0;
  const base = pairBase + 1;
  pairBase = base + count;
  const log = events.data;
  const cursors = cursor.data;
  const words = packed.data;
  const positions = pairAt.data;
  const bits = watching.data;
  const bitWords = (ids + 31) >>> 5;
  memory.fill(bits, 0, <usize>bitWords << 2);
  for (let i = 0; i < count; i++) {
    const w = load<i32>(log + <usize>i * EVENT_BYTES, EVENT_WATCHER);
    const c = cursors + (<usize>w << 2);
    const b = bits + (<usize>(w >>> 5) << 2);
    const bit: u32 = 1 << (w & 31);
    const word = load<u32>(b);
    if ((word & bit) != 0) store<i32>(c, load<i32>(c) + 1);
    else {
      store<u32>(b, word | bit);
      store<i32>(c, 1);
    }
  }
  // The watchers in ascending id, each cursor turned into where its run starts.
  const ascending = watchers.data;
  let watcherCount = 0;
  let at = 0;
  for (let j = 0; j < bitWords; j++) {
    for (let set = load<u32>(bits + (<usize>j << 2)); set != 0; set &= set - 1) {
      const w = (j << 5) | <i32>ctz(set);
      store<i32>(ascending + (<usize>watcherCount << 2), w);
      watcherCount++;
      const c = cursors + (<usize>w << 2);
      const size = load<i32>(c);
      store<i32>(c, at);
      at += size;
    }
  }
  for (let i = 0; i < count; i++) {
    const e = log + <usize>i * EVENT_BYTES;
    const c = cursors + (<usize>load<i32>(e, EVENT_WATCHER) << 2);
    const k = load<i32>(c);
    store<i32>(c, k + 1);
    store<i32>(words + (<usize>k << 2), (load<i32>(e, EVENT_TARGET) << 2) | load<i32>(e, EVENT_TYPE));
  }
  const out = netEvents.data;
  let n = 0;
  let start = 0;
  for (let g = 0; g < watcherCount; g++) {
    const w = load<i32>(ascending + (<usize>g << 2));
    const end = load<i32>(cursors + (<usize>w << 2));
    let pairs = start;
    for (let k = start; k < end; k++) {
      const word = load<i32>(words + (<usize>k << 2));
      const position = positions + (<usize>(word >>> 2) << 2);
      const p = load<i32>(position) - base;
      if (p < start) {
        store<i32>(position, base + pairs);
        store<i32>(words + (<usize>pairs << 2), (word << 2) | (word & 3));
        pairs++;
      } else {
        const pair = words + (<usize>p << 2);
        store<i32>(pair, (load<i32>(pair) & ~3) | (word & 3));
      }
    }
    for (let p = start; p < pairs; p++) {
      const pair = load<i32>(words + (<usize>p << 2));
      const t = pair >>> 4;
      const elsewhereNow = load<i32>(marks + (<usize>t << 2)) == stamp ? elsewhereBit : 0;
      const type = unchecked(NET_TYPE[elsewhereNow | (pair & 15)]);
      if (type < 0) continue;
      const o = out + (<usize>n << 2);
      store<i32>(o, type, EVENT_TYPE);
      store<i32>(o, w, EVENT_WATCHER);
      store<i32>(o, t, EVENT_TARGET);
      n += EVENT_INTS;
    }
    start = end;
  }
  netEvents.length = n;
}

/** Sizes the scratch for ids below `ids` and `count` events; grown per-id arrays start zeroed, with the stamps. */
function reserve(ids: i32, count: i32): void {
  // Scratch grown by a burst (a big build) is given back, as the event buffer is.
  forgetEvents(packed);
  forgetEvents(netEvents);
  if (cursor.capacity < ids) {
    cursor.reserve(ids);
    watching.reserve((ids + 31) >>> 5);
    watchers.reserve(ids);
    pairAt.reserve(ids);
    elsewhereAt.reserve(ids);
    restart();
  }
  packed.reserve(count);
  netEvents.reserve(count * EVENT_INTS);
  if (pairBase > STAMP_LIMIT - count || foldsSoFar > STAMP_LIMIT) restart();
}

function restart(): void {
  memory.fill(pairAt.data, 0, <usize>pairAt.capacity << 2);
  memory.fill(elsewhereAt.data, 0, <usize>elsewhereAt.capacity << 2);
  pairBase = 0;
  foldsSoFar = 0;
}
