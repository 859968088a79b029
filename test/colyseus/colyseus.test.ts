// spatialkit/colyseus against the real thing: the example server on
// 127.0.0.1 and Colyseus SDK clients, with a view per client and with shared
// views. After every patch, each client's decoded state must hold exactly its
// own player and the entities its player sees (a view per client), or all of
// those and nothing outside the box of the cell its player stands in, grown by
// the range (shared views), computed by brute force from the positions the
// server used for that patch; joins, leaves, players pacing across a cell
// border every tick, drops with reconnection and a drop without one happen on
// the way, and nothing is left in any view or in the Scene at the end.
import { ClientState, SchemaSerializer, type Client } from '@colyseus/core';
import { StateView } from '@colyseus/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { connectBot, walk, type Bot } from '../../examples/colyseus-server/bot.js';
import { WorldRoom } from '../../examples/colyseus-server/room.js';
import { Entity, WorldState } from '../../examples/colyseus-server/schema.js';
import { init, Scene } from '../../src/index.js';
import { Interest } from '../../src/colyseus/interest/index.js';
import { startServer, type RunningServer } from '../../examples/colyseus-server/server.js';
import { codeOf } from '../support/codes.js';

const WORLD = { size: 300, npcs: 120, npcWatcherEvery: 6, playerRange: 40, npcRange: 25, npcStep: 5, tickMs: 20, reconnectSeconds: 1 };
/** Cell side in shared mode. */
const CELL = 30;

/** How a client's decoded state is judged: exact, or within its cell's bound. */
type Mode = 'exact' | 'shared';

/** What the server used for one patch: every entity's Scene position, and each session's player. */
interface Snapshot {
  positions: Map<number, { x: number; y: number }>;
  players: Map<string, number>;
}

/** The example room, watched: a snapshot per patch, every view it handed out, waiters for frames and leaves. */
class ObservedRoom extends WorldRoom {
  static current: ObservedRoom | undefined;
  readonly snapshots = new Map<number, Snapshot>();
  readonly views: StateView[] = [];
  readonly objects: Entity[] = [];
  /** Watching NPCs' sight (kept from onNpcSight) checked against brute force at every patch. */
  readonly npcMismatches: string[] = [];
  npcChecks = 0;
  private readonly frameWaiters: Array<{ frame: number; resolve: () => void }> = [];
  private readonly leaveWaiters = new Map<string, () => void>();

  override async onCreate(options: object): Promise<void> {
    await super.onCreate(options);
    this.autoDispose = false;
    this.objects.push(...this.state.entities.values());
    ObservedRoom.current = this;
  }

  override onJoin(client: Client, options?: { x?: number; y?: number }): void {
    super.onJoin(client, options);
    this.views.push(client.view as StateView);
    this.objects.push(this.state.entities.get(String(this.players.get(client.sessionId))) as Entity);
  }

  override onLeave(client: Client): void {
    super.onLeave(client);
    this.leaveWaiters.get(client.sessionId)?.();
  }

  override onBeforePatch(): void {
    super.onBeforePatch();
    const positions = new Map<number, { x: number; y: number }>();
    for (const [key, entity] of this.state.entities) {
      const id = Number(key);
      const at = this.interest.scene.position(id);
      expect([entity.x, entity.y]).toEqual([at.x, at.y]); // the state shows where the Scene has it
      positions.set(id, { x: at.x, y: at.y });
    }
    this.snapshots.set(this.state.frame, { positions, players: new Map(this.players) });
    for (const [npc, seen] of this.npcSight) {
      const want = boxMembers(positions, npc, WORLD.npcRange);
      const got = [...seen].sort((a, b) => a - b);
      if (got.join() !== want.join()) this.npcMismatches.push(`frame ${this.state.frame} npc ${npc}: sees [${got}] want [${want}]`);
      this.npcChecks++;
    }
    for (let i = this.frameWaiters.length - 1; i >= 0; i--) {
      if (this.state.frame >= this.frameWaiters[i].frame) this.frameWaiters.splice(i, 1)[0].resolve();
    }
  }

  /** Resolves once n more patches have gone out. */
  frames(n: number): Promise<void> {
    return new Promise((resolve) => this.frameWaiters.push({ frame: this.state.frame + n, resolve }));
  }

  /** Resolves once the session's player has left the world. */
  left(sessionId: string): Promise<void> {
    if (!this.players.has(sessionId)) return Promise.resolve();
    return new Promise((resolve) => this.leaveWaiters.set(sessionId, resolve));
  }
}

/** Ids other than self positioned inside self's square view box of half-extent range, ascending. */
function boxMembers(positions: Map<number, { x: number; y: number }>, self: number, range: number): number[] {
  const me = positions.get(self)!;
  const ids: number[] = [];
  for (const [id, at] of positions) {
    if (id !== self && Math.abs(at.x - me.x) <= range && Math.abs(at.y - me.y) <= range) ids.push(id);
  }
  return ids.sort((a, b) => a - b);
}

/** Ids a player should see at a patch: itself and, by brute force, every entity inside its view box. */
function expectedView(snapshot: Snapshot, self: number): number[] {
  return [self, ...boxMembers(snapshot.positions, self, WORLD.playerRange)].sort((a, b) => a - b);
}

/** Ids a player on shared views may see at a patch: those inside its cell grown by the range. */
function sharedBound(snapshot: Snapshot, self: number): Set<number> {
  const me = snapshot.positions.get(self)!;
  const minX = Math.floor(me.x / CELL) * CELL - WORLD.playerRange;
  const minY = Math.floor(me.y / CELL) * CELL - WORLD.playerRange;
  const maxX = minX + CELL + 2 * WORLD.playerRange;
  const maxY = minY + CELL + 2 * WORLD.playerRange;
  const ids = new Set<number>();
  for (const [id, at] of snapshot.positions) if (at.x >= minX && at.x <= maxX && at.y >= minY && at.y <= maxY) ids.add(id);
  return ids;
}

/** Schema numbers travel as float32 when that loses less than 1e-4. */
function nearlyEqual(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-4 * Math.max(1, Math.abs(a));
}

/** A bot whose every decoded patch is checked against the server's snapshot of that patch. */
class CheckedBot {
  checked = 0;
  lastFrame = -1;
  /** Patches whose set of visible ids differed from the one before (proof that views changed). */
  changes = 0;
  readonly mismatches: string[] = [];
  private skipNext = true; // a (re)join's full state is taken between patches; the patches after it are checked
  private previous = '';
  private readonly waiters: Array<{ frame: number; resolve: () => void }> = [];

  constructor(readonly bot: Bot, private readonly mode: Mode) {
    bot.room.onReconnect(() => {
      this.skipNext = true;
    });
    bot.room.onStateChange((state) => this.check(state.frame, state.entities));
  }

  /** Resolves once this client has decoded a patch at or after frame. */
  reach(frame: number): Promise<void> {
    if (this.lastFrame >= frame) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ frame, resolve }));
  }

  private check(frame: number, entities: Map<string, { x: number; y: number }>): void {
    this.lastFrame = frame;
    if (this.skipNext) {
      this.skipNext = false;
    } else {
      const snapshot = ObservedRoom.current!.snapshots.get(frame)!;
      const self = snapshot.players.get(this.bot.room.sessionId)!;
      const want = expectedView(snapshot, self);
      const got = [...entities.keys()].map(Number).sort((a, b) => a - b);
      const wrongPlace = got.filter((id) => {
        const at = snapshot.positions.get(id);
        const seen = entities.get(String(id))!;
        return at === undefined || !nearlyEqual(at.x, seen.x) || !nearlyEqual(at.y, seen.y);
      });
      let wrongSet: boolean;
      if (this.mode === 'exact') {
        wrongSet = JSON.stringify(got) !== JSON.stringify(want);
      } else {
        const bound = sharedBound(snapshot, self);
        wrongSet = want.some((id) => !got.includes(id)) || got.some((id) => !bound.has(id));
      }
      if (wrongSet || wrongPlace.length > 0) {
        this.mismatches.push(`frame ${frame} session ${this.bot.room.sessionId}: got [${got}] want [${want}] misplaced [${wrongPlace}]`);
      }
      const key = got.join();
      if (key !== this.previous) this.changes++;
      this.previous = key;
      this.checked++;
    }
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (frame >= this.waiters[i].frame) this.waiters.splice(i, 1)[0].resolve();
    }
  }
}

/** Lets n patches go out, then waits until every listed client has decoded the last of them. */
async function play(n: number, clients: CheckedBot[]): Promise<void> {
  const room = ObservedRoom.current!;
  await room.frames(n);
  const frame = room.state.frame;
  await Promise.all(clients.map((client) => client.reach(frame)));
}

for (const mode of ['exact', 'shared'] as const) {
  describe(`spatialkit/colyseus on a live Colyseus server (${mode === 'exact' ? 'a view per client' : 'shared views'})`, () => {
    let server: RunningServer;
    let url: string;

    beforeAll(async () => {
      server = await startServer({ port: 0, room: ObservedRoom, world: { ...WORLD, sharedCell: mode === 'shared' ? CELL : 0 } });
      url = `ws://127.0.0.1:${server.port}`;
    });

    afterAll(async () => {
      await server?.close();
    });

    async function join(count: number): Promise<CheckedBot[]> {
      const bots = await Promise.all(Array.from({ length: count }, () => connectBot(url, Math.random() * WORLD.size, Math.random() * WORLD.size)));
      return bots.map((bot) => new CheckedBot(bot, mode));
    }

    it('keeps every client view right after every patch, through joins, leaves, border pacing, drops and reconnections', async () => {
      const online = new Set(await join(6));
      const everyone = new Set(online);
      // Two players pace across a cell border, crossing it every tick; the others wander.
      const pacing = new Map([...online].slice(0, 2).map((client, k) => [client, { border: CELL * (3 + 2 * k), toggle: false }]));
      const walking = setInterval(() => {
        for (const client of online) {
          const pace = pacing.get(client);
          if (pace === undefined) {
            walk(client.bot, 6, WORLD.size);
            continue;
          }
          pace.toggle = !pace.toggle;
          client.bot.x = pace.border + (pace.toggle ? 0.5 : -0.5);
          client.bot.room.send('move', { x: client.bot.x, y: client.bot.y });
        }
      }, WORLD.tickMs);
      try {
        const room = ObservedRoom.current!;
        await play(60, [...online]);

        // Joins while the world runs.
        for (const client of await join(4)) {
          online.add(client);
          everyone.add(client);
        }
        await play(60, [...online]);

        // Two players leave for good.
        const leaving = [...online].slice(2, 4);
        for (const client of leaving) {
          online.delete(client);
          await client.bot.room.leave();
          await room.left(client.bot.room.sessionId);
        }
        await play(40, [...online]);

        // Two connections drop (a pacing player among them); the SDK reconnects and the same views carry on.
        const dropping = [...online].slice(1, 3);
        await Promise.all(
          dropping.map(async (client) => {
            client.bot.room.reconnection.minUptime = 0;
            client.bot.room.reconnection.minDelay = 10;
            const back = new Promise<void>((resolve) => client.bot.room.onReconnect.once(resolve));
            dropConnection(client.bot);
            await back;
          }),
        );
        await play(60, [...online]);

        // One connection drops and never comes back: its player leaves when the seat expires.
        const lost = [...online][online.size - 1];
        online.delete(lost);
        lost.bot.room.reconnection.enabled = false;
        const lostSession = lost.bot.room.sessionId;
        dropConnection(lost.bot);
        await room.left(lostSession);
        await play(40, [...online]);

        // Bad input is refused with a code and the room keeps running.
        const someone = room.players.values().next().value as number;
        const entity = room.state.entities.get(String(someone))!;
        expect(codeOf(() => room.interest.addNpc(someone, entity, { x: 1, y: 1 }))).toBe('DUPLICATE_ID');
        const stray = new Entity({ kind: 'npc', x: 5, y: 5 });
        room.state.entities.set('999999', stray);
        if (mode === 'exact') {
          expect(codeOf(() => room.interest.addClient(999_999, {} as Client, stray, { x: 5, y: 5 }))).toBe('INVALID_ARGUMENT'); // no view
        } else {
          expect(codeOf(() => room.interest.addClient(999_999, {} as Client, stray, { x: 5, y: 5, range: 9 }))).toBe('INVALID_ARGUMENT'); // shared views set the range
          expect(codeOf(() => room.interest.setRange(someone, 9))).toBe('INVALID_ARGUMENT');
          for (const cell of [0, -1]) expect(codeOf(() => room.interest.setSharedViews({ cell }))).toBe('INVALID_ARGUMENT');
          expect(codeOf(() => room.interest.setSharedViews({ cell: Number.NaN }))).toBe('INVALID_NUMBER');
        }
        expect(codeOf(() => room.interest.setSharedViews(mode === 'exact' ? { cell: CELL } : null))).toBe('INVALID_ARGUMENT'); // clients are registered
        room.state.entities.delete('999999');
        expect(codeOf(() => room.interest.addNpc(999_999, new Entity({ kind: 'npc', x: 5, y: 5 }), { x: 5, y: 5 }))).toBe('INVALID_ARGUMENT'); // not in the state
        expect(codeOf(() => room.interest.move(123_456_789, 1, 1))).toBe('UNKNOWN_ID');
        expect(codeOf(() => room.interest.move(someone, Number.NaN, 1))).toBe('INVALID_NUMBER');
        expect(room.interest.has(999_999)).toBe(false);
        expect(room.interest.size).toBe(room.interest.scene.size);
        expect(room.interest.sharedViews).toEqual(mode === 'exact' ? null : { cell: CELL });
        await play(40, [...online]);

        for (const client of everyone) expect(client.mismatches.slice(0, 5)).toEqual([]);
        expect(room.npcMismatches.slice(0, 5)).toEqual([]);
        expect(room.npcChecks).toBeGreaterThan(1000);
        const checked = [...everyone].reduce((sum, client) => sum + client.checked, 0);
        const changes = [...everyone].reduce((sum, client) => sum + client.changes, 0);
        expect(checked).toBeGreaterThan(1500);
        expect(changes).toBeGreaterThan(200); // views really changed along the way

        // Everybody leaves: no view holds anything, only NPCs remain, then none.
        clearInterval(walking);
        for (const client of online) {
          await client.bot.room.leave();
          await room.left(client.bot.room.sessionId);
        }
        expect(room.players.size).toBe(0);
        for (const view of room.views) {
          for (const object of room.objects) expect(view.has(object)).toBe(false);
        }
        expect(room.interest.sharedViewCount).toBe(0);
        expect(room.interest.scene.size).toBe(WORLD.npcs);
        for (const key of [...room.state.entities.keys()]) room.despawn(Number(key));
        expect(room.interest.scene.size).toBe(0);
        expect(room.interest.size).toBe(0);
        expect(room.state.entities.size).toBe(0);
      } finally {
        clearInterval(walking);
      }
    });
  });
}

/** Cuts a client's socket without a close handshake, as a lost network would. */
function dropConnection(bot: Bot): void {
  (bot.room.connection.transport as unknown as { ws: { terminate(): void } }).ws.terminate();
}

describe('the spatialkit/colyseus subpath of the built package', () => {
  // The subpath imports the main entry by name instead of bundling a copy,
  // so its errors are the main entry's SpatialError and its Scene the main one.
  it('loads with import and require and throws the main entry\'s SpatialError', () => {
    const program = `
      const { Interest } = await import('spatialkit/colyseus');
      const { init, Scene, SpatialError } = await import('spatialkit');
      await init();
      const interest = new Interest(new Scene());
      let code = 'none';
      try { interest.move(1, 0, 0); } catch (error) { code = error instanceof SpatialError ? error.code : 'foreign error'; }
      const required = require('spatialkit/colyseus').Interest === Interest;
      console.log(JSON.stringify({ code, required }));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', `import { createRequire } from 'node:module'; const require = createRequire(process.cwd() + '/'); ${program}`], {
      cwd: resolve(__dirname, '../..'),
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual({ code: 'UNKNOWN_ID', required: true });
  });
});

/** A room state encoded by Colyseus's own serializer, one client that counts the bytes it is sent, and an Interest over a Scene. */
function serverWithOneClient(scene: Scene) {
  const state = new WorldState({ frame: 0 });
  const serializer = new SchemaSerializer<WorldState>();
  serializer.reset(state);
  const client = { state: ClientState.JOINED, view: new StateView(), bytes: 0, raw(bytes: Uint8Array) { this.bytes += bytes.length; } };
  const send = (): number => {
    client.bytes = 0;
    serializer.applyPatches([client as unknown as Client]);
    return client.bytes;
  };
  const interest = new Interest(scene);
  const spawn = (id: number, kind: string): Entity => {
    const entity = new Entity({ kind, x: 0, y: 0 });
    state.entities.set(String(id), entity);
    return entity;
  };
  return { client, send, interest, spawn };
}

describe('Interest without a server', () => {
  beforeAll(() => init());

  it('sends nothing for a target that leaves a view and comes back within one update', () => {
    const { client, send, interest, spawn } = serverWithOneClient(new Scene({ backend: 'js', defaultRange: 10 }));
    const player = spawn(1, 'player');
    const npc = spawn(2, 'npc');
    interest.addClient(1, client as unknown as Client, player, { x: 0, y: 0 });
    interest.addNpc(2, npc, { x: 5, y: 0 });
    expect(send()).toBeGreaterThan(0);
    expect(send()).toBe(0);

    interest.move(2, 500, 0); // out of the player's view ...
    interest.move(2, 5, 0); // ... and back, in the same update
    interest.update();
    expect(client.view.has(npc)).toBe(true);
    expect(send()).toBe(0);

    interest.move(2, 500, 0);
    interest.update();
    expect(client.view.has(npc)).toBe(false);
    expect(send()).toBeGreaterThan(0);
    interest.scene.dispose();
  });

  it('works in a 3-D scene: height counts, and a move needs z', () => {
    const { client, interest, spawn } = serverWithOneClient(new Scene({ dimensions: 3, defaultRange: 10 }));
    const player = spawn(1, 'player');
    const bird = spawn(2, 'npc');
    interest.addClient(1, client as unknown as Client, player, { x: 0, y: 0, z: 0 });
    interest.addNpc(2, bird, { x: 0, y: 0, z: 50 });
    expect(client.view.has(bird)).toBe(false); // same x and y, too high
    expect(client.view.has(player)).toBe(true);
    expect(codeOf(() => interest.move(2, 0, 0))).toBe('INVALID_NUMBER');
    interest.move(2, 0, 0, 8);
    interest.update();
    expect(client.view.has(bird)).toBe(true);
    interest.remove(1);
    expect(client.view.has(bird)).toBe(false);
    expect(client.view.has(player)).toBe(false);
    expect(interest.scene.size).toBe(1);
    interest.scene.dispose();
  });
});
