// A Colyseus room that simulates one region of a world cut into regions,
// in lockstep with the rooms of the other regions, wherever they run: their
// messages go over a RegionBus (RedisRegionBus between processes).
//
// Players are client-controlled entities. A client's inputs queue in the
// room that owns its player and are applied one a tick; after each tick the
// room sets each client's StateView to its player and what the player sees,
// and sends one patch. When a player's tick ends in another region, the
// Region hand-off carries its entity there, and this room reserves the
// client a seat in that region's room through the Colyseus matchmaker (on
// whichever process it runs) and sends it the reservation.
import { matchMaker, Room, type Client } from '@colyseus/core';
import { StateView } from '@colyseus/schema';
import { SpatialError, type AddOptions, type AoiRange } from '../../scene/index.js';
import type { PeerTick, RegionBus, RegionLayout, RegionPeerOptions } from '../../regions/index.js';
import { RegionPeer } from '../../regions/index.js';
import { REGION_MESSAGES, type RegionFailure, type RegionHandoffMessage, type RegionInput, type RegionWelcome } from '../region-protocol.js';
import { RegionEntity, RegionState } from './region-state.js';
import { PlayerKeys } from './player-keys.js';
import { WorldIds } from './world-ids.js';
import { CellViews } from './cell-views.js';
import { checkSharedViewOptions } from '../interest/shared-views.js';

/** What a region room is created with (`matchMaker.createRoom(name, { region })`). */
export interface RegionRoomOptions {
  /** The id, in the layout, of the region this room simulates. */
  region: number;
  /** true: the room takes its region over from the region's last checkpoint, as {@link standByForRegions} creates it (needs the takeover option in peerOptions()). */
  takeover?: boolean;
}

/** A player's entity as it enters the world, as {@link RegionRoom.spawn} gives it. */
export interface PlayerSpawn {
  /** The entity's id: unique in the whole world, and the player's in every room it passes through. */
  id: number;
  /** Where it enters: a position in this room's region. */
  x: number;
  /** Where it enters. */
  y: number;
  /** Its view range (default: the peer's defaultRange). */
  range?: AoiRange;
  /** Its layers and margin. */
  options?: AddOptions;
}

/** The hooks a room calls in its tick loop, as {@link RegionRoom.onHookError} names them. */
export type RegionHook = 'placePlayer' | 'applyInput' | 'removePlayer' | 'beforeTick' | 'afterTick';

/** What {@link RegionRoom} guard returns for an operation its hook refused. */
const REFUSED = Symbol('refused');

/** A SpatialError for a hook that threw something else, with what it threw as the cause. */
function hookFailed(hook: RegionHook, thrown: unknown): SpatialError {
  const error = new SpatialError('HOOK_FAILED', `${hook} threw ${thrown instanceof Error ? thrown.message : String(thrown)}`);
  (error as Error & { cause?: unknown }).cause = thrown;
  return error;
}

/** Presence keys of hand-off tickets: what a reservation's bearer may claim, kept where every process reads it. */
const TICKET_PREFIX = 'spatialkit:region-handoff:';
/** Presence channels, one per room name and region, of players whose client never took its reserved seat there. */
const UNCLAIMED_PREFIX = 'spatialkit:region-unclaimed:';

/**
 * Where a player stands in its life in this room. Each transition is one
 * method of the room: entering -> arriving (placePlayer, at a tick),
 * arriving -> playing (welcome, once the region owns its entity), playing
 * -> departed (a hand-off), and any stage but departed -> leaving (its
 * client left for good). A player leaves the room's records from leaving
 * (at the next tick) and from departed (once its client has gone).
 */
type Stage =
  /** New to the world: its entity enters at the next tick. */
  | { readonly kind: 'entering'; readonly spawn: PlayerSpawn }
  /** In the world here, or on its way here by a hand-off; its client not shown a view yet. */
  | { readonly kind: 'arriving' }
  /** Welcomed: its client's view follows the player. */
  | { readonly kind: 'playing' }
  /** Handed to region `to`: its client is on its way there, with the reservation sent (again, should it reconnect here). */
  | { readonly kind: 'departed'; readonly to: number; handoff: RegionHandoffMessage | null }
  /** Its client left for good: its entity leaves the world at the next tick. */
  | { readonly kind: 'leaving' }
  /** Restored with its region after a takeover: its client has until the deadline to come back with its key. */
  | { readonly kind: 'restored'; readonly deadline: ReturnType<typeof setTimeout> };

/** A client's player, in the room that owns it (or has just handed it on). */
interface Player {
  readonly id: number;
  client: Client;
  /** The last input applied. */
  seq: number;
  /** Inputs received and not applied yet, in order. */
  readonly inputs: RegionInput[];
  /** What the client's view holds (its player included), as of the last patch. */
  seen: Set<number>;
  stage: Stage;
  /** The client's connection is down: its inputs wait until it is back (apart from the stage). */
  dropped: boolean;
}

/** What a room saves of a player with its region's checkpoints. */
interface SavedPlayer {
  id: number;
  seq: number;
  /** The region a player handed on went to, while its client has not left this room. */
  to?: number;
}

/** A promise and the function that settles it. */
function settled<T>(): { promise: Promise<T>; settle: (value: T) => void } {
  let settle!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (settle = resolve));
  return { promise, settle };
}

/** The client of a player restored after a takeover until its own comes back: it hears nothing. */
const ABSENT = { sessionId: '', view: undefined, send: () => {}, leave: () => {} } as unknown as Client;

/**
 * One region as a Colyseus room, with the region's players. A subclass
 * says which layout and bus to use, how a new player enters
 * ({@link spawn}), may submit each tick's other operations in
 * {@link beforeTick} (through `this.peer`), and reads the tick's events in
 * {@link afterTick}. The room ticks as soon as every live region has
 * finished the last tick, plus {@link tickDelayMs}, and sends one patch a
 * tick; it stays open with no client (its entities live on). Before its
 * first tick it waits for the rooms of every region, however long they
 * take: {@link onWaiting} hears which it waits for, and a join waits for
 * the first tick up to {@link waitReportMs}, then is refused (NOT_INITIALIZED).
 *
 * Define it with `filterBy(['region'])`, so that `client.join(name, { region })`
 * finds the room of that region, on whichever process it runs.
 */
export abstract class RegionRoom extends Room<{
  /** The room state: the tick, and the entities the clients' views hold. */
  state: RegionState;
}> {
  /** The region simulated here, and its link to the others; set in onCreate. */
  peer!: RegionPeer;
  /** Pause between ticks (default 0: as fast as the slowest region). */
  tickDelayMs = 0;
  /** Hand-offs of this room's players to other rooms so far. */
  handoffCount = 0;
  /**
   * Seconds a client whose connection drops has to reconnect (the SDK does
   * so by itself) before its player leaves the world; 0 takes the player
   * out at once. Meanwhile the player stays, idle, and others still see it.
   */
  reconnectSeconds = 20;
  /**
   * Inputs a player may have waiting (the room applies one a tick): 40, two
   * seconds of inputs at 20 ticks a second. An input beyond it is refused
   * to its client with LIMIT_EXCEEDED and changes nothing.
   */
  maxPendingInputs = 40;
  /**
   * Messages a client may send in one second; Colyseus closes the
   * connection of a client that sends more. 120 leaves room for an input
   * every frame at 60 frames a second plus a reconnection's resent inputs;
   * Colyseus's own default has no limit.
   */
  override maxMessagesPerSecond = 120;
  /**
   * Shared views (default null: each client's view is exactly its player
   * and what its player sees). `{ cell }` cuts the world into square cells
   * of that side, and the clients whose players stand in one cell share one
   * view: every entity of the region inside the cell grown by the layout's
   * maxRange. Each client then receives at least what its player sees and
   * nothing farther than maxRange + cell, and Colyseus encodes a patch once
   * per occupied cell instead of once per client (see docs/regions.md,
   * "Players per room"). Read when the room is created.
   */
  sharedViews: {
    /** Side of a cell, > 0: about the players' range (wider cells mean fewer views to encode and more entities per client). */
    cell: number;
  } | null = null;
  /** How often {@link onWaiting} hears, until every region's room is heard from, which ones the room waits for (default 5,000 ms). */
  waitReportMs = 5000;
  override state = new RegionState({ tick: -1 });
  private readonly readiness = settled<boolean>();
  private ids!: WorldIds;
  private readonly playerById = new Map<number, Player>();
  private readonly playerBySession = new Map<string, Player>();
  /** Entities in at least one client view: how many views hold each (a view per client). */
  private readonly viewCounts = new Map<number, number>();
  /** With shared views, the cells' views. */
  private cells: CellViews | null = null;
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  /** Players handed here whose client never took its seat: they leave the world at the next tick. */
  private unclaimed: number[] = [];
  private readonly onUnclaimed = (id: unknown): void => void this.unclaimed.push(Number(id));
  /** Checks, one per hand-off made, that its client took its seat. */
  private readonly claimChecks = new Set<ReturnType<typeof setTimeout>>();
  /** The room is taking its region over: joins wait. */
  private resuming = false;
  /** With takeovers, the keys of the players. */
  private keys: PlayerKeys | null = null;

  /** The messages a client sends: its inputs. */
  override messages = {
    /** A {@link RegionInput} of the client's player, queued until the room applies it. */
    [REGION_MESSAGES.input]: (client: Client, input: RegionInput) => this.queueInput(client, input),
  };

  /** The layout every region room of the world shares. */
  protected abstract layout(): RegionLayout;

  /** Resolves true once the room ticks (every region heard from, or its region taken over), false when it never will (closed first, or another room took the region). */
  get ready(): Promise<boolean> {
    return this.readiness.promise;
  }

  /** A new bus for this room (each room its own connections). */
  protected abstract bus(): RegionBus;

  /** Options of the peer (Scene backend and index, timeouts, onTimeout). */
  protected peerOptions(): RegionPeerOptions {
    return {};
  }

  /**
   * The entity of a client joining the world here (not by a hand-off), from
   * its join options. By default the room takes no new players
   * (INVALID_ARGUMENT, which refuses the join).
   */
  protected spawn(_client: Client, _options: unknown): PlayerSpawn | Promise<PlayerSpawn> {
    throw new SpatialError('INVALID_ARGUMENT', `region room ${this.peer.id} takes no new players`);
  }

  /** Adds a new player's entity to the world; called in the tick loop, before {@link beforeTick}. */
  protected placePlayer(spawn: PlayerSpawn): void {
    this.peer.add(spawn.id, spawn.x, spawn.y, spawn.range, spawn.options);
  }

  /** Applies one input of player id (by default: moves it to the input's place); called in the tick loop, one input a player a tick. */
  protected applyInput(id: number, input: RegionInput): void {
    this.peer.move(id, input.x, input.y);
  }

  /** Takes player id out of the world when its client leaves for good; called in the tick loop. */
  protected removePlayer(id: number): void {
    this.peer.remove(id);
  }

  /** Called before each tick: submit its other operations through `this.peer` here. */
  protected beforeTick(_tick: number): void {}

  /** Called after each tick with what it gave, before its patch; return false to stop ticking. */
  protected afterTick(_tick: number, _result: PeerTick): boolean | void {}

  /**
   * Called every {@link waitReportMs} while the room waits, before its first
   * tick, for the regions not heard from yet (by default, logs them). A
   * server that would rather stop than wait exits here.
   */
  protected onWaiting(regions: number[], waitedMs: number): void {
    console.warn(`region ${this.peer.id} waits for regions ${regions.join(', ')} (not heard from in ${Math.round(waitedMs / 1000)} s)`);
  }

  /**
   * Called when the tick loop stops on an error of the world itself (the
   * bus, a lost connection to Redis); by default, the error is logged.
   * What a hook throws never stops the loop: see {@link onHookError}.
   */
  protected onLoopError(error: unknown): void {
    console.error(`region room ${this.peer?.id}:`, error);
  }

  /**
   * Called when a hook throws ({@link spawn} aside, whose throw refuses the
   * join): the operation it was doing is refused, and the tick goes on.
   * `error` is what the hook threw when it is a SpatialError, or a
   * SpatialError HOOK_FAILED whose `cause` is what it threw; `player` is
   * the player the operation was for, if any (its client hears the same
   * code). By default, the error is logged.
   */
  protected onHookError(error: SpatialError, hook: RegionHook, player?: number): void {
    console.warn(`region room ${this.peer?.id}: ${hook}${player === undefined ? '' : ` of player ${player}`}:`, error.message);
  }

  /** Creates the region's peer and starts ticking once every region listens. */
  override onCreate(options: RegionRoomOptions): void {
    this.autoDispose = false;
    this.maxClients = Number.MAX_SAFE_INTEGER;
    this.patchRate = null;
    this.ids = new WorldIds(this.presence, this.roomName);
    const peerOptions = this.peerOptions();
    const onTimeout = peerOptions.onTimeout;
    // A lost region's players have left the world: their ids are free again (every survivor says so; once is enough).
    peerOptions.onTimeout = (error, regions) => {
      for (const region of regions) void this.ids.releaseRegion(region);
      onTimeout?.(error, regions);
    };
    // With takeovers, each checkpoint carries the players, so that the room taking the region over knows them.
    if (peerOptions.takeover !== undefined) peerOptions.takeover = { ...peerOptions.takeover, extra: () => this.savePlayers() };
    else if (options.takeover === true) throw new SpatialError('INVALID_ARGUMENT', 'a room takes its region over only with the takeover option in peerOptions()');
    if (this.sharedViews !== null) checkSharedViewOptions(this.sharedViews);
    this.peer = new RegionPeer(this.layout(), options.region, this.bus(), { startTimeoutMs: Infinity, ...peerOptions });
    if (this.sharedViews !== null) this.cells = new CellViews(this.sharedViews.cell, this.peer.layout.maxRange, () => this.peer.region);
    this.resuming = options.takeover === true;
    if (this.peer.takesOver) this.keys = new PlayerKeys(this.presence, this.roomName);
    void this.setMetadata({ region: options.region });
    void this.presence.subscribe(this.unclaimedChannel(options.region), this.onUnclaimed);
    this.running = true;
    this.loop = this.run().catch((error: unknown) => {
      // A holder whose region was taken over stops for good, and sends its clients on to the new room.
      if (error instanceof SpatialError && error.code === 'REGION_SUPERSEDED') void this.disconnect();
      this.onLoopError(error);
    });
  }

  /**
   * Takes a client in: one handed over by a neighbouring room (the one-use
   * ticket of its reservation names the player and this region), or one
   * new to the world ({@link spawn}: an id not in the world, a place in this
   * region). A refused join throws a SpatialError, which the client's join
   * rejects with. A join before the room ticks waits for it up to
   * {@link waitReportMs}, then is refused with NOT_INITIALIZED, naming the
   * regions the room waits for.
   */
  override async onJoin(client: Client, options: { handoff?: unknown; resume?: { id?: unknown; key?: unknown } } = {}): Promise<void> {
    const deadline = Date.now() + this.waitReportMs;
    while ((this.peer.waitingFor.length > 0 || this.resuming) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const waiting = this.peer.waitingFor;
    if (waiting.length > 0) throw new SpatialError('NOT_INITIALIZED', `region ${this.peer.id} does not run yet: it waits for regions ${waiting.join(', ')}`);
    if (this.resuming) throw new SpatialError('NOT_INITIALIZED', `region ${this.peer.id} is being taken over`);
    client.view = new StateView();
    if (options?.resume !== undefined) {
      await this.resume(client, options.resume);
      return;
    }
    if (typeof options?.handoff === 'string') {
      const key = TICKET_PREFIX + options.handoff;
      const ticket = (await this.presence.get(key)) as string | null;
      await this.presence.del(key);
      const claim = ticket === null ? null : (JSON.parse(ticket) as { id: number; seq: number; region: number });
      // The entity may not be here yet (without lockstep, this region may not have received the hand-off): the view waits for it.
      // A player that left this room and came back before its client left here has a departed record: the claim replaces it.
      const held = claim === null ? undefined : this.playerById.get(claim.id);
      if (claim === null || claim.region !== this.peer.id || (held !== undefined && held.stage.kind !== 'departed')) {
        throw new SpatialError('UNKNOWN_ID', `region ${this.peer.id} holds no player handed over with this reservation`);
      }
      this.admit(client, claim.id, claim.seq, null);
      return;
    }
    const spawn = await this.spawn(client, options);
    const region = this.peer.layout.regionAt(spawn.x, spawn.y);
    if (region !== this.peer.id) throw new SpatialError('INVALID_ARGUMENT', `(${spawn.x}, ${spawn.y}) lies in region ${region}, not in this room's region ${this.peer.id}`);
    const taken = (): SpatialError => new SpatialError('DUPLICATE_ID', `entity ${spawn.id} is already in the world`);
    if (this.playerById.has(spawn.id) || this.isLive(spawn.id)) throw taken();
    // The world's one registry of player ids decides between joins with one id in any rooms, at once or not.
    if (!(await this.ids.claim(spawn.id, this.peer.id))) throw taken();
    this.admit(client, spawn.id, 0, spawn);
  }

  /** A client whose connection dropped may come back within {@link reconnectSeconds}: its player waits for it. */
  override onDrop(client: Client): void {
    const player = this.playerBySession.get(client.sessionId);
    if (player !== undefined) player.dropped = true;
    if (this.reconnectSeconds > 0) void this.allowReconnection(client, this.reconnectSeconds).catch(() => undefined);
  }

  /** The client is back: its view carries on, and a reservation it may have missed is sent again. */
  override onReconnect(client: Client): void {
    const player = this.playerBySession.get(client.sessionId);
    if (player === undefined) return;
    player.client = client;
    player.dropped = false;
    this.cells?.reconnect(player.id, client);
    const { stage } = player;
    if (stage.kind === 'playing' || stage.kind === 'departed') this.welcome(player);
    if (stage.kind === 'departed' && stage.handoff !== null) client.send(REGION_MESSAGES.handoff, stage.handoff);
  }

  /** A client that leaves for good takes its player out of the world (one that left for another room does not). */
  override onLeave(client: Client): void {
    const player = this.playerBySession.get(client.sessionId);
    if (player === undefined) return;
    this.playerBySession.delete(client.sessionId);
    this.unview(player, player.seen);
    if (player.stage.kind === 'entering') this.forgetPlayer(player); // its entity never entered the world
    else if (player.stage.kind !== 'departed') player.stage = { kind: 'leaving' };
    else if (this.playerById.get(player.id) === player) this.playerById.delete(player.id);
  }

  /** Stops ticking and closes the peer. */
  override async onDispose(): Promise<void> {
    this.running = false;
    for (const check of this.claimChecks) clearTimeout(check);
    this.presence.unsubscribe(this.unclaimedChannel(this.peer.id), this.onUnclaimed);
    await this.loop;
    await this.peer.close();
  }

  private admit(client: Client, id: number, seq: number, spawn: PlayerSpawn | null): void {
    const stage: Stage = spawn === null ? { kind: 'arriving' } : { kind: 'entering', spawn };
    const player: Player = { id, client, seq, inputs: [], seen: new Set(), stage, dropped: false };
    this.playerById.set(id, player);
    this.playerBySession.set(client.sessionId, player);
  }

  private isLive(id: number): boolean {
    try {
      this.peer.ownerOf(id);
      return true;
    } catch {
      return false;
    }
  }

  /** Queues an input of the client's player; repeats (a seq already queued or applied) and inputs for a player handed on are dropped: the client sends them again to the player's new room. */
  private queueInput(client: Client, input: RegionInput): void {
    const player = this.playerBySession.get(client.sessionId);
    if (player === undefined || player.stage.kind === 'departed' || player.stage.kind === 'leaving') return;
    const last = player.inputs.length > 0 ? player.inputs[player.inputs.length - 1].seq : player.seq;
    if (!Number.isInteger(input?.seq) || input.seq <= last) return;
    if (player.inputs.length >= this.maxPendingInputs) {
      const message = `player ${player.id} has ${player.inputs.length} inputs waiting, the most a player may have (maxPendingInputs)`;
      this.tell(player, new SpatialError('LIMIT_EXCEEDED', message), input.seq);
      return;
    }
    player.inputs.push({ seq: input.seq, x: input.x, y: input.y });
  }

  private async run(): Promise<void> {
    const ticking = await (this.resuming ? this.takeOver() : this.started());
    this.readiness.settle(ticking);
    if (!ticking) return;
    while (this.running) {
      const tick = this.peer.ticks;
      // A tick run again from the checkpoint has its operations already: the room adds none.
      if (!this.peer.replaying) {
        this.applyPlayers();
        this.guard('beforeTick', undefined, () => this.beforeTick(tick));
      }
      const result = await this.peer.tick();
      const departed = this.departures(result);
      this.refreshViews();
      this.state.tick = tick;
      const goOn = this.running && this.guard('afterTick', undefined, () => this.afterTick(tick, result)) !== false;
      // The departing clients' views stop at the previous patch: they hear so before this one.
      for (const player of departed) player.client.send(REGION_MESSAGES.leaving, { tick });
      this.broadcastPatch();
      for (const player of departed) void this.handOver(player);
      if (!goOn) break;
      await new Promise((resolve) => setTimeout(resolve, this.tickDelayMs));
    }
  }

  /**
   * Takes the region over from its last checkpoint, with its players, who
   * wait for their clients; false (the room closes) when another room got
   * the region first or the checkpoint is refused.
   */
  private async takeOver(): Promise<boolean> {
    let taken = false;
    try {
      taken = await this.peer.takeOver();
    } catch (error) {
      this.onLoopError(error);
    }
    this.resuming = false;
    if (!taken) {
      void this.disconnect();
      return false;
    }
    const saved = JSON.parse(new TextDecoder().decode(this.peer.restoredExtra)) as SavedPlayer[];
    for (const { id, seq, to } of saved) {
      if (to !== undefined) {
        // Handed on before the death, its client maybe never told where: it gets a seat there again.
        const player: Player = { id, client: ABSENT, seq, inputs: [], seen: new Set(), stage: { kind: 'departed', to, handoff: null }, dropped: true };
        this.playerById.set(id, player);
        setTimeout(() => {
          if (this.playerById.get(id) === player && player.client === ABSENT) this.playerById.delete(id);
        }, this.reconnectSeconds * 1000);
        void this.handOver(player);
        continue;
      }
      const deadline = setTimeout(() => {
        const player = this.playerById.get(id);
        if (player?.stage.kind === 'restored') player.stage = { kind: 'leaving' };
      }, this.reconnectSeconds * 1000);
      this.playerById.set(id, { id, client: ABSENT, seq, inputs: [], seen: new Set(), stage: { kind: 'restored', deadline }, dropped: true });
    }
    return true;
  }

  /** The players a checkpoint saves: those whose entity is in this region's world or enters it at this tick, and those handed on whose clients are still here. */
  private savePlayers(): Uint8Array {
    const saved: SavedPlayer[] = [];
    for (const p of this.playerById.values()) {
      const { stage } = p;
      if (stage.kind === 'arriving' || stage.kind === 'playing' || stage.kind === 'restored') saved.push({ id: p.id, seq: p.seq });
      else if (stage.kind === 'departed') saved.push({ id: p.id, seq: p.seq, to: stage.to });
    }
    return new TextEncoder().encode(JSON.stringify(saved));
  }

  /**
   * A client claiming its player again after a takeover, with the key its
   * old room gave it: a player restored from the checkpoint, or one whose
   * entity the region holds though no checkpoint named the player yet (it
   * came in the tick its room died in). UNKNOWN_ID for anything else.
   */
  private async resume(client: Client, claim: { id?: unknown; key?: unknown }): Promise<void> {
    const id = claim?.id;
    const refused = (): SpatialError => new SpatialError('UNKNOWN_ID', `region ${this.peer.id} holds no player waiting for this client`);
    if (typeof id !== 'number' || this.keys === null || !(await this.keys.check(id, claim.key))) throw refused();
    let player = this.playerById.get(id);
    if (player === undefined && this.peer.owns(id)) {
      player = { id, client: ABSENT, seq: 0, inputs: [], seen: new Set(), stage: { kind: 'arriving' }, dropped: true };
      this.playerById.set(id, player);
    }
    // A restored player may have been handed on while the region ran its saved ticks again: its client follows from here.
    if (player === undefined || player.client !== ABSENT || !['restored', 'departed', 'arriving'].includes(player.stage.kind)) throw refused();
    player.client = client;
    player.dropped = false;
    this.playerBySession.set(client.sessionId, player);
    const { stage } = player;
    if (stage.kind === 'restored') {
      clearTimeout(stage.deadline);
      player.stage = { kind: 'arriving' };
    } else if (stage.kind === 'departed' && stage.handoff !== null) client.send(REGION_MESSAGES.handoff, stage.handoff);
  }

  /** Waits until the peer has heard from every region, telling {@link onWaiting} meanwhile; false when the room is disposed first. */
  private async started(): Promise<boolean> {
    let done = false;
    const start = this.peer.start().then(() => void (done = true));
    const since = Date.now();
    let reported = since;
    while (!done) {
      if (!this.running) {
        void start.catch(() => undefined); // DISPOSED, once onDispose closes the peer
        return false;
      }
      await Promise.race([start, new Promise((resolve) => setTimeout(resolve, 100))]);
      if (!done && Date.now() - reported >= this.waitReportMs) {
        reported = Date.now();
        this.onWaiting(this.peer.waitingFor, reported - since);
      }
    }
    return true;
  }

  /** Applies spawns, removals (unclaimed players' too), and one queued input of each player this region owns whose client is connected. */
  private applyPlayers(): void {
    for (const id of this.unclaimed.splice(0)) {
      if (!this.playerById.has(id) && this.peer.owns(id)) this.takeOut(id);
    }
    for (const player of this.playerById.values()) {
      const { stage } = player;
      if (stage.kind === 'entering') {
        player.stage = { kind: 'arriving' };
        if (this.guard('placePlayer', player, () => this.placePlayer(stage.spawn)) === REFUSED) this.refuseSpawn(player);
      } else if (stage.kind === 'leaving') {
        this.playerById.delete(player.id);
        if (this.peer.owns(player.id)) this.takeOut(player.id);
        else void this.ids.release(player.id, this.peer.id);
      } else if (stage.kind !== 'departed' && !player.dropped && player.inputs.length > 0 && this.peer.owns(player.id)) {
        const input = player.inputs.shift()!;
        player.seq = input.seq;
        this.guard('applyInput', player, () => this.applyInput(player.id, input), input.seq);
      }
    }
  }

  /**
   * Runs one hook. What it throws refuses that operation and goes to
   * {@link onHookError} (and to the player's client: an input the world
   * refuses, a move outside every region say, counts as applied); the tick
   * goes on. Returns the hook's result, or REFUSED.
   */
  private guard<T>(hook: RegionHook, of: Player | number | undefined, run: () => T, seq = 0): T | typeof REFUSED {
    try {
      return run();
    } catch (thrown) {
      const error = thrown instanceof SpatialError ? thrown : hookFailed(hook, thrown);
      const player = typeof of === 'object' ? of : undefined;
      if (player !== undefined) this.tell(player, error, seq);
      try {
        this.onHookError(error, hook, typeof of === 'object' ? of.id : of);
      } catch {
        // The error hook's own throw has nowhere else to go.
      }
      return REFUSED;
    }
  }

  /** Tells a player's client that one of its operations was refused, and why. */
  private tell(player: Player, error: SpatialError, seq: number): void {
    const failure: RegionFailure = { code: error.code, message: error.message, seq };
    player.client.send(REGION_MESSAGES.failure, failure);
  }

  /** Takes a player out of the world and frees its id, unless removePlayer refuses. */
  private takeOut(id: number): void {
    if (this.guard('removePlayer', id, () => this.removePlayer(id)) !== REFUSED) void this.ids.release(id, this.peer.id);
  }

  /** A player whose entity could not enter the world: its client, told why, is sent away, and its id is free. */
  private refuseSpawn(player: Player): void {
    this.forgetPlayer(player);
    player.client.leave();
  }

  /** Drops the records of a player whose entity is not in the world, and frees its id. */
  private forgetPlayer(player: Player): void {
    void this.ids.release(player.id, this.peer.id);
    this.playerById.delete(player.id);
    this.playerBySession.delete(player.client.sessionId);
  }

  /** The players this tick handed to another region. */
  private departures(result: PeerTick): Player[] {
    const out: Player[] = [];
    for (const h of result.handoffs) {
      const player = this.playerById.get(h.id);
      if (h.from !== this.peer.id || player === undefined || player.stage.kind === 'departed' || player.stage.kind === 'leaving') continue;
      if (player.stage.kind === 'restored') clearTimeout(player.stage.deadline);
      player.stage = { kind: 'departed', to: h.to, handoff: null };
      void this.ids.transfer(h.id, h.from, h.to);
      // Its client's view stops here: what it holds leaves the state (the client, told first, keeps its last patch).
      this.unview(player, [...player.seen]);
      this.cells?.leave(player.id);
      out.push(player);
    }
    return out;
  }

  /** Sets every active client's view (its own, or its cell's) and the position of every entity a view holds; welcomes the players shown for the first time. */
  private refreshViews(): void {
    const shown: Player[] = [];
    for (const player of this.playerById.values()) {
      const { kind } = player.stage;
      if (kind !== 'departed' && kind !== 'leaving' && kind !== 'restored' && this.peer.owns(player.id)) shown.push(player);
    }
    const seqOf = (id: number): number => this.playerById.get(id)?.seq ?? 0;
    if (this.cells !== null) this.cells.refresh(this.state.entities, seqOf, shown);
    else this.refreshOwnViews(shown, seqOf);
    for (const player of shown) {
      if (player.stage.kind !== 'arriving') continue;
      player.stage = { kind: 'playing' };
      this.welcome(player);
    }
  }

  /** A view per client: each its player and what the player sees now. */
  private refreshOwnViews(shown: ReadonlyArray<Player>, seqOf: (id: number) => number): void {
    for (const player of shown) {
      const now = new Set(this.peer.query(player.id)).add(player.id);
      this.unview(player, [...player.seen].filter((id) => !now.has(id)));
      for (const id of now) {
        if (player.seen.has(id)) continue;
        const count = this.viewCounts.get(id) ?? 0;
        if (count === 0) this.state.entities.set(String(id), new RegionEntity({ x: 0, y: 0, seq: 0 }));
        this.viewCounts.set(id, count + 1);
        player.client.view!.add(this.state.entities.get(String(id))!);
      }
      player.seen = now;
    }
    for (const [id] of this.viewCounts) {
      const entity = this.state.entities.get(String(id))!;
      const { x, y } = this.peer.position(id);
      entity.x = x;
      entity.y = y;
      entity.seq = seqOf(id);
    }
  }

  /** Tells the player's client which entity is its own: its view follows that player. */
  private welcome(player: Player): void {
    const send = (key?: string): void => player.client.send(REGION_MESSAGES.welcome, { id: player.id, seq: player.seq, ...(key === undefined ? {} : { key }) } satisfies RegionWelcome);
    if (this.keys === null) send();
    else void this.keys.of(player.id).then(send);
  }

  /** Takes ids out of the player's client view, and out of the state once no view holds them. */
  private unview(player: Player, ids: Iterable<number>): void {
    for (const id of ids) {
      const entity = this.state.entities.get(String(id));
      if (entity === undefined) continue;
      player.client.view?.remove(entity);
      player.seen.delete(id);
      const count = this.viewCounts.get(id)! - 1;
      if (count > 0) this.viewCounts.set(id, count);
      else {
        this.viewCounts.delete(id);
        this.state.entities.delete(String(id));
      }
    }
  }

  /**
   * After the reservation has expired: a ticket still there was never
   * claimed, so the player's client will not come; the player's new room
   * is told to take it out of the world.
   */
  private async checkClaimed(ticket: string, id: number, region: number): Promise<void> {
    const key = TICKET_PREFIX + ticket;
    if ((await this.presence.get(key)) === null) return;
    await this.presence.del(key);
    this.presence.publish(this.unclaimedChannel(region), id);
  }

  /**
   * A seat for the bearer of ticket in region's room. The room may be down
   * a moment (its process died, and a standby is taking the region over):
   * it is looked for again until the reservation would have expired.
   */
  private async reserveIn(region: number, ticket: string): Promise<unknown> {
    const deadline = Date.now() + this.seatReservationTimeout * 1000;
    for (;;) {
      try {
        const rooms = await matchMaker.query({ name: this.roomName });
        const room = rooms.find((r) => (r.metadata as { region?: number } | undefined)?.region === region);
        if (room === undefined) throw new SpatialError('REGION_TIMEOUT', `no room of region ${region} is listed`);
        return await matchMaker.reserveSeatFor(room, { handoff: ticket });
      } catch (error) {
        if (Date.now() >= deadline || !this.running) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  private unclaimedChannel(region: number): string {
    return `${UNCLAIMED_PREFIX}${this.roomName}:${region}`;
  }

  /** Reserves the departed player's client a seat in its new region's room and sends it the reservation. */
  private async handOver(player: Player): Promise<void> {
    const stage = player.stage;
    if (stage.kind !== 'departed') return;
    const { to } = stage;
    try {
      const ticket = crypto.randomUUID();
      // The ticket outlives the reservation, so that the check after it expires tells a seat never taken.
      await this.presence.setex(TICKET_PREFIX + ticket, JSON.stringify({ id: player.id, seq: player.seq, region: to }), 2 * this.seatReservationTimeout + 5);
      const check = setTimeout(() => {
        this.claimChecks.delete(check);
        void this.checkClaimed(ticket, player.id, to);
      }, (this.seatReservationTimeout + 2) * 1000);
      this.claimChecks.add(check);
      const reservation = await this.reserveIn(to, ticket);
      this.handoffCount++;
      const message: RegionHandoffMessage = { reservation, id: player.id, seq: player.seq, region: to, ticket };
      stage.handoff = message;
      player.client.send(REGION_MESSAGES.handoff, message);
    } catch (error) {
      // No seat to follow the player to: its new room takes it out of the world, and the client hears why.
      this.presence.publish(this.unclaimedChannel(to), player.id);
      const failure: RegionFailure = {
        code: error instanceof SpatialError ? error.code : 'REGION_TIMEOUT',
        message: `the room of region ${to} did not take player ${player.id}: ${error instanceof Error ? error.message : String(error)}`,
      };
      player.client.send(REGION_MESSAGES.failure, failure);
    }
  }
}
