// A Colyseus server process hosting region rooms, for the multi-process
// tests: presence and matchmaking on Redis, ghost batches over Redis, and
// server-side walkers. Every process runs the same seeded walkers; each
// region room applies the operations of the entities it owns and, after
// each tick, publishes a report (its events and the ids it owns) on
// `<prefix>:report` for the test to compare with one Scene.
//
//   node region-process.mjs '{"redisPort":..., "regions":[0,1], "seed":..., "walkers":..., "ticks":..., "prefix":"..."}'
import { matchMaker, Server } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Redis } from 'ioredis';
import { init, SpatialError } from '../../../src/index.js';
import { RedisRegionBus, type PeerTick, type RegionBus, type RegionLayout, type RegionPeerOptions } from '../../../src/regions/index.js';
import { RegionRoom } from '../../../src/colyseus/region-room.js';
import { applyToWorld, Walkers } from '../walkers.js';
import { encodeReport, ROOM_LAYOUT, ROOM_SIZES, type ProcessSettings } from './protocol.js';

const settings = JSON.parse(process.argv[2]) as ProcessSettings;
const redisUrl = `redis://127.0.0.1:${settings.redisPort}`;

class WalkerRegionRoom extends RegionRoom {
  private readonly walkers = new Walkers(ROOM_SIZES, settings.walkers, settings.seed);
  private readonly reports = new Redis(redisUrl);

  protected layout(): RegionLayout {
    return ROOM_LAYOUT();
  }

  protected bus(): RegionBus {
    return new RedisRegionBus(new Redis(redisUrl), new Redis(redisUrl), settings.prefix);
  }

  protected override peerOptions(): RegionPeerOptions {
    return {
      backend: 'wasm',
      index: 'grid',
      timeoutMs: settings.timeoutMs,
      onTimeout: (error, regions) => void this.reports.publish(`${settings.prefix}:timeout`, JSON.stringify({ region: this.peer.id, code: error.code, regions, message: error.message })),
    };
  }

  protected override beforeTick(tick: number): void {
    const ops = tick === 0 ? this.walkers.start() : this.walkers.next();
    for (const op of ops) {
      try {
        applyToWorld(this.peer, op);
      } catch (error) {
        // An entity of a region lost with its process is gone: its walker's operations are refused.
        if (!(error instanceof SpatialError && error.code === 'UNKNOWN_ID')) throw error;
      }
    }
  }

  protected override afterTick(tick: number, result: PeerTick): boolean {
    void this.reports.publish(`${settings.prefix}:report`, Buffer.from(encodeReport({ tick, region: this.peer.id, events: result.events, owned: this.peer.region.ownedIds(), ghostBytes: result.sentBytes })));
    return tick + 1 < settings.ticks;
  }
}

await init();
const transport = new WebSocketTransport();
const server = new Server({ transport, greet: false, gracefullyShutdown: false, presence: new RedisPresence(redisUrl), driver: new RedisDriver(redisUrl) });
server.define('region', WalkerRegionRoom);
await server.listen(0, '127.0.0.1');
for (const region of settings.regions) await matchMaker.handleCreateRoom('region', { region });
console.log(`regions ${settings.regions.join(',')} up`);
