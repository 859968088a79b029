// The grid index's records in linear memory, each drawn once here and read
// everywhere through the names below (how the index uses them:
// docs/design/scene-grid.md). Offsets are in bytes from a record's address.
//
// A level's table of cells is an array of buckets; an occupied bucket holds
// the address of its cell's block, where the cell's records sit back to
// back; the slot table, indexed by slot, holds each slot's cell and the
// address of its record, and beside it a table indexed by slot holds its
// layer masks (drawn in codes.ts).

// ---- bucket: one cell in a level's table (open addressing) ----------------
//
//   0        4        8        12       16       20       24
//   ┌────────┬────────┬────────┬────────┬────────┬────────┐
//   │   cx   │   cy   │   cz   │ count  │capacity│ block  │
//   └────────┴────────┴────────┴────────┴────────┴────────┘
//
//   cx cy cz  the cell's coordinates (cz is 0 in 2-D)
//   count     records in the cell; 0: the bucket is empty
//   capacity  records the block has room for
//   block     address of the cell's records
export const BUCKET_CX: usize = 0;
export const BUCKET_CY: usize = 4;
export const BUCKET_CZ: usize = 8;
export const BUCKET_COUNT: usize = 12;
export const BUCKET_CAPACITY: usize = 16;
export const BUCKET_BLOCK: usize = 20;
export const BUCKET_BYTES: usize = 24;

// ---- record: one entity in its cell's block ---------------------------------
//
//   2-D, RECORD_BYTES_2D apart:
//   0      4      8             16            24            32            40
//   ┌──────┬──────┬─────────────┬─────────────┬─────────────┬─────────────┐
//   │ slot │  id  │      x      │      y      │     rx      │     ry      │
//   └──────┴──────┴─────────────┴─────────────┴─────────────┴─────────────┘
//
//   2-D in a scene with margins, RECORD_BYTES_2D_PLAIN apart:
//   0      4      8             16            24            32            40            48            56             72
//   ┌──────┬──────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬──────────────┐
//   │ slot │  id  │      x      │      y      │     rx      │     ry      │     px      │     py      │ held targets │
//   └──────┴──────┴─────────────┴─────────────┴─────────────┴─────────────┴─────────────┴─────────────┴──────────────┘
//
//   3-D, RECORD_BYTES_3D apart:
//   0      4      8             16            24            32            40            48            56
//   ┌──────┬──────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┐
//   │ slot │  id  │      x      │      y      │      z      │     rx      │     ry      │     rz      │
//   └──────┴──────┴─────────────┴─────────────┴─────────────┴─────────────┴─────────────┴─────────────┘
//
//   3-D in a scene with margins, RECORD_BYTES_3D_PLAIN apart: the same,
//   then px at 56, py at 64, pz at 72 and the held targets at 80 (96 bytes).
//
//   slot      the entity's slot (its entry in the slot table)
//   id        the user's id, carried into events and results
//   x y z     position (f64)
//   rx ry rz  grown half-extents: range + margin; NaN for a marker, which sees nothing
//   px py pz  plain half-extents: the range without its margin (without a
//             margin, the grown ones); there from the scene's first margin on
//   held targets  the targets the entity holds by its margin (below)
//
// Position, grown and plain half-extents are adjacent pairs of doubles, so a
// 2-D step reads (x, y), (rx, ry) and (px, py) as one v128 each.
export const RECORD_SLOT: usize = 0;
export const RECORD_ID: usize = 4;
export const RECORD_X: usize = 8;
export const RECORD_Y: usize = 16;
export const RECORD_Z: usize = 24;
export const RECORD_RX_2D: usize = 24;
export const RECORD_RY_2D: usize = 32;
export const RECORD_BYTES_2D: usize = 40;
export const RECORD_PX_2D: usize = 40;
export const RECORD_PY_2D: usize = 48;
export const RECORD_HELD_2D: usize = 56;
export const RECORD_BYTES_2D_PLAIN: usize = 72;
export const RECORD_RX_3D: usize = 32;
export const RECORD_RY_3D: usize = 40;
export const RECORD_RZ_3D: usize = 48;
export const RECORD_BYTES_3D: usize = 56;
export const RECORD_PX_3D: usize = 56;
export const RECORD_PY_3D: usize = 64;
export const RECORD_PZ_3D: usize = 72;
export const RECORD_HELD_3D: usize = 80;
export const RECORD_BYTES_3D_PLAIN: usize = 96;

/** Offset of a record's first half-extent (rx), which follows its coordinates. */
@inline export function recordRx(three: bool): usize {
  return three ? RECORD_RX_3D : RECORD_RX_2D;
}

/** Offset of a record's second half-extent (ry). */
@inline export function recordRy(three: bool): usize {
  return three ? RECORD_RY_3D : RECORD_RY_2D;
}

/** Offset of a record's first plain half-extent (px), which follows the grown ones. */
@inline export function recordPx(three: bool): usize {
  return three ? RECORD_PX_3D : RECORD_PX_2D;
}

/** Offset of a record's second plain half-extent (py). */
@inline export function recordPy(three: bool): usize {
  return three ? RECORD_PY_3D : RECORD_PY_2D;
}

/** Offset of a record's held targets (in a scene with margins). */
@inline export function recordHeld(three: bool): usize {
  return three ? RECORD_HELD_3D : RECORD_HELD_2D;
}

/** Bytes per record: with plain half-extents and held targets from a scene's first margin on. */
@inline export function recordBytes(three: bool, plain: bool): usize {
  return three ? (plain ? RECORD_BYTES_3D_PLAIN : RECORD_BYTES_3D) : plain ? RECORD_BYTES_2D_PLAIN : RECORD_BYTES_2D;
}

// ---- held targets: the pairs a watcher holds by its margin ---------------
//
//   0        4        8        12       16
//   ┌────────┬────────┬────────┬────────┐
//   │spilled │   t0   │   t1   │   t2   │   in the watcher's record (and, for a step's subject, in the Step)
//   └────────┴────────┴────────┴────────┘
//
//   spilled   how many of its held targets are in the scene's PairSet instead
//   t0 t1 t2  held targets: slot + 1, or 0 for none
export const HELD_SPILLED: usize = 0;
export const HELD_TARGETS: usize = 4;
/** Targets a held block keeps itself. */
export const HELD_INLINE: i32 = 3;
export const HELD_BYTES: usize = 16;

// ---- slot: where an entity is, indexed by slot, SLOT_BYTES apart ------------
//
//   0        4        8        12       16       20       24       28       32
//   ┌────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┐
//   │   id   │ level  │   cx   │   cy   │   cz   │ index  │ shape  │ record │
//   └────────┴────────┴────────┴────────┴────────┴────────┴────────┴────────┘
//
//   id        the user's id
//   level     the level holding its record; -1: the slot is free
//   cx cy cz  its cell in that level
//   index     its record's place in the cell's block
//   shape     SHAPE_CIRCLE | SHAPE_MARGIN
//   record    address of its record (moves when the block grows or a record fills a gap)
export const SLOT_ID: usize = 0;
export const SLOT_LEVEL: usize = 4;
export const SLOT_CX: usize = 8;
export const SLOT_CY: usize = 12;
export const SLOT_CZ: usize = 16;
export const SLOT_INDEX: usize = 20;
export const SLOT_SHAPE: usize = 24;
export const SLOT_RECORD: usize = 28;
export const SLOT_BYTES: usize = 32;

/** Shape bits: the range is a circle (sphere) of radius its first half-extent; the watcher has a margin. */
export const SHAPE_CIRCLE: i32 = 1;
export const SHAPE_MARGIN: i32 = 2;


// ---- gathered cell: a cell of a region, found before any is read ----------
//
//   0        4        8
//   ┌────────┬────────┐
//   │ block  │ count  │   as in the cell's bucket
//   └────────┴────────┘
export const GATHERED_BLOCK: usize = 0;
export const GATHERED_COUNT: usize = 4;
export const GATHERED_BYTES: usize = 8;

// The masks pair and the event entry, which the lists index shares, are
// drawn in codes.ts.
export { MASKS_LAYER, MASKS_SEES, MASKS_BYTES, EVENT_TYPE, EVENT_WATCHER, EVENT_TARGET, EVENT_BYTES, EVENT_INTS } from './codes';
