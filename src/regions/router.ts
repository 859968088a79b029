// Which region an operation goes to: the owner of every live entity, kept
// from the adds, removals and hand-offs of the whole world, and each call
// checked exactly as a Scene would check it. RegionWorld routes through one;
// so does each process of a world spread over several, each keeping the
// same owner map from the hand-offs every region announces.
import { checkMask } from '../core/validate.js';
import { Scene, SpatialError, type AddOptions, type AoiRange, type SetRangeOptions } from '../scene/index.js';
import type { RegionLayout } from './layout.js';
import type { EntityOp, Handoff } from './messages.js';

/** An operation and the region that applies it. */
export interface RoutedOp {
  /** The region that owns the entity for this tick. */
  region: number;
  /** The entity. */
  id: number;
  /** The operation. */
  op: EntityOp;
}

/**
 * The owner of each live entity, and the checks and routing of the
 * operations on it. A call that throws changes nothing.
 */
export class RegionRouter {
  /** The owner of each live entity at the start of the tick (entities added in this tick: the region they are added in). */
  private readonly owner = new Map<number, number>();
  /** Entities removed in this tick (their owner still applies the removal). */
  private readonly removed = new Map<number, number>();
  /** A Scene with nothing in it whose add and setRange check an operation's arguments exactly as a region's Scene will. */
  private readonly checker = new Scene({ backend: 'js' });

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

  /** The region that owns id; UNKNOWN_ID when id is not live. */
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
    let region = this.layout.regionAt(x, y);
    const op: EntityOp = { kind: 'add', x, y, range: copyRange(range), layer: (options.layer ?? 1) | 0, sees: (options.sees ?? -1) | 0, margin: options.margin ?? 0 };
    // Removed and added again in one tick: its old owner replays both, so the new place is routed there.
    if (this.removed.has(id)) region = this.removed.get(id)!;
    this.removed.delete(id);
    this.owner.set(id, region);
    return { region, id, op };
  }

  /** Routes a move; throws what Scene.move throws, and OUTSIDE_REGIONS. */
  move(id: number, x: number, y: number): RoutedOp {
    const region = this.ownerOf(id);
    this.checker.add(0, x, y, null);
    this.checker.remove(0);
    this.layout.regionAt(x, y);
    return { region, id, op: { kind: 'move', x, y } };
  }

  /** Routes a removal; null, changing nothing, when id is not live. */
  remove(id: number): RoutedOp | null {
    const region = this.owner.get(id);
    if (region === undefined) {
      this.checker.remove(id);
      return null;
    }
    this.owner.delete(id);
    this.removed.set(id, region);
    return { region, id, op: { kind: 'remove' } };
  }

  /** Routes a range change; throws what Scene.setRange throws, and RANGE_TOO_LARGE. */
  setRange(id: number, range: AoiRange, options: SetRangeOptions = {}): RoutedOp {
    const region = this.ownerOf(id);
    this.checker.add(0, 0, 0, 0);
    try {
      this.checker.setRange(0, range, options);
    } finally {
      this.checker.remove(0);
    }
    this.checkReach(reachOf(range), options.margin ?? 0);
    return { region, id, op: { kind: 'range', range: copyRange(range), margin: options.margin } };
  }

  /** Routes a change of layer masks; throws what Scene.setLayers throws. */
  setLayers(id: number, layer: number, sees: number): RoutedOp {
    const region = this.ownerOf(id);
    return { region, id, op: { kind: 'layers', layer: checkMask('layer', layer), sees: checkMask('sees', sees) } };
  }

  /** Ends a tick: the hand-offs of every region give their entities new owners. */
  endTick(handoffs: Iterable<Handoff>): void {
    for (const h of handoffs) this.owner.set(h.id, h.to);
    this.removed.clear();
  }

  /** Forgets entity id (handed to a region lost with its process): its id is free again. */
  forget(id: number): void {
    this.owner.delete(id);
  }

  /** Forgets every entity region owns (a region lost with its process) and returns their ids, ascending. */
  forgetRegion(region: number): number[] {
    const ids = [...this.owner].filter(([, r]) => r === region).map(([id]) => id);
    for (const id of ids) this.owner.delete(id);
    return ids.sort((a, b) => a - b);
  }

  /** Frees the checking Scene. */
  dispose(): void {
    this.checker.dispose();
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
