// A world of regions in one process: it checks each operation as a Scene
// would, routes it to the region that owns the entity, and runs the four
// phases of a tick across all regions in lockstep, handing each region the
// messages its neighbours produced. Transports that put regions in separate
// processes run the same phases with a barrier between them.
import { Scene, SpatialError, type AddOptions, type AoiRange, type SetRangeOptions } from '../index.js';
import { RegionLayout, type RegionLayoutOptions } from './layout.js';
import { decodeGhostBatch, encodeGhostBatch } from './codec.js';
import type { EntityOp, GhostBatch, Handoff } from './messages.js';
import { Region, type RegionOptions } from './region.js';

/** Options of a {@link RegionWorld}: those of every region's Scene, and the range given to entities added without one. */
export interface RegionWorldOptions extends RegionOptions {
  /** The range of an entity added without one (default 2); at most the layout's maxRange. */
  defaultRange?: number;
  /** true: ghost batches go through encodeGhostBatch and decodeGhostBatch, as between processes, and {@link TickTraffic.bytes} counts them (default false). */
  wire?: boolean;
}

/** What the last tick moved between regions. */
export interface TickTraffic {
  /** Entities handed from one region to another. */
  handoffs: number;
  /** Ghost operations sent, summed over every batch. */
  ghostOps: number;
  /** Batches sent (empty ones included: one per neighbour and tick at least). */
  batches: number;
  /** Bytes of the encoded batches, with the `wire` option (else 0). */
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
  /** The owner of each live entity at the start of the tick (entities added in this tick: the region they are added in). */
  private readonly owner = new Map<number, number>();
  /** Entities removed in this tick (their owner still applies the removal). */
  private readonly removed = new Map<number, number>();
  /** A Scene with nothing in it whose add and setRange check an operation's arguments exactly as a region's Scene will. */
  private readonly checker = new Scene({ backend: 'js' });
  private lastTraffic: TickTraffic = { handoffs: 0, ghostOps: 0, batches: 0, bytes: 0 };
  private readonly wire: boolean;

  /** A world over layout (a RegionLayout or its options; INVALID_LAYOUT when they are wrong), one Region per rectangle. */
  constructor(layout: RegionLayout | RegionLayoutOptions, options: RegionWorldOptions = {}) {
    this.layout = layout instanceof RegionLayout ? layout : new RegionLayout(layout);
    const { defaultRange = 2, wire = false, ...sceneOptions } = options;
    this.wire = wire;
    this.checker.add(0, 0, 0, defaultRange);
    this.checker.remove(0);
    this.checkReach(defaultRange, 0);
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
    return this.owner.size;
  }

  /** What the last tick moved between regions. */
  get traffic(): TickTraffic {
    return this.lastTraffic;
  }

  /** True when id is live (added and not removed, pending operations included). */
  has(id: number): boolean {
    return this.owner.has(id);
  }

  /**
   * The region that owns id: since the last tick, or where it is added in
   * the pending one. UNKNOWN_ID when id is not live.
   */
  ownerOf(id: number): number {
    const o = this.owner.get(id);
    if (o === undefined) throw new SpatialError('UNKNOWN_ID', `no entity ${id}`);
    return o;
  }

  /**
   * Adds id at (x, y) at the next tick, as Scene.add does. Throws what
   * Scene.add throws, OUTSIDE_REGIONS for a position in no region, and
   * RANGE_TOO_LARGE for a range or margin beyond the layout's.
   */
  add(id: number, x: number, y: number, range: AoiRange = this.defaultRange, options: AddOptions = {}): void {
    if (this.owner.has(id)) throw new SpatialError('DUPLICATE_ID', `entity ${id} is already in the world`);
    this.checker.add(id, x, y, range, options);
    this.checker.remove(id);
    this.checkReach(reachOf(range), options.margin ?? 0);
    const region = this.layout.regionAt(x, y);
    if (this.removed.has(id) && this.removed.get(id) !== region) {
      // Removed and added again in one tick: its old owner replays both, so the new place is routed there.
      this.queue(this.removed.get(id)!, id, this.addOp(x, y, range, options));
      this.owner.set(id, this.removed.get(id)!);
      this.removed.delete(id);
      return;
    }
    this.removed.delete(id);
    this.owner.set(id, region);
    this.queue(region, id, this.addOp(x, y, range, options));
  }

  /** Moves id to (x, y) at the next tick. Throws what Scene.move throws, and OUTSIDE_REGIONS for a position in no region. */
  move(id: number, x: number, y: number): void {
    const region = this.ownerOf(id);
    this.checker.add(0, x, y, null);
    this.checker.remove(0);
    this.layout.regionAt(x, y);
    this.queue(region, id, { kind: 'move', x, y });
  }

  /** Removes id at the next tick; false, changing nothing, when it is not live. */
  remove(id: number): boolean {
    const region = this.owner.get(id);
    if (region === undefined) {
      this.checker.remove(id);
      return false;
    }
    this.owner.delete(id);
    this.removed.set(id, region);
    this.queue(region, id, { kind: 'remove' });
    return true;
  }

  /** Changes id's range (and margin, when given) at the next tick, as Scene.setRange does; RANGE_TOO_LARGE beyond the layout's. */
  setRange(id: number, range: AoiRange, options: SetRangeOptions = {}): void {
    const region = this.ownerOf(id);
    this.checker.add(0, 0, 0, 0);
    try {
      this.checker.setRange(0, range, options);
    } finally {
      this.checker.remove(0);
    }
    this.checkReach(reachOf(range), options.margin ?? 0);
    this.queue(region, id, { kind: 'range', range: copyRange(range), margin: options.margin });
  }

  /** Changes id's layer masks at the next tick, as Scene.setLayers does. */
  setLayers(id: number, layer: number, sees: number): void {
    const region = this.ownerOf(id);
    this.checker.add(0, 0, 0, null, { layer, sees });
    this.checker.remove(0);
    this.queue(region, id, { kind: 'layers', layer: layer | 0, sees: sees | 0 });
  }

  /**
   * Runs one tick in every region, in lockstep: hand-offs, ghost batches,
   * then each region's operations. Returns the tick's events, flat
   * [type, watcher, target, ...], each pair's change over the tick (as a
   * Scene's 'net' drain), region after region in layout order.
   */
  tick(): Int32Array {
    const regions = this.regions;
    const handoffs: Handoff[] = regions.flatMap((r) => r.handOff());
    for (const r of regions) r.receive(handoffs);
    for (const h of handoffs) this.owner.set(h.id, h.to);
    let batches: GhostBatch[] = regions.flatMap((r) => r.ghostBatches());
    let bytes = 0;
    if (this.wire) {
      batches = batches.map((b) => {
        const encoded = encodeGhostBatch(b);
        bytes += encoded.byteLength;
        return decodeGhostBatch(encoded);
      });
    }
    const parts = regions.map((r) => r.step(batches));
    this.removed.clear();
    this.lastTraffic = {
      handoffs: handoffs.length,
      ghostOps: batches.reduce((n, b) => n + b.entities.reduce((m, e) => m + e.ops.length, 0), 0),
      batches: batches.length,
      bytes,
    };
    const out = new Int32Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  /** Frees every region's Scene. */
  dispose(): void {
    for (const r of this.regions) r.dispose();
    this.checker.dispose();
  }

  private queue(region: number, id: number, op: EntityOp): void {
    this.regionsById.get(region)!.submit(id, op);
  }

  private addOp(x: number, y: number, range: AoiRange, options: AddOptions): EntityOp {
    return { kind: 'add', x, y, range: copyRange(range), layer: (options.layer ?? 1) | 0, sees: (options.sees ?? -1) | 0, margin: options.margin ?? 0 };
  }

  private checkReach(reach: number, margin: number): void {
    if (reach > this.layout.maxRange) throw new SpatialError('RANGE_TOO_LARGE', `range ${reach} exceeds the layout's maxRange ${this.layout.maxRange}`);
    if (margin > this.layout.margin) throw new SpatialError('RANGE_TOO_LARGE', `margin ${margin} exceeds the layout's margin ${this.layout.margin}`);
  }
}

/** The farthest a range reaches on either axis (0 for a marker). */
function reachOf(range: AoiRange): number {
  if (range === null) return 0;
  if (typeof range === 'number') return range;
  if ('radius' in range) return range.radius;
  return Math.max(range.x, range.y);
}

/** A range the caller cannot change afterwards. */
function copyRange(range: AoiRange): AoiRange {
  if (range === null || typeof range === 'number') return range;
  if ('radius' in range) return { radius: range.radius };
  return { x: range.x, y: range.y };
}
