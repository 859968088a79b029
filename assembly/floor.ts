// The floor module (build/floor.wasm): the benchmark's floor for a Scene tick,
// never part of the package (only bench/peers/scene-floor.ts loads it; built
// with no runtime, as it allocates through heap alone). Equal square ranges over
// a uniform grid of cells; each cell's records (x, y, id) sit in one block,
// the blocks laid out in cell order, so a move reads the cells under its old
// and new view box as a few runs of memory and writes the enter, leave and
// move events it finds. Keeping the grid is a position write, or a
// swap-remove and an append when the cell changes. Everything a Scene does
// beside that (ids to slots, ranges per entity, levels, margins, layers,
// circles, 3-D, checks) is left out.
import { EVENT_ENTER } from './scene/codes';

/** Bytes per record: x and y (one v128), the id, 4 bytes of padding. */
const RECORD: usize = 24;
const RECORD_ID: usize = 16;
/** Spare records each cell's block starts with. */
const SPARE: i32 = 2;
/** Movers read ahead: the mover this far ahead has its record and its cell's block loaded early. */
const AHEAD: i32 = 8;

let cell: f64 = 1;
let range: f64 = 0;
let columns: i32 = 0;
/** Per cell: block start (in records), records held, records that fit (i32 each). */
let starts: usize = 0;
let counts: usize = 0;
let capacities: usize = 0;
/** Per id: its record's index. */
let recordOf: usize = 0;
let records: usize = 0;
let used: i32 = 0;
let room: i32 = 0;
let events: usize = 0;
let eventInts: i32 = 0;
let eventRoom: i32 = 0;
let input: usize = 0;
let inputRoom: i32 = 0;
/** Sum of the reads ahead, kept so they stay. */
let fetched: f64 = 0;

@inline function at32(base: usize, i: i32): usize {
  return base + (<usize>i << 2);
}

@inline function recordAt(i: i32): usize {
  return records + <usize>i * RECORD;
}

/** p's block grown to `bytes` (a new block when p is 0). */
function regrown(p: usize, bytes: usize): usize {
  return p == 0 ? heap.alloc(bytes) : heap.realloc(p, bytes);
}

function zeroed(bytes: usize): usize {
  const p = heap.alloc(bytes);
  memory.fill(p, 0, bytes);
  return p;
}

/** A grid for ids 0..count-1 in [0, world]², cells `cellRanges` ranges wide. */
export function setup(count: i32, world: f64, r: f64, cellRanges: f64): void {
  range = r;
  cell = r * cellRanges * 1.0001; // a hair wider: rounding never puts a box across more cells than its width allows
  columns = <i32>Math.floor(world / cell) + 1;
  const cells = <usize>columns * <usize>columns;
  starts = zeroed(cells << 2);
  counts = zeroed(cells << 2);
  capacities = zeroed(cells << 2);
  recordOf = zeroed(<usize>count << 2);
  eventRoom = 1 << 16;
  events = heap.alloc(<usize>eventRoom << 2);
}

/** Room for n moves or adds: xs (n doubles), ys (n doubles), ids (n i32s), in that order. */
export function inputFor(n: i32): usize {
  if (n > inputRoom) {
    input = regrown(input, <usize>n * 20);
    inputRoom = n;
  }
  return input;
}

export function eventData(): usize {
  return events;
}

/** The int32s of events written since the last clear. */
export function eventLength(): i32 {
  return eventInts;
}

export function clearEvents(): void {
  eventInts = 0;
}

@inline function cellOf(x: f64, y: f64): i32 {
  return <i32>Math.floor(x / cell) + <i32>Math.floor(y / cell) * columns;
}

function reserveEvents(more: i32): void {
  if (eventInts + more <= eventRoom) return;
  eventRoom = (eventInts + more) * 2;
  events = regrown(events, <usize>eventRoom << 2);
}

function reserveRecords(more: i32): void {
  if (used + more <= room) return;
  room = (used + more) * 2;
  records = regrown(records, <usize>room * RECORD);
}

@inline function write(i: i32, id: i32, x: f64, y: f64): void {
  const r = recordAt(i);
  store<f64>(r, x);
  store<f64>(r, y, 8);
  store<i32>(r, id, RECORD_ID);
  store<i32>(at32(recordOf, id), i);
}

/** Appends to cell c, first moving its block to the end, twice as big, when it is full. */
function append(id: i32, x: f64, y: f64, c: i32): void {
  let count = load<i32>(at32(counts, c));
  const capacity = load<i32>(at32(capacities, c));
  if (count == capacity) {
    const grown = max<i32>(SPARE, capacity * 2);
    reserveRecords(grown);
    const from = load<i32>(at32(starts, c));
    for (let k = 0; k < count; k++) {
      const r = recordAt(from + k);
      write(used + k, load<i32>(r, RECORD_ID), load<f64>(r), load<f64>(r, 8));
    }
    store<i32>(at32(starts, c), used);
    store<i32>(at32(capacities, c), grown);
    used += grown;
  }
  write(load<i32>(at32(starts, c)) + count, id, x, y);
  store<i32>(at32(counts, c), count + 1);
}

/** Lays the n records of the input out in cell order, each block SPARE records to spare, then writes every pair's enter. */
export function addAll(n: i32): void {
  const xs = input, ys = input + (<usize>n << 3), ids = input + (<usize>n << 4);
  const cells = columns * columns;
  for (let k = 0; k < n; k++) {
    const c = cellOf(load<f64>(xs + (<usize>k << 3)), load<f64>(ys + (<usize>k << 3)));
    store<i32>(at32(counts, c), load<i32>(at32(counts, c)) + 1);
  }
  let total: i32 = 0;
  for (let c = 0; c < cells; c++) {
    const capacity = load<i32>(at32(counts, c)) + SPARE;
    store<i32>(at32(starts, c), total);
    store<i32>(at32(capacities, c), capacity);
    store<i32>(at32(counts, c), 0);
    total += capacity;
  }
  used = 0;
  reserveRecords(total);
  used = total;
  for (let k = 0; k < n; k++) {
    const x = load<f64>(xs + (<usize>k << 3)), y = load<f64>(ys + (<usize>k << 3));
    append(load<i32>(at32(ids, k)), x, y, cellOf(x, y));
  }
  for (let k = 0; k < n; k++) {
    const id = load<i32>(at32(ids, k));
    const x = load<f64>(xs + (<usize>k << 3)), y = load<f64>(ys + (<usize>k << 3));
    const x0 = max<i32>(0, <i32>Math.floor((x - range) / cell)), x1 = min<i32>(columns - 1, <i32>Math.floor((x + range) / cell));
    const y0 = max<i32>(0, <i32>Math.floor((y - range) / cell)), y1 = min<i32>(columns - 1, <i32>Math.floor((y + range) / cell));
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const c = cx + cy * columns;
        const start = load<i32>(at32(starts, c)), end = start + load<i32>(at32(counts, c));
        reserveEvents(3 * (end - start));
        for (let j = start; j < end; j++) {
          const r = recordAt(j);
          const other = load<i32>(r, RECORD_ID);
          const jx = load<f64>(r), jy = load<f64>(r, 8);
          if (other == id || !(x - range <= jx && jx <= x + range && y - range <= jy && jy <= y + range)) continue;
          const e = at32(events, eventInts);
          store<i32>(e, EVENT_ENTER);
          store<i32>(e, id, 4);
          store<i32>(e, other, 8);
          eventInts += 3;
        }
      }
    }
  }
}

/** Loads, for mover k + AHEAD, its record and the block of the cell it moves to, so the waits overlap with mover k's work. */
@inline function readAhead(xs: usize, ys: usize, ids: usize, k: i32, n: i32): void {
  const a = k + AHEAD;
  if (a >= n) return;
  const x = load<f64>(xs + (<usize>a << 3)), y = load<f64>(ys + (<usize>a << 3));
  const r = recordAt(load<i32>(at32(recordOf, load<i32>(at32(ids, a)))));
  fetched += load<f64>(r) + load<f64>(recordAt(load<i32>(at32(starts, cellOf(x, y)))));
}

/**
 * The tick: moves the n entities of the input in order. Each judges every
 * record under its old and new box, both ways at once (equal ranges: it sees
 * a record exactly when the record sees it), with SIMD box tests and no
 * branch on the answers: both possible events are written always and kept
 * only when they happened.
 */
export function moveMany(n: i32): void {
  const xs = input, ys = input + (<usize>n << 3), ids = input + (<usize>n << 4);
  const rr = f64x2.splat(range);
  for (let k = 0; k < n; k++) {
    readAhead(xs, ys, ids, k, n);
    const id = load<i32>(at32(ids, k));
    const x = load<f64>(xs + (<usize>k << 3)), y = load<f64>(ys + (<usize>k << 3));
    const self = load<i32>(at32(recordOf, id));
    const mine = recordAt(self);
    const ox = load<f64>(mine), oy = load<f64>(mine, 8);
    if (ox == x && oy == y) continue;
    const o = f64x2(ox, oy), p = f64x2(x, y);
    const oLo = f64x2.sub(o, rr), oHi = f64x2.add(o, rr), nLo = f64x2.sub(p, rr), nHi = f64x2.add(p, rr);
    const x0 = max<i32>(0, <i32>Math.floor((min<f64>(ox, x) - range) / cell)), x1 = min<i32>(columns - 1, <i32>Math.floor((max<f64>(ox, x) + range) / cell));
    const y0 = max<i32>(0, <i32>Math.floor((min<f64>(oy, y) - range) / cell)), y1 = min<i32>(columns - 1, <i32>Math.floor((max<f64>(oy, y) + range) / cell));
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const c = cx + cy * columns;
        const start = load<i32>(at32(starts, c)), end = start + load<i32>(at32(counts, c));
        reserveEvents(6 * (end - start));
        let e = at32(events, eventInts);
        for (let j = start; j < end; j++) {
          const r = recordAt(j);
          const v = v128.load(r);
          const other = <i32>(j != self);
          const was = <i32>(i64x2.bitmask(v128.and(f64x2.ge(v, oLo), f64x2.le(v, oHi))) == 3) & other;
          const is = <i32>(i64x2.bitmask(v128.and(f64x2.ge(v, nLo), f64x2.le(v, nHi))) == 3) & other;
          const tid = load<i32>(r, RECORD_ID);
          // EVENT_MOVE (2) when it was and is in view, EVENT_LEAVE (1) when it only was, EVENT_ENTER (0) when it only is (scene/codes.ts).
          const type = was + (was & is);
          store<i32>(e, type);
          store<i32>(e, tid, 4);
          store<i32>(e, id, 8);
          e += <usize>(12 * (was | is));
          store<i32>(e, type);
          store<i32>(e, id, 4);
          store<i32>(e, tid, 8);
          e += <usize>(12 * (was ^ is));
        }
        eventInts = <i32>((e - events) >> 2);
      }
    }
    const from = cellOf(ox, oy), to = cellOf(x, y);
    if (from == to) {
      store<f64>(mine, x);
      store<f64>(mine, y, 8);
      continue;
    }
    // Swap-remove from the old cell, append to the new one.
    const count = load<i32>(at32(counts, from)) - 1;
    store<i32>(at32(counts, from), count);
    const last = recordAt(load<i32>(at32(starts, from)) + count);
    write(self, load<i32>(last, RECORD_ID), load<f64>(last), load<f64>(last, 8));
    append(id, x, y, to);
  }
}

/** The sum of the reads ahead (so the compiler keeps them). */
export function fetchedSum(): f64 {
  return fetched;
}
