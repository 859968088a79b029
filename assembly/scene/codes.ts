// The values both Scene indexes share with the TypeScript side: the event
// codes of src/scene/event-codes.ts and the default masks of
// src/scene/backend.ts.

/** Event types (a branch-free judgement relies on EVENT_ENTER being 0). */
export const EVENT_ENTER: i32 = 0;
export const EVENT_LEAVE: i32 = 1;
export const EVENT_MOVE: i32 = 2;

/** The masks of an entity added without any: layer 1, every layer seen. */
export const DEFAULT_LAYER: i32 = 1;
export const DEFAULT_SEES: i32 = -1;
