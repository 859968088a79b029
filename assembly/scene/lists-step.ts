// The state of one step of the lists index: its subject (the slot that
// arrives, moves, changes or leaves) as it stood before the step, and where
// a move takes it. The subject's slot record holds it as it is after; a
// step judges each candidate pair on both (ListsIndex.settle), and a move's
// walks filter crossings on both places (ListsIndex.walk).
//
// One record serves every scene: a step runs from start to end inside one
// call into the module, and calls never nest. It lives in static memory, so
// its fields are read at fixed addresses, as cheaply as a scene's own.

/**
 * The subject before the step, and a move's new place:
 *
 *   0      8      16     24     32     40     48     56     64     72       76      80        81
 *   ┌──────┬──────┬──────┬──────┬──────┬──────┬──────┬──────┬──────┬────────┬───────┬─────────┐
 *   │ oldX │ oldY │ oldZ │oldRx │oldRy │oldRz │ newX │ newY │ newZ │oldLayer│oldSees│oldCircle│
 *   └──────┴──────┴──────┴──────┴──────┴──────┴──────┴──────┴──────┴────────┴───────┴─────────┘
 */
@unmanaged
export class Subject {
  /** Place before the step; NaN for an add, which no box holds (z is 0 in 2-D). */
  oldX: f64;
  oldY: f64;
  oldZ: f64;
  /** Half-extents of the range before the step (0 for a marker). */
  oldRx: f64;
  oldRy: f64;
  oldRz: f64;
  /** Place after a move; set only for a move that walks. */
  newX: f64;
  newY: f64;
  newZ: f64;
  /** Masks before the step: the layers it was on, the layers it saw. */
  oldLayer: i32;
  oldSees: i32;
  /** Its range was a circle (sphere) before the step. */
  oldCircle: bool;

  /** Coordinate a (0: x, 1: y, 2: z) of the place before the step. */
  @inline oldPos(a: i32): f64 {
    return a == 0 ? this.oldX : a == 1 ? this.oldY : this.oldZ;
  }

  /** Coordinate a of a move's new place. */
  @inline newPos(a: i32): f64 {
    return a == 0 ? this.newX : a == 1 ? this.newY : this.newZ;
  }

  /** Was at (x, y, z) before the step. */
  @inline setOldPos(x: f64, y: f64, z: f64): void {
    this.oldX = x;
    this.oldY = y;
    this.oldZ = z;
  }

  /** A move takes it to (x, y, z). */
  @inline setNewPos(x: f64, y: f64, z: f64): void {
    this.newX = x;
    this.newY = y;
    this.newZ = z;
  }
}

/** The subject of the step being taken. */
export const subject = changetype<Subject>(memory.data(<i32>offsetof<Subject>(), 8));
