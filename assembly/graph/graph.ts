// A weighted directed graph over dense vertex slots, kept two ways: an edge
// list that edits touch (with a hash from (from, to) to the edge's index, so a
// repeated edge replaces its weight), and CSR arrays that the searches read,
// rebuilt lazily from the list after edits. The reverse CSR (edges grouped by
// target) is built only when a backward search asks for it.
import { MinHeap } from './minheap';

const EMPTY: i32 = -1;

@unmanaged
export class Graph {
  // Vertices: slots 0..n-1; positions as (x, y) records, NaN x when absent.
  n: i32 = 0;
  vertexCapacity: i32 = 0;
  xy: usize = 0;

  // Edge list: parallel arrays, m edges. `raw` marks a bulk-loaded list that
  // may still hold repeated (from, to) pairs (the CSR build removes them).
  m: i32 = 0;
  edgeCapacity: i32 = 0;
  edgeFrom: usize = 0;
  edgeTo: usize = 0;
  edgeWeight: usize = 0;
  raw: bool = false;
  // Where each listed edge sits in the forward CSR, and each forward CSR
  // entry in the reverse one: a weight change patches both in place.
  edgeCsr: usize = 0;
  reverseAt: usize = 0;

  // Open-addressing hash (from << 32 | to) -> edge index; built on demand.
  hashCapacity: i32 = 0;
  hashKeys: usize = 0;
  hashValues: usize = 0;
  hashValid: bool = false;

  csrValid: bool = false;
  reverseValid: bool = false;
  csrN: i32 = 0;
  negatives: i32 = 0;
  // Forward CSR: the out-edges of u are start[u]..start[u+1]-1. The six
  // pointers stay adjacent: graphCsrPointers hands them out as one block.
  start: usize = 0;
  target: usize = 0;
  weight: usize = 0;
  // Reverse CSR: the in-edges of v, grouped by target.
  rStart: usize = 0;
  rSource: usize = 0;
  rWeight: usize = 0;

  // Search state, one record per vertex for each direction (see STATE_BYTES):
  // a search touches one cache line per vertex, not one per array. A record
  // is valid only when its stamp equals the current generation, so a
  // point-to-point query touches only what it visits instead of resetting n.
  generation: i32 = 0;
  state: usize = 0;
  stateB: usize = 0;
  queue: usize = 0;
  heap: MinHeap = changetype<MinHeap>(0);
  heapB: MinHeap = changetype<MinHeap>(0);

  // Result of the last point-to-point query: slots source..target.
  path: usize = 0;
  pathLength: i32 = 0;
  pathCapacity: i32 = 0;
  cost: f64 = 0;
}

// ---- small helpers over linear memory --------------------------------------

// A search-state record: dist f64, extra f64 (A*: cached heuristic; SPFA:
// path length), stamp i32 (SPFA: in-queue flag), parent i32.
export const STATE_BYTES: usize = 24;
export const DIST: usize = 0;
export const EXTRA: usize = 8;
export const STAMP: usize = 16;
export const PARENT: usize = 20;

@inline export function stateOf(base: usize, v: i32): usize {
  return base + <usize>v * STATE_BYTES;
}

@inline export function i32At(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}
@inline export function setI32(base: usize, i: i32, value: i32): void {
  store<i32>(base + (<usize>i << 2), value);
}
@inline export function f64At(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}
@inline export function setF64(base: usize, i: i32, value: f64): void {
  store<f64>(base + (<usize>i << 3), value);
}

function grow(ptr: usize, bytes: usize): usize {
  return ptr == 0 ? heap.alloc(bytes) : heap.realloc(ptr, bytes);
}

function release(ptr: usize): void {
  if (ptr != 0) heap.free(ptr);
}

// ---- lifetime and vertices ----------------------------------------------------

export function graphCreate(): i32 {
  const g = new Graph();
  g.heap = new MinHeap(64);
  g.heapB = new MinHeap(64);
  return <i32>changetype<usize>(g);
}

export function graphDispose(handle: i32): void {
  const g = changetype<Graph>(<usize>handle);
  release(g.xy);
  release(g.edgeFrom);
  release(g.edgeTo);
  release(g.edgeWeight);
  release(g.edgeCsr);
  release(g.reverseAt);
  release(g.hashKeys);
  release(g.hashValues);
  release(g.start);
  release(g.target);
  release(g.weight);
  release(g.rStart);
  release(g.rSource);
  release(g.rWeight);
  release(g.state);
  release(g.stateB);
  release(g.queue);
  release(g.path);
  g.heap.dispose();
  g.heapB.dispose();
  heap.free(changetype<usize>(g));
}

/** Makes slots 0..count-1 exist (new ones without position or edges). */
export function graphEnsureVertices(handle: i32, count: i32): void {
  const g = changetype<Graph>(<usize>handle);
  if (count <= g.n) return;
  reserveVertexSlots(g, count);
  for (let v = g.n; v < count; v++) setF64(g.xy, v << 1, NaN);
  g.n = count;
  g.csrValid = false;
  g.reverseValid = false;
}

/** Room for slots 0..count-1, grown by doubling. */
function reserveVertexSlots(g: Graph, count: i32): void {
  if (count <= g.vertexCapacity) return;
  let capacity = max(g.vertexCapacity << 1, 16);
  while (capacity < count) capacity <<= 1;
  reserveVertices(g, capacity);
}

function reserveVertices(g: Graph, capacity: i32): void {
  g.xy = grow(g.xy, <usize>capacity << 4);
  g.queue = grow(g.queue, <usize>capacity << 2);
  // Fresh records must not match any generation yet used: stamps start at 0.
  const old = <usize>g.vertexCapacity * STATE_BYTES;
  const bytes = <usize>capacity * STATE_BYTES;
  g.state = grow(g.state, bytes);
  g.stateB = grow(g.stateB, bytes);
  memory.fill(g.state + old, 0, bytes - old);
  memory.fill(g.stateB + old, 0, bytes - old);
  g.vertexCapacity = capacity;
}

/** Sets a slot's position; NaN x clears it. */
export function graphSetPosition(handle: i32, v: i32, x: f64, y: f64): void {
  const g = changetype<Graph>(<usize>handle);
  setF64(g.xy, v << 1, x);
  setF64(g.xy, (v << 1) + 1, y);
}

/** Pointer to the (x, y) records, for a bulk write of positions. */
export function graphPositions(handle: i32): i32 {
  return <i32>changetype<Graph>(<usize>handle).xy;
}

// ---- the edge hash -----------------------------------------------------------

@inline function edgeKey(from: i32, to: i32): u64 {
  return (<u64><u32>from << 32) | <u64><u32>to;
}

@inline function hashSlot(key: u64, mask: i32): i32 {
  return <i32>((key * 0x9e3779b97f4a7c15) >> 40) & mask;
}

export function hashFind(g: Graph, from: i32, to: i32): i32 {
  const key = edgeKey(from, to);
  const mask = g.hashCapacity - 1;
  let slot = hashSlot(key, mask);
  while (true) {
    const value = i32At(g.hashValues, slot);
    if (value == EMPTY) return EMPTY;
    if (load<u64>(g.hashKeys + (<usize>slot << 3)) == key) return value;
    slot = (slot + 1) & mask;
  }
}

function hashInsert(g: Graph, from: i32, to: i32, index: i32): void {
  if ((g.m + 1) * 2 > g.hashCapacity) rebuildHash(g, max(g.hashCapacity << 1, 64));
  hashPut(g, edgeKey(from, to), index);
}

function hashPut(g: Graph, key: u64, index: i32): void {
  const mask = g.hashCapacity - 1;
  let slot = hashSlot(key, mask);
  while (i32At(g.hashValues, slot) != EMPTY) {
    if (load<u64>(g.hashKeys + (<usize>slot << 3)) == key) break;
    slot = (slot + 1) & mask;
  }
  store<u64>(g.hashKeys + (<usize>slot << 3), key);
  setI32(g.hashValues, slot, index);
}

// Points an existing key at a new edge index (after the edge moved).
function hashRepoint(g: Graph, from: i32, to: i32, index: i32): void {
  hashPut(g, edgeKey(from, to), index);
}

// Deletes a key with backward-shift deletion, so probes stay unbroken
// without tombstones.
function hashDelete(g: Graph, from: i32, to: i32): void {
  const key = edgeKey(from, to);
  const mask = g.hashCapacity - 1;
  let slot = hashSlot(key, mask);
  while (load<u64>(g.hashKeys + (<usize>slot << 3)) != key) slot = (slot + 1) & mask;
  let hole = slot;
  let next = (hole + 1) & mask;
  while (i32At(g.hashValues, next) != EMPTY) {
    const nextKey = load<u64>(g.hashKeys + (<usize>next << 3));
    const home = hashSlot(nextKey, mask);
    // The entry at `next` may fill the hole only if its home is not in (hole, next].
    if (((next - home) & mask) >= ((next - hole) & mask)) {
      store<u64>(g.hashKeys + (<usize>hole << 3), nextKey);
      setI32(g.hashValues, hole, i32At(g.hashValues, next));
      hole = next;
    }
    next = (next + 1) & mask;
  }
  setI32(g.hashValues, hole, EMPTY);
}

function rebuildHash(g: Graph, capacity: i32): void {
  while (capacity < (g.m + 1) * 2) capacity <<= 1;
  if (capacity != g.hashCapacity) {
    // The new table first: should memory run out, the graph is as it was.
    const keys = heap.alloc(<usize>capacity << 3);
    const values = heap.alloc(<usize>capacity << 2);
    release(g.hashKeys);
    release(g.hashValues);
    g.hashKeys = keys;
    g.hashValues = values;
    g.hashCapacity = capacity;
  }
  memory.fill(g.hashValues, 0xff, <usize>capacity << 2); // every slot EMPTY (-1)
  for (let e = 0; e < g.m; e++) hashPut(g, edgeKey(i32At(g.edgeFrom, e), i32At(g.edgeTo, e)), e);
  g.hashValid = true;
}

// Edits need the hash and a list without repeats.
export function prepareEdit(g: Graph): void {
  if (g.raw) buildCsr(g);
  if (!g.hashValid) rebuildHash(g, max(g.hashCapacity, 64));
}

// ---- edge edits --------------------------------------------------------------

function reserveEdges(g: Graph, count: i32): void {
  if (count <= g.edgeCapacity) return;
  let capacity = max(g.edgeCapacity << 1, 16);
  while (capacity < count) capacity <<= 1;
  g.edgeFrom = grow(g.edgeFrom, <usize>capacity << 2);
  g.edgeTo = grow(g.edgeTo, <usize>capacity << 2);
  g.edgeWeight = grow(g.edgeWeight, <usize>capacity << 3);
  g.edgeCsr = grow(g.edgeCsr, <usize>capacity << 2);
  g.edgeCapacity = capacity;
}

/**
 * Adds from -> to or replaces its weight, and with `mirror` the arc to -> from
 * with the same weight (an undirected edge); returns 1 when from -> to is new. A
 * new weight on an existing edge is patched into the CSR arrays, so games
 * that change costs between queries do not pay for a rebuild.
 */
export function graphSetEdge(handle: i32, from: i32, to: i32, w: f64, mirror: bool): i32 {
  const g = changetype<Graph>(<usize>handle);
  prepareEdit(g);
  // Every allocation first (the ends' slots, room for two arcs, the hash), so
  // that running out of memory leaves the graph as it was.
  reserveVertexSlots(g, max(from, to) + 1);
  reserveEdges(g, g.m + 2);
  if ((g.m + 3) * 2 > g.hashCapacity) rebuildHash(g, g.hashCapacity << 1);
  graphEnsureVertices(handle, max(from, to) + 1);
  const added = setArc(g, from, to, w);
  if (mirror && from != to) setArc(g, to, from, w);
  return added;
}

function setArc(g: Graph, from: i32, to: i32, w: f64): i32 {
  const found = hashFind(g, from, to);
  if (found != EMPTY) {
    const old = f64At(g.edgeWeight, found);
    setF64(g.edgeWeight, found, w);
    if (g.csrValid) {
      const at = i32At(g.edgeCsr, found);
      setF64(g.weight, at, w);
      g.negatives += <i32>(w < 0) - <i32>(old < 0);
      if (g.reverseValid) setF64(g.rWeight, i32At(g.reverseAt, at), w);
    }
    return 0;
  }
  g.csrValid = false;
  g.reverseValid = false;
  reserveEdges(g, g.m + 1);
  const e = g.m;
  setI32(g.edgeFrom, e, from);
  setI32(g.edgeTo, e, to);
  setF64(g.edgeWeight, e, w);
  hashInsert(g, from, to, e);
  g.m = e + 1;
  return 1;
}

// Removes edge e by moving the last edge into its place.
function removeEdgeAt(g: Graph, e: i32): void {
  hashDelete(g, i32At(g.edgeFrom, e), i32At(g.edgeTo, e));
  const last = --g.m;
  if (e != last) {
    const from = i32At(g.edgeFrom, last);
    const to = i32At(g.edgeTo, last);
    setI32(g.edgeFrom, e, from);
    setI32(g.edgeTo, e, to);
    setF64(g.edgeWeight, e, f64At(g.edgeWeight, last));
    hashRepoint(g, from, to, e);
  }
}

/** Removes from -> to (and to -> from when mirror); returns 1 when from -> to existed. */
export function graphRemoveEdge(handle: i32, from: i32, to: i32, mirror: bool): i32 {
  const g = changetype<Graph>(<usize>handle);
  prepareEdit(g);
  const removed = removeArc(g, from, to);
  if (mirror && from != to) removeArc(g, to, from);
  return removed;
}

function removeArc(g: Graph, from: i32, to: i32): i32 {
  const found = hashFind(g, from, to);
  if (found == EMPTY) return 0;
  removeEdgeAt(g, found);
  g.csrValid = false;
  g.reverseValid = false;
  return 1;
}

/** Removes every edge into or out of v and clears its position. */
export function graphClearVertex(handle: i32, v: i32): void {
  const g = changetype<Graph>(<usize>handle);
  prepareEdit(g);
  // Walk down so an edge moved into a freed place has already been looked at.
  for (let e = g.m - 1; e >= 0; e--) {
    if (i32At(g.edgeFrom, e) == v || i32At(g.edgeTo, e) == v) removeEdgeAt(g, e);
  }
  setF64(g.xy, v << 1, NaN);
  g.csrValid = false;
  g.reverseValid = false;
}

/** Number of distinct edges. */
export function graphEdgeCount(handle: i32): i32 {
  const g = changetype<Graph>(<usize>handle);
  if (g.raw) buildCsr(g);
  return g.m;
}

// ---- bulk load -----------------------------------------------------------------

/**
 * Replaces all edges with `count` edges the caller writes into the arrays at
 * graphEdgeFrom/To/Weight after this call; graphLoadEdges then indexes them.
 */
export function graphReserveLoad(handle: i32, count: i32): void {
  const g = changetype<Graph>(<usize>handle);
  reserveEdges(g, count);
  g.m = count;
  g.raw = true;
  g.hashValid = false;
  g.csrValid = false;
  g.reverseValid = false;
}
export function graphEdgeFrom(handle: i32): i32 {
  return <i32>changetype<Graph>(<usize>handle).edgeFrom;
}
export function graphEdgeTo(handle: i32): i32 {
  return <i32>changetype<Graph>(<usize>handle).edgeTo;
}
export function graphEdgeWeight(handle: i32): i32 {
  return <i32>changetype<Graph>(<usize>handle).edgeWeight;
}

/** Builds the CSR of the loaded edges (a repeated pair keeps its last weight); returns the edge count. */
export function graphLoadEdges(handle: i32): i32 {
  const g = changetype<Graph>(<usize>handle);
  buildCsr(g);
  return g.m;
}

/**
 * Indexes edges written after graphReserveLoad that hold no repeated pair,
 * keeping the list in the order given (a snapshot's edge list).
 */
export function graphLoadListed(handle: i32): void {
  const g = changetype<Graph>(<usize>handle);
  g.raw = false;
  buildCsr(g);
}

// ---- CSR ---------------------------------------------------------------------

/** Builds the forward CSR if edits made it stale. */
export function ensureCsr(g: Graph): void {
  if (!g.csrValid) buildCsr(g);
}

// The first half of a counting sort: start[k] = how many of the m keys are
// below k, for k in 0..n; cursor gets a copy of start[0..n-1] to fill rows by.
function rowStarts(start: usize, cursor: usize, n: i32, keys: usize, m: i32): void {
  memory.fill(start, 0, (<usize>n + 1) << 2);
  for (let e = 0; e < m; e++) {
    const k = i32At(keys, e) + 1;
    setI32(start, k, i32At(start, k) + 1);
  }
  for (let k = 0; k < n; k++) setI32(start, k + 1, i32At(start, k + 1) + i32At(start, k));
  memory.copy(cursor, start, <usize>n << 2);
}

// Counting sort of the edge list by source, the queue serving as row cursors. Within a row edges keep list
// order, so when the list is raw a later repeat of (from, to) overwrites the
// earlier one's weight; the list is then rewritten in CSR order without repeats.
function buildCsr(g: Graph): void {
  const n = g.n;
  const m = g.m;
  g.start = grow(g.start, (<usize>n + 1) << 2);
  g.target = grow(g.target, <usize>max(m, 1) << 2);
  g.weight = grow(g.weight, <usize>max(m, 1) << 3);
  const start = g.start;
  const cursor = g.queue;
  rowStarts(start, cursor, n, g.edgeFrom, m);
  for (let e = 0; e < m; e++) {
    const u = i32At(g.edgeFrom, e);
    const at = i32At(cursor, u);
    setI32(cursor, u, at + 1);
    setI32(g.target, at, i32At(g.edgeTo, e));
    setF64(g.weight, at, f64At(g.edgeWeight, e));
    setI32(g.edgeCsr, e, at);
  }
  if (g.raw) removeRepeats(g);
  let negatives = 0;
  for (let e = 0; e < g.m; e++) if (f64At(g.weight, e) < 0) negatives++;
  g.negatives = negatives;
  g.csrN = n;
  g.csrValid = true;
  g.reverseValid = false;
}

// Compacts each CSR row so every target appears once with its last weight,
// then rewrites the edge list from the CSR.
function removeRepeats(g: Graph): void {
  const n = g.n;
  const start = g.start;
  // Per target: the row (+ 1) that last wrote it, and where.
  const seenRow = heap.alloc(<usize>max(n, 1) << 2);
  const seenAt = heap.alloc(<usize>max(n, 1) << 2);
  memory.fill(seenRow, 0, <usize>n << 2);
  let out = 0;
  let rowBegin = 0;
  for (let u = 0; u < n; u++) {
    const end = i32At(start, u + 1);
    const first = out;
    for (let at = rowBegin; at < end; at++) {
      const v = i32At(g.target, at);
      const w = f64At(g.weight, at);
      if (i32At(seenRow, v) == u + 1) {
        setF64(g.weight, i32At(seenAt, v), w);
      } else {
        setI32(seenRow, v, u + 1);
        setI32(seenAt, v, out);
        setI32(g.target, out, v);
        setF64(g.weight, out, w);
        out++;
      }
    }
    rowBegin = end;
    setI32(start, u, first);
  }
  setI32(start, n, out);
  heap.free(seenRow);
  heap.free(seenAt);
  g.m = out;
  for (let u = 0; u < n; u++) {
    for (let at = i32At(start, u), end = i32At(start, u + 1); at < end; at++) {
      setI32(g.edgeFrom, at, u);
      setI32(g.edgeTo, at, i32At(g.target, at));
      setF64(g.edgeWeight, at, f64At(g.weight, at));
      setI32(g.edgeCsr, at, at);
    }
  }
  g.raw = false;
  g.hashValid = false;
}

/** Builds the reverse CSR (in-edges grouped by target) if stale. */
export function ensureReverse(g: Graph): void {
  ensureCsr(g);
  if (g.reverseValid) return;
  const n = g.n;
  const m = g.m;
  g.rStart = grow(g.rStart, (<usize>n + 1) << 2);
  g.rSource = grow(g.rSource, <usize>max(m, 1) << 2);
  g.rWeight = grow(g.rWeight, <usize>max(m, 1) << 3);
  g.reverseAt = grow(g.reverseAt, <usize>max(m, 1) << 2);
  const cursor = g.queue;
  rowStarts(g.rStart, cursor, n, g.target, m);
  for (let u = 0; u < n; u++) {
    for (let e = i32At(g.start, u), end = i32At(g.start, u + 1); e < end; e++) {
      const v = i32At(g.target, e);
      const at = i32At(cursor, v);
      setI32(cursor, v, at + 1);
      setI32(g.rSource, at, u);
      setF64(g.rWeight, at, f64At(g.weight, e));
      setI32(g.reverseAt, e, at);
    }
  }
  g.reverseValid = true;
}

/** Number of negative edges (builds the CSR when stale). */
export function graphNegativeEdges(handle: i32): i32 {
  const g = changetype<Graph>(<usize>handle);
  ensureCsr(g);
  return g.negatives;
}

/**
 * Builds both CSRs and returns a pointer to six i32 fields: start, target,
 * weight, rStart, rSource, rWeight (for a search run outside the core).
 */
export function graphCsrPointers(handle: i32): i32 {
  const g = changetype<Graph>(<usize>handle);
  ensureReverse(g);
  return <i32>(changetype<usize>(g) + offsetof<Graph>('start'));
}
