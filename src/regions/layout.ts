// A world cut into rectangular regions: which region owns a position, which
// regions must hold a ghost of it, and the checks that the cut leaves no gap
// and no overlap.
import { keepName } from '../core/inspect.js';
import { shown } from '../core/validate.js';
import { SpatialError } from '../scene/index.js';

/** One region's rectangle. It owns the positions with minX <= x < maxX and minY <= y < maxY, and the world's far edges too. */
export interface RegionRect {
  /** The region's id: an integer in [0, 2^31 - 1], unique in the layout. */
  id: number;
  /** Left edge (owned). */
  minX: number;
  /** Bottom edge (owned). */
  minY: number;
  /** Right edge (owned only on the world's right edge). */
  maxX: number;
  /** Top edge (owned only on the world's top edge). */
  maxY: number;
}

/** A rectangle of the world: the one a layout's regions tile, or the one RegionLayout.grid cuts. */
export interface WorldBounds {
  /** Left edge. */
  minX: number;
  /** Bottom edge. */
  minY: number;
  /** Right edge. */
  maxX: number;
  /** Top edge. */
  maxY: number;
}

/** What a {@link RegionLayout} is made of: the rectangles and the sizes that set the ghost band. */
export interface RegionLayoutOptions {
  /** Rectangles that tile one bounding rectangle: no gap, no overlap. */
  regions: ReadonlyArray<RegionRect>;
  /** The largest view range any entity may have: a square half-extent, either half-extent of a box, or a radius. */
  maxRange: number;
  /** The largest hysteresis margin any entity may have (default 0). */
  margin?: number;
  /** The largest distance, on either axis, an entity moves in one tick; a longer move is a teleport, handled but costlier. */
  maxStep: number;
}

/**
 * A world cut into rectangular regions, each simulated on its own, and the
 * ghost band: a neighbour holds a copy of every entity within `band` (on
 * both axes) of its rectangle, band = maxRange + margin + maxStep, the
 * farthest an entity can be from a region's watchers, now or in the tick a
 * watcher crosses into it.
 */
export class RegionLayout {
  static {
    keepName(this, 'RegionLayout');
  }

  /** The regions, in the order given. */
  readonly regions: ReadonlyArray<RegionRect>;
  /** The largest view range an entity may have. */
  readonly maxRange: number;
  /** The largest margin an entity may have. */
  readonly margin: number;
  /** The largest move per tick that is not a teleport. */
  readonly maxStep: number;
  /** maxRange + margin + maxStep: how far beyond its rectangle a region holds ghosts. */
  readonly band: number;
  /** The rectangle the regions tile. */
  readonly bounds: WorldBounds;
  private readonly byId = new Map<number, RegionRect>();
  private readonly near = new Map<number, number[]>();

  /** Checks the rectangles (INVALID_LAYOUT for options that are not an object, a gap, an overlap, a repeated id or a bad size) and precomputes the neighbours. */
  constructor(options: RegionLayoutOptions) {
    if (!isObject(options)) invalid(`a layout is made of { regions, maxRange, margin?, maxStep }, got ${shown(options)}`);
    const { regions, maxRange, maxStep } = options;
    const margin = options.margin ?? 0;
    for (const [name, value] of [['maxRange', maxRange], ['margin', margin], ['maxStep', maxStep]] as const) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) invalid(`${name} must be a finite number >= 0, got ${String(value)}`);
    }
    if (!Array.isArray(regions) || regions.length === 0) invalid('a layout needs at least one region');
    this.regions = regions.map(checkRect);
    for (const r of this.regions) {
      if (this.byId.has(r.id)) invalid(`region id ${r.id} is given twice`);
      this.byId.set(r.id, r);
    }
    this.bounds = {
      minX: Math.min(...this.regions.map((r) => r.minX)),
      minY: Math.min(...this.regions.map((r) => r.minY)),
      maxX: Math.max(...this.regions.map((r) => r.maxX)),
      maxY: Math.max(...this.regions.map((r) => r.maxY)),
    };
    checkTiling(this.regions);
    this.maxRange = maxRange;
    this.margin = margin;
    this.maxStep = maxStep;
    this.band = maxRange + margin + maxStep;
    for (const r of this.regions) {
      this.near.set(r.id, this.regions.filter((n) => n !== r && this.overlapsBand(n, r)).map((n) => n.id));
    }
  }

  /**
   * A layout of columns × rows equal regions over bounds, ids 0, 1, ... row
   * by row from (minX, minY). INVALID_LAYOUT for bounds that are not a
   * rectangle of finite numbers with minX < maxX and minY < maxY, and as the
   * constructor.
   */
  static grid(
    bounds: WorldBounds,
    columns: number,
    rows: number,
    sizes: Omit<RegionLayoutOptions, 'regions'>,
  ): RegionLayout {
    checkBounds(bounds);
    if (!Number.isInteger(columns) || columns < 1 || !Number.isInteger(rows) || rows < 1) invalid(`columns and rows must be integers >= 1, got ${columns}, ${rows}`);
    if (!isObject(sizes)) invalid(`sizes are { maxRange, margin?, maxStep }, got ${shown(sizes)}`);
    const xs = Array.from({ length: columns + 1 }, (_, i) => (i === columns ? bounds.maxX : bounds.minX + ((bounds.maxX - bounds.minX) * i) / columns));
    const ys = Array.from({ length: rows + 1 }, (_, j) => (j === rows ? bounds.maxY : bounds.minY + ((bounds.maxY - bounds.minY) * j) / rows));
    const regions: RegionRect[] = [];
    for (let j = 0; j < rows; j++) {
      for (let i = 0; i < columns; i++) regions.push({ id: regions.length, minX: xs[i], minY: ys[j], maxX: xs[i + 1], maxY: ys[j + 1] });
    }
    return new RegionLayout({ ...sizes, regions });
  }

  /** The rectangle of region id; UNKNOWN_ID when the layout has none. */
  rect(id: number): RegionRect {
    const r = this.byId.get(id);
    if (r === undefined) throw new SpatialError('UNKNOWN_ID', `no region ${id} in the layout`);
    return r;
  }

  /** The id of the region that owns (x, y); OUTSIDE_REGIONS when no region does (or a coordinate is not finite). */
  regionAt(x: number, y: number): number {
    const id = this.findRegion(x, y);
    if (id === -1) throw new SpatialError('OUTSIDE_REGIONS', `(${x}, ${y}) is outside every region`);
    return id;
  }

  /** The id of the region that owns (x, y), or -1 when none does. */
  findRegion(x: number, y: number): number {
    for (const r of this.regions) if (this.owns(r, x, y)) return r.id;
    return -1;
  }

  /** True when region id owns (x, y). */
  contains(id: number, x: number, y: number): boolean {
    return this.owns(this.rect(id), x, y);
  }

  /** True when (x, y) lies farther than the band inside region id's rectangle, so that no other region holds a ghost of an entity there. */
  deepInside(id: number, x: number, y: number): boolean {
    const r = this.rect(id);
    const b = this.band;
    return x > r.minX + b && x < r.maxX - b && y > r.minY + b && y < r.maxY - b;
  }

  /** True when (x, y) lies within the band around region id's rectangle (inside it included): that region must see a copy of an entity there. */
  inBand(id: number, x: number, y: number): boolean {
    const r = this.rect(id);
    const b = this.band;
    return x >= r.minX - b && x <= r.maxX + b && y >= r.minY - b && y <= r.maxY + b;
  }

  /** The regions whose band reaches into region id's rectangle, and so whose ghosts it sends and receives: ascending layout order. */
  neighbours(id: number): ReadonlyArray<number> {
    this.rect(id);
    return this.near.get(id)!;
  }

  private owns(r: RegionRect, x: number, y: number): boolean {
    const inX = r.minX <= x && (x < r.maxX || (x === r.maxX && r.maxX === this.bounds.maxX));
    return inX && r.minY <= y && (y < r.maxY || (y === r.maxY && r.maxY === this.bounds.maxY));
  }

  /** True when region a's band overlaps region b's rectangle. */
  private overlapsBand(a: RegionRect, b: RegionRect): boolean {
    const d = this.band;
    return a.minX - d <= b.maxX && b.minX <= a.maxX + d && a.minY - d <= b.maxY && b.minY <= a.maxY + d;
  }
}

/** Throws INVALID_LAYOUT unless layout is a RegionLayout (what a region is built on). */
export function checkLayout(layout: unknown): asserts layout is RegionLayout {
  if (!(layout instanceof RegionLayout)) invalid(`a region needs a RegionLayout, got ${shown(layout)}`);
}

function invalid(message: string): never {
  throw new SpatialError('INVALID_LAYOUT', message);
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkRect(r: RegionRect): RegionRect {
  if (!isObject(r)) invalid('a region must be {id, minX, minY, maxX, maxY}');
  const { id, minX, minY, maxX, maxY } = r;
  if (!Number.isInteger(id) || id < 0 || id > 0x7fffffff) invalid(`region id must be an integer in [0, 2^31 - 1], got ${String(id)}`);
  checkCorners(`region ${id}`, r);
  return { id, minX, minY, maxX, maxY };
}

function checkBounds(bounds: WorldBounds): void {
  if (!isObject(bounds)) invalid(`bounds must be { minX, minY, maxX, maxY }, got ${shown(bounds)}`);
  checkCorners('bounds', bounds);
}

/** Throws INVALID_LAYOUT unless the rectangle's bounds are finite numbers with minX < maxX and minY < maxY. */
function checkCorners(what: string, { minX, minY, maxX, maxY }: WorldBounds): void {
  if (![minX, minY, maxX, maxY].every((v) => typeof v === 'number' && Number.isFinite(v))) invalid(`${what} has a bound that is not a finite number`);
  if (!(minX < maxX && minY < maxY)) invalid(`${what} is empty: (${minX}, ${minY}) to (${maxX}, ${maxY})`);
}

/**
 * Checks that the rectangles tile their bounding box: every cell of the grid
 * their edges draw is covered exactly once, so the check is exact, with no
 * sum of areas to round.
 */
function checkTiling(regions: ReadonlyArray<RegionRect>): void {
  const xs = [...new Set(regions.flatMap((r) => [r.minX, r.maxX]))].sort((a, b) => a - b);
  const ys = [...new Set(regions.flatMap((r) => [r.minY, r.maxY]))].sort((a, b) => a - b);
  for (let i = 0; i + 1 < xs.length; i++) {
    for (let j = 0; j + 1 < ys.length; j++) {
      const cx = (xs[i] + xs[i + 1]) / 2;
      const cy = (ys[j] + ys[j + 1]) / 2;
      const covering = regions.filter((r) => r.minX < cx && cx < r.maxX && r.minY < cy && cy < r.maxY);
      if (covering.length === 0) invalid(`no region covers (${cx}, ${cy}): the layout has a gap`);
      if (covering.length > 1) invalid(`regions ${covering[0].id} and ${covering[1].id} overlap at (${cx}, ${cy})`);
    }
  }
}
