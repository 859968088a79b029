// A world of regions in one process: it checks each operation as a Scene
// would, routes it to the region that owns the entity, and drives the
// region tick of tick.ts across all regions at once, handing each region
// the messages its neighbours produced. Transports that put regions in
// separate processes drive the same tick with a barrier at each exchange.
import { checkBoolean, checkOptions } from '../core/validate.js';
import type { AddOptions, AoiRange, SetRangeOptions } from '../scene/index.js';
import { RegionLayout, type RegionLayoutOptions } from './layout.js';
import { decodeGhostBatch, decodeHandoffs, encodeGhostBatch, encodeHandoffs } from './codec.js';
import type { GhostBatch, Handoff } from './messages.js';
import { RegionRouter, type RoutedOp } from './router.js';
import { Region, REGION_OPTION_KEYS, type RegionOptions } from './region.js';
import { regionTick } from './tick.js';

/** Options of a {@link RegionWorld}: those of every region's Scene, and the range given to entities added without one. */
export interface RegionWorldOptions extends RegionOptions {
  /** The range of an entity added without one (default 2); at most the layout's maxRange. */
  defaultRange?: number;
  /** true: ghost batches and hand-offs go through their codecs (encodeGhostBatch, encodeHandoffs and their decoders), as between processes, and {@link TickTraffic.bytes} counts them (default false). */
  wire?: boolean;
}

const WORLD_OPTION_KEYS = [...REGION_OPTION_KEYS, 'defaultRange', 'wire'];

/** What the last tick moved between regions. */
export interface TickTraffic {
  /** Entities handed from one region to another. */
  handoffs: number;
  /** Ghost operations sent, summed over every batch. */
  ghostOps: number;
  /** Batches sent (empty ones included: one per neighbour and tick at least). */
  batches: number;
  /** Bytes of the encoded batches and hand-offs, with the `wire` option (else 0). */
  bytes: number;
}

/**
 * A world cut into regions, simulated in one process. Its operations are a
 * Scene's; they take effect at the next {@link tick}, entity by entity in
 * ascending id (each entity's in the order called), which returns the
 * events of every region's owned watchers: those a single Scene of the
 * whole world in 'net' mode would drain after the same operations applied
 * in that order.
 */
export class RegionWorld {
  /** The layout. */
  readonly layout: RegionLayout;
  /** The range of an entity added without one. */
  readonly defaultRange: number;
  private readonly regionsById = new Map<number, Region>();
  private readonly router: RegionRouter;
  private lastTraffic: TickTraffic = { handoffs: 0, ghostOps: 0, batches: 0, bytes: 0 };
  private readonly wire: boolean;

  /**
   * A world over layout (a RegionLayout or its options; INVALID_LAYOUT when
   * they are wrong), one Region per rectangle. INVALID_ARGUMENT for options
   * that are not a plain object, have an unknown key or a `wire` that is not
   * a boolean, and what a Scene refuses in them.
   */
  constructor(layout: RegionLayout | RegionLayoutOptions, options: RegionWorldOptions = {}) {
    this.layout = layout instanceof RegionLayout ? layout : new RegionLayout(layout);
    checkOptions('RegionWorld', options, WORLD_OPTION_KEYS);
    const { defaultRange = 2, wire = false, ...sceneOptions } = options;
    checkBoolean('wire', wire);
    this.wire = wire;
    this.router = new RegionRouter(this.layout, defaultRange);
    this.defaultRange = defaultRange;
    for (const r of this.layout.regions) this.regionsById.set(r.id, new Region(this.layout, r.id, sceneOptions));
  }

  /** The regions, in layout order. */
  get regions(): Region[] {
    return [...this.regionsById.values()];
  }

  /** The region with id; UNKNOWN_ID when the layout has none. */
  region(id: number): Region {
    this.layout.rect(id);
    return this.regionsById.get(id)!;
  }

  /** Number of live entities (those added and not removed, pending operations included). */
  get size(): number {
    return this.router.size;
  }

  /** What the last tick moved between regions. */
  get traffic(): TickTraffic {
    return this.lastTraffic;
  }

  /** True when id is live (added and not removed, pending operations included). */
  has(id: number): boolean {
    return this.router.has(id);
  }

  /**
   * The region that owns id: since the last tick, or where it is added in
   * the pending one. UNKNOWN_ID when id is not live.
   */
  ownerOf(id: number): number {
    return this.router.ownerOf(id);
  }

  /**
   * Adds id at (x, y) at the next tick, as Scene.add does. Throws what
   * Scene.add throws, OUTSIDE_REGIONS for a position in no region, and
   * RANGE_TOO_LARGE for a range or margin beyond the layout's.
   */
  add(id: number, x: number, y: number, range: AoiRange = this.defaultRange, options: AddOptions = {}): void {
    this.queue(this.router.add(id, x, y, range, options));
  }

  /** Moves id to (x, y) at the next tick. Throws what Scene.move throws, and OUTSIDE_REGIONS for a position in no region. */
  move(id: number, x: number, y: number): void {
    this.regionsById.get(this.router.move(id, x, y))!.submitMove(id, x, y);
  }

  /**
   * Moves ids[k] to (xs[k], ys[k]) at the next tick, for every k in array
   * order, as as many {@link move} calls would: the path for a big tick, with
   * no object made per move. The arrays are plain arrays or typed arrays of
   * numbers, of one length, each read once. A batch with any invalid entry
   * is refused whole, before anything changes: INVALID_ARGUMENT (not an
   * array, lengths differ), INVALID_ID, INVALID_NUMBER, UNKNOWN_ID (as
   * Scene.moveMany), and OUTSIDE_REGIONS for a position in no region.
   *
   * @example
   * ```ts
   * import { init } from 'spatialkit';
   * import { RegionLayout, RegionWorld } from 'spatialkit/regions';
   * await init();
   *
   * const layout = RegionLayout.grid({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 2, 1, { maxRange: 10, maxStep: 5 });
   * const world = new RegionWorld(layout, { defaultRange: 10 });
   * world.add(1, 45, 50);
   * world.add(2, 52, 50);
   * world.tick();                                    // -> Int32Array [0, 1, 2, 0, 2, 1] in any order
   * world.moveMany(new Int32Array([1, 2]), new Float64Array([48, 55]), new Float64Array([50, 50]));
   * world.tick();                                    // -> Int32Array [2, 1, 2, 2, 2, 1] in any order
   * world.moveMany([1], [Infinity], [50]);           // -> throws INVALID_NUMBER
   * world.moveMany([1, 2], [46, 500], [50, 50]);     // -> throws OUTSIDE_REGIONS: the whole batch is refused
   * world.tick();                                    // -> Int32Array []: 1 did not move
   * ```
   */
  moveMany(ids: ArrayLike<number>, xs: ArrayLike<number>, ys: ArrayLike<number>): void {
    const routed = this.router.moveMany(ids, xs, ys);
    const { regions } = routed;
    let current = -1;
    let region: Region | undefined;
    for (let k = 0; k < regions.length; k++) {
      if (regions[k] !== current) region = this.regionsById.get((current = regions[k]));
      region!.submitMove(routed.ids[k], routed.xs[k], routed.ys[k]);
    }
  }

  /** Removes id at the next tick; false, changing nothing, when it is not live. */
  remove(id: number): boolean {
    const routed = this.router.remove(id);
    if (routed !== null) this.queue(routed);
    return routed !== null;
  }

  /** Changes id's range (and margin, when given) at the next tick, as Scene.setRange does; RANGE_TOO_LARGE beyond the layout's. */
  setRange(id: number, range: AoiRange, options: SetRangeOptions = {}): void {
    this.queue(this.router.setRange(id, range, options));
  }

  /** Changes id's layer masks at the next tick, as Scene.setLayers does. */
  setLayers(id: number, layer: number, sees: number): void {
    this.queue(this.router.setLayers(id, layer, sees));
  }

  /**
   * Runs one tick in every region, in lockstep: hand-offs, ghost batches,
   * then each region's operations. Returns the tick's events, flat
   * [type, watcher, target, ...], each pair's change over the tick (as a
   * Scene's 'net' drain), region after region in layout order.
   */
  tick(): Int32Array {
    let bytes = 0;
    /** What goes between processes, through its codec when the world runs on the wire. */
    const carried = <T>(message: T, encode: (m: T) => Uint8Array, decode: (b: Uint8Array) => T): T => {
      if (!this.wire) return message;
      const encoded = encode(message);
      bytes += encoded.byteLength;
      return decode(encoded);
    };
    let handoffs: ReadonlyArray<Handoff> = [];
    let batches: ReadonlyArray<GhostBatch> = [];
    const run = regionTick(this.regions, this.router, false);
    let next = run.next();
    for (; !next.done; next = run.next()) {
      const exchange = next.value;
      if (exchange.phase === 'handoffs') exchange.arrived = handoffs = exchange.sent.flatMap((h) => carried(h, encodeHandoffs, decodeHandoffs));
      else if (exchange.phase === 'ghosts') exchange.arrived = batches = exchange.sent.map((b) => carried(b, encodeGhostBatch, decodeGhostBatch));
    }
    this.lastTraffic = {
      handoffs: handoffs.length,
      ghostOps: batches.reduce((n, b) => n + b.entities.reduce((m, e) => m + e.ops.length, 0), 0),
      batches: batches.length,
      bytes,
    };
    return next.value;
  }

  /** Frees every region's Scene. */
  dispose(): void {
    for (const r of this.regions) r.dispose();
    this.router.dispose();
  }

  private queue(routed: RoutedOp): void {
    this.regionsById.get(routed.region)!.submit(routed.id, routed.op);
  }
}
