// One region of a world whose regions run apart (in other processes), and
// the lockstep that keeps them together: each exchange of the region tick
// (tick.ts, which RegionWorld drives too) ends at a barrier that every live
// region must reach before any goes on.
// The messages travel over a RegionBus, which any pub/sub can carry:
//
//   hello    "I listen": repeated until every region has been heard from,
//            so that no tick message is published before all listen
//   handoffs phase 1, to every region: this region's hand-offs (encodeHandoffs)
//   ghosts   phase 3, to one region: a ghost batch (encodeGhostBatch)
//   done     phase 3, to every region: all my batches of the tick are sent
//   takeover "I hold this region now, rebuilt at this tick": each region
//            sends the new holder again what it sent since that tick
//
//   frame: u8 kind | i32 from | i32 epoch | i32 tick | payload, little-endian
//
// A bus delivers one sender's messages in the order sent, so a region that
// has a sender's `done` has its batches too. Without lockstep, a tick waits
// at the hand-off barrier only, and applies the batches of the tick before,
// whose `done` it awaits at its start (they have come in by then, as a rule,
// while the region stepped): ghosts lag one tick, ownership stays exact. A region that misses a barrier
// by `timeoutMs` is taken for dead: onTimeout hears a REGION_TIMEOUT, and
// the others go on without it: its entities leave their neighbours' views,
// and their ids are free again.
//
// With takeovers (the `takeover` option), a region saves a checkpoint at the
// start of every tick, before it sends anything of the tick, and holds a
// lease. A region that misses a barrier is waited for while a standby
// claims its lease (a new epoch), rebuilds it from the checkpoint and runs
// the checkpoint's tick again: what it sends then is what the lost holder
// sent or would have sent, so the others take it as though nothing had
// happened. Messages carry their sender's epoch; those of an epoch taken
// over are dropped, and the bus's fence keeps a stalled old holder from
// publishing at all.
import { checkBoolean, checkMilliseconds, checkOptions } from '../core/validate.js';
import { SpatialError, type AddOptions, type AoiRange, type SetRangeOptions } from '../scene/index.js';
import { decodeCheckpoint, decodeJournalEntry, encodeCheckpoint, encodeJournalEntry } from './checkpoint.js';
import { decodeGhostBatch, decodeHandoffs, encodeGhostBatch, encodeHandoffs } from './codec.js';
import { checkLayout, type RegionLayout } from './layout.js';
import type { EntityOp, GhostBatch, Handoff } from './messages.js';
import { Region, REGION_OPTION_KEYS, type RegionOptions } from './region.js';
import { RegionRouter, type RoutedOp } from './router.js';
import { regionTick } from './tick.js';
import type { RegionStore, TakeoverOptions } from './store.js';

/** Carries a region's messages: to one region, or to every region (the sender included). */
export interface RegionBus {
  /** Sends bytes to region `to`, or to every region when `to` is 'all'. */
  publish(to: number | 'all', bytes: Uint8Array): void;
  /** Starts delivering to handler what is sent to region `id` or to all; resolves once listening. */
  subscribe(id: number, handler: (bytes: Uint8Array) => void): Promise<void>;
  /** Stops listening and sending. */
  close(): Promise<void>;
  /**
   * From now on, publishes only while `epoch` is region's current epoch,
   * checked where the messages are delivered (so a holder whose region was
   * taken over publishes nothing), and calls superseded when a publish is
   * refused. Needed for takeovers.
   */
  fence?(region: number, epoch: number, superseded: () => void): void;
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
  /** Checkpoints, a lease and takeovers (see docs/regions.md, "When a process dies"); needs lockstep and a bus with a fence. */
  takeover?: TakeoverOptions;
  /** Told when a silent region has been taken over by a new holder (its epoch), which runs again from tick `tick`. */
  onTakeover?: (region: number, epoch: number, tick: number) => void;
}

const PEER_OPTION_KEYS = [...REGION_OPTION_KEYS, 'defaultRange', 'timeoutMs', 'startTimeoutMs', 'onTimeout', 'lockstep', 'takeover', 'onTakeover'];
const TAKEOVER_OPTION_KEYS = ['store', 'every', 'leaseMs', 'takeoverMs', 'extra'];

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
const TAKEOVER = 4;
const FRAME_BYTES = 13;
const PHASE_NAMES = ['hello', 'hand-off', 'ghosts', 'done', 'takeover'];

/** A frame this region sent in a recent tick, kept to send again to a region's new holder. */
interface Sent {
  to: number | 'all';
  tick: number;
  bytes: Uint8Array;
}

/**
 * One region run apart from the others: its operations are routed as in a
 * RegionWorld (each process keeps the owner of every entity, from the
 * hand-offs all regions announce), and each {@link tick} runs the region's
 * phases in lockstep with every other live region over the bus.
 */
export class RegionPeer {
  /** The region simulated here (replaced when a checkpoint is resumed). */
  private here: Region;
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
  private readonly takeover: Required<TakeoverOptions> | null;
  private readonly onTakeover: (region: number, epoch: number, tick: number) => void;
  /** This holder's epoch (0 without takeovers). */
  private epoch = 0;
  /** The latest epoch heard from each region: older ones are a holder taken over. */
  private readonly epochs = new Map<number, number>();
  /** The frames sent in the last `every` ticks and this one, for a new holder of a region. */
  private sent: Sent[] = [];
  /** Why this holder stopped: its region was taken over. */
  private superseded: SpatialError | null = null;
  private renewal: ReturnType<typeof setInterval> | null = null;
  private extraRestored: Uint8Array = new Uint8Array(0);
  /** The tick of the last checkpoint saved (its journal follows it). */
  private lastCheckpoint = -Infinity;
  /** The first tick after a takeover that is not run again from the checkpoint or its journal. */
  private replayUntil = 0;
  /** Operations of ticks to run again after a takeover, by tick. */
  private readonly journal = new Map<number, Array<[number, EntityOp[]]>>();
  private readonly regionOptions: RegionOptions;
  /** Regions taken over since a barrier last looked: it waits timeoutMs more for them. */
  private readonly taken = new Set<number>();

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
    const { defaultRange = 2, timeoutMs = 2000, startTimeoutMs = 30_000, onTimeout = () => {}, lockstep = true, takeover, onTakeover = () => {}, ...regionOptions } = options;
    checkMilliseconds('timeoutMs', timeoutMs);
    checkMilliseconds('startTimeoutMs', startTimeoutMs, { forever: true });
    for (const [name, f] of [['onTimeout', onTimeout], ['onTakeover', onTakeover]] as const) {
      if (typeof f !== 'function') throw new SpatialError('INVALID_ARGUMENT', `${name} must be a function`);
    }
    checkBoolean('lockstep', lockstep);
    this.takeover = takeover === undefined ? null : checkTakeover(takeover, bus, lockstep);
    this.onTakeover = onTakeover;
    this.router = new RegionRouter(layout, defaultRange);
    this.here = new Region(layout, id, regionOptions);
    this.regionOptions = regionOptions;
    this.timeoutMs = timeoutMs;
    this.startTimeoutMs = startTimeoutMs;
    this.onTimeout = onTimeout;
    this.lockstep = lockstep;
  }

  /** The region simulated here. */
  get region(): Region {
    return this.here;
  }

  /** This region's id. */
  get id(): number {
    return this.here.id;
  }

  /** Ticks completed. */
  get ticks(): number {
    return this.here.ticks;
  }

  /** Entities this region owns. */
  get ownedCount(): number {
    return this.here.ownedCount;
  }

  /** True when this region owns entity id (not a ghost of another's). */
  owns(id: number): boolean {
    return this.here.owns(id);
  }

  /** The ids entity id (owned here) sees now, ghosts included, ascending. */
  query(id: number): number[] {
    return this.here.query(id);
  }

  /** Where entity id (owned or a ghost here) stands. */
  position(id: number): { x: number; y: number } {
    return this.here.position(id);
  }

  /** The regions taken for dead, ascending. */
  get lostRegions(): number[] {
    return [...this.lost].sort((a, b) => a - b);
  }

  /** The regions of the layout not heard from yet, ascending: those {@link start} waits for (none once it has resolved). */
  get waitingFor(): number[] {
    return this.layout.regions.map((r) => r.id).filter((r) => !this.heard.has(r)).sort((a, b) => a - b);
  }

  /** True when this region saves checkpoints and can be taken over (the takeover option). */
  get takesOver(): boolean {
    return this.takeover !== null;
  }

  /** This holder's epoch: 1 for the region's first holder, one more for each takeover (0 without takeovers). */
  get holderEpoch(): number {
    return this.epoch;
  }

  /**
   * True while the next {@link tick} runs again a tick of the checkpoint
   * this peer took over from (its operations are saved): submit no new
   * operations for it. A room's tick loop skips its inputs and hooks then.
   */
  get replaying(): boolean {
    return this.here.ticks < this.replayUntil;
  }

  /** The bytes the takeover option's `extra` gave with the checkpoint this peer resumed from (empty otherwise). */
  get restoredExtra(): Uint8Array {
    return this.extraRestored;
  }

  /**
   * Listens, and resolves once every region of the layout has been heard
   * from (so all listen); REGION_TIMEOUT when some stay silent past
   * startTimeoutMs. With takeovers, first claims the region's lease as a
   * world starting (its last checkpoint forgotten), waiting while an
   * earlier holder's lease lasts.
   */
  async start(): Promise<void> {
    const deadline = Date.now() + this.startTimeoutMs;
    const late = (what: string): SpatialError => new SpatialError('REGION_TIMEOUT', `region ${this.id} ${what} in ${this.startTimeoutMs} ms`);
    while (this.takeover !== null && this.epoch === 0) {
      this.epoch = await this.takeover.store.claim(this.id, this.takeover.leaseMs, true);
      if (this.epoch === 0 && Date.now() > deadline) throw late('found its lease held by a live holder');
      if (this.epoch === 0) await this.until(50);
    }
    await this.listen();
    while (this.waitingFor.length > 0) {
      if (this.closed) throw new SpatialError('DISPOSED', `region ${this.id} is closed`);
      if (Date.now() > deadline) throw late(`never heard from regions ${this.waitingFor.join(', ')}`);
      this.send('all', HELLO, 0, new Uint8Array(0));
      await this.until(50);
    }
    // Every region heard from listens, but may have subscribed after this region's last hello.
    this.send('all', HELLO, 0, new Uint8Array(0));
  }

  /**
   * Takes over the region, in place of {@link start}, once its holder has
   * stopped renewing its lease (RegionStandby calls this): claims the lease
   * (a new epoch), rebuilds the region from its last checkpoint as of the
   * checkpoint's tick, with that tick's operations, tells every region, and
   * resolves true; the next {@link tick} runs the checkpoint's tick again,
   * and the ticks after it run again with their journaled operations.
   * Resolves false, changing nothing, when a live holder has the lease.
   * INVALID_SNAPSHOT (nothing rebuilt) for a missing checkpoint, or a
   * checkpoint or journal cut short, altered, with a gap, of another region
   * or another layout.
   */
  async takeOver(): Promise<boolean> {
    const takeover = this.takeover;
    if (takeover === null) throw new SpatialError('INVALID_ARGUMENT', 'takeOver needs the takeover option');
    const epoch = await takeover.store.claim(this.id, takeover.leaseMs, false);
    if (epoch === 0) return false;
    const saved = await takeover.store.load(this.id);
    if (saved === null) throw new SpatialError('INVALID_SNAPSHOT', `region ${this.id} has no checkpoint to be rebuilt from`);
    const cp = decodeCheckpoint(this.layout, this.id, saved.checkpoint);
    const journal = saved.journal.map((bytes) => decodeJournalEntry(this.layout, this.id, bytes));
    journal.forEach((entry, k) => {
      if (entry.tick !== cp.tick + 1 + k) throw new SpatialError('INVALID_SNAPSHOT', `region ${this.id}'s journal holds tick ${entry.tick} where tick ${cp.tick + 1 + k} belongs`);
    });
    const restored = Region.restore(this.layout, cp, this.regionOptions);
    this.here.dispose();
    this.here = restored;
    this.router.adopt(restored.ownedIds(), this.id);
    this.routeReplayed(cp.ops);
    for (const entry of journal) this.journal.set(entry.tick, entry.ops);
    this.replayUntil = cp.tick + 1 + journal.length;
    this.extraRestored = journal.at(-1)?.extra ?? cp.extra;
    this.epoch = epoch;
    await this.listen();
    for (const r of this.layout.regions) this.heard.add(r.id);
    this.send('all', TAKEOVER, cp.tick, new Uint8Array(0));
    return true;
  }

  /** Makes this peer's router follow operations run again from a checkpoint or journal: their entities are this region's while they live. */
  private routeReplayed(entities: ReadonlyArray<[number, EntityOp[]]>): void {
    for (const [id, ops] of entities) {
      const alive = ops.reduce((live, op) => (op.kind === 'add' ? true : op.kind === 'remove' ? false : live), this.router.has(id));
      if (alive) this.router.adopt([id], this.id);
      else this.router.forget(id);
    }
  }

  /** Routes an add (as RegionWorld.add, with its checks); true when the entity lands in this region. */
  add(id: number, x: number, y: number, range?: AoiRange, options?: AddOptions): boolean {
    // An id added by another process's region, which this router never saw, may stand here as a ghost.
    if (!this.router.knows(id) && this.here.holdsGhost(id)) throw new SpatialError('DUPLICATE_ID', `entity ${id} is in the world already, owned by another region`);
    return this.take(this.router.add(id, x, y, range, options));
  }

  /** Routes a move (as RegionWorld.move); true when the entity is this region's ({@link ownerOf}). */
  move(id: number, x: number, y: number): boolean {
    if (this.router.move(id, x, y) === this.id) this.here.submitMove(id, x, y);
    return this.router.ownerOf(id) === this.id;
  }

  /**
   * Routes a batch of moves (as RegionWorld.moveMany, refused whole with its
   * codes) and queues those this region applies; answers how many of the
   * entries move an entity that is this region's ({@link ownerOf}).
   */
  moveMany(ids: ArrayLike<number>, xs: ArrayLike<number>, ys: ArrayLike<number>): number {
    const routed = this.router.moveMany(ids, xs, ys);
    let mine = 0;
    for (let k = 0; k < routed.regions.length; k++) {
      if (routed.regions[k] === this.id) this.here.submitMove(routed.ids[k], routed.xs[k], routed.ys[k]);
      if (routed.owners[k] === this.id) mine++;
    }
    return mine;
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
    if (this.superseded !== null) throw this.superseded;
    const tick = this.here.ticks;
    let busyMs = 0;
    const replayed = this.journal.get(tick);
    if (replayed !== undefined) {
      this.journal.delete(tick);
      for (const [id, ops] of replayed) for (const op of ops) this.here.submit(id, op);
      this.routeReplayed(replayed);
    }
    if (this.takeover !== null) {
      this.sent = this.sent.filter((f) => f.tick >= tick - this.takeover!.every);
      // A tick run again is saved already: saving it anew would drop the journal after it.
      if (tick >= this.replayUntil) busyMs += await this.saveCheckpoint();
    }
    let handoffs: Handoff[] = [];
    let sentBytes = 0;
    let started = performance.now();
    /** Waits at a barrier, the wait left out of busyMs. */
    const wait = async (kind: number, at: number): Promise<Map<number, Uint8Array>> => {
      busyMs += performance.now() - started;
      const arrived = await this.barrier(kind, at);
      started = performance.now();
      return arrived;
    };
    const run = regionTick([this.here], this.router, !this.lockstep);
    let next = run.next();
    for (; !next.done; next = run.next()) {
      const exchange = next.value;
      switch (exchange.phase) {
        case 'late':
          if (tick === 0) break;
          // The previous tick's batches: every sender published them before its "done", long ago as a rule.
          await wait(DONE, tick - 1);
          this.forgetLost([]);
          exchange.arrived = this.batchesOf(tick - 1);
          break;
        case 'handoffs': {
          for (const mine of exchange.sent) this.send('all', HANDOFFS, tick, encodeHandoffs(mine));
          const arrived = await wait(HANDOFFS, tick);
          if (this.superseded !== null) throw this.superseded;
          exchange.arrived = handoffs = [...arrived.values()].flatMap(decodeHandoffs);
          break;
        }
        case 'ghosts':
          this.forgetLost(handoffs);
          for (const batch of exchange.sent) {
            if (this.lost.has(batch.to)) continue;
            const bytes = encodeGhostBatch(batch);
            sentBytes += bytes.byteLength;
            this.send(batch.to, GHOSTS, tick, bytes);
          }
          this.send('all', DONE, tick, new Uint8Array(0));
          if (this.lockstep) await wait(DONE, tick);
          if (this.superseded !== null) throw this.superseded;
          if (!this.lockstep) break;
          this.forgetLost([]);
          exchange.arrived = this.batchesOf(tick);
          break;
      }
    }
    return { events: next.value, handoffs, sentBytes, busyMs: busyMs + performance.now() - started };
  }

  /** Stops listening, wakes a waiting barrier, and frees the region's Scene. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.renewal !== null) clearInterval(this.renewal);
    this.wake?.();
    await this.bus.close();
    this.here.dispose();
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
    this.here.dropGhostsOf(this.lost);
  }

  /**
   * Queues a routed operation when this region applies it, and answers
   * whether the entity is this region's: the same region, except for an
   * entity removed and added again in another region within the tick, which
   * the region that removed it replays and hands over.
   */
  private take(routed: RoutedOp): boolean {
    if (routed.region === this.id) this.here.submit(routed.id, routed.op);
    return routed.owner === this.id;
  }

  /** Subscribes to the bus; with takeovers, fences it to this holder's epoch and keeps the lease renewed. */
  private async listen(): Promise<void> {
    await this.bus.subscribe(this.id, (bytes) => this.deliver(bytes));
    const takeover = this.takeover;
    if (takeover === null) return;
    this.epochs.set(this.id, this.epoch);
    this.bus.fence!(this.id, this.epoch, () => this.supersede(`a publish of region ${this.id} was refused`));
    // Every tick renews the lease with its checkpoint; the timer keeps it while a tick waits at a barrier.
    this.renewal = setInterval(() => {
      takeover.store.renew(this.id, this.epoch, takeover.leaseMs).then(
        (held) => held || this.supersede(`region ${this.id}'s lease was claimed by another holder`),
        () => {},
      );
    }, takeover.leaseMs / 3);
  }

  /**
   * Saves, before anything of the tick about to run is sent, its checkpoint
   * (every `every` ticks) or its journal entry; resolves to the
   * milliseconds spent encoding.
   */
  private async saveCheckpoint(): Promise<number> {
    const { store, leaseMs, extra, every } = this.takeover!;
    const started = performance.now();
    const tick = this.here.ticks;
    const full = tick - this.lastCheckpoint >= every;
    const at = { region: this.id, epoch: this.epoch, tick, extra: extra() };
    const bytes = full ? encodeCheckpoint(this.layout, { ...this.here.checkpoint(), ...at }) : encodeJournalEntry(this.layout, { ...at, ops: this.here.pendingOps() });
    const busyMs = performance.now() - started;
    const saved = await (full ? store.save(this.id, this.epoch, leaseMs, bytes) : store.append(this.id, this.epoch, leaseMs, bytes));
    if (full && saved) this.lastCheckpoint = tick;
    if (!saved) this.supersede(`region ${this.id}'s checkpoint was refused`);
    if (this.superseded !== null) throw this.superseded;
    return busyMs;
  }

  /** Stops this holder for good: its region has a newer holder. Every later tick rejects with REGION_SUPERSEDED. */
  private supersede(why: string): void {
    if (this.superseded !== null) return;
    this.superseded = new SpatialError('REGION_SUPERSEDED', `${why}: region ${this.id} (epoch ${this.epoch}) was taken over, and this holder stops`);
    if (this.renewal !== null) clearInterval(this.renewal);
    this.wake?.();
  }

  /** Publishes a frame, and keeps it to send again to a region's new holder. */
  private send(to: number | 'all', kind: number, tick: number, payload: Uint8Array): void {
    const bytes = frame(kind, this.id, this.epoch, tick, payload);
    this.bus.publish(to, bytes);
    if (this.takeover !== null && kind !== HELLO && kind !== TAKEOVER) this.sent.push({ to, tick, bytes });
  }

  /**
   * A region's new holder, rebuilt at `tick`: what came from its old holder
   * is dropped, the barriers wait for it again, and it gets again what this
   * region sent it since `tick`.
   */
  private welcome(region: number, epoch: number, tick: number): void {
    for (const got of this.inbox.values()) got.delete(region);
    for (const f of this.sent) if (f.tick >= tick && (f.to === 'all' || f.to === region)) this.bus.publish(region, f.bytes);
    this.taken.add(region);
    this.wake?.();
    this.onTakeover(region, epoch, tick);
  }

  private deliver(bytes: Uint8Array): void {
    if (bytes.byteLength < FRAME_BYTES) return;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const kind = view.getUint8(0);
    const from = view.getInt32(1, true);
    const epoch = view.getInt32(5, true);
    const tick = view.getInt32(9, true);
    const known = this.epochs.get(from) ?? 0;
    if (epoch < known) return; // from a holder taken over
    if (epoch > known) {
      this.epochs.set(from, epoch);
      if (from === this.id) return this.supersede(`region ${this.id} has a holder of epoch ${epoch}`);
      if (kind === TAKEOVER && !this.lost.has(from)) this.welcome(from, epoch, tick);
    }
    this.heard.add(from);
    if (kind === TAKEOVER) return;
    // Without lockstep, the previous tick's batches and "done" are still wanted.
    if (kind === HELLO || this.lost.has(from) || tick < this.here.ticks - (this.lockstep ? 0 : 1)) return;
    const key = `${kind}:${tick}`;
    let got = this.inbox.get(key);
    if (got === undefined) this.inbox.set(key, (got = new Map()));
    // Ghost batches are keyed by sender: one per sender and tick.
    got.set(from, bytes.subarray(FRAME_BYTES));
    this.wake?.();
  }

  /**
   * Waits until every live region's message of kind for tick is in; the
   * ones missing by timeoutMs are lost. With takeovers, a missing region is
   * waited for takeoverMs longer, and timeoutMs more from each takeover.
   */
  private async barrier(kind: number, tick: number): Promise<Map<number, Uint8Array>> {
    let deadline = Date.now() + this.timeoutMs + (this.takeover?.takeoverMs ?? 0);
    const key = `${kind}:${tick}`;
    const missing = (): number[] => this.layout.regions.map((r) => r.id).filter((r) => !this.lost.has(r) && !this.inbox.get(key)?.has(r));
    while (missing().length > 0 && !this.closed && this.superseded === null) {
      if (this.taken.size > 0) {
        this.taken.clear();
        deadline = Math.max(deadline, Date.now() + this.timeoutMs);
      }
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

/** Checks the takeover option: an object with a store, durations in milliseconds, a function for extra; lockstep and a bus with a fence. */
function checkTakeover(options: TakeoverOptions, bus: RegionBus, lockstep: boolean): Required<TakeoverOptions> {
  checkOptions('takeover', options, TAKEOVER_OPTION_KEYS);
  const { store = bus as Partial<RegionStore>, every = 10, leaseMs = 1000, takeoverMs = 10_000, extra = () => new Uint8Array(0) } = options;
  const methods = ['claim', 'renew', 'save', 'append', 'load', 'vacant'] as const;
  if (typeof store !== 'object' || store === null || methods.some((m) => typeof store[m] !== 'function')) {
    throw new SpatialError('INVALID_ARGUMENT', `a takeover store must have the methods ${methods.join(', ')}; without one, the bus must be a store too (RedisRegionBus is)`);
  }
  checkMilliseconds('leaseMs', leaseMs);
  checkMilliseconds('takeoverMs', takeoverMs);
  if (!(leaseMs > 0)) throw new SpatialError('INVALID_NUMBER', `leaseMs must be above 0, got ${leaseMs}`);
  if (!Number.isInteger(every) || every < 1 || every > 1_000_000) throw new SpatialError('INVALID_ARGUMENT', `every must be an integer from 1 to 1,000,000, got ${String(every)}`);
  if (typeof extra !== 'function') throw new SpatialError('INVALID_ARGUMENT', 'takeover.extra must be a function');
  if (!lockstep) throw new SpatialError('INVALID_ARGUMENT', 'takeovers need lockstep: true');
  if (typeof bus.fence !== 'function') throw new SpatialError('INVALID_ARGUMENT', 'takeovers need a bus with a fence (RedisRegionBus has one)');
  return { store: store as RegionStore, every, leaseMs, takeoverMs, extra };
}

/** A bus message: kind, sender, sender's epoch, tick, payload. */
function frame(kind: number, from: number, epoch: number, tick: number, payload: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(FRAME_BYTES + payload.byteLength);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, kind);
  view.setInt32(1, from, true);
  view.setInt32(5, epoch, true);
  view.setInt32(9, tick, true);
  bytes.set(payload, FRAME_BYTES);
  return bytes;
}
