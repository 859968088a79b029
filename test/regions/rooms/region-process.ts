// A Colyseus server process hosting region rooms, for the multi-process
// tests: presence and matchmaking on Redis, ghost batches over Redis, and
// server-side walkers. Every process runs the same seeded walkers; each
// region room applies the operations of the entities it owns and, after
// each tick, publishes a report (its events and the ids it owns) on
// `<prefix>:report` for the test to compare with one Scene.
//
//   node region-process.mjs '{"redisPort":..., "regions":[0,1], "seed":..., "walkers":..., "ticks":..., "prefix":"..."}'
import { matchMaker, Server, type Client } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Redis } from 'ioredis';
import { WebSocket } from 'ws';
import { init, SpatialError } from '../../../src/index.js';
import { RedisRegionBus, type PeerTick, type RegionBus, type RegionLayout, type RegionPeerOptions } from '../../../src/regions/index.js';
import { RegionRoom, standByForRegions, type PlayerSpawn, type RegionHook, type RegionInput } from '../../../src/colyseus/rooms/index.js';
import { freePort } from '../../../bench/redis-server.js';
import { applyToWorld, Walkers, type WorldOp } from '../walkers.js';
import { encodeReport, HOOK_TRAP_X, PLAYER_MARGIN, PLAYER_RANGE, ROOM_LAYOUT, ROOM_SIZES, type PlayerOp, type ProcessSettings } from './protocol.js';

// Colyseus 0.18 reads a global WebSocket when a dropped client reconnects, which Node 20 lacks.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

const settings = JSON.parse(process.argv[2]) as ProcessSettings;
const redisUrl = `redis://127.0.0.1:${settings.redisPort}`;

class WalkerRegionRoom extends RegionRoom {
  private readonly walkers = new Walkers(ROOM_SIZES, settings.walkers, settings.seed);
  /** The last tick the walkers have walked (a room that takes a region over starts late, and catches up). */
  private walked = -1;
  private readonly reports = new Redis(redisUrl);
  private playerOps: PlayerOp[] = [];
  override tickDelayMs = settings.tickDelayMs ?? 0;

  /** A test client chooses its id and place. */
  protected override spawn(_client: Client, options: { id: number; x: number; y: number }): PlayerSpawn {
    return { id: options.id, x: options.x, y: options.y, range: PLAYER_RANGE, options: { margin: PLAYER_MARGIN } };
  }

  protected override placePlayer(spawn: PlayerSpawn): void {
    super.placePlayer(spawn);
    this.playerOps.push({ kind: 'add', id: spawn.id, x: spawn.x, y: spawn.y });
  }

  protected override removePlayer(id: number): void {
    super.removePlayer(id);
    this.playerOps.push({ kind: 'remove', id, x: 0, y: 0 });
  }

  protected override applyInput(id: number, input: RegionInput): void {
    if (input.x === HOOK_TRAP_X) throw new Error(`the trap at x = ${HOOK_TRAP_X}`);
    super.applyInput(id, input);
    this.playerOps.push({ kind: 'move', id, x: input.x, y: input.y });
  }

  override onCreate(options: { region: number }): void {
    if (settings.seatReservationSeconds !== undefined) this.seatReservationTimeout = settings.seatReservationSeconds;
    if (settings.reconnectSeconds !== undefined) this.reconnectSeconds = settings.reconnectSeconds;
    super.onCreate(options);
  }

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
      ...(settings.takeover === true ? { takeover: {} } : {}),
      onTimeout: (error, regions) => void this.reports.publish(`${settings.prefix}:timeout`, JSON.stringify({ region: this.peer.id, code: error.code, regions, message: error.message })),
    };
  }

  protected override beforeTick(tick: number): void {
    let ops: WorldOp[] = [];
    for (; this.walked < tick; this.walked++) ops = this.walked < 0 ? this.walkers.start() : this.walkers.next();
    for (const op of ops) {
      try {
        applyToWorld(this.peer, op);
      } catch (error) {
        // An entity of a region lost with its process is gone: its walker's operations are refused.
        if (!(error instanceof SpatialError && error.code === 'UNKNOWN_ID')) throw error;
      }
    }
    if (tick === settings.throwAtTick) throw new Error(`beforeTick fails at tick ${tick}`);
  }

  protected override onHookError(error: SpatialError, hook: RegionHook, player?: number): void {
    void this.reports.publish(`${settings.prefix}:hook`, JSON.stringify({ region: this.peer.id, hook, code: error.code, player }));
  }

  protected override afterTick(tick: number, result: PeerTick): boolean {
    const players = this.playerOps;
    this.playerOps = [];
    void this.reports.publish(`${settings.prefix}:report`, Buffer.from(encodeReport({ tick, region: this.peer.id, events: result.events, owned: this.peer.region.ownedIds(), ghostBytes: result.sentBytes, players })));
    return tick + 1 < settings.ticks;
  }
}

await init();
const transport = new WebSocketTransport();
// The port is known before the server starts: the seat reservations this process hands out carry it.
const port = await freePort();
const roomName = settings.roomName ?? 'region';
const server = new Server({ transport, greet: false, gracefullyShutdown: false, publicAddress: `127.0.0.1:${port}`, presence: new RedisPresence(redisUrl), driver: new RedisDriver(redisUrl) });
server.define(roomName, WalkerRegionRoom).filterBy(['region']);
await server.listen(port, '127.0.0.1');
for (const region of settings.regions) await matchMaker.handleCreateRoom(roomName, { region });
if (settings.standby === true) {
  standByForRegions(roomName, ROOM_LAYOUT(), new RedisRegionBus(new Redis(redisUrl), new Redis(redisUrl), settings.prefix));
  console.log(`standby up on port ${port}`);
} else console.log(`regions ${settings.regions.join(',')} up on port ${port}`);
