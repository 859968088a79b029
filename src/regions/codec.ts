// What regions send each other between processes, as bytes: the ghost
// batches (one message per neighbour per tick) and the hand-offs (one
// message per region per tick, to every region). Coordinates stay float64
// so a receiving region replays exactly what the owner applied (float32
// would move ghosts off the owner's positions and break the agreement with
// a single Scene).
//
//   batch:     u8 version | i32 from | i32 to | i32 tick | u32 entities | entity...
//   entity:    i32 id | u16 ops | op...
//   op:        u8 kind, then   add: f64 x, f64 y, i32 layer | move: f64 x, f64 y
//                              layer: i32 layer             | remove: nothing
//
// Hand-offs, rarer and with ranges of every shape, are a snapshot (magic
// SKHO, checksummed; src/core/snapshot-bytes.ts) of entity fields as
// entity-bytes.ts writes them:
//
//   hand-offs: u32 count | hand-off...
//   hand-off:  i32 id | i32 from | i32 to | i32 tick | u8 has state | state?
//              | u32 seen | record... | ids far | ids holders | u32 ops | op...
//   record:    i32 id | i32 owner | f64 x | f64 y | i32 layer
// (state, ids and op as entity-bytes.ts draws them.)
// All little-endian.
import { SnapshotReader, SnapshotWriter } from '../core/snapshot-bytes.js';
import { SpatialError } from '../scene/index.js';
import { checkId, finite, readIds, readOp, readState, writeIds, writeOp, writeState } from './entity-bytes.js';
import type { EntityOp, GhostBatch, GhostOp, GhostRecord, Handoff } from './messages.js';

const VERSION = 1;
const HEADER_BYTES = 1 + 4 + 4 + 4 + 4;
const ENTITY_BYTES = 4 + 2;
const KINDS: ReadonlyArray<GhostOp['kind']> = ['add', 'move', 'layer', 'remove'];
/** Bytes after the kind byte, by kind. */
const OP_BYTES: Record<GhostOp['kind'], number> = { add: 20, move: 16, layer: 4, remove: 0 };
const HANDOFFS_MAGIC = 'SKHO';
const HANDOFFS_VERSION = 1;

/** A ghost batch as bytes that {@link decodeGhostBatch} turns back into an equal batch. */
export function encodeGhostBatch(batch: GhostBatch): Uint8Array {
  let size = HEADER_BYTES;
  for (const e of batch.entities) {
    size += ENTITY_BYTES;
    for (const op of e.ops) size += 1 + OP_BYTES[op.kind];
  }
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, VERSION);
  view.setInt32(1, batch.from, true);
  view.setInt32(5, batch.to, true);
  view.setInt32(9, batch.tick, true);
  view.setUint32(13, batch.entities.length, true);
  let at = HEADER_BYTES;
  for (const e of batch.entities) {
    view.setInt32(at, e.id, true);
    view.setUint16(at + 4, e.ops.length, true);
    at += ENTITY_BYTES;
    for (const op of e.ops) {
      view.setUint8(at++, KINDS.indexOf(op.kind));
      if (op.kind === 'add' || op.kind === 'move') {
        view.setFloat64(at, op.x, true);
        view.setFloat64(at + 8, op.y, true);
      }
      if (op.kind === 'add') view.setInt32(at + 16, op.layer, true);
      if (op.kind === 'layer') view.setInt32(at, op.layer, true);
      at += OP_BYTES[op.kind];
    }
  }
  return bytes;
}

/** The batch {@link encodeGhostBatch} wrote; INVALID_ARGUMENT for bytes that are not a whole batch of this version. */
export function decodeGhostBatch(bytes: Uint8Array): GhostBatch {
  if (!(bytes instanceof Uint8Array)) throw new SpatialError('INVALID_ARGUMENT', 'a ghost batch is a Uint8Array');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const need = (at: number, n: number): void => {
    if (at + n > bytes.byteLength) throw new SpatialError('INVALID_ARGUMENT', `ghost batch truncated at byte ${at}`);
  };
  need(0, HEADER_BYTES);
  if (view.getUint8(0) !== VERSION) throw new SpatialError('INVALID_ARGUMENT', `ghost batch version ${view.getUint8(0)}, expected ${VERSION}`);
  const batch: GhostBatch = { from: view.getInt32(1, true), to: view.getInt32(5, true), tick: view.getInt32(9, true), entities: [] };
  const count = view.getUint32(13, true);
  let at = HEADER_BYTES;
  for (let k = 0; k < count; k++) {
    need(at, ENTITY_BYTES);
    const id = view.getInt32(at, true);
    const n = view.getUint16(at + 4, true);
    at += ENTITY_BYTES;
    const ops: GhostOp[] = [];
    for (let i = 0; i < n; i++) {
      need(at, 1);
      const kind = KINDS[view.getUint8(at++)];
      if (kind === undefined) throw new SpatialError('INVALID_ARGUMENT', `unknown ghost operation at byte ${at - 1}`);
      need(at, OP_BYTES[kind]);
      if (kind === 'add') ops.push({ kind, x: view.getFloat64(at, true), y: view.getFloat64(at + 8, true), layer: view.getInt32(at + 16, true) });
      else if (kind === 'move') ops.push({ kind, x: view.getFloat64(at, true), y: view.getFloat64(at + 8, true) });
      else if (kind === 'layer') ops.push({ kind, layer: view.getInt32(at, true) });
      else ops.push({ kind });
      at += OP_BYTES[kind];
    }
    batch.entities.push({ id, ops });
  }
  if (at !== bytes.byteLength) throw new SpatialError('INVALID_ARGUMENT', `ghost batch has ${bytes.byteLength - at} bytes beyond its end`);
  return batch;
}

/** A region's hand-offs of a tick as bytes that {@link decodeHandoffs} turns back into equal hand-offs. */
export function encodeHandoffs(handoffs: ReadonlyArray<Handoff>): Uint8Array {
  const w = new SnapshotWriter(HANDOFFS_MAGIC, HANDOFFS_VERSION, 0, 64 + handoffs.length * 512);
  w.u32(handoffs.length);
  for (const h of handoffs) {
    w.i32(h.id);
    w.i32(h.from);
    w.i32(h.to);
    w.i32(h.tick);
    w.u8(h.state === null ? 0 : 1);
    if (h.state !== null) writeState(w, h.state);
    w.u32(h.seen.length);
    for (const t of h.seen) {
      w.i32(t.id);
      w.i32(t.owner);
      w.f64(t.x);
      w.f64(t.y);
      w.i32(t.layer);
    }
    writeIds(w, h.far);
    writeIds(w, h.holders);
    w.u32(h.ops.length);
    for (const op of h.ops) writeOp(w, op);
  }
  return w.finish();
}

/**
 * The hand-offs {@link encodeHandoffs} wrote. INVALID_ARGUMENT when bytes
 * is not a Uint8Array; INVALID_SNAPSHOT for bytes that are not whole,
 * intact hand-offs of this version, or hold a place that is not finite, a
 * negative id, range or margin.
 */
export function decodeHandoffs(bytes: Uint8Array): Handoff[] {
  const r = new SnapshotReader(bytes, HANDOFFS_MAGIC, HANDOFFS_VERSION, 'region hand-off');
  const handoffs: Handoff[] = [];
  for (let count = r.u32(); count > 0; count--) {
    const id = checkId(r.i32());
    const from = r.i32();
    const to = r.i32();
    const tick = r.i32();
    const state = r.u8() === 0 ? null : readState(r);
    const seen: GhostRecord[] = [];
    for (let n = r.u32(); n > 0; n--) seen.push({ id: checkId(r.i32()), owner: r.i32(), x: finite(r.f64()), y: finite(r.f64()), layer: r.i32() });
    const far = readIds(r);
    const holders = readIds(r);
    const ops: EntityOp[] = [];
    for (let n = r.u32(); n > 0; n--) ops.push(readOp(r));
    handoffs.push({ id, from, to, tick, state, seen, far, holders, ops });
  }
  r.end();
  return handoffs;
}
