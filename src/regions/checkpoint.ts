// A region's checkpoint: all it takes to rebuild the region and run its tick
// again, as bytes a store keeps (Redis, in a world spread over processes).
// It is taken at the start of a tick, before any message of the tick leaves
// the region, so a region rebuilt from it sends exactly what the lost one
// sent, or would have:
//
//   scene    the region's Scene as Scene.toBuffer writes it: every entity,
//            owned or ghost, with the pairs its margin holds
//   owned    each entity the region owns: its state and the regions
//            holding a ghost of it
//   ghosts   the owner of each ghost held
//   ops      the operations submitted for the tick, entity by entity
//   extra    the caller's bytes (a room's players and their inputs)
//
// Between two checkpoints, a journal entry per tick holds that tick's
// operations and extra: a region rebuilt from the last checkpoint runs each
// journaled tick again with them.
//
// The bytes are a snapshot (src/core/snapshot-bytes.ts: magic, version,
// length, checksum), stamped with the layout's fingerprint and the region's
// id, so that bytes cut short, altered, of another region or of another
// layout are refused with INVALID_SNAPSHOT.
import { SnapshotReader, SnapshotWriter, snapshotError } from '../core/snapshot-bytes.js';
import type { AoiRange } from '../scene/index.js';
import type { RegionLayout } from './layout.js';
import type { EntityOp, EntityState } from './messages.js';

const MAGIC = 'SKRC';
const JOURNAL_MAGIC = 'SKRJ';
const VERSION = 1;

/** An owned entity in a checkpoint. */
export interface CheckpointEntity extends EntityState {
  /** The entity's id. */
  id: number;
  /** The other regions holding a ghost of it. */
  holders: number[];
}

/** A ghost in a checkpoint: the entity, its layer and the region that owns it. */
export interface CheckpointGhost {
  /** The entity's id. */
  id: number;
  /** The layers it is on. */
  layer: number;
  /** The region that owns it. */
  owner: number;
}

/** A region as it stands at the start of tick `tick`, with the operations submitted for that tick. */
export interface RegionCheckpoint {
  /** The region's id. */
  region: number;
  /** The holder's epoch that wrote it. */
  epoch: number;
  /** Ticks the region had completed: the tick this checkpoint starts. */
  tick: number;
  /** The region's Scene, as Scene.toBuffer writes it. */
  scene: Uint8Array;
  /** Its owned entities, ascending id. */
  owned: CheckpointEntity[];
  /** Its ghosts, ascending id. */
  ghosts: CheckpointGhost[];
  /** The operations submitted for the tick, by entity, each entity's in order. */
  ops: Array<[number, EntityOp[]]>;
  /** The caller's bytes. */
  extra: Uint8Array;
}

/** A tick between two checkpoints: the operations submitted for it and the caller's bytes, as at its start. */
export interface JournalEntry {
  /** The region's id. */
  region: number;
  /** The holder's epoch that wrote it. */
  epoch: number;
  /** The tick it starts. */
  tick: number;
  /** The operations submitted for the tick, by entity, each entity's in order. */
  ops: Array<[number, EntityOp[]]>;
  /** The caller's bytes. */
  extra: Uint8Array;
}

const RANGE_KINDS = ['marker', 'square', 'box', 'circle'] as const;
const OP_KINDS: ReadonlyArray<EntityOp['kind']> = ['add', 'move', 'range', 'layers', 'remove'];

/** A number that names layout exactly: its regions' rectangles and its band sizes (FNV-1a of their doubles). */
export function layoutFingerprint(layout: RegionLayout): number {
  const numbers = [layout.maxRange, layout.margin, layout.maxStep];
  for (const r of layout.regions) numbers.push(r.id, r.minX, r.minY, r.maxX, r.maxY);
  const bytes = new Uint8Array(new Float64Array(numbers).buffer);
  let hash = 0x811c9dc5;
  for (const b of bytes) hash = Math.imul(hash ^ b, 0x01000193);
  return hash >>> 0;
}

/** The checkpoint as bytes that {@link decodeCheckpoint} reads back, for layout. */
export function encodeCheckpoint(layout: RegionLayout, cp: RegionCheckpoint): Uint8Array {
  const w = stamped(MAGIC, layout, cp, 64 + cp.scene.length + cp.owned.length * 64 + cp.ghosts.length * 12 + cp.extra.length);
  w.blob(cp.scene);
  w.u32(cp.owned.length);
  for (const e of cp.owned) {
    w.i32(e.id);
    w.f64(e.x);
    w.f64(e.y);
    writeRange(w, e.range);
    w.f64(e.margin);
    w.i32(e.layer);
    w.i32(e.sees);
    writeIds(w, e.holders);
  }
  w.u32(cp.ghosts.length);
  for (const g of cp.ghosts) {
    w.i32(g.id);
    w.i32(g.layer);
    w.i32(g.owner);
  }
  writeOps(w, cp.ops);
  w.blob(cp.extra);
  return w.finish();
}

/** The journal entry as bytes that {@link decodeJournalEntry} reads back, for layout. */
export function encodeJournalEntry(layout: RegionLayout, entry: JournalEntry): Uint8Array {
  const w = stamped(JOURNAL_MAGIC, layout, entry, 64 + entry.ops.length * 32 + entry.extra.length);
  writeOps(w, entry.ops);
  w.blob(entry.extra);
  return w.finish();
}

/** The journal entry of region `region` that bytes hold, for layout; INVALID_SNAPSHOT as {@link decodeCheckpoint}. */
export function decodeJournalEntry(layout: RegionLayout, region: number, bytes: Uint8Array): JournalEntry {
  const r = new SnapshotReader(bytes, JOURNAL_MAGIC, VERSION, 'region journal entry');
  const { epoch, tick } = readStamp(r, layout, region);
  const ops = readOps(r);
  const extra = r.blob();
  r.end();
  return { region, epoch, tick, ops, extra };
}

/** A writer whose bytes start with the layout's fingerprint, the region, the epoch and the tick. */
function stamped(magic: string, layout: RegionLayout, at: { region: number; epoch: number; tick: number }, sizeHint: number): SnapshotWriter {
  const w = new SnapshotWriter(magic, VERSION, 0, sizeHint);
  w.u32(layoutFingerprint(layout));
  w.i32(at.region);
  w.i32(at.epoch);
  w.i32(at.tick);
  return w;
}

/** Reads what {@link stamped} wrote, refusing another layout's or another region's bytes. */
function readStamp(r: SnapshotReader, layout: RegionLayout, region: number): { epoch: number; tick: number } {
  if (r.u32() !== layoutFingerprint(layout)) throw snapshotError('the bytes were written for another layout');
  const found = r.i32();
  if (found !== region) throw snapshotError(`the bytes are region ${found}'s, not region ${region}'s`);
  const epoch = r.i32();
  const tick = r.i32();
  if (epoch < 0 || tick < 0) throw snapshotError(`an epoch and a tick are >= 0, got ${epoch} and ${tick}`);
  return { epoch, tick };
}

function writeOps(w: SnapshotWriter, entities: ReadonlyArray<[number, EntityOp[]]>): void {
  w.u32(entities.length);
  for (const [id, ops] of entities) {
    w.i32(id);
    w.u32(ops.length);
    for (const op of ops) writeOp(w, op);
  }
}

function readOps(r: SnapshotReader): Array<[number, EntityOp[]]> {
  const entities: Array<[number, EntityOp[]]> = [];
  for (let n = r.u32(); n > 0; n--) {
    const id = checkId(r.i32());
    const list: EntityOp[] = [];
    for (let k = r.u32(); k > 0; k--) list.push(readOp(r));
    entities.push([id, list]);
  }
  return entities;
}

/**
 * The checkpoint of region `region` that bytes hold, for layout.
 * INVALID_SNAPSHOT for bytes that are not a whole, intact checkpoint, or are
 * another region's, or another layout's.
 */
export function decodeCheckpoint(layout: RegionLayout, region: number, bytes: Uint8Array): RegionCheckpoint {
  const r = new SnapshotReader(bytes, MAGIC, VERSION, 'region checkpoint');
  const { epoch, tick } = readStamp(r, layout, region);
  const scene = r.blob();
  const owned: CheckpointEntity[] = [];
  for (let n = r.u32(); n > 0; n--) {
    const id = checkId(r.i32());
    const x = finite(r.f64());
    const y = finite(r.f64());
    const range = readRange(r);
    owned.push({ id, x, y, range, margin: nonNegative(r.f64()), layer: r.i32(), sees: r.i32(), holders: readIds(r) });
  }
  const ghosts: CheckpointGhost[] = [];
  for (let n = r.u32(); n > 0; n--) ghosts.push({ id: checkId(r.i32()), layer: r.i32(), owner: r.i32() });
  const ops = readOps(r);
  const extra = r.blob();
  r.end();
  const ids = new Set<number>();
  for (const e of [...owned, ...ghosts]) {
    if (ids.has(e.id)) throw snapshotError(`entity ${e.id} appears twice in the checkpoint`);
    ids.add(e.id);
  }
  return { region, epoch, tick, scene, owned, ghosts, ops, extra };
}

function writeIds(w: SnapshotWriter, ids: ReadonlyArray<number>): void {
  w.u32(ids.length);
  for (const id of ids) w.i32(id);
}

function readIds(r: SnapshotReader): number[] {
  const n = r.u32();
  if (n * 4 > r.remaining) throw snapshotError('snapshot is truncated');
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(r.i32());
  return ids;
}

function writeRange(w: SnapshotWriter, range: AoiRange): void {
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

function readRange(r: SnapshotReader): AoiRange {
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

function writeOp(w: SnapshotWriter, op: EntityOp): void {
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

function readOp(r: SnapshotReader): EntityOp {
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

function checkId(id: number): number {
  if (id < 0) throw snapshotError(`entity id ${id} is negative`);
  return id;
}

function finite(value: number): number {
  if (!Number.isFinite(value)) throw snapshotError(`a place in the checkpoint is ${value}`);
  return value;
}

function nonNegative(value: number): number {
  if (!(value >= 0) || !Number.isFinite(value)) throw snapshotError(`a range or margin in the checkpoint is ${value}`);
  return value;
}
