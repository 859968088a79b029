// The values and records both Scene indexes share: the event codes of
// src/scene/event-codes.ts and the event entry the TypeScript side reads,
// and a slot's layer masks with the defaults of src/scene/backend.ts.
// Offsets are in bytes from a record's address.

/** Event types (a branch-free judgement relies on EVENT_ENTER being 0). */
export const EVENT_ENTER: i32 = 0;
export const EVENT_LEAVE: i32 = 1;
export const EVENT_MOVE: i32 = 2;

// ---- event: one entry of the event buffer (i32s read by the TypeScript side) -
//
//   0        4        8        12
//   ┌────────┬────────┬────────┐
//   │  type  │watcher │ target │   EVENT_ENTER, _LEAVE or _MOVE; the two ids
//   └────────┴────────┴────────┘
export const EVENT_TYPE: usize = 0;
export const EVENT_WATCHER: usize = 4;
export const EVENT_TARGET: usize = 8;
export const EVENT_BYTES: usize = 12;
/** i32s per event. */
export const EVENT_INTS: i32 = 3;

// ---- masks: a slot's layer masks, indexed by slot, MASKS_BYTES apart --------
//
//   0        4        8
//   ┌────────┬────────┐
//   │ layer  │  sees  │   the layers it is on, the layers it sees
//   └────────┴────────┘
//
// W sees T only when W's sees & T's layer != 0.
export const MASKS_LAYER: usize = 0;
export const MASKS_SEES: usize = 4;
export const MASKS_BYTES: usize = 8;

/** The masks of an entity added without any: layer 1, every layer seen. */
export const DEFAULT_LAYER: i32 = 1;
export const DEFAULT_SEES: i32 = -1;
