// The QuadTree snapshot format (little-endian throughout):
//
//   0   magic 'SKQT', u32 version, u32 CRC-32 of bytes 12..end (src/snapshot.ts)
//   12  u8 mode (0 split, 1 fixed), 3 zero bytes
//   16  u32 capacity, u32 levels (maxDepth in split mode, depth in fixed mode)
//   24  u32 item count n, 4 zero bytes
//   32  f64 minX, minY, maxX, maxY of the bounds
//   64  n rects, 4 f64 each (minX, minY, maxX, maxY)
//   64 + 32n  n ids, i32, strictly ascending
//
// Items are written by id, so two trees with the same options and items give
// the same bytes whatever their history, and the format holds no node: a
// snapshot is a list of items, rebuilt on load by either backend.
import type { QuadTreeMode } from './reference/quadtree.js';
import { openSnapshot, sealSnapshot, snapshotError, verifySnapshot } from './snapshot.js';

const MAGIC = 'SKQT';
const VERSION = 1;
const HEAD = 64;
const WHAT = 'QuadTree';

/** The contents of a QuadTree snapshot: options and items (ids ascending, rects flat in the same order). */
export interface QuadTreeSnapshot {
  mode: QuadTreeMode;
  capacity: number;
  levels: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  ids: Int32Array;
  rects: Float64Array;
}

/** Encodes a snapshot; ids must be ascending. */
export function writeQuadTreeSnapshot(s: QuadTreeSnapshot): Uint8Array {
  const n = s.ids.length;
  const bytes = new Uint8Array(HEAD + 36 * n);
  const view = new DataView(bytes.buffer);
  view.setUint8(12, s.mode === 'split' ? 0 : 1);
  view.setUint32(16, s.capacity, true);
  view.setUint32(20, s.levels, true);
  view.setUint32(24, n, true);
  [s.minX, s.minY, s.maxX, s.maxY].forEach((v, i) => view.setFloat64(32 + 8 * i, v, true));
  for (let i = 0; i < 4 * n; i++) view.setFloat64(HEAD + 8 * i, s.rects[i], true);
  for (let i = 0; i < n; i++) view.setInt32(HEAD + 32 * n + 4 * i, s.ids[i], true);
  sealSnapshot(bytes, MAGIC, VERSION);
  return bytes;
}

/**
 * Decodes a snapshot, throwing INVALID_SNAPSHOT for input that is not one:
 * another magic or version, a length other than the item count announces,
 * a checksum mismatch, an unknown mode, or ids not strictly ascending. The
 * values themselves (bounds, capacity, rects) are validated by the tree that
 * receives them.
 */
export function readQuadTreeSnapshot(bytes: Uint8Array): QuadTreeSnapshot {
  const view = openSnapshot(bytes, MAGIC, VERSION, HEAD, WHAT);
  const n = view.getUint32(24, true);
  const expected = HEAD + 36 * n;
  if (bytes.length !== expected) snapshotError(`${WHAT} snapshot of ${n} items has ${expected} bytes, got ${bytes.length}`);
  verifySnapshot(bytes, WHAT);
  const modeByte = view.getUint8(12);
  if (modeByte > 1) snapshotError(`${WHAT} snapshot has unknown mode ${modeByte}`);
  const rects = new Float64Array(4 * n);
  for (let i = 0; i < 4 * n; i++) rects[i] = view.getFloat64(HEAD + 8 * i, true);
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    ids[i] = view.getInt32(HEAD + 32 * n + 4 * i, true);
    if (i > 0 && ids[i] <= ids[i - 1]) snapshotError(`${WHAT} snapshot ids are not strictly ascending at item ${i}`);
  }
  const [minX, minY, maxX, maxY] = [0, 1, 2, 3].map((i) => view.getFloat64(32 + 8 * i, true));
  return { mode: modeByte === 0 ? 'split' : 'fixed', capacity: view.getUint32(16, true), levels: view.getUint32(20, true), minX, minY, maxX, maxY, ids, rects };
}
