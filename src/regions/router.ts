// Which region an operation goes to: the owner of every live entity, kept
// from the adds, removals and hand-offs of the whole world, and each call
// checked exactly as a Scene would check it. RegionWorld routes through one;
// so does each process of a world spread over several, each keeping the
// same owner map from the hand-offs every region announces.
import { checkFinite, checkMask, copyIds, copyNumbers, CopyRoom } from '../core/validate.js';
import { Scene, SpatialError, type AddOptions, type AoiRange, type SetRangeOptions } from '../scene/index.js';
import { IdMap } from './id-map.js';
import type { RegionLayout } from './layout.js';
import type { EntityOp, Handoff } from './messages.js';

/** An operation, the region that applies it and the region that owns the entity. */
export interface RoutedOp {
  /** The region that applies the entity's operations of this tick. */
  region: number;
  /** The region that owns the entity, as {@link RegionRouter.ownerOf} answers: `region`, except for an entity removed and added again in another region within the tick. */
  owner: number;
  /** The entity. */
  id: number;
  /** The operation. */
  op: EntityOp;
}

/** A batch of moves as read once from the caller's arrays, and where each goes, by entry (valid until the next batch). */
export interface RoutedMoves {
  /** Entry k's entity. */
  ids: Int32Array;
  /** Entry k's x. */
  xs: Float64Array;
  /** Entry k's y. */
  ys: Float64Array;
  /** The region that applies entry k's move. */
  regions: Int32Array;
  /** The region that owns entry k's entity (see {@link RoutedOp.owner}). */
  owners: Int32Array;
}

/**
 * The owner of each live entity, and the checks and routing of the
 * operations on it. A call that throws changes nothing.
 *
 * An entity's operations of a tick are applied by one region, in the order
 * called. So an entity removed and added again in another region within a
 * tick is replayed, removal and add, by the region that removed it, which
 * hands it over to the region it is added in at the tick: that region owns
 * it from the add on, as ownerOf answers.
 */
export class RegionRouter {
  /** The owner of each live entity: at the start of the tick, or the region it is added in during the tick. */
  private readonly owner = new IdMap();
  /** Entities added again in another region than the one that removed them in this tick: that region, which applies their operations of the tick. */
  private readonly replayedBy = new Map<number, number>();
  /** Entities removed in this tick: the region that applies the removal. */
  private readonly removed = new Map<number, number>();
  /** Entities removed in the tick before: a region without lockstep may still hold their ghosts. */
  private removedBefore = new Set<number>();
  /** A Scene with nothing in it whose add and setRange check an operation's arguments exactly as a region's Scene will. */
  private readonly checker = new Scene({ backend: 'js' });
  /** Room for a batch's copies and routes, kept for the next one. */
  private readonly rooms = { ids: new CopyRoom(), xs: new CopyRoom(), ys: new CopyRoom(), regions: new CopyRoom(), owners: new CopyRoom() };

  /** A router over layout; RANGE_TOO_LARGE when defaultRange exceeds the layout's maxRange. */
  constructor(
    /** The layout. */
    readonly layout: RegionLayout,
    /** The range of an entity added without one. */
    readonly defaultRange: number,
  ) {
    this.checker.add(0, 0, 0, defaultRange);
    this.checker.remove(0);
    this.checkReach(defaultRange, 0);
  }

  /** Number of live entities. */
  get size(): number {
    return this.owner.size;
  }

  /** True when id is live (added and not removed, pending operations included). */
  has(id: number): boolean {
    return this.owner.has(id);
  }

  /** True when id is live, or was removed in this tick or the one before: this router has seen it lately. */
  knows(id: number): boolean {
    return this.owner.has(id) || this.removed.has(id) || this.removedBefore.has(id);
  }

  /** The region that owns id: since the last tick, or where it is added in the pending one. UNKNOWN_ID when id is not live. */
  ownerOf(id: number): number {
    const o = this.owner.get(id);
    if (o === undefined) throw new SpatialError('UNKNOWN_ID', `no entity ${id}`);
    return o;
  }

  /** Routes an add; throws what Scene.add throws, OUTSIDE_REGIONS and RANGE_TOO_LARGE. */
  add(id: number, x: number, y: number, range: AoiRange = this.defaultRange, options: AddOptions = {}): RoutedOp {
    if (this.owner.has(id)) throw new SpatialError('DUPLICATE_ID', `entity ${id} is already in the world`);
    this.checker.add(id, x, y, range, options);
    this.checker.remove(id);
    this.checkReach(reachOf(range), options.margin ?? 0);
    const owner = this.layout.regionAt(x, y);
    const op: EntityOp = { kind: 'add', x, y, range: copyRange(range), layer: (options.layer ?? 1) | 0, sees: (options.sees ?? -1) | 0, margin: options.margin ?? 0 };
    const region = this.removed.get(id) ?? owner;
    this.removed.delete(id);
    this.owner.set(id, owner);
    if (region !== owner) this.replayedBy.set(id, region);
    return { region, owner, id, op };
  }

  /** Routes a move: the region that applies it. Throws what Scene.move throws, and OUTSIDE_REGIONS. */
  move(id: number, x: number, y: number): number {
    const owner = this.ownerOf(id);
    // Scene.move checks its id, then x, then y: the id is live (ownerOf), so these are the checks left.
    checkFinite('x', x);
    checkFinite('y', y);
    this.layout.regionAt(x, y);
    return this.replayedBy.size === 0 ? owner : (this.replayedBy.get(id) ?? owner);
  }

  /**
   * Routes a batch of moves, entry k moving ids[k] to (xs[k], ys[k]): the
   * arrays read once, and where each move goes. Throws what Scene.moveMany
   * throws (INVALID_ARGUMENT, INVALID_ID, INVALID_NUMBER, UNKNOWN_ID), and
   * OUTSIDE_REGIONS for an entry in no region; routing changes nothing, so a
   * throw leaves all as it was.
   */
  moveMany(ids: ArrayLike<number>, xs: ArrayLike<number>, ys: ArrayLike<number>): RoutedMoves {
    const { rooms } = this;
    const batch = copyIds('ids', ids, undefined, rooms.ids);
    const n = batch.length;
    const x = copyNumbers('xs', xs, n, 'finite', rooms.xs);
    const y = copyNumbers('ys', ys, n, 'finite', rooms.ys);
    const regions = rooms.regions.i32(n);
    const owners = rooms.owners.i32(n);
    const replaying = this.replayedBy.size > 0;
    for (let k = 0; k < n; k++) {
      const id = batch[k];
      const owner = this.owner.get(id);
      if (owner === undefined) throw new SpatialError('UNKNOWN_ID', `no entity ${id} (moveMany entry ${k})`);
      if (this.layout.findRegion(x[k], y[k]) === -1) throw new SpatialError('OUTSIDE_REGIONS', `(${x[k]}, ${y[k]}) is outside every region (moveMany entry ${k})`);
      owners[k] = owner;
      regions[k] = replaying ? (this.replayedBy.get(id) ?? owner) : owner;
    }
    return { ids: batch, xs: x, ys: y, regions, owners };
  }

  /** Routes a removal; null, changing nothing, when id is not live. */
  remove(id: number): RoutedOp | null {
    if (!this.owner.has(id)) {
      this.checker.remove(id);
      return null;
    }
    const route = this.routeOf(id);
    this.owner.delete(id);
    this.replayedBy.delete(id);
    this.removed.set(id, route.region);
    return { ...route, id, op: { kind: 'remove' } };
  }

  /** Routes a range change; throws what Scene.setRange throws, and RANGE_TOO_LARGE. */
  setRange(id: number, range: AoiRange, options: SetRangeOptions = {}): RoutedOp {
    const route = this.routeOf(id);
    this.checker.add(0, 0, 0, 0);
    try {
      this.checker.setRange(0, range, options);
    } finally {
      this.checker.remove(0);
    }
    this.checkReach(reachOf(range), options.margin ?? 0);
    return { ...route, id, op: { kind: 'range', range: copyRange(range), margin: options.margin } };
  }

  /** Routes a change of layer masks; throws what Scene.setLayers throws. */
  setLayers(id: number, layer: number, sees: number): RoutedOp {
    const route = this.routeOf(id);
    return { ...route, id, op: { kind: 'layers', layer: checkMask('layer', layer), sees: checkMask('sees', sees) } };
  }

  /**
   * Ends a tick: the hand-offs of every region give their entities new
   * owners. An entity replayed by another region than the one it was added
   * in stays with that region unless it is handed over (it may have moved
   * back within the tick).
   */
  endTick(handoffs: Iterable<Handoff>): void {
    for (const [id, region] of this.replayedBy) this.owner.set(id, region);
    for (const h of handoffs) this.owner.set(h.id, h.to);
    this.replayedBy.clear();
    this.removedBefore = new Set(this.removed.keys());
    this.removed.clear();
  }

  /** Makes region the owner of ids (a region rebuilt from its checkpoint: the entities it owns). */
  adopt(ids: Iterable<number>, region: number): void {
    for (const id of ids) this.owner.set(id, region);
  }

  /** Forgets entity id (handed to a region lost with its process): its id is free again. */
  forget(id: number): void {
    this.owner.delete(id);
    this.replayedBy.delete(id);
  }

  /** Forgets every entity region owns (a region lost with its process). */
  forgetRegion(region: number): void {
    for (const [id, r] of this.owner.entries()) if (r === region) this.forget(id);
  }

  /** Frees the checking Scene. */
  dispose(): void {
    this.checker.dispose();
  }

  /** The region that applies id's operations of this tick, and its owner; UNKNOWN_ID when id is not live. */
  private routeOf(id: number): { region: number; owner: number } {
    const owner = this.ownerOf(id);
    return { region: this.replayedBy.get(id) ?? owner, owner };
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
