// The room state: every entity (NPCs and players) in one map whose entries
// are sent only to clients whose StateView holds them (.view()), plus the
// frame counter every client receives.
import { schema, t, type SchemaType } from '@colyseus/schema';

/** One thing in the world, as clients see it. */
export const Entity = schema(
  {
    kind: t.string(),
    x: t.number(),
    y: t.number(),
  },
  'Entity',
);
export type Entity = SchemaType<typeof Entity>;

/** The whole room state. */
export const WorldState = schema(
  {
    /** Number of patches sent so far: lets a client tell which patch its state reflects. */
    frame: t.number(),
    /** Entities by id (decimal string); each client receives only those in its view. */
    entities: t.map(Entity).view(),
  },
  'WorldState',
);
export type WorldState = SchemaType<typeof WorldState>;
