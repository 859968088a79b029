// One region room of the client case of bench `regions`, in a process of
// its own: a Colyseus server (presence and matchmaking on Redis) hosting a
// RegionRoom whose peer runs in lockstep with the other rooms over Redis,
// with the walkers of region-process-walkers.ts and the players the bench's
// SDK clients bring. Prints "region <id> up on port <port>", then ticks as
// fast as the slowest room until it is killed. With `reportEvery`, it also
// prints "cpu {json}" every that many ticks: the ticks so far, the
// process's CPU time (user and system, ms), and the wall time so far of the
// region's own tick work and of Colyseus's broadcastPatch (encoding and
// sending every client's patch), and the players' inputs applied, for
// per-tick costs. With `sharedCell`, the
// room's clients share a view per cell of that side; with `ticksPerSecond`,
// it ticks no faster than that.
//
//   node region-process-room.mjs '{"redisPort":..., "region":0, "columns":2, "rows":2, "walkers":20000, "prefix":"..."}'
import { matchMaker, Server, type Client } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Redis } from 'ioredis';
import { init } from '../src/index.js';
import { RegionRoom, type PlayerSpawn } from '../src/colyseus/rooms/index.js';
import type { RegionInput } from '../src/colyseus/region-protocol.js';
import { RedisRegionBus, RegionLayout, type PeerTick, type RegionBus, type RegionPeerOptions } from '../src/regions/index.js';
import { mulberry32 } from './random.js';
import { freePort } from './redis-server.js';
import { MARGIN, placeWalkers, RANGE, STEP, stepWalkers, worldSize } from './region-process-walkers.js';

/** What a room process is told. */
export interface RoomProcessSettings {
  redisPort: number;
  region: number;
  columns: number;
  rows: number;
  walkers: number;
  prefix: string;
  /** The world's side; by default the walkers' world (worldSize). */
  size?: number;
  /** Ticks between CPU reports; none without it. */
  reportEvery?: number;
  /** The room's shared views' cell side; a view per client without it. */
  sharedCell?: number;
  /** Ticks a second at most, as a game server paces them; as fast as the slowest room without it. */
  ticksPerSecond?: number;
}

const settings = JSON.parse(process.argv[2]) as RoomProcessSettings;
const url = `redis://127.0.0.1:${settings.redisPort}`;
const size = settings.size ?? worldSize(settings.walkers);
const layout = RegionLayout.grid({ minX: 0, minY: 0, maxX: size, maxY: size }, settings.columns, settings.rows, { maxRange: RANGE, margin: MARGIN, maxStep: STEP });

class BenchRegionRoom extends RegionRoom {
  override sharedViews = settings.sharedCell === undefined ? null : { cell: settings.sharedCell };
  private readonly random = mulberry32(100 + settings.region);
  private regionMs = 0;
  private patchMs = 0;
  /** Players' inputs applied so far. */
  private applied = 0;
  private tickStarted = performance.now();

  override broadcastPatch(): boolean {
    const started = performance.now();
    const sent = super.broadcastPatch();
    this.patchMs += performance.now() - started;
    return sent;
  }

  protected layout(): RegionLayout {
    return layout;
  }

  protected bus(): RegionBus {
    return new RedisRegionBus(new Redis(url), new Redis(url), settings.prefix);
  }

  protected override peerOptions(): RegionPeerOptions {
    return { index: 'grid', defaultRange: RANGE, timeoutMs: 30_000 };
  }

  /** A bench client says where its player enters, with an id above the walkers'. */
  protected override spawn(_client: Client, options: { id: number; x: number; y: number }): PlayerSpawn {
    return { id: options.id, x: options.x, y: options.y, range: RANGE };
  }

  protected override applyInput(id: number, input: RegionInput): void {
    this.applied++;
    super.applyInput(id, input);
  }

  protected override beforeTick(tick: number): void {
    // Paced: the pause after a tick makes up the rest of its period (the patch's time counted in the next).
    if (settings.ticksPerSecond !== undefined) {
      const now = performance.now();
      this.tickDelayMs = Math.max(0, 1000 / settings.ticksPerSecond - (now - this.tickStarted - this.tickDelayMs));
      this.tickStarted = now;
    }
    if (tick === 0) placeWalkers(this.peer, settings.walkers, size);
    else stepWalkers(this.peer, this.random, size, settings.walkers);
  }

  protected override afterTick(tick: number, result: PeerTick): void {
    this.regionMs += result.busyMs;
    const every = settings.reportEvery;
    if (every === undefined || tick % every !== 0) return;
    const { user, system } = process.cpuUsage();
    console.log(`cpu ${JSON.stringify({ ticks: tick, cpuMs: (user + system) / 1000, regionMs: this.regionMs, patchMs: this.patchMs, inputs: this.applied, players: this.clients.length })}`);
  }
}

await init();
const port = await freePort();
const roomName = `region-${settings.prefix}`;
const server = new Server({ transport: new WebSocketTransport(), greet: false, gracefullyShutdown: false, publicAddress: `127.0.0.1:${port}`, presence: new RedisPresence(url), driver: new RedisDriver(url) });
server.define(roomName, BenchRegionRoom).filterBy(['region']);
await server.listen(port, '127.0.0.1');
await matchMaker.handleCreateRoom(roomName, { region: settings.region });
console.log(`region ${settings.region} up on port ${port}`);
