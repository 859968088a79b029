// The state of a region room as its clients receive it: the tick it stands
// at, and the entities each client's player sees (each client's StateView
// holds its own player and what that player sees, owned or ghost alike; on
// shared views, every entity of the region, each cell's view those near it).
// Positions are float64: Colyseus's 'number' sends a float32 when it is
// within 1e-4, and a client's view is the Scene's to the last bit.
import { schema, t, type SchemaType } from '@colyseus/schema';

/** An entity as a client sees it. */
export const RegionEntity = schema(
  {
    /** Position at the end of the state's tick. */
    x: t.float64(),
    /** Position at the end of the state's tick. */
    y: t.float64(),
    /** For a player: the last of its inputs applied (0 for other entities). */
    seq: t.number(),
  },
  'RegionEntity',
);
/** An entity as a client sees it. */
export type RegionEntity = SchemaType<typeof RegionEntity>;

/** A region room's state. */
export const RegionState = schema(
  {
    /** The last tick completed: every entity in a client's view stands where it stood at its end. */
    tick: t.number(),
    /** Entities by id (decimal string): each client receives its player and what its player sees (on shared views, what its cell's view holds). */
    entities: t.map(RegionEntity).view(),
  },
  'RegionState',
);
/** A region room's state. */
export type RegionState = SchemaType<typeof RegionState>;
