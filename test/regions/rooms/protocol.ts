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
  /** The rooms' name: one per run, so that a run's clients find only its own rooms. */
  roomName?: string;
  /** Pause between ticks (default 0). */
  tickDelayMs?: number;
  /** Seconds a dropped client has to reconnect (default: the room's). */
  reconnectSeconds?: number;
  /** Seconds a reserved seat is held (default: Colyseus's). */
  seatReservationSeconds?: number;
  /** A tick whose beforeTick throws once it has applied the walkers (a hook that fails: the tick must go on). */
  throwAtTick?: number;
  /** Rooms save checkpoints and can be taken over (the peers' takeover option). */
  takeover?: boolean;
  /** The process hosts no region: it stands by to take one over (standByForRegions). */
  standby?: boolean;
}

/** An input to this x makes the rooms' applyInput throw a plain Error before it moves anything. */
export const HOOK_TRAP_X = 13.125;

/** A room's report that one of its hooks threw. */
export interface HookReport {
  /** The reporting region. */
  region: number;
  /** The hook. */
  hook: string;
  /** The error's code. */
  code: string;
  /** The player the operation was for, if any. */
  player?: number;
}

/** A player's range and margin. */
export const PLAYER_RANGE = 4;
export const PLAYER_MARGIN = 1;

/** What a room applied to a player in a tick: an add (where it entered), a move, or its removal (its client left for good). */
export interface PlayerOp {
  kind: 'add' | 'move' | 'remove';
  id: number;
  x: number;
  y: number;
}

const PLAYER_OP_KINDS: ReadonlyArray<PlayerOp['kind']> = ['add', 'move', 'remove'];

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
  /** What it applied to players in the tick. */
  players: PlayerOp[];
}

/** A report: i32s tick, region, ghostBytes, event count, owned count, events, owned ids (padded to 8 bytes), then players' ops as f64s [kind, id, x, y]. */
export function encodeReport(r: TickReport): Uint8Array {
  const ints = Int32Array.from([r.tick, r.region, r.ghostBytes, r.events.length, r.owned.length, ...r.events, ...r.owned]);
  const head = Math.ceil(ints.byteLength / 8) * 8;
  const out = new Uint8Array(head + 32 * r.players.length);
  out.set(new Uint8Array(ints.buffer));
  new Float64Array(out.buffer, head).set(r.players.flatMap((p) => [PLAYER_OP_KINDS.indexOf(p.kind), p.id, p.x, p.y]));
  return out;
}

/** The report encodeReport wrote. */
export function decodeReport(bytes: Uint8Array): TickReport {
  const copy = Uint8Array.from(bytes).buffer;
  const [tick, region, ghostBytes, n, m] = new Int32Array(copy, 0, 5);
  const ints = new Int32Array(copy, 0, 5 + n + m);
  const head = Math.ceil(ints.byteLength / 8) * 8;
  const floats = new Float64Array(copy, head);
  const players: PlayerOp[] = [];
  for (let i = 0; i < floats.length; i += 4) players.push({ kind: PLAYER_OP_KINDS[floats[i]], id: floats[i + 1], x: floats[i + 2], y: floats[i + 3] });
  return { tick, region, ghostBytes, events: ints.slice(5, 5 + n), owned: [...ints.slice(5 + n)], players };
}
