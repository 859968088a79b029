// The QuadTree snapshot format, on the shared snapshot header
// (src/core/snapshot-bytes.ts: magic 'SKQT', u16 version, u16 flags, u32
// length, u32 checksum), little-endian. Flags: bit 0 the mode (0 split,
// 1 fixed), bit 1 set for a tree without bounds (whose bounds fields are 0).
//
//   16  u32 capacity, u32 levels (maxDepth in split mode, depth in fixed mode)
//   24  u32 item count n
//   28  f64 minX, minY, maxX, maxY of the bounds
//   60  n ids, i32, strictly ascending
//   60 + 4n  n rects, 4 f64 each (minX, minY, maxX, maxY)
//
// Items are written by id, so two trees with the same options and items give
// the same bytes whatever their history, and the format holds no node: a
// snapshot is a list of items, rebuilt on load by either backend. A tree
// with bounds writes the bytes it did before bit 1 existed.
import type { Box, QuadTreeMode } from './backend.js';
import { SnapshotReader, SnapshotWriter, snapshotError } from '../core/snapshot-bytes.js';

const MAGIC = 'SKQT';
const VERSION = 1;
const WHAT = 'QuadTree';
const FIXED = 1;
const UNBOUNDED = 2;

/** The contents of a QuadTree snapshot: options and items (ids ascending, rects flat in the same order). */
export interface QuadTreeSnapshot {
  mode: QuadTreeMode;
  capacity: number;
  levels: number;
  /** [minX, minY, maxX, maxY], or null for a tree without bounds. */
  bounds: Box | null;
  ids: Int32Array;
  rects: Float64Array;
}

/** Encodes a snapshot; ids must be ascending. */
export function writeQuadTreeSnapshot(s: QuadTreeSnapshot): Uint8Array {
  const n = s.ids.length;
  const flags = (s.mode === 'split' ? 0 : FIXED) | (s.bounds === null ? UNBOUNDED : 0);
  const out = new SnapshotWriter(MAGIC, VERSION, flags, 60 + 36 * n);
  out.u32(s.capacity);
  out.u32(s.levels);
  out.u32(n);
  for (const v of s.bounds ?? [0, 0, 0, 0]) out.f64(v);
  for (let i = 0; i < n; i++) out.i32(s.ids[i]);
  for (let i = 0; i < 4 * n; i++) out.f64(s.rects[i]);
  return out.finish();
}

/**
 * Decodes a snapshot, throwing INVALID_ARGUMENT for a non-Uint8Array and
 * INVALID_SNAPSHOT for bytes that are not one: another magic or version, a
 * length other than its header or item count announces, a checksum mismatch,
 * unknown flags, or ids not strictly ascending. The values themselves
 * (bounds, capacity, rects) are validated by the tree that receives them.
 */
export function readQuadTreeSnapshot(bytes: Uint8Array): QuadTreeSnapshot {
  const input = new SnapshotReader(bytes, MAGIC, VERSION, WHAT);
  if (input.flags > (FIXED | UNBOUNDED)) throw snapshotError(`${WHAT} snapshot has unknown flags ${input.flags}`);
  const capacity = input.u32();
  const levels = input.u32();
  const n = input.u32();
  const box: Box = [input.f64(), input.f64(), input.f64(), input.f64()];
  if (input.remaining !== 36 * n) throw snapshotError(`${WHAT} snapshot of ${n} items needs ${36 * n} bytes of items, has ${input.remaining}`);
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    ids[i] = input.i32();
    if (i > 0 && ids[i] <= ids[i - 1]) throw snapshotError(`${WHAT} snapshot ids are not strictly ascending at item ${i}`);
  }
  const rects = new Float64Array(4 * n);
  for (let i = 0; i < 4 * n; i++) rects[i] = input.f64();
  input.end();
  const mode = (input.flags & FIXED) === 0 ? 'split' : 'fixed';
  return { mode, capacity, levels, bounds: (input.flags & UNBOUNDED) === 0 ? box : null, ids, rects };
}
