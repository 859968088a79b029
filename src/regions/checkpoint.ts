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
import { checkId, readIds, readOp, readState, writeIds, writeOp, writeState } from './entity-bytes.js';
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
    writeState(w, e);
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
    const state = readState(r);
    owned.push({ id, ...state, holders: readIds(r) });
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
