// The Graph snapshot format (magic 'SKGR', version 1; flags bit 0: undirected).
// After the header: u32 slot count, u32 free-slot count, u32 arc count; per
// slot a tag byte (0 free, 1 number id, 2 string id; bit 7: has a position)
// then a number id as u32, or a string id as u32 length + UTF-16 code units,
// then x and y as f64 when positioned; the free-slot stack as u32s; every arc
// (an undirected edge is two) as u32 from slot, u32 to slot, f64 weight, in
// the order of the graph's edge list. Slots, the free stack and the edge order
// are kept as they were, so a restored graph answers every query exactly as
// the original, ties included, and goes on doing so through the same edits.
import { MAX_VERTICES } from './backend.js';
import type { VertexId } from './ids.js';
import { rowStarts } from './js/graph.js';
import { SnapshotReader, SnapshotWriter, snapshotError } from '../core/snapshot-bytes.js';

const MAGIC = 'SKGR';
const VERSION = 1;
const UNDIRECTED = 1;
const FREE = 0;
const NUMBER_ID = 1;
const STRING_ID = 2;
const POSITIONED = 0x80;
const MAX_ID = 0x7fffffff;
const ARC_BYTES = 16;

/** Everything a Graph snapshot holds, slot by slot. */
export interface GraphLayout {
  directed: boolean;
  /** Slot -> id; undefined for a free slot. */
  ids: ReadonlyArray<VertexId | undefined>;
  /** Free-slot stack, top last. */
  free: readonly number[];
  /** Positions per slot; NaN where there is none. */
  xs: Float64Array;
  ys: Float64Array;
  /** The edge list (arcs), in order. */
  from: Int32Array;
  to: Int32Array;
  weight: Float64Array;
}

/** Writes a layout as snapshot bytes. */
export function encodeGraph(layout: GraphLayout): Uint8Array {
  const { ids, free, xs, ys, from, to, weight } = layout;
  const slots = ids.length;
  const out = new SnapshotWriter(MAGIC, VERSION, layout.directed ? 0 : UNDIRECTED, 28 + slots * 21 + free.length * 4 + from.length * ARC_BYTES);
  out.u32(slots);
  out.u32(free.length);
  out.u32(from.length);
  for (let slot = 0; slot < slots; slot++) {
    const id = ids[slot];
    const positioned = !Number.isNaN(xs[slot]);
    const kind = id === undefined ? FREE : typeof id === 'string' ? STRING_ID : NUMBER_ID;
    out.u8(kind | (positioned ? POSITIONED : 0));
    if (typeof id === 'string') {
      out.u32(id.length);
      for (let i = 0; i < id.length; i++) out.u16(id.charCodeAt(i));
    } else if (id !== undefined) {
      out.u32(id);
    }
    if (positioned) {
      out.f64(xs[slot]);
      out.f64(ys[slot]);
    }
  }
  for (const slot of free) out.u32(slot);
  for (let e = 0; e < from.length; e++) {
    out.u32(from[e]);
    out.u32(to[e]);
    out.f64(weight[e]);
  }
  return out.finish();
}

function readString(input: SnapshotReader): string {
  const length = input.u32();
  if (length * 2 > input.remaining) throw snapshotError('snapshot is truncated');
  const units = new Uint16Array(length);
  for (let i = 0; i < length; i++) units[i] = input.u16();
  let text = '';
  for (let i = 0; i < length; i += 8192) text += String.fromCharCode(...units.subarray(i, i + 8192));
  return text;
}

/** Reads the vertex records: ids per slot and positions. */
function readSlots(input: SnapshotReader, slots: number): { ids: Array<VertexId | undefined>; xs: Float64Array; ys: Float64Array } {
  const ids = new Array<VertexId | undefined>(slots);
  const xs = new Float64Array(slots).fill(NaN);
  const ys = new Float64Array(slots).fill(NaN);
  const numbers = new Set<number>();
  const strings = new Set<string>();
  for (let slot = 0; slot < slots; slot++) {
    const tag = input.u8();
    const kind = tag & ~POSITIONED;
    if (kind === NUMBER_ID) {
      const id = input.u32();
      if (id > MAX_ID || numbers.has(id)) throw snapshotError(`slot ${slot} holds an invalid or repeated id ${id}`);
      numbers.add(id);
      ids[slot] = id;
    } else if (kind === STRING_ID) {
      const id = readString(input);
      if (strings.has(id)) throw snapshotError(`slot ${slot} repeats the id ${JSON.stringify(id)}`);
      strings.add(id);
      ids[slot] = id;
    } else if (kind !== FREE || tag !== FREE) {
      throw snapshotError(`slot ${slot} has an unknown tag ${tag}`);
    }
    if ((tag & POSITIONED) !== 0) {
      const x = input.f64();
      const y = input.f64();
      if (!Number.isFinite(x) || !Number.isFinite(y)) throw snapshotError(`slot ${slot} has a non-finite position`);
      xs[slot] = x;
      ys[slot] = y;
    }
  }
  return { ids, xs, ys };
}

/** The free-slot stack: every free slot exactly once. */
function readFree(input: SnapshotReader, ids: ReadonlyArray<VertexId | undefined>, count: number): number[] {
  const free: number[] = [];
  const listed = new Set<number>();
  for (let i = 0; i < count; i++) {
    const slot = input.u32();
    if (slot >= ids.length || ids[slot] !== undefined || listed.has(slot)) throw snapshotError(`free-slot entry ${slot} is not a free slot listed once`);
    listed.add(slot);
    free.push(slot);
  }
  let freeSlots = 0;
  for (let slot = 0; slot < ids.length; slot++) if (ids[slot] === undefined) freeSlots++;
  if (freeSlots !== count) throw snapshotError(`${freeSlots} free slots, but the free list holds ${count}`);
  return free;
}

/** The arcs: live endpoints, finite weights, no repeated pair, mirrored when undirected. */
function readArcs(input: SnapshotReader, ids: ReadonlyArray<VertexId | undefined>, count: number, directed: boolean) {
  if (count * ARC_BYTES > input.remaining) throw snapshotError('snapshot is truncated');
  const from = new Int32Array(count);
  const to = new Int32Array(count);
  const weight = new Float64Array(count);
  for (let e = 0; e < count; e++) {
    const u = input.u32();
    const v = input.u32();
    const w = input.f64();
    if (u >= ids.length || v >= ids.length || ids[u] === undefined || ids[v] === undefined) {
      throw snapshotError(`edge ${e} joins a slot that holds no vertex`);
    }
    if (!Number.isFinite(w)) throw snapshotError(`edge ${e} has a non-finite weight`);
    from[e] = u;
    to[e] = v;
    weight[e] = w;
  }
  checkArcSet(ids.length, from, to, weight, directed);
  return { from, to, weight };
}

// Arcs grouped by one end (a counting sort): where each group starts, and the
// other end and weight of each arc in it.
function groupBy(n: number, key: Int32Array, other: Int32Array, weight: Float64Array) {
  const start = rowStarts(n, key, key.length);
  const cursor = start.slice(0, n);
  const ends = new Int32Array(key.length);
  const weights = new Float64Array(key.length);
  for (let e = 0; e < key.length; e++) {
    const at = cursor[key[e]]++;
    ends[at] = other[e];
    weights[at] = weight[e];
  }
  return { start, ends, weights };
}

// No (from, to) twice; when undirected, the arcs into each vertex are its arcs
// out, mirrored, with the same weights. Linear time: per vertex, its out-arcs
// are stamped into arrays indexed by the other end.
function checkArcSet(n: number, from: Int32Array, to: Int32Array, weight: Float64Array, directed: boolean): void {
  const out = groupBy(n, from, to, weight);
  const into = directed ? null : groupBy(n, to, from, weight);
  const stamp = new Int32Array(n);
  const weightTo = new Float64Array(n);
  for (let u = 0; u < n; u++) {
    for (let at = out.start[u]; at < out.start[u + 1]; at++) {
      const v = out.ends[at];
      if (stamp[v] === u + 1) throw snapshotError(`the edge from slot ${u} to slot ${v} is listed twice`);
      stamp[v] = u + 1;
      weightTo[v] = out.weights[at];
    }
    if (into === null) continue;
    // Without repeats, equal counts and every in-arc matching an out-arc make the two sets equal.
    let mirrored = into.start[u + 1] - into.start[u] === out.start[u + 1] - out.start[u];
    for (let at = into.start[u]; mirrored && at < into.start[u + 1]; at++) {
      const s = into.ends[at];
      mirrored = stamp[s] === u + 1 && weightTo[s] === into.weights[at];
    }
    if (!mirrored) throw snapshotError(`an undirected edge at slot ${u} lacks its mirror arc`);
  }
}

/**
 * Reads and checks snapshot bytes. Throws INVALID_ARGUMENT when bytes is not
 * a Uint8Array, INVALID_SNAPSHOT when they are truncated, corrupt, of another
 * format version, or describe an impossible graph.
 */
export function decodeGraph(bytes: unknown): GraphLayout {
  const input = new SnapshotReader(bytes, MAGIC, VERSION, 'Graph');
  if ((input.flags & ~UNDIRECTED) !== 0) throw snapshotError(`unknown Graph snapshot flags ${input.flags}`);
  const directed = (input.flags & UNDIRECTED) === 0;
  const slots = input.u32();
  const freeCount = input.u32();
  const arcCount = input.u32();
  // Each slot takes at least a byte: a count beyond the bytes left is corrupt, not a reason to allocate.
  if (slots > MAX_VERTICES || slots > input.remaining || freeCount > slots) throw snapshotError('snapshot counts do not fit its length');
  const { ids, xs, ys } = readSlots(input, slots);
  const free = readFree(input, ids, freeCount);
  const arcs = readArcs(input, ids, arcCount, directed);
  input.end();
  return { directed, ids, free, xs, ys, ...arcs };
}
