// The state of one step of the grid index: the subject (the entity that
// arrives, moves, changes or leaves, or whose query runs) as it stands
// before and after, and the regions of cells read around it. A step is
// judged from the cells around the subject's old and new place (see
// GridIndex.judgeStep in grid.ts and docs/design/scene-grid.md).
//
// One record serves every scene: a step runs from start to end inside one
// call into the module, and calls never nest. It lives in static memory, so
// its fields are read at fixed addresses, as cheaply as a scene's own.

import { HELD_BYTES } from './grid-records';

/**
 * The subject on one side of a step: its place, its range and the masks it
 * has there. An add has no before and a remove no after: that side's place
 * and half-extents are NaN, and no box holds a NaN.
 *
 *   0      8      16     24     32     40     48     56     64     72    73      76      80      84
 *   ┌──────┬──────┬──────┬──────┬──────┬──────┬──────┬──────┬──────┬─────┬──────┬───────┬───────┐
 *   │  x   │  y   │  z   │  rx  │  ry  │  rz  │  px  │  py  │  pz  │round│margin│ layer │ sees  │
 *   └──────┴──────┴──────┴──────┴──────┴──────┴──────┴──────┴──────┴─────┴──────┴───────┴───────┘
 */
@unmanaged
export class Side {
  x: f64;
  y: f64;
  /** 0 in 2-D. */
  z: f64;
  /** Grown half-extents: range + margin (NaN: a marker, which sees nothing; rz is 0 in 2-D). */
  rx: f64;
  ry: f64;
  rz: f64;
  /** Plain half-extents: the range without its margin (without a margin, the grown ones). */
  px: f64;
  py: f64;
  pz: f64;
  /** The range is a circle (sphere) of radius rx. */
  round: bool;
  /** A watcher with a margin. */
  margin: bool;
  /** The layers it is on, the layers it sees. */
  layer: i32;
  sees: i32;

  /** Stands at (x, y, z). */
  @inline setPlace(x: f64, y: f64, z: f64): void {
    this.x = x;
    this.y = y;
    this.z = z;
  }

  /** Takes the place and the grown half-extents of `from`. */
  @inline placeAs(from: Side): void {
    this.setPlace(from.x, from.y, from.z);
    this.rangeAs(from);
  }

  /** Takes the grown and plain half-extents of `from`. */
  @inline rangeAs(from: Side): void {
    this.rx = from.rx;
    this.ry = from.ry;
    this.rz = from.rz;
    this.px = from.px;
    this.py = from.py;
    this.pz = from.pz;
  }

  /** Takes the shape and masks of `from`. */
  @inline shapeAs(from: Side): void {
    this.round = from.round;
    this.margin = from.margin;
    this.layer = from.layer;
    this.sees = from.sees;
  }

  /** Sees nothing: NaN half-extents, which no box holds a point with. */
  @inline seesNothing(): void {
    this.rx = NaN;
    this.ry = NaN;
    this.rz = NaN;
  }

  /** Nowhere and seeing nothing: the side of a step where the subject is not in the scene. */
  @inline absent(): void {
    this.setPlace(NaN, NaN, NaN);
    this.seesNothing();
  }
}

/**
 * A block of one level's cells, x0..x1 by y0..y1 by z0..z1 (inclusive), and
 * the coordinate bounds it was cut from: a record outside the bounds on
 * some axis is outside every box the region was cut for.
 *
 *   0    4    8    12   16   20   24        32        40        48        56        64        72
 *   ┌────┬────┬────┬────┬────┬────┬─────────┬─────────┬─────────┬─────────┬─────────┬─────────┐
 *   │ x0 │ y0 │ z0 │ x1 │ y1 │ z1 │   loX   │   loY   │   loZ   │   hiX   │   hiY   │   hiZ   │
 *   └────┴────┴────┴────┴────┴────┴─────────┴─────────┴─────────┴─────────┴─────────┴─────────┘
 *
 * Axis a's cells are at x0 + 4a and x1 + 4a, its bounds at loX + 8a and
 * hiX + 8a (setAxis).
 */
@unmanaged
export class Region {
  x0: i32;
  y0: i32;
  z0: i32;
  x1: i32;
  y1: i32;
  z1: i32;
  loX: f64;
  loY: f64;
  loZ: f64;
  hiX: f64;
  hiY: f64;
  hiZ: f64;

  /** Sets axis a (0: x, 1: y, 2: z): its cells from c0 to c1, cut from the bounds lo, hi. */
  @inline setAxis(a: i32, c0: i32, c1: i32, lo: f64, hi: f64): void {
    const at = changetype<usize>(this);
    store<i32>(at + (<usize>a << 2), c0, offsetof<Region>('x0'));
    store<i32>(at + (<usize>a << 2), c1, offsetof<Region>('x1'));
    store<f64>(at + (<usize>a << 3), lo, offsetof<Region>('loX'));
    store<f64>(at + (<usize>a << 3), hi, offsetof<Region>('hiX'));
  }

  /** Whether the two blocks of cells share a cell. */
  @inline meets(b: Region): bool {
    return this.x0 <= b.x1 && b.x0 <= this.x1 && this.y0 <= b.y1 && b.y0 <= this.y1 && this.z0 <= b.z1 && b.z0 <= this.z1;
  }

  /** Becomes the smallest region holding a and b. */
  @inline cover(a: Region, b: Region): void {
    this.loX = min(a.loX, b.loX);
    this.loY = min(a.loY, b.loY);
    this.loZ = min(a.loZ, b.loZ);
    this.hiX = max(a.hiX, b.hiX);
    this.hiY = max(a.hiY, b.hiY);
    this.hiZ = max(a.hiZ, b.hiZ);
    this.x0 = min(a.x0, b.x0);
    this.y0 = min(a.y0, b.y0);
    this.z0 = min(a.z0, b.z0);
    this.x1 = max(a.x1, b.x1);
    this.y1 = max(a.y1, b.y1);
    this.z1 = max(a.z1, b.z1);
  }
}

/**
 * What a step judges: the subject, its two sides, the regions of one
 * level read around them, and the subject's held targets. The sides,
 * regions and held targets follow the Step's own fields in memory, each at
 * an offset computed below (wasm32 values shown):
 *
 *   0         4        8       16             104            192            264            336            408    424
 *   ┌─────────┬────────┬───────┬──────────────┬──────────────┬──────────────┬──────────────┬──────────────┬──────┐
 *   │ subject │ record │ moved │ before: Side │ after: Side  │ regionBefore │ regionAfter  │ regionBoth   │ held │
 *   └─────────┴────────┴───────┴──────────────┴──────────────┴──────────────┴──────────────┴──────────────┴──────┘
 *                              STEP_BEFORE    STEP_AFTER     STEP_REGION_   STEP_REGION_   STEP_REGION_   STEP_   STEP_BYTES
 *                                                            BEFORE         AFTER          BOTH           HELD
 *
 * held: the subject's held targets (HELD_BYTES, drawn in grid-records.ts).
 */
@unmanaged
export class Step {
  /** The slot that arrives, moves, changes or leaves, or whose query runs. */
  subject: i32;
  /** Address of the subject's record, as GridIndex.readOld found it. */
  record: usize;
  /** Pairs that see each other before and after get a move event. */
  moved: bool;

  /** The subject before the step. */
  @inline get before(): Side {
    return changetype<Side>(changetype<usize>(this) + STEP_BEFORE);
  }

  /** The subject after the step. */
  @inline get after(): Side {
    return changetype<Side>(changetype<usize>(this) + STEP_AFTER);
  }

  /** The cells of one level that can hold a change around the subject's place before the step. */
  @inline get regionBefore(): Region {
    return changetype<Region>(changetype<usize>(this) + STEP_REGION_BEFORE);
  }

  /** The same around its place after the step. */
  @inline get regionAfter(): Region {
    return changetype<Region>(changetype<usize>(this) + STEP_REGION_AFTER);
  }

  /** Both together, when they meet. */
  @inline get regionBoth(): Region {
    return changetype<Region>(changetype<usize>(this) + STEP_REGION_BOTH);
  }

  /** Address of the subject's held targets (HELD_BYTES, grid-records.ts), read from its record and written back after the step. */
  @inline get held(): usize {
    return changetype<usize>(this) + STEP_HELD;
  }

  /** Starts a step (or a query) of slot s. */
  @inline begin(s: i32, moved: bool): void {
    this.subject = s;
    this.moved = moved;
  }
}

// Each part starts on an 8-byte boundary, for its doubles.
const SIDE_BYTES: usize = (offsetof<Side>() + 7) & ~7;
const REGION_BYTES: usize = (offsetof<Region>() + 7) & ~7;
const STEP_BEFORE: usize = (offsetof<Step>() + 7) & ~7;
const STEP_AFTER: usize = STEP_BEFORE + SIDE_BYTES;
const STEP_REGION_BEFORE: usize = STEP_AFTER + SIDE_BYTES;
const STEP_REGION_AFTER: usize = STEP_REGION_BEFORE + REGION_BYTES;
const STEP_REGION_BOTH: usize = STEP_REGION_AFTER + REGION_BYTES;
const STEP_HELD: usize = STEP_REGION_BOTH + REGION_BYTES;
const STEP_BYTES: usize = STEP_HELD + HELD_BYTES;

/** The step being judged. */
export const step = changetype<Step>(memory.data(<i32>STEP_BYTES, 8));
