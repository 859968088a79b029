// One region of a world whose regions run apart (in other processes), and
// the lockstep that keeps them together: each tick's phases (see region.ts)
// end at a barrier that every live region must reach before any goes on.
// The messages travel over a RegionBus, which any pub/sub can carry:
//
//   hello    "I listen": repeated until every region has been heard from,
//            so that no tick message is published before all listen
//   handoffs phase 1, to every region: this region's hand-offs (JSON)
//   ghosts   phase 3, to one region: a ghost batch (encodeGhostBatch)
//   done     phase 3, to every region: all my batches of the tick are sent
//
//   frame: u8 kind | i32 from | i32 tick | payload, little-endian
//
// A bus delivers one sender's messages in the order sent, so a region that
// has a sender's `done` has its batches too. Without lockstep, a tick waits
// at the hand-off barrier only, and applies the batches of the tick before,
// whose `done` it awaits at its start (they have come in by then, as a rule,
// while the region stepped): ghosts lag one tick, ownership stays exact. A region that misses a barrier
// by `timeoutMs` is taken for dead: onTimeout hears a REGION_TIMEOUT, and
// the others go on without it: its entities leave their neighbours' views,
// and their ids are free again.
import { checkBoolean, checkOptions } from '../core/validate.js';
import { SpatialError, type AddOptions, type AoiRange, type SetRangeOptions } from '../scene/index.js';
import { decodeGhostBatch, encodeGhostBatch } from './codec.js';
import { checkLayout, type RegionLayout } from './layout.js';
import type { GhostBatch, Handoff } from './messages.js';
import { Region, REGION_OPTION_KEYS, type RegionOptions } from './region.js';
import { RegionRouter, type RoutedOp } from './router.js';

/** Carries a region's messages: to one region, or to every region (the sender included). */
export interface RegionBus {
  /** Sends bytes to region `to`, or to every region when `to` is 'all'. */
  publish(to: number | 'all', bytes: Uint8Array): void;
  /** Starts delivering to handler what is sent to region `id` or to all; resolves once listening. */
  subscribe(id: number, handler: (bytes: Uint8Array) => void): Promise<void>;
  /** Stops listening and sending. */
  close(): Promise<void>;
}

/** Options of a {@link RegionPeer}. */
export interface RegionPeerOptions extends RegionOptions {
  /** The range of an entity added without one (default 2). */
  defaultRange?: number;
  /** How long a barrier waits for the other regions before taking the missing ones for dead (default 2000 ms). */
  timeoutMs?: number;
  /** How long start() waits to hear from every region (default 30,000 ms; Infinity: as long as it takes). */
  startTimeoutMs?: number;
  /** Told when regions miss a barrier (a REGION_TIMEOUT); the tick goes on without them. */
  onTimeout?: (error: SpatialError, regions: number[]) => void;
  /**
   * true (default): lockstep, ghosts never lag. false: a tick waits for the
   * hand-offs only; the ghost batches of tick t are applied at the start of
   * tick t + 1, by when they have long arrived, so ghosts stand one tick
   * behind their owners (see docs/regions.md, "Lag").
   */
  lockstep?: boolean;
}

const PEER_OPTION_KEYS = [...REGION_OPTION_KEYS, 'defaultRange', 'timeoutMs', 'startTimeoutMs', 'onTimeout', 'lockstep'];

/** What one tick of a {@link RegionPeer} gave. */
export interface PeerTick {
  /** The tick's events for this region's owned watchers, flat [type, watcher, target, ...] (as Region.step). */
  events: Int32Array;
  /** The hand-offs of every live region in this tick. */
  handoffs: Handoff[];
  /** Bytes of the ghost batches this region sent. */
  sentBytes: number;
  /** Milliseconds this tick spent on this region's own work (the phases, encoding, decoding), barrier waits excluded. */
  busyMs: number;
}

const HELLO = 0;
const HANDOFFS = 1;
const GHOSTS = 2;
const DONE = 3;
const FRAME_BYTES = 9;
const PHASE_NAMES = ['hello', 'hand-off', 'ghosts', 'done'];

/**
 * One region run apart from the others: its operations are routed as in a
 * RegionWorld (each process keeps the owner of every entity, from the
 * hand-offs all regions announce), and each {@link tick} runs the region's
 * phases in lockstep with every other live region over the bus.
 */
export class RegionPeer {
  /** The region simulated here. */
  readonly region: Region;
  private readonly router: RegionRouter;
  private readonly timeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly onTimeout: (error: SpatialError, regions: number[]) => void;
  private readonly lockstep: boolean;
  /** Regions taken for dead. */
  private readonly lost = new Set<number>();
  /** Lost regions whose entities are forgotten. */
  private readonly forgotten = new Set<number>();
  /** Messages received, by kind and tick: the payload of each sender. */
  private readonly inbox = new Map<string, Map<number, Uint8Array>>();
  private readonly heard = new Set<number>();
  private wake: (() => void) | null = null;
  private closed = false;

  /**
   * Region id of layout, talking over bus. Call {@link start} before the
   * first tick. INVALID_LAYOUT when layout is not a RegionLayout, UNKNOWN_ID
   * when it has no region id; INVALID_ARGUMENT for a bus without publish,
   * subscribe and close, for options that are not a plain object or have an
   * unknown key, a non-function onTimeout or a non-boolean lockstep;
   * INVALID_NUMBER for a timeout that is not a finite number >= 0; and what
   * a Scene refuses in the options.
   */
  constructor(
    /** The layout every region shares. */
    readonly layout: RegionLayout,
    id: number,
    private readonly bus: RegionBus,
    options: RegionPeerOptions = {},
  ) {
    checkLayout(layout);
    checkBus(bus);
    checkOptions('RegionPeer', options, PEER_OPTION_KEYS);
    const { defaultRange = 2, timeoutMs = 2000, startTimeoutMs = 30_000, onTimeout = () => {}, lockstep = true, ...regionOptions } = options;
    checkMilliseconds('timeoutMs', timeoutMs);
    checkMilliseconds('startTimeoutMs', startTimeoutMs, true);
    if (typeof onTimeout !== 'function') throw new SpatialError('INVALID_ARGUMENT', 'onTimeout must be a function');
    checkBoolean('lockstep', lockstep);
    this.router = new RegionRouter(layout, defaultRange);
    this.region = new Region(layout, id, regionOptions);
    this.timeoutMs = timeoutMs;
    this.startTimeoutMs = startTimeoutMs;
    this.onTimeout = onTimeout;
    this.lockstep = lockstep;
  }

  /** This region's id. */
  get id(): number {
    return this.region.id;
  }

  /** Ticks completed. */
  get ticks(): number {
    return this.region.ticks;
  }

  /** Entities this region owns. */
  get ownedCount(): number {
    return this.region.ownedCount;
  }

  /** True when this region owns entity id (not a ghost of another's). */
  owns(id: number): boolean {
    return this.region.owns(id);
  }

  /** The ids entity id (owned here) sees now, ghosts included, ascending. */
  query(id: number): number[] {
    return this.region.query(id);
  }

  /** Where entity id (owned or a ghost here) stands. */
  position(id: number): { x: number; y: number } {
    return this.region.position(id);
  }

  /** The regions taken for dead, ascending. */
  get lostRegions(): number[] {
    return [...this.lost].sort((a, b) => a - b);
  }

  /** The regions of the layout not heard from yet, ascending: those {@link start} waits for (none once it has resolved). */
  get waitingFor(): number[] {
    return this.layout.regions.map((r) => r.id).filter((r) => !this.heard.has(r)).sort((a, b) => a - b);
  }

  /**
   * Listens, and resolves once every region of the layout has been heard
   * from (so all listen); REGION_TIMEOUT when some stay silent past startTimeoutMs.
   */
  async start(): Promise<void> {
    await this.bus.subscribe(this.id, (bytes) => this.deliver(bytes));
    const deadline = Date.now() + this.startTimeoutMs;
    while (this.waitingFor.length > 0) {
      if (this.closed) throw new SpatialError('DISPOSED', `region ${this.id} is closed`);
      if (Date.now() > deadline) {
        throw new SpatialError('REGION_TIMEOUT', `region ${this.id} never heard from regions ${this.waitingFor.join(', ')} in ${this.startTimeoutMs} ms`);
      }
      this.bus.publish('all', frame(HELLO, this.id, 0, new Uint8Array(0)));
      await this.until(50);
    }
  }

  /** Routes an add (as RegionWorld.add, with its checks); true when the entity lands in this region. */
  add(id: number, x: number, y: number, range?: AoiRange, options?: AddOptions): boolean {
    // An id added by another process's region, which this router never saw, may stand here as a ghost.
    if (!this.router.knows(id) && this.region.holdsGhost(id)) throw new SpatialError('DUPLICATE_ID', `entity ${id} is in the world already, owned by another region`);
    return this.take(this.router.add(id, x, y, range, options));
  }

  /** Routes a move (as RegionWorld.move); true when the entity is this region's ({@link ownerOf}). */
  move(id: number, x: number, y: number): boolean {
    return this.take(this.router.move(id, x, y));
  }

  /** Routes a removal (as RegionWorld.remove); true when the entity is this region's ({@link ownerOf}). */
  remove(id: number): boolean {
    const routed = this.router.remove(id);
    return routed !== null && this.take(routed);
  }

  /** Routes a range change (as RegionWorld.setRange); true when the entity is this region's ({@link ownerOf}). */
  setRange(id: number, range: AoiRange, options?: SetRangeOptions): boolean {
    return this.take(this.router.setRange(id, range, options));
  }

  /** Routes a change of layer masks (as RegionWorld.setLayers); true when the entity is this region's ({@link ownerOf}). */
  setLayers(id: number, layer: number, sees: number): boolean {
    return this.take(this.router.setLayers(id, layer, sees));
  }

  /** True when entity id is live, as this peer knows it: false once removed, or gone with a lost region. */
  has(id: number): boolean {
    return this.router.has(id);
  }

  /**
   * The region that owns entity id, as this peer knows it: since the last
   * tick, or where it is added in the pending one. UNKNOWN_ID when id is not
   * live.
   */
  ownerOf(id: number): number {
    return this.router.ownerOf(id);
  }

  /**
   * Runs one tick in lockstep with the other live regions: hand-offs out and
   * in, ghost batches out and in, then this region's step. Never throws for
   * a silent region: after timeoutMs it is taken for dead (onTimeout hears
   * it) and the tick goes on without it.
   */
  async tick(): Promise<PeerTick> {
    const tick = this.region.ticks;
    let busyMs = 0;
    let late: Int32Array = new Int32Array(0);
    if (!this.lockstep && tick > 0) {
      // The previous tick's batches: every sender published them before its "done", long ago as a rule.
      await this.barrier(DONE, tick - 1);
      const started = performance.now();
      this.forgetLost([]);
      late = this.region.applyLate(this.batchesOf(tick - 1));
      busyMs += performance.now() - started;
    }
    let started = performance.now();
    const mine = this.region.handOff();
    this.bus.publish('all', frame(HANDOFFS, this.id, tick, new TextEncoder().encode(JSON.stringify(mine))));
    busyMs += performance.now() - started;
    const arrived = await this.barrier(HANDOFFS, tick);
    started = performance.now();
    const handoffs = [...arrived.values()].flatMap((bytes) => JSON.parse(new TextDecoder().decode(bytes)) as Handoff[]);
    this.region.receive(handoffs);
    this.router.endTick(handoffs);
    this.forgetLost(handoffs);
    let sentBytes = 0;
    for (const batch of this.region.ghostBatches()) {
      if (this.lost.has(batch.to)) continue;
      const bytes = encodeGhostBatch(batch);
      sentBytes += bytes.byteLength;
      this.bus.publish(batch.to, frame(GHOSTS, this.id, tick, bytes));
    }
    this.bus.publish('all', frame(DONE, this.id, tick, new Uint8Array(0)));
    busyMs += performance.now() - started;
    if (this.lockstep) await this.barrier(DONE, tick);
    started = performance.now();
    let events: Int32Array;
    if (this.lockstep) {
      this.forgetLost([]);
      events = this.region.step(this.batchesOf(tick));
    } else {
      const own = this.region.step([]);
      events = new Int32Array(late.length + own.length);
      events.set(late);
      events.set(own, late.length);
    }
    return { events, handoffs, sentBytes, busyMs: busyMs + performance.now() - started };
  }

  /** Stops listening, wakes a waiting barrier, and frees the region's Scene. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.wake?.();
    await this.bus.close();
    this.region.dispose();
    this.router.dispose();
  }

  /**
   * Forgets the entities of regions newly lost, and those handed to a lost
   * region in this tick: their ids are free again. Every ghost one of them
   * owns leaves this region's Scene, whichever process added its entity, so
   * this region's watchers see it leave at this tick's step.
   */
  private forgetLost(handoffs: ReadonlyArray<Handoff>): void {
    if (this.lost.size === 0) return;
    for (const r of this.lost) {
      if (this.forgotten.has(r)) continue;
      this.forgotten.add(r);
      this.router.forgetRegion(r);
    }
    for (const h of handoffs) if (this.lost.has(h.to)) this.router.forget(h.id);
    this.region.dropGhostsOf(this.lost);
  }

  /**
   * Queues a routed operation when this region applies it, and answers
   * whether the entity is this region's: the same region, except for an
   * entity removed and added again in another region within the tick, which
   * the region that removed it replays and hands over.
   */
  private take(routed: RoutedOp): boolean {
    if (routed.region === this.id) this.region.submit(routed.id, routed.op);
    return routed.owner === this.id;
  }

  private deliver(bytes: Uint8Array): void {
    if (bytes.byteLength < FRAME_BYTES) return;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const kind = view.getUint8(0);
    const from = view.getInt32(1, true);
    const tick = view.getInt32(5, true);
    this.heard.add(from);
    // Without lockstep, the previous tick's batches and "done" are still wanted.
    if (kind === HELLO || this.lost.has(from) || tick < this.region.ticks - (this.lockstep ? 0 : 1)) return;
    const key = `${kind}:${tick}`;
    let got = this.inbox.get(key);
    if (got === undefined) this.inbox.set(key, (got = new Map()));
    // Ghost batches are keyed by sender: one per sender and tick.
    got.set(from, bytes.subarray(FRAME_BYTES));
    this.wake?.();
  }

  /** Waits until every live region's message of kind for tick is in; the ones missing by timeoutMs are lost. */
  private async barrier(kind: number, tick: number): Promise<Map<number, Uint8Array>> {
    const deadline = Date.now() + this.timeoutMs;
    const key = `${kind}:${tick}`;
    const missing = (): number[] => this.layout.regions.map((r) => r.id).filter((r) => !this.lost.has(r) && !this.inbox.get(key)?.has(r));
    while (missing().length > 0 && !this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) {
        const silent = missing();
        for (const r of silent) this.lost.add(r);
        // What a lost region sent before it fell silent (a ghost batch before its "done", say) goes with its forgotten entities.
        for (const got of this.inbox.values()) for (const r of silent) got.delete(r);
        this.onTimeout(
          new SpatialError('REGION_TIMEOUT', `regions ${silent.join(', ')} did not answer region ${this.id}'s ${PHASE_NAMES[kind]} barrier of tick ${tick} in ${this.timeoutMs} ms`),
          silent,
        );
        break;
      }
      await this.until(left);
    }
    return this.collect(kind, tick) ?? new Map();
  }

  /** The ghost batches received for tick, decoded, removed from the inbox. */
  private batchesOf(tick: number): GhostBatch[] {
    return [...(this.collect(GHOSTS, tick)?.values() ?? [])].map(decodeGhostBatch);
  }

  /** The messages of kind for tick, removed from the inbox. */
  private collect(kind: number, tick: number): Map<number, Uint8Array> | undefined {
    const key = `${kind}:${tick}`;
    const got = this.inbox.get(key);
    this.inbox.delete(key);
    return got;
  }

  /** Resolves at the next delivery, or after ms. */
  private until(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }
}

/** Throws INVALID_ARGUMENT unless bus has the methods of a {@link RegionBus}. */
function checkBus(bus: RegionBus): void {
  const methods = ['publish', 'subscribe', 'close'] as const;
  if (typeof bus !== 'object' || bus === null || methods.some((m) => typeof bus[m] !== 'function')) {
    throw new SpatialError('INVALID_ARGUMENT', `a bus must have the methods ${methods.join(', ')}`);
  }
}

/** Throws INVALID_NUMBER unless ms is a finite number of milliseconds >= 0. */
function checkMilliseconds(name: string, ms: number, forever = false): void {
  if (typeof ms === 'number' && ms >= 0 && (Number.isFinite(ms) || forever)) return;
  throw new SpatialError('INVALID_NUMBER', `${name} must be a ${forever ? '' : 'finite '}number of milliseconds >= 0, got ${String(ms)}`);
}

/** A bus message: kind, sender, tick, payload. */
function frame(kind: number, from: number, tick: number, payload: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(FRAME_BYTES + payload.byteLength);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, kind);
  view.setInt32(1, from, true);
  view.setInt32(5, tick, true);
  bytes.set(payload, FRAME_BYTES);
  return bytes;
}
