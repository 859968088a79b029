// Clients that send anything, against region rooms: a Colyseus server in
// this process hosts the two rooms of a world cut in two (over an
// in-process bus), an honest RegionClient walks in it, and fuzzing
// @colyseus/sdk clients join with random options and send random messages
// (any shape, type and size, one at a time or in bursts). The rooms must
// keep ticking, refuse what they refuse with a code, and leave the honest
// player's view exactly what its region's Scene says.
import { Client as SdkClient, type Room } from '@colyseus/sdk';
import { matchMaker, Server, type Client } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import fc from 'fast-check';
import { WebSocket } from 'ws';
import { REGION_MESSAGES, RegionClient, type RegionView } from '../../src/colyseus/client/index.js';
import { RegionRoom, type PlayerSpawn } from '../../src/colyseus/rooms/index.js';
import { RegionLayout, type RegionBus } from '../../src/regions/index.js';
import { freePort } from '../../bench/redis-server.js';
import { MemoryBus } from '../support/memory-bus.js';

// Colyseus 0.18's SDK reads a global WebSocket, which Node 20 lacks.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

const bus = new MemoryBus();
const layout = (): RegionLayout => RegionLayout.grid({ minX: 0, minY: 0, maxX: 200, maxY: 100 }, 2, 1, { maxRange: 10, margin: 0, maxStep: 5 });
const HONEST = 1;

class FuzzedRoom extends RegionRoom {
  override tickDelayMs = 2;

  protected layout(): RegionLayout {
    return layout();
  }

  protected bus(): RegionBus {
    return bus.for();
  }

  protected override peerOptions() {
    return { backend: 'js' as const, defaultRange: 10 };
  }

  /** A fuzzing client chooses its id and place, as a careless server would let it. */
  protected override spawn(_client: Client, options: { id: number; x: number; y: number }): PlayerSpawn {
    return { id: options.id, x: options.x, y: options.y, range: 10 };
  }

  /** What the rooms refuse is the fuzz's to cause: it need not be logged. */
  protected override onHookError(): void {}




}

/** A message a client could send: any value, or an input-like object with wild fields. */
const message = fc.oneof(
  fc.anything({ maxDepth: 4, withTypedArray: true, withBigInt: false }),
  fc.record({ seq: fc.oneof(fc.integer(), fc.double(), fc.string()), x: fc.oneof(fc.double(), fc.string(), fc.constant(null)), y: fc.double() }, { requiredKeys: [] }),
  fc.record({ seq: fc.nat(), x: fc.double({ min: -50, max: 250, noNaN: true }), y: fc.double({ min: -50, max: 150, noNaN: true }) }),
);
const send = fc.record({
  type: fc.oneof({ weight: 4, arbitrary: fc.constant(REGION_MESSAGES.input) }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) }),
  payload: message,
  burst: fc.oneof({ weight: 6, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 60 }) }),
});
/** Join options: mostly a fresh or taken id at a place in the world, sometimes anything. */
const joinOptions = fc.oneof(
  { weight: 4, arbitrary: fc.record({ id: fc.integer({ min: 0, max: 12 }), x: fc.double({ min: 0, max: 199, noNaN: true }), y: fc.double({ min: 0, max: 99, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.record({ id: fc.oneof(fc.integer(), fc.double(), fc.string()), x: fc.double(), y: fc.double() }, { requiredKeys: [] }) },
);
/** The region a join's place lies in, when it is a place; 0 otherwise. */
const regionOf = (o: { x?: unknown }): number => (typeof o.x === 'number' && o.x >= 100 ? 1 : 0);

const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Sends `messages` random messages from `clients` fuzzing clients; returns the messages sent and what disagreed. */
export async function fuzzRooms(seed: number, messages: number, clients = 6): Promise<{ sent: number; problems: string[] }> {
  const port = await freePort();
  const server = new Server({ transport: new WebSocketTransport(), greet: false });
  server.define('fuzzed', FuzzedRoom).filterBy(['region']);
  await server.listen(port, '127.0.0.1');
  const url = `ws://127.0.0.1:${port}`;
  const rooms = [await matchMaker.createRoom('fuzzed', { region: 0 }), await matchMaker.createRoom('fuzzed', { region: 1 })];
  const problems: string[] = [];
  const honest = new RegionClient(new SdkClient(url));
  let view: RegionView | null = null;
  honest.onView((v) => (view = v));
  honest.onError((error) => problems.push(`the honest client heard ${error.code}`));
  const fuzzers: Room[] = [];
  let sent = 0;
  try {
    await honest.join('fuzzed', 0, { id: HONEST, x: 90, y: 50 });
    const options = fc.sample(joinOptions, { numRuns: clients, seed });
    for (const o of options) {
      try {
        const room = await new SdkClient(url).join('fuzzed', { ...o, region: regionOf(o) });
        room.onMessage('*', () => {});
        fuzzers.push(room);
      } catch {
        // a refused join: what a room answers to such options
      }
    }
    const sends = fc.sample(send, { numRuns: messages, seed: seed + 1 });
    for (const [k, s] of sends.entries()) {
      const room = fuzzers[k % Math.max(1, fuzzers.length)];
      for (let b = 0; b < s.burst && room !== undefined && sent < messages; b++, sent++) {
        try {
          room.send(s.type, s.payload);
        } catch {
          // the SDK refuses to encode it: nothing reached the room
        }
      }
      if (k % 2 === 0 && honest.pending < 3) honest.move(85 + (k % 10), 50);
      if (k % 20 === 0) await pause(5);
      if (sent >= messages) break;
    }
    // Quiet: every input queued is applied within maxPendingInputs ticks; then the world holds still.
    await pause(1500);
    const tick = view === null ? -1 : (view as RegionView).tick;
    await pause(300);
    const last = view as RegionView | null;
    const [first, second] = rooms.map((r) => (matchMaker.getLocalRoomById(r.roomId) as FuzzedRoom).peer.region.ownedIds());
    const twice = first.filter((id) => second.includes(id));
    if (twice.length > 0) problems.push(`ids owned by both regions: ${twice.join(', ')}`);
    if (last === null || last.tick <= tick) problems.push(`the rooms stopped ticking (last view at tick ${last?.tick})`);
    else {
      const room = matchMaker.getLocalRoomById(rooms[last.region].roomId) as FuzzedRoom;
      const region = room.peer.region;
      const expected = region.query(HONEST).map((id) => [id, region.position(id).x, region.position(id).y]);
      const got = [...last.entities].map(([id, e]) => [id, e.x, e.y]).sort((a, b) => a[0] - b[0]);
      if (JSON.stringify(got) !== JSON.stringify(expected)) problems.push(`the honest view ${JSON.stringify(got)} is not the Scene's ${JSON.stringify(expected)}`);
    }
  } finally {
    // A client whose connection the room closed (too many messages) never hears its leave answered.
    await Promise.race([Promise.allSettled([honest.leave(), ...fuzzers.map((f) => f.leave())]), pause(1000)]);
    await server.gracefullyShutdown(false);
  }
  return { sent, problems };
}
