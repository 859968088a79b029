// A world of wandering NPCs that players join and walk through. Each client
// receives only the entities its player sees: spatialkit's Scene decides who
// sees whom, and spatialkit/colyseus turns that into StateView adds and removes.
import { Room, type Client } from '@colyseus/core';
import { StateView } from '@colyseus/schema';
import { init, Scene } from 'spatialkit';
import { Interest } from 'spatialkit/colyseus';
import { Entity, WorldState } from './schema.js';

/** How a world room is set up (the options of the room's onCreate). */
export interface WorldOptions {
  /** Side of the square world (default 1000). */
  size?: number;
  /** Number of wandering NPCs (default 400). */
  npcs?: number;
  /** Every how many NPCs one watches the others (0: none watch; default 10). */
  npcWatcherEvery?: number;
  /** Half-extent of a player's view box (default 60). */
  playerRange?: number;
  /** Half-extent of a watching NPC's view box (default 30). */
  npcRange?: number;
  /** Largest distance an NPC walks in one tick (default 2). */
  npcStep?: number;
  /** Milliseconds between ticks and between patches (default 50). */
  tickMs?: number;
  /** Seconds a dropped client has to reconnect before its player leaves the world (default 20). */
  reconnectSeconds?: number;
  /** Side of the cells whose clients share one view (0: a view per client, exact; default 0). */
  sharedCell?: number;
}

/** What a player sends to walk (and may join with): where it wants to stand. */
export interface MoveMessage {
  x: number;
  y: number;
}

/** What the room tells a client when it joins (message type 'welcome'): the id of its own entity in `state.entities`. */
export interface WelcomeMessage {
  id: number;
}

/** The one room of the example server. */
export class WorldRoom extends Room<{ state: WorldState }> {
  override state = new WorldState({ frame: 0 });
  /** Who sees whom; public so tools (and tests) can look at the Scene. */
  interest!: Interest;
  /** Entity id of each client's player, by session id. */
  readonly players = new Map<string, number>();
  /** What each watching NPC sees, kept from the sightings the adapter reports (what an NPC's AI would act on). */
  readonly npcSight = new Map<number, Set<number>>();
  protected size = 1000;
  private npcStep = 2;
  /** Half-extent of every player's view box. */
  playerRange = 60;
  private reconnectSeconds = 20;
  private nextId = 0;
  private readonly npcHeadings = new Map<number, number>();
  private readonly wanted = new Map<number, MoveMessage>();

  override messages = {
    move: (client: Client, message: MoveMessage) => {
      const id = this.players.get(client.sessionId);
      if (id === undefined || !Number.isFinite(message?.x) || !Number.isFinite(message?.y)) return;
      this.wanted.set(id, { x: this.clamp(message.x), y: this.clamp(message.y) });
    },
  };

  override async onCreate(options: WorldOptions = {}): Promise<void> {
    await init();
    this.size = options.size ?? 1000;
    this.npcStep = options.npcStep ?? 2;
    this.playerRange = options.playerRange ?? 60;
    this.reconnectSeconds = options.reconnectSeconds ?? 20;
    const tickMs = options.tickMs ?? 50;
    const sharedCell = options.sharedCell ?? 0;
    this.interest = new Interest(new Scene({ defaultRange: this.playerRange }), {
      sharedViews: sharedCell > 0 ? { cell: sharedCell } : null,
      onNpcSight: (type, watcher, target) => {
        const seen = this.npcSight.get(watcher) as Set<number>;
        if (type === 'enter') seen.add(target);
        else seen.delete(target);
      },
    });
    const npcs = options.npcs ?? 400;
    const watcherEvery = options.npcWatcherEvery ?? 10;
    for (let k = 0; k < npcs; k++) {
      const watches = watcherEvery > 0 && k % watcherEvery === 0;
      this.spawnNpc(Math.random() * this.size, Math.random() * this.size, watches ? (options.npcRange ?? 30) : null);
    }
    this.patchRate = tickMs;
    this.setSimulationInterval(() => this.tick(), tickMs);
  }

  override onJoin(client: Client, options?: Partial<MoveMessage>): void {
    // A view per client (with shared views the adapter sets client.view itself).
    if (this.interest.sharedViews === null) client.view = new StateView();
    const id = this.nextId++;
    const x = Number.isFinite(options?.x) ? this.clamp(options!.x!) : Math.random() * this.size;
    const y = Number.isFinite(options?.y) ? this.clamp(options!.y!) : Math.random() * this.size;
    const entity = new Entity({ kind: 'player', x, y });
    this.state.entities.set(String(id), entity);
    this.interest.addClient(id, client, entity, { x, y }); // sees with the scene's defaultRange, playerRange
    this.players.set(client.sessionId, id);
    const welcome: WelcomeMessage = { id };
    client.send('welcome', welcome);
  }

  override onDrop(client: Client): void {
    // The player stays in the world while its client may come back (the
    // reconnected client keeps the same StateView). A client that does not
    // come back (or a room shutting down) rejects this; onLeave follows then.
    this.allowReconnection(client, this.reconnectSeconds).catch(() => undefined);
  }

  override onReconnect(client: Client): void {
    // Colyseus gives the reconnected client a new Client object: the adapter follows it.
    const id = this.players.get(client.sessionId);
    if (id !== undefined) this.interest.reconnect(id, client);
  }

  override onLeave(client: Client): void {
    const id = this.players.get(client.sessionId);
    if (id === undefined) return;
    this.players.delete(client.sessionId);
    this.despawn(id);
  }

  override onBeforePatch(): void {
    this.state.frame++;
  }

  override onDispose(): void {
    this.interest.clear();
    this.interest.scene.dispose();
  }

  override onUncaughtException(error: Error, method: string): void {
    // A rejected spatialkit call changed nothing, so the room carries on.
    console.error(`world room: ${method} threw ${error.message}`);
  }

  /** Adds an NPC at (x, y): a marker when range is null, a watcher otherwise. Returns its id. */
  spawnNpc(x: number, y: number, range: number | null): number {
    const id = this.nextId++;
    const entity = new Entity({ kind: 'npc', x, y });
    this.state.entities.set(String(id), entity);
    if (range !== null) this.npcSight.set(id, new Set());
    this.interest.addNpc(id, entity, { x, y, range });
    this.npcHeadings.set(id, Math.random() * 2 * Math.PI);
    return id;
  }

  /** Removes an entity from the views, the Scene and the state. */
  despawn(id: number): void {
    this.interest.remove(id);
    this.npcSight.delete(id);
    this.state.entities.delete(String(id));
    this.npcHeadings.delete(id);
    this.wanted.delete(id);
  }

  /** One step of the world: NPCs wander, players go where they asked, then one Scene update. */
  private tick(): void {
    for (const [id, heading] of this.npcHeadings) {
      let turned = heading + (Math.random() - 0.5) * 0.6;
      const step = Math.random() * this.npcStep;
      const x = this.x(id) + Math.cos(turned) * step;
      const y = this.y(id) + Math.sin(turned) * step;
      if (x !== this.clamp(x) || y !== this.clamp(y)) turned += Math.PI; // turn back at the world's edge
      this.place(id, this.clamp(x), this.clamp(y));
      this.npcHeadings.set(id, turned);
    }
    for (const [id, to] of this.wanted) this.place(id, to.x, to.y);
    this.wanted.clear();
    this.interest.update();
  }

  private place(id: number, x: number, y: number): void {
    const entity = this.state.entities.get(String(id)) as Entity;
    entity.x = x;
    entity.y = y;
    this.interest.move(id, x, y);
  }

  private x(id: number): number {
    return (this.state.entities.get(String(id)) as Entity).x;
  }

  private y(id: number): number {
    return (this.state.entities.get(String(id)) as Entity).y;
  }

  private clamp(v: number): number {
    return Math.min(this.size, Math.max(0, v));
  }
}
