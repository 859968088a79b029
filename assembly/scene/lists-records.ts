// The lists index's records in linear memory, each drawn once here and read
// everywhere through the names below (how the index uses them:
// docs/design/scene.md). Offsets are in bytes from a record's address.
//
// Each axis keeps its list records in one array, in list order once
// renumbered, records 2b and 2b + 1 being band b's head and tail; beside it
// an i32 per node, the node's handle (its record, 0 when it has none), and
// the coarse index: three arrays by entry (key f64, slot i32, band i32).
// The scene keeps a slot record per slot, and beside that table more
// indexed by slot: its layer masks and (plain arrays) a shape byte, a
// margin f64 and its watcher set, an IntList. The masks pair and the event
// entry are the grid index's too, and are drawn in codes.ts.

// ---- list record: one node on its axis's list, LIST_BYTES apart ------------
//
//   0                 8         12        16        20        24
//   ┌─────────────────┬─────────┬─────────┬─────────┬─────────┐
//   │       key       │prev|kind│  next   │ centre  │  owner  │
//   └─────────────────┴─────────┴─────────┴─────────┴─────────┘
//
//   key        the node's coordinate on the axis (f64); -inf for a band's head, +inf for its tail
//   prev|kind  byte offset of the previous record, the node's kind in its low two bits
//   next       byte offset of the next record
//   centre     the owner's coordinate on the band axis as the nearest f32, saturated at ±F32_MAX
//   owner      the node (nodeOf(slot, role)); 0 for a sentinel
//
// Links are byte offsets (record * LIST_BYTES, a multiple of 4, which
// leaves the low two bits for the kind), so a walk steps with one add; and
// a walk drops most crossings from the centre alone, reading nothing but
// the records it passes.
export const LIST_KEY: usize = 0;
export const LIST_PREV: usize = 8;
export const LIST_NEXT: usize = 12;
export const LIST_CENTRE: usize = 16;
export const LIST_OWNER: usize = 20;
export const LIST_BYTES: usize = 24;

/** The bits of the prev word that hold the kind. */
export const LIST_KIND_BITS: i32 = 3;
/** Kinds, in sort order at equal keys: an entity exactly on a box edge is inside. */
export const KIND_LOWER: i32 = 0;
export const KIND_ENTITY: i32 = 1;
export const KIND_UPPER: i32 = 2;

// ---- slot: everything a judgement or an event reads about one entity ------
//
//   SLOT_BYTES apart, SLOT_BYTES-aligned: one cache line.
//   0      4      8      12     16     24     32     40     48     56     64
//   ┌──────┬──────┬──────┬──────┬──────┬──────┬──────┬──────┬──────┬──────┐
//   │state │  id  │markW │markT │  x   │  y   │  z   │  rx  │  ry  │  rz  │
//   └──────┴──────┴──────┴──────┴──────┴──────┴──────┴──────┴──────┴──────┘
//
//   state     FREE, WATCHER or MARKER (lists.ts)
//   id        the user's id, carried into events and results
//   markW     the step's stamp once the slot is a candidate watcher of the step
//   markT     the same as a candidate target
//   x y z     position (f64; z is 0 in 2-D): SLOT_POS, then an f64 per axis
//   rx ry rz  half-extents of the range (f64; 0 for a marker, rz 0 in 2-D): SLOT_RANGE, then an f64 per axis
export const SLOT_STATE: usize = 0;
export const SLOT_ID: usize = 4;
export const SLOT_MARK_WATCHER: usize = 8;
export const SLOT_MARK_TARGET: usize = 12;
export const SLOT_POS: usize = 16;
export const SLOT_RANGE: usize = 40;
export const SLOT_BYTES: usize = 64;
/** log2(SLOT_BYTES): slot s is at slots + (s << SLOT_SHIFT). */
export const SLOT_SHIFT: usize = 6;
/** A position: x, y, z. */
export const SLOT_POS_BYTES: usize = 24;

// ---- bulk bucket: one occupied cell of a sparse bulk grid (open addressing) -
//
//   0        4        8        12
//   ┌────────┬────────┬────────┐
//   │ column │  row   │  cell  │   the cell's place in the grid, and its number
//   └────────┴────────┴────────┘
//
// The table starts filled with 0xff bytes: a cell of -1 is an empty bucket.
export const BULK_COLUMN: usize = 0;
export const BULK_ROW: usize = 4;
export const BULK_CELL: usize = 8;
export const BULK_BUCKET_BYTES: usize = 12;
