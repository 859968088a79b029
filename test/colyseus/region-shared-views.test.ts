// Region rooms with shared views: two rooms of a world cut in two, in this
// process over an in-process bus, with @colyseus/sdk clients walking across
// the border. Each client's view must hold its player and everything its
// player sees, where the region's Scene has it, and nothing outside its
// cell grown by the layout's maxRange; clients standing in one cell receive
// the same entities.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as SdkClient } from '@colyseus/sdk';
import { matchMaker, Server, type Client } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { WebSocket } from 'ws';
import { RegionClient, type RegionView } from '../../src/colyseus/client/index.js';
import { RegionRoom, type PlayerSpawn } from '../../src/colyseus/rooms/index.js';
import { RegionLayout, type Region, type RegionBus } from '../../src/regions/index.js';
import { freePort } from '../../bench/redis-server.js';
import { MemoryBus } from '../support/memory-bus.js';

// Colyseus 0.18's SDK reads a global WebSocket, which Node 20 lacks.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

const CELL = 10;
const RANGE = 10;
const bus = new MemoryBus();
const layout = (): RegionLayout => RegionLayout.grid({ minX: 0, minY: 0, maxX: 200, maxY: 100 }, 2, 1, { maxRange: RANGE, margin: 0, maxStep: 5 });
/** Server entities (markers) scattered over the world, ids from 1000. */
const NPCS = Array.from({ length: 60 }, (_, k) => ({ id: 1000 + k, x: (k * 37) % 200, y: (k * 53) % 100 }));

class SharedRoom extends RegionRoom {
  override tickDelayMs = 5;
  override sharedViews = { cell: CELL };

  protected layout(): RegionLayout {
    return layout();
  }

  protected bus(): RegionBus {
    return bus.for();
  }

  protected override peerOptions() {
    return { backend: 'js' as const, defaultRange: RANGE };
  }

  protected override spawn(_client: Client, options: { id: number; x: number; y: number }): PlayerSpawn {
    return { id: options.id, x: options.x, y: options.y, range: RANGE };
  }

  protected override beforeTick(tick: number): void {
    if (tick !== 0) return;
    for (const npc of NPCS) if (this.peer.layout.regionAt(npc.x, npc.y) === this.peer.id) this.peer.add(npc.id, npc.x, npc.y, null);
  }
}

const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

let server: Server;
let url = '';
const rooms: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  server = new Server({ transport: new WebSocketTransport(), greet: false });
  server.define('shared', SharedRoom).filterBy(['region']);
  await server.listen(port, '127.0.0.1');
  url = `ws://127.0.0.1:${port}`;
  for (const region of [0, 1]) rooms.push((await matchMaker.createRoom('shared', { region })).roomId);
});
afterAll(() => server.gracefullyShutdown(false));

function regionOf(region: number): Region {
  return (matchMaker.getLocalRoomById(rooms[region]) as SharedRoom).peer.region;
}

describe('region rooms with shared views', () => {
  it('show each client its player and all it sees, nothing beyond its cell grown by maxRange, across hand-offs', async () => {
    // Players on both sides of the border (x = 100), walking across it and back.
    const starts = [
      { id: 1, x: 92, y: 20 },
      { id: 2, x: 95, y: 21 },
      { id: 3, x: 108, y: 50 },
      { id: 4, x: 104, y: 52 },
      { id: 5, x: 30, y: 80 },
      { id: 6, x: 170, y: 10 },
    ];
    const clients = starts.map(() => new RegionClient(new SdkClient(url)));
    const views = new Map<number, RegionView>();
    const errors: string[] = [];
    clients.forEach((c, k) => {
      c.onView((v) => views.set(starts[k].id, v));
      c.onError((e) => errors.push(`${starts[k].id}: ${e.code}`));
    });
    try {
      await Promise.all(clients.map((c, k) => c.join('shared', starts[k].x < 100 ? 0 : 1, starts[k])));
      // Twenty steps of 3 towards the other side, then twenty back: each of the first four crosses the border twice.
      const places = starts.map((s) => ({ ...s }));
      for (let step = 0; step < 40; step++) {
        clients.forEach((c, k) => {
          const toward = k < 4 ? (starts[k].x < 100 ? 1 : -1) : 0;
          places[k].x += (step < 20 ? 3 : -3) * toward;
          c.move(places[k].x, places[k].y);
        });
        await pause(15);
      }
      // Quiet: every input applied, the world still; the last views stand.
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && clients.some((c) => c.pending > 0 || c.handingOff)) await pause(50);
      await pause(300);
      expect(errors).toEqual([]);
      const handoffs = rooms.reduce((n, id) => n + (matchMaker.getLocalRoomById(id) as SharedRoom).handoffCount, 0);
      expect(handoffs, 'hand-offs').toBeGreaterThanOrEqual(8);
      for (const [k, start] of starts.entries()) {
        const view = views.get(start.id)!;
        expect(view.self, `player ${start.id}`).toMatchObject({ id: start.id, x: places[k].x, y: places[k].y });
        const region = regionOf(view.region);
        const seen = new Map([...view.entities].map(([id, e]) => [id, [e.x, e.y]]));
        // Everything its player sees, where the Scene has it.
        for (const id of region.query(start.id)) {
          const { x, y } = region.position(id);
          expect(seen.get(id), `player ${start.id} sees ${id}`).toEqual([x, y]);
        }
        // Nothing outside its cell grown by maxRange; everything there that the region holds.
        const [cx, cy] = [Math.floor(view.self.x / CELL) * CELL, Math.floor(view.self.y / CELL) * CELL];
        const box = region.queryBox(cx - RANGE, cy - RANGE, cx + CELL + RANGE, cy + CELL + RANGE).filter((id) => id !== start.id);
        expect([...seen.keys()].sort((a, b) => a - b), `player ${start.id}'s view`).toEqual(box);
      }
      // Players 1 and 2 started in one cell and walked alike: they receive the same entities, beyond what either sees.
      const [one, two] = [views.get(1)!, views.get(2)!];
      expect(Math.floor(one.self.x / CELL)).toBe(Math.floor(two.self.x / CELL));
      expect([...one.entities.keys()].filter((id) => id !== 2).sort()).toEqual([...two.entities.keys()].filter((id) => id !== 1).sort());
    } finally {
      await Promise.allSettled(clients.map((c) => c.leave()));
    }
  }, 30_000);

  it('refuses a sharedViews setting that is not {cell} with a finite cell > 0', async () => {
    class BadRoom extends SharedRoom {
      override sharedViews = { cell: -1 };
    }
    server.define('bad', BadRoom).filterBy(['region']);
    await expect(matchMaker.createRoom('bad', { region: 0 })).rejects.toThrow(/sharedViews.cell must be > 0/);
  });
});
