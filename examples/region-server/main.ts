// Two processes, one region each, of a world 1,000 × 500 cut at x = 500:
// each a Colyseus server with Redis for presence and matchmaking, its region
// a RegionPeer that runs in lockstep with the other over Redis. Both run
// the same script of moves; each peer applies those of the entities it
// owns, and the walker that crosses x = 500 is handed from one to the other.
//
//   npm run build
//   node scripts/run-ts.mjs examples/region-server/main.ts 0 2567   # region 0
//   node scripts/run-ts.mjs examples/region-server/main.ts 1 2568   # region 1
//
// with a redis-server on 127.0.0.1:6379 (or REDIS_URL).
import { matchMaker, Room, Server } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Redis } from 'ioredis';
import { init } from 'spatialkit';
import { RedisRegionBus, RegionLayout, RegionPeer } from 'spatialkit/regions';

const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const [region, port] = process.argv.slice(2).map(Number);
const layout = RegionLayout.grid({ minX: 0, minY: 0, maxX: 1000, maxY: 500 }, 2, 1, { maxRange: 20, margin: 4, maxStep: 5 });

class RegionRoom extends Room {
  private peer!: RegionPeer;
  private running = true;

  override onCreate(options: { region: number }) {
    this.autoDispose = false; // the region lives on with no client in it
    const bus = new RedisRegionBus(new Redis(REDIS), new Redis(REDIS));
    this.peer = new RegionPeer(layout, options.region, bus, {
      index: 'grid',
      timeoutMs: 2000,
      onTimeout: (error) => console.warn(error.message), // REGION_TIMEOUT: the tick went on without them
    });
    void this.run();
  }

  private async run() {
    await this.peer.start(); // resolves once both regions listen
    this.peer.add(1, 480, 250, 20, { margin: 4 }); // region 0's (false in region 1)
    this.peer.add(2, 510, 250, 20); // region 1's
    for (let tick = 0; this.running; tick++) {
      this.peer.move(1, 480 + 4 * (tick % 10), 250); // crosses x = 500 and back, every 10 ticks
      const { events, handoffs } = await this.peer.tick();
      // events: flat [type, watcher, target, ...] for the watchers this region owns
      if (events.length > 0 || handoffs.length > 0) console.log(`region ${region} tick ${tick}`, events, handoffs.map((h) => `${h.id}: ${h.from} -> ${h.to}`));
      await new Promise((resolve) => setTimeout(resolve, 50)); // a 20 Hz world
    }
  }

  override async onDispose() {
    this.running = false;
  }
}

await init();
const server = new Server({ transport: new WebSocketTransport(), greet: false, presence: new RedisPresence(REDIS), driver: new RedisDriver(REDIS) });
server.define('region', RegionRoom);
await server.listen(port, '127.0.0.1');
await matchMaker.handleCreateRoom('region', { region }); // this region's room, on this process
