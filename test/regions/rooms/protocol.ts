// What the multi-process region tests and their room processes share: the
// world's layout and walkers, a process's settings, and the report a room
// publishes after each tick.
import { RegionLayout } from '../../../src/regions/index.js';
import type { WalkerSizes } from '../walkers.js';

/** The walkers' world: 120 × 120, borders at 40, 60 and 80 (the regions meet at 60). */
export const ROOM_SIZES: WalkerSizes = { size: 120, borders: [40, 60, 80], maxRange: 5, margin: 2, maxStep: 2 };

/** Four regions, 2 × 2, meeting at (60, 60). */
export const ROOM_LAYOUT = (): RegionLayout => RegionLayout.grid({ minX: 0, minY: 0, maxX: 120, maxY: 120 }, 2, 2, ROOM_SIZES);

/** A room process's settings, passed as JSON on its command line. */
export interface ProcessSettings {
  /** Redis on 127.0.0.1. */
  redisPort: number;
  /** The regions this process hosts. */
  regions: number[];
  /** The walkers' seed: the same in every process. */
  seed: number;
  /** How many walkers. */
  walkers: number;
  /** Ticks to run. */
  ticks: number;
  /** Redis channel prefix of this run. */
  prefix: string;
  /** How long a barrier waits for a silent region. */
  timeoutMs: number;
}

/** What a region room publishes after each tick. */
export interface TickReport {
  /** The tick. */
  tick: number;
  /** The region. */
  region: number;
  /** Its events for owned watchers, flat [type, watcher, target, ...]. */
  events: Int32Array;
  /** The ids it owns after the tick, ascending. */
  owned: number[];
  /** Bytes of the ghost batches it sent. */
  ghostBytes: number;
}

/** A report as i32s: tick, region, ghostBytes, event count, events, owned ids. */
export function encodeReport(r: TickReport): Uint8Array {
  const out = new Int32Array(4 + r.events.length + r.owned.length);
  out.set([r.tick, r.region, r.ghostBytes, r.events.length]);
  out.set(r.events, 4);
  out.set(r.owned, 4 + r.events.length);
  return new Uint8Array(out.buffer);
}

/** The report encodeReport wrote. */
export function decodeReport(bytes: Uint8Array): TickReport {
  const all = new Int32Array(Uint8Array.from(bytes).buffer);
  const n = all[3];
  return { tick: all[0], region: all[1], ghostBytes: all[2], events: all.slice(4, 4 + n), owned: [...all.slice(4 + n)] };
}
