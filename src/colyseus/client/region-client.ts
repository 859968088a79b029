// The client side of region rooms, for @colyseus/sdk users: it joins the
// world, follows the player from room to room as the rooms hand it over,
// and presents one continuous view. It imports no server code (and no SDK:
// the SDK's Client and Room are described by what is used of them), and
// takes SpatialError from its own file rather than from the main entry, so
// a browser bundle carries no wasm (the package's build puts that file in a
// chunk every entry shares: one class across entries).
//
// Continuity: a room that hands the player on says so ('leaving') before
// the patch in which the player is no longer its own, so the view presented
// stays at that room's last whole patch until the new room's first patch
// that holds the player. Inputs are numbered; those not yet applied stay
// queued and go to the new room, which applies each number once.
import { SpatialError } from '../../core/errors.js';
import { REGION_MESSAGES, type RegionFailure, type RegionHandoffMessage, type RegionInput, type RegionWelcome } from '../region-protocol.js';

/** What RegionClient uses of an @colyseus/sdk Room. */
export interface RegionSdkRoom {
  /** The decoded room state. */
  readonly state: unknown;
  /** Registers a state listener (the SDK's signal). */
  onStateChange(listener: (state: unknown) => void): unknown;
  /** Registers a listener of one message type; returns its remover. */
  onMessage(type: string, listener: (message: unknown) => void): unknown;
  /** Registers a listener of the room's closing. */
  onLeave(listener: (code: number) => void): unknown;
  /** Registers a listener of the connection dropping (the SDK then reconnects by itself). */
  onDrop?(listener: (code: number) => void): unknown;
  /** Registers a listener of the connection coming back after a drop. */
  onReconnect?(listener: () => void): unknown;
  /** The SDK's reconnection settings. */
  reconnection?: {
    /** How long a room must have been joined before a drop is reconnected. */
    minUptime: number;
    /** Whether the SDK reconnects at all. */
    enabled: boolean;
  };
  /** Sends a message. */
  send(type: string, message: unknown): void;
  /** Leaves the room. */
  leave(consented?: boolean): Promise<unknown>;
}

/** What RegionClient uses of an @colyseus/sdk Client. */
export interface RegionSdkClient {
  /** Joins a room through the matchmaker. */
  join(roomName: string, options?: Record<string, unknown>): Promise<RegionSdkRoom>;
  /** Takes a seat reserved by the server. */
  consumeSeatReservation(reservation: never): Promise<RegionSdkRoom>;
}

/** How a RegionClient behaves. */
export interface RegionClientOptions {
  /**
   * How long a dropped connection may take to come back (the SDK reconnects
   * by itself) before the client stops trying and onError hears
   * REGION_TIMEOUT. Default 20,000 ms: a RegionRoom's reconnectSeconds, after
   * which the room has taken the player out of the world.
   */
  reconnectMs?: number;
  /**
   * How long the player's room may send nothing (no patch, no message)
   * before the client also tries to claim its player in a room that took
   * the region over (its process may be stalled). Default 2,000 ms; the
   * attempts, refused while the player's room holds it, end once the room
   * speaks again.
   */
  silenceMs?: number;
}

/** An entity as the client sees it. */
export interface SeenEntity {
  /** Where it stands. */
  x: number;
  /** Where it stands. */
  y: number;
}

/** One whole view of the world, as of the end of one tick. */
export interface RegionView {
  /** The tick it shows. */
  tick: number;
  /** The player: its id, place, and the last of its inputs applied. */
  self: {
    /** The player's entity id. */
    id: number;
    /** Where it stands. */
    x: number;
    /** Where it stands. */
    y: number;
    /** The last of its inputs applied. */
    seq: number;
  };
  /** What the player sees, by id (the player not included). */
  entities: ReadonlyMap<number, SeenEntity>;
  /** The region whose room the view came from. */
  region: number;
}

/** The decoded RegionState, as the SDK gives it (no entities until the view holds one). */
interface DecodedState {
  tick: number;
  entities?: { forEach(each: (entity: { x: number; y: number; seq: number }, key: string) => void): void; get(key: string): { x: number; y: number; seq: number } | undefined };
}

/**
 * A player in a world of region rooms, seen from the client. Join with
 * {@link join}; then {@link move} sends inputs, {@link view} is the last
 * whole view, and {@link onView} hears each new one. Hand-offs are followed
 * by themselves; {@link onError} hears what fails (a SpatialError with a
 * code), and nothing queued is lost by a failure.
 */
export class RegionClient {
  private room: RegionSdkRoom | null = null;
  private region = -1;
  /** The player's id, once welcomed. */
  private selfId = -1;
  private nextSeq = 1;
  /** Inputs sent or to send, not yet applied, in order. */
  private readonly queue: RegionInput[] = [];
  /** The room is handing the player on: its patches no longer describe the player's view. */
  private moving = false;
  private current: RegionView | null = null;
  private readonly viewListeners = new Set<(view: RegionView) => void>();
  private readonly errorListeners = new Set<(error: SpatialError) => void>();
  private left = false;
  /** Rooms whose connection has closed: leaving them would wait for ever. */
  private readonly closed = new WeakSet<RegionSdkRoom>();
  /** Rooms whose hand-off is being followed (a room sends it again to a client that reconnects). */
  private readonly followed = new WeakSet<RegionSdkRoom>();
  private dropped = false;
  /** Rooms given up on after a drop: their closing is not told again. */
  private readonly abandoned = new WeakSet<RegionSdkRoom>();
  private readonly reconnectMs: number;
  private readonly silenceMs: number;
  /** The room name the player joined with: rooms of every region share it. */
  private roomName = '';
  /** The secret the player's room gave, to claim the player in a room that takes the region over. */
  private key: string | null = null;
  /** When the player's room last said anything. */
  private heardAt = 0;
  private watch: ReturnType<typeof setInterval> | null = null;
  /** A claim in a taken-over room is being tried. */
  private rejoining = false;
  /** Hand-offs followed so far. */
  handoffs = 0;
  /** Times the player was claimed again in a room that took its region over. */
  takeovers = 0;

  /** A player of client (an @colyseus/sdk Client); nothing is joined until {@link join}. INVALID_NUMBER for a reconnectMs that is negative or not finite. */
  constructor(
    private readonly client: RegionSdkClient,
    options: RegionClientOptions = {},
  ) {
    const { reconnectMs = 20_000, silenceMs = 2_000 } = options;
    for (const [name, ms] of [['reconnectMs', reconnectMs], ['silenceMs', silenceMs]] as const) {
      if (!Number.isFinite(ms) || ms < 0) throw new SpatialError('INVALID_NUMBER', `${name} must be a finite number of milliseconds, at least 0: got ${ms}`);
    }
    this.reconnectMs = reconnectMs;
    this.silenceMs = silenceMs;
  }

  /**
   * Joins the world through the room of `region` (`roomName` defined with
   * `filterBy(['region'])`), with options for the room's spawn. Resolves
   * once the room has taken the client; the player's first view follows.
   */
  async join(roomName: string, region: number, options: Record<string, unknown> = {}): Promise<void> {
    this.check();
    if (this.room !== null) throw new SpatialError('INVALID_ARGUMENT', 'this RegionClient has joined already');
    let room: RegionSdkRoom;
    try {
      room = await this.client.join(roomName, { ...options, region });
    } catch (error) {
      throw asSpatialError(error, 'INVALID_ARGUMENT', `region ${region}'s room refused the player`);
    }
    this.roomName = roomName;
    this.enter(room, region);
    this.watch = setInterval(() => {
      if (this.room !== null && !this.moving && this.key !== null && Date.now() - this.heardAt > this.silenceMs) void this.rejoin(this.room, this.region);
    }, Math.max(50, this.silenceMs / 4));
  }

  /** The player's entity id; NOT_INITIALIZED before the first view. */
  get id(): number {
    return this.latest().self.id;
  }

  /** The last whole view; NOT_INITIALIZED before the first one. */
  get view(): RegionView {
    return this.latest();
  }

  /** Inputs sent (or waiting for a room) and not applied yet. */
  get pending(): number {
    return this.queue.length;
  }

  /** True while the player is on its way to another room: its view stays still, and inputs wait in the queue. */
  get handingOff(): boolean {
    return this.moving;
  }

  /** True while the connection to the player's room is down and the SDK is reconnecting: inputs wait, and the view stays still. */
  get reconnecting(): boolean {
    return this.dropped;
  }

  /** The number the next input will carry (inputs sent so far, plus one). */
  get nextInput(): number {
    return this.nextSeq;
  }

  /**
   * Asks for the player to go to (x, y); returns the input's number. The
   * input waits in a queue until a room applies it, and goes to the
   * player's new room if a hand-off comes first. NOT_INITIALIZED before
   * {@link join}, DISPOSED after {@link leave}, INVALID_NUMBER for a
   * coordinate that is not finite.
   */
  move(x: number, y: number): number {
    this.check();
    if (this.room === null) throw new SpatialError('NOT_INITIALIZED', 'join the world before moving');
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new SpatialError('INVALID_NUMBER', `not a finite position: (${x}, ${y})`);
    const input: RegionInput = { seq: this.nextSeq++, x, y };
    this.queue.push(input);
    if (!this.moving) this.room.send(REGION_MESSAGES.input, input);
    return input.seq;
  }

  /** Calls listener with every new whole view; returns its remover. */
  onView(listener: (view: RegionView) => void): () => void {
    this.viewListeners.add(listener);
    return () => this.viewListeners.delete(listener);
  }

  /** Calls listener with what fails: an input refused, a hand-off not made; returns its remover. */
  onError(listener: (error: SpatialError) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /** Leaves the world: the player leaves with its client. */
  async leave(): Promise<void> {
    if (this.left) return;
    this.left = true;
    if (this.watch !== null) clearInterval(this.watch);
    if (this.room !== null && !this.closed.has(this.room)) await this.room.leave(true);
  }

  private check(): void {
    if (this.left) throw new SpatialError('DISPOSED', 'this RegionClient has left');
  }

  private latest(): RegionView {
    if (this.current === null) throw new SpatialError('NOT_INITIALIZED', 'no view yet: join the world, and wait for the first view');
    return this.current;
  }

  /** Listens to room, now the player's. */
  private enter(room: RegionSdkRoom, region: number): void {
    this.room = room;
    this.region = region;
    this.moving = false;
    this.dropped = false; // a drop of the room left behind is not this one's
    const mine = (): boolean => this.room === room && !this.moving;
    this.heardAt = Date.now();
    const heard = (): void => {
      if (this.room === room) this.heardAt = Date.now();
    };
    room.onMessage(REGION_MESSAGES.welcome, (message) => {
      heard();
      const welcome = message as RegionWelcome;
      if (this.room !== room) return;
      this.selfId = welcome.id;
      this.key = welcome.key ?? null;
    });
    room.onMessage(REGION_MESSAGES.leaving, () => {
      if (this.room === room) this.moving = true;
    });
    room.onMessage(REGION_MESSAGES.handoff, (message) => {
      if (this.room !== room || this.followed.has(room)) return;
      this.followed.add(room);
      void this.follow(room, message as RegionHandoffMessage);
    });
    room.onMessage(REGION_MESSAGES.failure, (message) => {
      const failure = message as RegionFailure;
      if (this.room === room) this.fail(new SpatialError(failure.code as SpatialError['code'], failure.message));
    });
    room.onStateChange((state) => {
      heard();
      if (mine()) this.present(state as DecodedState);
    });
    // A hand-off starts a new room, so stays shorter than the SDK's guard (5 s by default) are usual: reconnect after any.
    if (room.reconnection !== undefined) room.reconnection.minUptime = 0;
    let giveUp: ReturnType<typeof setTimeout> | undefined;
    room.onDrop?.(() => {
      // The SDK tells each failed attempt as a drop too: the first one starts the clock.
      if (this.room !== room || this.dropped || this.abandoned.has(room)) return;
      this.dropped = true;
      giveUp = setTimeout(() => this.abandon(room, region), this.reconnectMs);
      // Its process may have died: a room that took the region over may hold the player already.
      void this.rejoin(room, region);
    });
    room.onReconnect?.(() => {
      clearTimeout(giveUp);
      if (this.room !== room) return;
      this.dropped = false;
      // The room drops an input it has queued or applied: sending every one not yet applied loses none.
      if (!this.moving) for (const input of this.queue) room.send(REGION_MESSAGES.input, input);
    });
    room.onLeave((code) => {
      clearTimeout(giveUp);
      this.closed.add(room);
      if (this.room === room) this.dropped = false;
      if (this.room !== room || this.left || this.abandoned.has(room)) return;
      // A room closed under the player: its region may have been taken over, else the view stays at its last patch.
      void this.rejoin(room, region).then((back) => back || this.fail(new SpatialError('REGION_TIMEOUT', `the room of region ${region} closed (code ${code})`)));
    });
  }

  /**
   * Claims the player, with its key, in a room that took region over, until
   * reconnectMs have passed or room speaks again; true once the client has
   * moved to that room (the inputs not yet applied sent to it).
   */
  private async rejoin(room: RegionSdkRoom, region: number): Promise<boolean> {
    if (this.rejoining || this.key === null) return false;
    this.rejoining = true;
    const started = Date.now();
    // Until room speaks again (a connection back, a stall over): then the player is still its.
    const gone = (): boolean => this.room === room && !this.left && this.heardAt < started;
    try {
      const next = await this.retry(() => this.client.join(this.roomName, { region, resume: { id: this.selfId, key: this.key } }), gone);
      if (next === null) return false;
      if (this.room !== room || this.left) {
        await next.leave(true).catch(() => undefined);
        return false;
      }
      this.abandoned.add(room);
      if (room.reconnection !== undefined) room.reconnection.enabled = false;
      this.enter(next, region);
      for (const input of this.queue) next.send(REGION_MESSAGES.input, input);
      this.takeovers++;
      if (!this.closed.has(room)) void room.leave(true).catch(() => undefined);
      return true;
    } finally {
      this.rejoining = false;
    }
  }

  /** Stops reconnecting to room, whose connection has not come back in reconnectMs, and says so. */
  private abandon(room: RegionSdkRoom, region: number): void {
    this.abandoned.add(room);
    if (room.reconnection !== undefined) room.reconnection.enabled = false;
    if (this.room !== room) return;
    this.dropped = false;
    if (!this.left) this.fail(new SpatialError('REGION_TIMEOUT', `the connection to the room of region ${region} dropped and did not come back in ${this.reconnectMs} ms`));
  }

  /** Presents the state as a view, once it holds the player. */
  private present(state: DecodedState): void {
    if (this.selfId < 0) return;
    const self = state.entities?.get(String(this.selfId));
    if (self === undefined) return;
    this.acknowledge(self.seq);
    const entities = new Map<number, SeenEntity>();
    state.entities!.forEach((e, key) => {
      if (key !== String(this.selfId)) entities.set(Number(key), { x: e.x, y: e.y });
    });
    this.current = { tick: state.tick, self: { id: this.selfId, x: self.x, y: self.y, seq: self.seq }, entities, region: this.region };
    for (const listener of this.viewListeners) listener(this.current);
  }

  /** Drops the inputs applied up to seq. */
  private acknowledge(seq: number): void {
    while (this.queue.length > 0 && this.queue[0].seq <= seq) this.queue.shift();
  }

  /** Takes the seat reserved in the player's new room, sends it the inputs not applied yet, and leaves the old room. */
  private async follow(old: RegionSdkRoom, message: RegionHandoffMessage): Promise<void> {
    this.moving = true;
    let next: RegionSdkRoom;
    try {
      next = await this.client.consumeSeatReservation(message.reservation as never);
    } catch (error) {
      // The reserved room may have gone with its process: the region's room that took it over takes the ticket.
      const ticket = message.ticket;
      const other = typeof ticket === 'string' ? await this.retry(() => this.client.join(this.roomName, { region: message.region, handoff: ticket })) : null;
      if (other === null) {
        this.fail(asSpatialError(error, 'REGION_TIMEOUT', `the room of region ${message.region} did not take the player`));
        return;
      }
      next = other;
    }
    if (this.left) {
      await next.leave(true);
      return;
    }
    this.acknowledge(message.seq);
    this.enter(next, message.region);
    for (const input of this.queue) next.send(REGION_MESSAGES.input, input);
    this.handoffs++;
    if (!this.closed.has(old)) await old.leave(true).catch(() => undefined);
  }

  /** What join resolves with, tried again every 200 ms for reconnectMs while wanted(); null if it never resolves, or once the client has left. */
  private async retry(join: () => Promise<RegionSdkRoom>, wanted: () => boolean = () => true): Promise<RegionSdkRoom | null> {
    const deadline = Date.now() + this.reconnectMs;
    while (!this.left && wanted() && Date.now() < deadline) {
      try {
        return await join();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    return null;
  }

  private fail(error: SpatialError): void {
    for (const listener of this.errorListeners) listener(error);
  }
}

/**
 * A room's refusal as a SpatialError: the room's own code when its message
 * carries one ('CODE: why', as a SpatialError thrown in the room reads),
 * else code, with context and the message.
 */
function asSpatialError(error: unknown, code: SpatialError['code'], context: string): SpatialError {
  const message = error instanceof Error ? error.message : String(error);
  const coded = /^([A-Z][A-Z_]+): ([\s\S]*)$/.exec(message);
  if (coded !== null) return new SpatialError(coded[1] as SpatialError['code'], `${context}: ${coded[2]}`);
  return new SpatialError(code, `${context}: ${message}`);
}
