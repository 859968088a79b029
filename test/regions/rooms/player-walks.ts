// Where the test players walk, and an SDK client that keeps the rooms it
// joins: shared by the multi-process tests with @colyseus/sdk clients.
import type { Client } from '@colyseus/sdk';
import type { RegionClient, RegionSdkClient } from '../../../src/colyseus/client/index.js';

/**
 * Player k's walk: the place of its n-th input (n = 0: where it enters),
 * steps of 0.5 or 1, across x = 60, across y = 60, or around (60, 60), a
 * tenth off the grid of halves (no float32 holds such a place exactly: a
 * view must carry it to the last bit).
 */
export function walk(k: number): (n: number) => { x: number; y: number } {
  const onGrid = halves(k);
  return (n) => {
    const at = onGrid(n);
    return { x: at.x + 0.1, y: at.y + 0.1 };
  };
}

function halves(k: number): (n: number) => { x: number; y: number } {
  const amplitude = 2 + (k % 4);
  const along = 20 + ((k * 7) % 80);
  const triangle = (n: number): number => {
    const period = 4 * amplitude;
    const p = n % period;
    return p <= period / 2 ? p / 2 : (period - p) / 2;
  };
  if (k % 3 === 0) return (n) => ({ x: 60 - amplitude / 2 + triangle(n), y: along });
  if (k % 3 === 1) return (n) => ({ x: along, y: 60 - amplitude / 2 + triangle(n) });
  const side = 2 * amplitude;
  return (n) => {
    // Around the square of half-side `amplitude` centred on the corner, one unit a step.
    const p = n % (4 * side);
    const s = p % side;
    const corners = [
      [60 - amplitude, 60 - amplitude, 1, 0],
      [60 + amplitude, 60 - amplitude, 0, 1],
      [60 + amplitude, 60 + amplitude, -1, 0],
      [60 - amplitude, 60 + amplitude, 0, -1],
    ][Math.floor(p / side)];
    return { x: corners[0] + corners[2] * s, y: corners[1] + corners[3] * s };
  };
}

/** What a test uses of an SDK room: its connection, and whether the SDK reconnects. */
export type SdkRoom = { connection: { close(): void }; reconnection: { enabled: boolean } };

/** Client, keeping in rooms every room it joins (the last is the player's): a test reaches their connections. */
export function recording(client: Client, rooms: SdkRoom[], takesSeats = () => true): RegionSdkClient {
  return {
    join: async (name, options) => {
      const room = await client.join(name, options);
      rooms.push(room);
      return room;
    },
    consumeSeatReservation: async (reservation) => {
      // A client that has gone away mid-switch: its reserved seat is never taken.
      if (!takesSeats()) return new Promise<never>(() => {});
      const room = await client.consumeSeatReservation(reservation);
      rooms.push(room);
      return room;
    },
  };
}


/** Sends each client the next place of its walk every 10 ms once shown(k), with at most 3 inputs pending; returns what stops it. */
export function keepWalking(clients: RegionClient[], shown: (k: number) => boolean): () => void {
  const timer = setInterval(() => {
    for (let k = 0; k < clients.length; k++) {
      if (!shown(k) || clients[k].pending >= 3) continue;
      const next = walk(k)(clients[k].nextInput);
      clients[k].move(next.x, next.y);
    }
  }, 10);
  return () => clearInterval(timer);
}
