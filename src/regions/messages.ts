// What regions tell each other: the operations on an entity, the ghost
// batches a region sends each neighbour every tick, and the hand-off of an
// entity that crosses into another region. Plain data, so any transport can
// carry it.
import type { AoiRange } from '../scene/index.js';

/** One operation on an entity, as its owner applies it; a range change without a margin keeps the entity's margin. */
export type EntityOp =
  | {
      /** Adds the entity at (x, y) with its range, masks and margin, as Scene.add does. */
      kind: 'add';
      /** Where it is added. */
      x: number;
      /** Where it is added. */
      y: number;
      /** Its view range. */
      range: AoiRange;
      /** The layers it is on. */
      layer: number;
      /** The layers it sees. */
      sees: number;
      /** Its hysteresis margin. */
      margin: number;
    }
  | {
      /** Moves the entity to (x, y). */
      kind: 'move';
      /** Where it goes. */
      x: number;
      /** Where it goes. */
      y: number;
    }
  | {
      /** Changes the entity's range, and its margin when one is given. */
      kind: 'range';
      /** The new range. */
      range: AoiRange;
      /** The new margin; omitted, the entity keeps its margin. */
      margin?: number;
    }
  | {
      /** Changes the entity's masks. */
      kind: 'layers';
      /** The layers it is on. */
      layer: number;
      /** The layers it sees. */
      sees: number;
    }
  | {
      /** Removes the entity. */
      kind: 'remove';
    };

/** One operation on a ghost: a copy that others see and that watches nothing, so only its position and layer matter. */
export type GhostOp =
  | {
      /** Places the ghost at (x, y) on layer (or, when it is there already, moves it and sets its layer). */
      kind: 'add';
      /** Where it stands. */
      x: number;
      /** Where it stands. */
      y: number;
      /** The layers it is on. */
      layer: number;
    }
  | {
      /** Moves the ghost to (x, y). */
      kind: 'move';
      /** Where it goes. */
      x: number;
      /** Where it goes. */
      y: number;
    }
  | {
      /** Puts the ghost on other layers. */
      kind: 'layer';
      /** The layers it is on. */
      layer: number;
    }
  | {
      /** Removes the ghost. */
      kind: 'remove';
    };

/** One entity's ghost operations in a batch. */
export interface GhostEntity {
  /** The entity's id. */
  id: number;
  /** Its operations of the tick, in order. */
  ops: GhostOp[];
}

/** What a region sends one other region in one tick: the ghost operations of its entities in that region's band, entity by entity. */
export interface GhostBatch {
  /** The sending region. */
  from: number;
  /** The receiving region. */
  to: number;
  /** The tick the operations belong to. */
  tick: number;
  /** Entity ids, ascending, each with its operations of the tick in order. */
  entities: GhostEntity[];
}

/** An entity as a neighbour needs to see it: where it stands, the layer it is on, and which region owns it. */
export interface GhostRecord {
  /** The entity's id. */
  id: number;
  /** The region that owns it at the start of the tick (before this tick's hand-offs). */
  owner: number;
  /** Its x at the start of the tick. */
  x: number;
  /** Its y at the start of the tick. */
  y: number;
  /** Its layer mask. */
  layer: number;
}

/** An owned entity as it stands at the start of a tick, all a new owner needs to go on simulating it. */
export interface EntityState {
  /** Position at the start of the tick. */
  x: number;
  /** Position at the start of the tick. */
  y: number;
  /** Its view range. */
  range: AoiRange;
  /** Its hysteresis margin. */
  margin: number;
  /** The layers it is on. */
  layer: number;
  /** The layers it sees. */
  sees: number;
}

/**
 * An entity handed from its owner to the region its tick ends in. `state`
 * is null for an entity added in this very tick. `seen` lists what it sees
 * at the start of the tick, with where each stands and its owner, so that
 * pairs held only by its margin stay held (and a region lost with its
 * process takes its ghosts along). `far` names those of them beyond the new owner's
 * band (only after a teleport): the new owner holds ghosts of them from now
 * on, and their owners, whoever they are by then, must learn it, so a
 * transport delivers a hand-off with a non-empty `far` to every region.
 * `holders` are the regions that hold a ghost of the entity (the old owner
 * among them), `ops` its operations of the tick.
 */
export interface Handoff {
  /** The entity's id. */
  id: number;
  /** The old owner. */
  from: number;
  /** The new owner. */
  to: number;
  /** The tick of the hand-off. */
  tick: number;
  /** The entity at the start of the tick, or null when it is added in this tick. */
  state: EntityState | null;
  /** What it sees at the start of the tick. */
  seen: GhostRecord[];
  /** The ids in `seen` beyond the new owner's band. */
  far: number[];
  /** The regions holding a ghost of it once the old owner has turned it into one. */
  holders: number[];
  /** Its operations of the tick, in order. */
  ops: EntityOp[];
}
