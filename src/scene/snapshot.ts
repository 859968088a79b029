// The Scene snapshot format, on the shared snapshot header
// (src/core/snapshot-bytes.ts: magic 'SKSC', u16 version, u16 flags, u32 length,
// u32 checksum), little-endian. Flags: bit 0 a 3-D scene, bit 1 the grid
// index, bit 2 events 'net', bit 3 moveEvents false, bit 4 margins follow;
// other bits are invalid.
//
//   16  f64 defaultRange, f64 cellSize
//   32  u32 entity count n
//   36  n records, ids strictly ascending, each:
//         i32 id, f64 x, f64 y, (3-D only) f64 z,
//         u8 range kind (0 marker, 1 box, 2 circle), f64 rx, ry, rz,
//         i32 layer, i32 sees
//   with bit 4 only:
//         n f64 margins, in the records' order
//         u32 held pair count h, then h pairs i32 watcher id, i32 target id,
//         ascending by watcher then target: the pairs visible only thanks to
//         the watcher's margin (they depend on history, not on positions)
//
// Entities are written by id, so two scenes with the same options and
// entities give the same bytes whatever their history or backend. Markers
// have half-extents 0 and circles rx = ry = rz; anything else is invalid. The
// values themselves (finite positions, ranges >= 0) are validated by the
// scene that receives them.
import type { SceneIndex } from './backend.js';
import { BOX, CIRCLE, MARKER, type RangeKind } from './shapes.js';
import { SnapshotReader, SnapshotWriter, snapshotError } from '../core/snapshot-bytes.js';

const MAGIC = 'SKSC';
const VERSION = 1;
const WHAT = 'Scene';

const FLAG_3D = 1;
const FLAG_GRID = 2;
const FLAG_NET = 4;
const FLAG_NO_MOVE_EVENTS = 8;
const FLAG_MARGINS = 16;
const KNOWN_FLAGS = FLAG_3D | FLAG_GRID | FLAG_NET | FLAG_NO_MOVE_EVENTS | FLAG_MARGINS;

/** The contents of a Scene snapshot: options and entities (ids ascending; per-entity arrays in the same order). */
export interface SceneSnapshot {
  dimensions: 2 | 3;
  index: SceneIndex;
  events: 'log' | 'net';
  moveEvents: boolean;
  defaultRange: number;
  cellSize: number;
  ids: Int32Array;
  /** x, y, z per entity (z 0 in 2-D). */
  positions: Float64Array;
  kinds: Uint8Array;
  /** rx, ry, rz per entity. */
  halfExtents: Float64Array;
  layers: Int32Array;
  sees: Int32Array;
  margins: Float64Array;
  /** The pairs visible only thanks to a margin, as ids [w0, t0, w1, t1, ...], ascending by watcher then target. */
  held: Int32Array;
}

/** Zeroed per-entity arrays for n entities, to be filled in id order, and no held pairs. */
export function entityArrays(n: number): Pick<SceneSnapshot, 'positions' | 'kinds' | 'halfExtents' | 'layers' | 'sees' | 'margins' | 'held'> {
  return {
    positions: new Float64Array(3 * n),
    kinds: new Uint8Array(n),
    halfExtents: new Float64Array(3 * n),
    layers: new Int32Array(n),
    sees: new Int32Array(n),
    margins: new Float64Array(n),
    held: new Int32Array(0),
  };
}

/** Encodes a snapshot; ids must be ascending. */
export function writeSceneSnapshot(s: SceneSnapshot): Uint8Array {
  const n = s.ids.length;
  const margins = s.margins.some((m) => m !== 0);
  const flags =
    (s.dimensions === 3 ? FLAG_3D : 0) |
    (s.index === 'grid' ? FLAG_GRID : 0) |
    (s.events === 'net' ? FLAG_NET : 0) |
    (s.moveEvents ? 0 : FLAG_NO_MOVE_EVENTS) |
    (margins ? FLAG_MARGINS : 0);
  const out = new SnapshotWriter(MAGIC, VERSION, flags, 36 + n * recordBytes(s.dimensions) + (margins ? 8 * n + 4 + 4 * s.held.length : 0));
  out.f64(s.defaultRange);
  out.f64(s.cellSize);
  out.u32(n);
  for (let i = 0; i < n; i++) {
    out.i32(s.ids[i]);
    for (let axis = 0; axis < s.dimensions; axis++) out.f64(s.positions[3 * i + axis]);
    out.u8(s.kinds[i]);
    for (let axis = 0; axis < 3; axis++) out.f64(s.halfExtents[3 * i + axis]);
    out.i32(s.layers[i]);
    out.i32(s.sees[i]);
  }
  if (margins) {
    for (let i = 0; i < n; i++) out.f64(s.margins[i]);
    out.u32(s.held.length / 2);
    for (const id of s.held) out.i32(id);
  }
  return out.finish();
}

/** Bytes of one entity record. */
function recordBytes(dimensions: 2 | 3): number {
  return 4 + 8 * dimensions + 1 + 24 + 8;
}

/**
 * Decodes a snapshot, throwing INVALID_ARGUMENT for a non-Uint8Array and
 * INVALID_SNAPSHOT for bytes that are not one: another magic or version, a
 * length other than its header or entity count announces, a checksum
 * mismatch, unknown flag bits or range kinds, ids not strictly ascending, a
 * marker with half-extents other than 0, a circle whose half-extents differ.
 */
export function readSceneSnapshot(bytes: Uint8Array): SceneSnapshot {
  const input = new SnapshotReader(bytes, MAGIC, VERSION, WHAT);
  const flags = input.flags;
  if ((flags & ~KNOWN_FLAGS) !== 0) throw snapshotError(`${WHAT} snapshot has unknown flags ${flags}`);
  const dimensions = flags & FLAG_3D ? 3 : 2;
  const defaultRange = input.f64();
  const cellSize = input.f64();
  const n = input.u32();
  const margins = (flags & FLAG_MARGINS) !== 0;
  if (margins ? input.remaining < n * (recordBytes(dimensions) + 8) + 4 : input.remaining !== n * recordBytes(dimensions)) {
    throw snapshotError(`${WHAT} snapshot of ${n} entities needs ${n * recordBytes(dimensions)} bytes of entities, has ${input.remaining}`);
  }
  const s: SceneSnapshot = {
    dimensions,
    index: flags & FLAG_GRID ? 'grid' : 'lists',
    events: flags & FLAG_NET ? 'net' : 'log',
    moveEvents: (flags & FLAG_NO_MOVE_EVENTS) === 0,
    defaultRange,
    cellSize,
    ids: new Int32Array(n),
    ...entityArrays(n),
  };
  for (let i = 0; i < n; i++) {
    s.ids[i] = input.i32();
    if (i > 0 && s.ids[i] <= s.ids[i - 1]) throw snapshotError(`${WHAT} snapshot ids are not strictly ascending at entity ${i}`);
    for (let axis = 0; axis < dimensions; axis++) s.positions[3 * i + axis] = input.f64();
    const kind = input.u8();
    if (kind !== MARKER && kind !== BOX && kind !== CIRCLE) throw snapshotError(`${WHAT} snapshot entity ${s.ids[i]} has unknown range kind ${kind}`);
    s.kinds[i] = kind;
    for (let axis = 0; axis < 3; axis++) s.halfExtents[3 * i + axis] = input.f64();
    checkShape(s, i, kind);
    s.layers[i] = input.i32();
    s.sees[i] = input.i32();
  }
  if (margins) readMargins(input, s);
  input.end();
  return s;
}

/** The margins and held pairs: pairs of two distinct ids of the scene, strictly ascending. */
function readMargins(input: SnapshotReader, s: SceneSnapshot): void {
  const n = s.ids.length;
  for (let i = 0; i < n; i++) s.margins[i] = input.f64();
  const h = input.u32();
  if (input.remaining !== 8 * h) throw snapshotError(`${WHAT} snapshot of ${h} held pairs needs ${8 * h} bytes of pairs, has ${input.remaining}`);
  const known = new Set(s.ids);
  s.held = new Int32Array(2 * h);
  for (let k = 0; k < 2 * h; k += 2) {
    const w = (s.held[k] = input.i32());
    const t = (s.held[k + 1] = input.i32());
    if (!known.has(w) || !known.has(t) || w === t) throw snapshotError(`${WHAT} snapshot holds pair ${w} ${t} of unknown or equal ids`);
    if (k > 0 && (w < s.held[k - 2] || (w === s.held[k - 2] && t <= s.held[k - 1]))) throw snapshotError(`${WHAT} snapshot held pairs are not strictly ascending at pair ${k / 2}`);
  }
}

/** A marker's half-extents are 0; a circle's are its radius on every axis. */
function checkShape(s: SceneSnapshot, i: number, kind: RangeKind): void {
  const [rx, ry, rz] = s.halfExtents.subarray(3 * i, 3 * i + 3);
  if (kind === MARKER && (rx !== 0 || ry !== 0 || rz !== 0)) throw snapshotError(`${WHAT} snapshot marker ${s.ids[i]} has a range`);
  if (kind === CIRCLE && (ry !== rx || rz !== rx)) throw snapshotError(`${WHAT} snapshot circle ${s.ids[i]} has unequal half-extents`);
}
