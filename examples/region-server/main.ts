// Two processes, one region each, of a world 1,000 × 500 cut at x = 500:
// each a Colyseus server with Redis for presence and matchmaking, its region
// a RegionRoom that runs in lockstep with the other over Redis. Players
// join through client.ts; a walker paces across x = 500 and is handed from
// one region to the other, and so is a player that crosses.
//
//   npm run build
//   node scripts/run-ts.mjs examples/region-server/main.ts 0 2567   # region 0
//   node scripts/run-ts.mjs examples/region-server/main.ts 1 2568   # region 1
//   node scripts/run-ts.mjs examples/region-server/client.ts 2567   # a player
//
// with a redis-server on 127.0.0.1:6379 (or REDIS_URL). The servers may
// start in either order, however far apart: each room waits for the
// other's, saying so every 5 s (WAIT_REPORT_MS), and refuses players
// (NOT_INITIALIZED, after as long) until both run. Each prints its tick every second. When
// one server dies, the other goes on without its region after 2 s (the
// walker goes with the region that owned it).
import { matchMaker, Server, type Client } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Redis } from 'ioredis';
import { init } from 'spatialkit';
import { RegionRoom, type PlayerSpawn } from 'spatialkit/colyseus-regions';
import { RedisRegionBus, RegionLayout, type PeerTick } from 'spatialkit/regions';
import { supplyWebSocketGlobal } from '../colyseus-server/node20.js';

const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const [region, port] = process.argv.slice(2).map(Number);
export const layout = RegionLayout.grid({ minX: 0, minY: 0, maxX: 1000, maxY: 500 }, 2, 1, { maxRange: 20, margin: 4, maxStep: 5 });

class WorldRegion extends RegionRoom {
  override tickDelayMs = 50; // a 20 Hz world
  override waitReportMs = Number(process.env.WAIT_REPORT_MS ?? 5000);

  protected layout() {
    return layout;
  }

  protected bus() {
    return new RedisRegionBus(new Redis(REDIS), new Redis(REDIS));
  }

  protected override peerOptions() {
    return {
      index: 'grid' as const,
      defaultRange: 20,
      timeoutMs: 2000,
      onTimeout: (error: Error) => console.warn(error.message), // REGION_TIMEOUT: the tick went on without them
    };
  }

  /** A new player: the id and place its client asks for (a real game would check them). */
  protected override spawn(_client: Client, options: { id: number; x: number; y: number }): PlayerSpawn {
    return { id: options.id, x: options.x, y: options.y, range: 20 };
  }

  protected override beforeTick(tick: number) {
    // The walker, entity 1, starts in region 0 and crosses x = 500 and back every 10 ticks.
    if (tick === 0) this.peer.add(1, 480, 250, 20, { margin: 4 }); // applied by region 0 only
    else if (this.peer.has(1)) this.peer.move(1, 480 + 4 * (tick % 10), 250); // applied by its owner of the moment, if it lives
  }

  protected override afterTick(tick: number, { handoffs }: PeerTick) {
    for (const h of handoffs) if (h.from === this.peer.id) console.log(`tick ${tick}: ${h.id} handed to region ${h.to}`);
    if (tick % 20 === 0) {
      const lost = this.peer.lostRegions;
      console.log(`tick ${tick}: region ${this.peer.id} owns ${this.peer.ownedCount} entities${lost.length > 0 ? `, regions ${lost.join(', ')} lost` : ''}`);
    }
  }
}

await init();
supplyWebSocketGlobal(); // read by Colyseus when a dropped client reconnects; Node 20 has none
// publicAddress: where clients reach this process, written into the seat reservations it hands out.
const server = new Server({ transport: new WebSocketTransport(), greet: false, publicAddress: `127.0.0.1:${port}`, presence: new RedisPresence(REDIS), driver: new RedisDriver(REDIS) });
server.define('region', WorldRegion).filterBy(['region']);
await server.listen(port, '127.0.0.1');
await matchMaker.handleCreateRoom('region', { region }); // this region's room, on this process (createRoom may pick another)
console.log(`region ${region} on ws://127.0.0.1:${port}`);
