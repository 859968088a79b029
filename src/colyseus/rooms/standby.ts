// A process standing by for a world's region rooms: when a region's holder
// stops renewing its lease (its process died or stalled), this process
// creates the region's room, which takes the region over from its last
// checkpoint; the room's players' clients find it by matchmaking and claim
// their players again. The first process to claim the lease holds the
// region; a room that loses the race closes at once.
import { matchMaker } from '@colyseus/core';
import { checkMilliseconds } from '../../core/validate.js';
import { SpatialError } from '../../scene/index.js';
import type { RegionLayout, RegionStore } from '../../regions/index.js';
import type { RegionRoom } from './region-room.js';

/** Options of {@link standByForRegions}. */
export interface RegionStandbyRoomsOptions {
  /** The regions this process may take over (default: every region of the layout). */
  regions?: number[];
  /** How many regions this process takes over at the most (default 1: a process standing by with no region of its own). */
  capacity?: number;
  /** How often it looks for a vacant region (default 100 ms). */
  pollMs?: number;
}

/** A standby started by {@link standByForRegions}. */
export interface RegionStandbyRooms {
  /** The regions taken over so far, in order. */
  readonly taken: number[];
  /** Stops looking for vacant regions (the rooms already taken over keep running). */
  stop(): void;
}

/**
 * Asks the processes of the region's other listed rooms whether they are
 * alive: Colyseus drops the rooms of one that does not answer, so clients
 * matchmaking for the region stop reaching the dead room.
 */
async function dropDeadListings(roomName: string, region: number): Promise<void> {
  const listed = await matchMaker.query({ name: roomName });
  const others = listed.filter((r) => (r.metadata as { region?: number } | undefined)?.region === region && r.processId !== matchMaker.processId);
  await Promise.allSettled(others.map((r) => matchMaker.healthCheckProcessId(r.processId)));
}

/**
 * Stands this process by for the region rooms named roomName (defined on
 * this process's server with `filterBy(['region'])`, peerOptions() with the
 * takeover option on `store`): it polls the store, and creates the room of
 * each vacant region, up to `capacity`, with `{ region, takeover: true }`.
 */
export function standByForRegions(roomName: string, layout: RegionLayout, store: RegionStore, options: RegionStandbyRoomsOptions = {}): RegionStandbyRooms {
  const { regions = layout.regions.map((r) => r.id), capacity = 1, pollMs = 100 } = options;
  if (!Number.isInteger(capacity) || capacity < 1) throw new SpatialError('INVALID_ARGUMENT', `capacity must be an integer >= 1, got ${String(capacity)}`);
  checkMilliseconds('pollMs', pollMs, { positive: true });
  for (const r of regions) layout.rect(r);
  const taken: number[] = [];
  let stopped = false;
  const poll = async (): Promise<void> => {
    while (!stopped && taken.length < capacity) {
      for (const region of await store.vacant(regions)) {
        if (stopped || taken.length >= capacity) break;
        const listed = await matchMaker.handleCreateRoom(roomName, { region, takeover: true });
        const room = matchMaker.getLocalRoomById(listed.roomId) as RegionRoom | undefined;
        if (room !== undefined && (await room.ready)) {
          taken.push(region);
          void dropDeadListings(roomName, region);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
  void poll().catch((error: unknown) => console.error('region standby:', error));
  return {
    taken,
    stop: () => {
      stopped = true;
    },
  };
}
