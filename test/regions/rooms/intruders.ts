// Clients that attack a world of region rooms while honest players walk in
// it: each joins with a real @colyseus/sdk client (through a RegionClient,
// which turns the rooms' refusals and failures into SpatialErrors) and sends
// what an honest client never would, straight through the SDK room.
import { Client, type Room } from '@colyseus/sdk';
import { SpatialError } from '../../../src/index.js';
import { REGION_MESSAGES, RegionClient, type RegionSdkClient } from '../../../src/colyseus/client/index.js';
import { HOOK_TRAP_X } from './protocol.js';

/** What one intruder met: the code its join was refused with, or the codes of the failures its room sent. */
export interface Outcome {
  /** The join's SpatialError code; null when the join was taken. */
  refused: string | null;
  /** The failure codes the room sent back, in order. */
  failures: string[];
}

/** Where an intruder joins, and with which id. */
export interface Entry {
  url: string;
  roomName: string;
  region: number;
  id: number;
  x: number;
  y: number;
}

/** Inputs that are not { seq, x, y } of finite numbers, or sent in ways no client sends them, by a player standing at `at`. */
const garbageInputs = (at: { x: number; y: number }): unknown[] => [
  'x',
  42,
  null,
  [1, 2, 3],
  { seq: 'next', x: 1, y: 1 },
  { seq: 1.5, x: 1, y: 1 },
  { seq: -1, x: 1, y: 1 },
  { x: 1, y: 1 },
  { seq: 1, x: 'a', y: 1 },
  { seq: 2, x: NaN, y: 1 },
  { seq: 3, x: Infinity, y: 1 },
  { seq: 4, x: 1e300, y: 1e300 },
  { seq: 5, x: -1, y: -1 },
  { seq: 6, x: at.x, y: at.y, extra: 'x'.repeat(1000) },
  { seq: 7, x: { valueOf: 1 }, y: 1 },
  deep(),
];

/** A nested object 200 levels deep (as deep as the SDK's encoder goes). */
function deep(): unknown {
  let value: unknown = { seq: 8, x: 1, y: 1 };
  for (let i = 0; i < 200; i++) value = { inner: value };
  return value;
}

/** Joins as entry (the client giving up on a lost room after reconnectMs); the SDK room, the RegionClient and the outcome so far. */
async function join(entry: Entry, reconnectMs?: number): Promise<{ room: Room | null; client: RegionClient; outcome: Outcome }> {
  let room: Room | null = null;
  const sdk = new Client(entry.url);
  const recording: RegionSdkClient = {
    join: async (name, options) => (room = await sdk.join(name, options)),
    consumeSeatReservation: async (reservation) => (room = await sdk.consumeSeatReservation(reservation)),
  };
  const client = new RegionClient(recording, { reconnectMs });
  const outcome: Outcome = { refused: null, failures: [] };
  client.onError((error) => outcome.failures.push(error.code));
  try {
    await client.join(entry.roomName, entry.region, { id: entry.id, x: entry.x, y: entry.y });
  } catch (error) {
    outcome.refused = error instanceof SpatialError ? error.code : String(error);
  }
  return { room, client, outcome };
}

const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Waits until done() holds, or 20 s have passed (the caller's outcome then shows what is missing). */
async function waitFor(done: () => boolean): Promise<void> {
  for (let waited = 0; waited < 20_000 && !done(); waited += 50) await pause(50);
}

/** The intruders of one run, each started by one of its methods; leave() takes every one away. */
export class Intruders {
  private readonly clients: RegionClient[] = [];

  /** Joins with entry's id, which some other player holds: the join must be refused. */
  async steal(entry: Entry): Promise<Outcome> {
    const { client, outcome } = await join(entry);
    this.clients.push(client);
    return outcome;
  }

  /** Joins with one new id in two rooms at once: exactly one of the joins may be taken. */
  async twins(a: Entry, b: Entry): Promise<Outcome[]> {
    const both = await Promise.all([join(a), join(b)]);
    for (const { client } of both) this.clients.push(client);
    return both.map((joined) => joined.outcome);
  }

  /** Sends `count` inputs at once, all to where the player stands: past the room's bound they are refused. */
  async flood(entry: Entry, count: number): Promise<Outcome> {
    const { room, client, outcome } = await join(entry);
    this.clients.push(client);
    for (let seq = 1; seq <= count; seq++) room?.send(REGION_MESSAGES.input, { seq, x: entry.x, y: entry.y });
    await pause(200);
    return outcome;
  }

  /** Sends every kind of garbage as inputs, then a good one, and waits (up to 20 s) until the room has applied that. */
  async garbage(entry: Entry): Promise<Outcome> {
    const { room, client, outcome } = await join(entry);
    this.clients.push(client);
    for (const input of garbageInputs(entry)) {
      room?.send(REGION_MESSAGES.input, input);
      await pause(20);
    }
    let applied = 0;
    client.onView((view) => (applied = view.self.seq));
    const last = 9;
    room?.send(REGION_MESSAGES.input, { seq: last, x: entry.x, y: entry.y });
    await waitFor(() => applied >= last);
    return outcome;
  }

  /** Sends a message of a type no room handles, then bytes as an input: the room drops the client, which gives up after 1 s. */
  async stranger(entry: Entry): Promise<Outcome> {
    const { room, client, outcome } = await join(entry, 1000);
    this.clients.push(client);
    room?.send('no-such-message', { seq: 1, x: entry.x, y: entry.y });
    room?.sendBytes(REGION_MESSAGES.input, Uint8Array.from({ length: 64 }, (_, i) => (i * 37) & 255));
    await waitFor(() => outcome.failures.length > 0);
    return outcome;
  }

  /** Sends an input that makes the rooms' applyInput throw. */
  async trap(entry: Entry): Promise<Outcome> {
    const { room, client, outcome } = await join(entry);
    this.clients.push(client);
    room?.send(REGION_MESSAGES.input, { seq: 1, x: HOOK_TRAP_X, y: entry.y });
    return outcome;
  }

  /** Takes every intruder away. */
  async leave(): Promise<void> {
    await Promise.allSettled(this.clients.map((c) => c.leave()));
  }
}
