// The grid index's records in linear memory, each drawn once here and read
// everywhere through the names below (how the index uses them:
// docs/design/scene-grid.md). Offsets are in bytes from a record's address.
//
// A level's table of cells is an array of buckets; an occupied bucket holds
// the address of its cell's block, where the cell's records sit back to
// back; the slot table, indexed by slot, holds each slot's cell and the
// address of its record, and beside it two more tables indexed by slot
// hold its layer masks (drawn in codes.ts) and its plain half-extents.

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
//   3-D, RECORD_BYTES_3D apart:
//   0      4      8             16            24            32            40            48            56
//   ┌──────┬──────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┐
//   │ slot │  id  │      x      │      y      │      z      │     rx      │     ry      │     rz      │
//   └──────┴──────┴─────────────┴─────────────┴─────────────┴─────────────┴─────────────┴─────────────┘
//
//   slot      the entity's slot (its entry in the slot table)
//   id        the user's id, carried into events and results
//   x y z     position (f64)
//   rx ry rz  grown half-extents: range + margin; NaN for a marker, which sees nothing
//
// Position and half-extents are adjacent pairs of doubles, so a 2-D step
// reads (x, y) and (rx, ry) as one v128 each.
export const RECORD_SLOT: usize = 0;
export const RECORD_ID: usize = 4;
export const RECORD_X: usize = 8;
export const RECORD_Y: usize = 16;
export const RECORD_Z: usize = 24;
export const RECORD_RX_2D: usize = 24;
export const RECORD_RY_2D: usize = 32;
export const RECORD_BYTES_2D: usize = 40;
export const RECORD_RX_3D: usize = 32;
export const RECORD_RY_3D: usize = 40;
export const RECORD_RZ_3D: usize = 48;
export const RECORD_BYTES_3D: usize = 56;

/** Offset of a record's first half-extent (rx), which follows its coordinates. */
@inline export function recordRx(three: bool): usize {
  return three ? RECORD_RX_3D : RECORD_RX_2D;
}

/** Offset of a record's second half-extent (ry). */
@inline export function recordRy(three: bool): usize {
  return three ? RECORD_RY_3D : RECORD_RY_2D;
}

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

// ---- plain: a slot's plain half-extents, indexed by slot, PLAIN_BYTES apart -
//
//   0             8             16            24
//   ┌─────────────┬─────────────┬─────────────┐
//   │     px      │     py      │     pz      │   range without the margin
//   └─────────────┴─────────────┴─────────────┘
//
// The table exists from the first margin on, and then holds every placed
// slot's (a slot without margin: its grown half-extents, which are its
// plain ones).
export const PLAIN_X: usize = 0;
export const PLAIN_Y: usize = 8;
export const PLAIN_Z: usize = 16;
export const PLAIN_BYTES: usize = 24;

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
