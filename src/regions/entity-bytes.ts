// The fields of entities as region snapshot bytes write them (checkpoints
// and hand-offs): id lists, ranges of every shape, operations, each read
// back checked, so that bytes holding an impossible value are refused with
// INVALID_SNAPSHOT.
//
//   ids:   u32 count | i32 id...
//   state: f64 x | f64 y | range | f64 margin | i32 layer | i32 sees
//   range: u8 shape, then   marker: nothing | square: f64 | box: f64 x, f64 y | circle: f64 radius
//   op:    u8 kind, then    add: f64 x, f64 y, range, i32 layer, i32 sees, f64 margin
//                           move: f64 x, f64 y | range: range, f64 margin (-1: none)
//                           layers: i32 layer, i32 sees | remove: nothing
import { SnapshotReader, SnapshotWriter, snapshotError } from '../core/snapshot-bytes.js';
import type { AoiRange } from '../scene/index.js';
import type { EntityOp, EntityState } from './messages.js';

const RANGE_KINDS = ['marker', 'square', 'box', 'circle'] as const;
const OP_KINDS: ReadonlyArray<EntityOp['kind']> = ['add', 'move', 'range', 'layers', 'remove'];

/** Writes a list of ids (or region ids). */
export function writeIds(w: SnapshotWriter, ids: ReadonlyArray<number>): void {
  w.u32(ids.length);
  for (const id of ids) w.i32(id);
}

/** Reads what writeIds wrote, refusing a count the bytes cannot hold before reading it. */
export function readIds(r: SnapshotReader): number[] {
  const n = r.u32();
  if (n * 4 > r.remaining) throw snapshotError('snapshot is truncated');
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(r.i32());
  return ids;
}

/** Writes an entity's state (its place, range, margin and masks). */
export function writeState(w: SnapshotWriter, s: EntityState): void {
  w.f64(s.x);
  w.f64(s.y);
  writeRange(w, s.range);
  w.f64(s.margin);
  w.i32(s.layer);
  w.i32(s.sees);
}

/** Reads what writeState wrote; a place that is not finite, a range or margin below 0 are refused. */
export function readState(r: SnapshotReader): EntityState {
  const x = finite(r.f64());
  const y = finite(r.f64());
  return { x, y, range: readRange(r), margin: nonNegative(r.f64()), layer: r.i32(), sees: r.i32() };
}

/** Writes a range of any shape. */
export function writeRange(w: SnapshotWriter, range: AoiRange): void {
  if (range === null) w.u8(0);
  else if (typeof range === 'number') {
    w.u8(1);
    w.f64(range);
  } else if ('radius' in range) {
    w.u8(3);
    w.f64(range.radius);
  } else {
    w.u8(2);
    w.f64(range.x);
    w.f64(range.y);
  }
}

/** Reads what writeRange wrote; a range below 0 or not finite is refused. */
export function readRange(r: SnapshotReader): AoiRange {
  const kind = r.u8();
  switch (RANGE_KINDS[kind]) {
    case 'marker':
      return null;
    case 'square':
      return nonNegative(r.f64());
    case 'box':
      return { x: nonNegative(r.f64()), y: nonNegative(r.f64()) };
    case 'circle':
      return { radius: nonNegative(r.f64()) };
    default:
      throw snapshotError(`unknown range kind ${kind}`);
  }
}

/** Writes an operation on an entity. */
export function writeOp(w: SnapshotWriter, op: EntityOp): void {
  w.u8(OP_KINDS.indexOf(op.kind));
  switch (op.kind) {
    case 'add':
      w.f64(op.x);
      w.f64(op.y);
      writeRange(w, op.range);
      w.i32(op.layer);
      w.i32(op.sees);
      w.f64(op.margin);
      break;
    case 'move':
      w.f64(op.x);
      w.f64(op.y);
      break;
    case 'range':
      writeRange(w, op.range);
      w.f64(op.margin ?? -1);
      break;
    case 'layers':
      w.i32(op.layer);
      w.i32(op.sees);
      break;
    case 'remove':
      break;
  }
}

/** Reads what writeOp wrote; a place that is not finite, a range or margin below 0 are refused. */
export function readOp(r: SnapshotReader): EntityOp {
  const code = r.u8();
  const kind = OP_KINDS[code];
  switch (kind) {
    case 'add': {
      const x = finite(r.f64());
      const y = finite(r.f64());
      return { kind, x, y, range: readRange(r), layer: r.i32(), sees: r.i32(), margin: nonNegative(r.f64()) };
    }
    case 'move':
      return { kind, x: finite(r.f64()), y: finite(r.f64()) };
    case 'range': {
      const range = readRange(r);
      const margin = r.f64();
      return margin === -1 ? { kind, range } : { kind, range, margin: nonNegative(margin) };
    }
    case 'layers':
      return { kind, layer: r.i32(), sees: r.i32() };
    case 'remove':
      return { kind };
    default:
      throw snapshotError(`unknown operation kind ${code}`);
  }
}

/** id, refused when negative. */
export function checkId(id: number): number {
  if (id < 0) throw snapshotError(`entity id ${id} is negative`);
  return id;
}

/** value, refused unless finite. */
export function finite(value: number): number {
  if (!Number.isFinite(value)) throw snapshotError(`a place in the bytes is ${value}`);
  return value;
}

/** value, refused unless finite and >= 0. */
export function nonNegative(value: number): number {
  if (!(value >= 0) || !Number.isFinite(value)) throw snapshotError(`a range or margin in the bytes is ${value}`);
  return value;
}
